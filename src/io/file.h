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

/// Writes `data` to `path` atomically: a temporary file in the same folder is written,
/// flushed and renamed over `path`, so readers never see a half-written output.
void write_file_atomic(const std::filesystem::path& path, std::span<const std::uint8_t> data);
void write_file_atomic(const std::filesystem::path& path, std::string_view text);

}  // namespace navlab
