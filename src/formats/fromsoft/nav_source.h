// Finding navmesh tagfiles on disk: binders (.nvmhktbnd.dcx, .nvmhktbnd), loose .hkx
// tagfiles, or directories searched recursively for those. Used by the audit and the exports.
//
// Two levels, so a caller that processes a whole corpus keeps one binder in memory at a time:
//   find_nav_files(path)      -> the files, sorted, nothing opened;
//   NavFile::open(file)       -> that file's navmesh tagfiles with their bytes.
#pragma once

#include <cstdint>
#include <filesystem>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "io/shared_bytes.h"

namespace navlab::container {
class BinderFile;
struct Entry;
}

namespace navlab::fromsoft {

/// True when the file name looks like a navmesh input: ends in .nvmhktbnd.dcx, .nvmhktbnd
/// or .hkx (case-insensitive). Other files (such as the .nva.dcx beside binders) are not.
bool is_nav_file_name(const std::filesystem::path& path);

/// The navmesh files under `path`: a file is returned as is (whatever its name); a directory
/// is searched recursively for names accepted by is_nav_file_name, sorted by path so the
/// order is the same on every machine. Throws navlab::Error when `path` does not exist.
/// @param path a file or a directory.
std::vector<std::filesystem::path> find_nav_files(const std::filesystem::path& path);

/// One navmesh tagfile of an opened file.
/// The file it comes from is its NavFile's name() (a path per entry, copied with its
/// components, was ≈ 900 instructions and two allocations an entry, and nothing read it).
struct NavEntry {
    bool in_binder = false;       ///< true for a binder member, false for a loose tagfile
    std::size_t index = 0;       ///< entry index in the binder (0 for a loose file)
    std::string name;            ///< binder entry name (full build path), or the file name
    SharedBytes bytes;           ///< the tagfile (keeps the file's bytes alive)
    bool in_dcx = false;         ///< a compressed file's whole payload (container::Entry::in_dcx)
};

/// `entry` as the container::Entry it was taken from (binder ID 0), for container::read_entry:
/// a reader's error then names where its offsets count from as every command names it,
/// "entry INDEX (NAME)" for a binder member, "DCX payload" for a compressed loose tagfile.
container::Entry container_entry(const NavEntry& entry);

/// An opened navmesh file (binder, compressed binder or loose tagfile).
class NavFile {
public:
    /// Opens `file` through the container layer (DCX, BND4 or plain). Binder members whose
    /// name ends in .hkx are the navmesh entries; a file that is no binder is one entry.
    /// Errors carry the file name (navlab::Error::file()).
    static NavFile open(const std::filesystem::path& file);
    /// The same for bytes already in memory (a binder read from a game archive); `name` is
    /// the binder's name in errors and in the entries' `file`.
    static NavFile from_bytes(SharedBytes bytes, const std::string& name);
    /// The one member `entry` names, chosen as container::BinderFile::find_entry chooses (index,
    /// full name or unique file name) whatever its extension: the one `--entry` rule of every
    /// command. Returns *this when `entry` is empty; throws navlab::Error naming the file when
    /// `entry` names no member or several.
    NavFile select(std::string_view entry) const;

    /// The file's path as given to open(), or from_bytes()'s name: what outputs call the binder.
    const std::string& name() const noexcept { return name_; }
    const std::vector<NavEntry>& entries() const noexcept { return entries_; }

private:
    NavFile() = default;
    /// Keeps the navmesh entries of `b`.
    static NavFile from_binder(std::shared_ptr<const container::BinderFile> b, const std::filesystem::path& file);
    std::string name_;
    std::shared_ptr<const container::BinderFile> binder_;  ///< owns the entries' bytes and serves select()
    std::vector<NavEntry> entries_;
};

}  // namespace navlab::fromsoft
