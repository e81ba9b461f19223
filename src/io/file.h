// Whole-file input into a vector and atomic whole-file output. To read a file without copying
// it, map it: SharedBytes::map_file (io/shared_bytes.h).
#pragma once

#include <cstdint>
#include <filesystem>
#include <span>
#include <string_view>
#include <vector>

namespace navlab {

/// Reads a whole file into memory.
std::vector<std::uint8_t> read_file(const std::filesystem::path& path);

/// Writes `data` to `path` atomically and durably: readers see the old file or the new one,
/// never a mix, and a killed writer leaves nothing behind. On Linux the data goes to an
/// unnamed O_TMPFILE inode in the destination's folder, is fsynced, linked under a temporary
/// name and renamed over `path`, then the folder is fsynced. Where O_TMPFILE (or /proc) is
/// unavailable it falls back to write_file_atomic_named(). The first write into a folder
/// also removes that folder's stale temporaries (remove_stale_temporaries()).
/// Throws navlab::Error naming `path` and the failing step (e.g. "cannot write: File too
/// large"); the old file is then untouched and no temporary file remains.
/// An existing `path` that is a device, FIFO or socket (`--json /dev/null`, `-o /dev/stdout`)
/// is written in place instead: renaming over it would replace the device with a file.
void write_file_atomic(const std::filesystem::path& path, std::span<const std::uint8_t> data);
/// The fallback of write_file_atomic(): a named temporary `.NAME.navlab-tmp.PID.RANDOM` in the
/// same folder, written, fsynced and renamed over `path`, then the folder fsynced. A SIGKILL
/// before the rename leaves that temporary, which a later write into the folder removes.
void write_file_atomic_named(const std::filesystem::path& path, std::span<const std::uint8_t> data);
/// Removes from `dir` the temporaries of dead navlab writers: regular files of this user named
/// `.NAME.navlab-tmp.PID.RANDOM` whose PID is no longer a running process (checked with
/// kill(PID, 0) on this machine; a folder shared over the network with another machine's
/// writers is not a supported place for them). Returns how many it removed.
std::size_t remove_stale_temporaries(const std::filesystem::path& dir);
void write_file_atomic(const std::filesystem::path& path, std::string_view text);

}  // namespace navlab
