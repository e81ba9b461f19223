// Whole-file input (memory-mapped, read-only) and atomic whole-file output.
#pragma once

#include <cstdint>
#include <filesystem>
#include <span>
#include <string>
#include <vector>

namespace navlab {

/// A read-only view of a whole file. Large files are memory-mapped; the view stays valid
/// for the object's lifetime. Movable, not copyable.
class InputFile {
public:
    /// Opens and maps `path`; throws navlab::Error naming the file when it cannot.
    explicit InputFile(const std::filesystem::path& path);
    InputFile(InputFile&&) noexcept;
    InputFile& operator=(InputFile&&) noexcept;
    InputFile(const InputFile&) = delete;
    InputFile& operator=(const InputFile&) = delete;
    ~InputFile();

    std::span<const std::uint8_t> bytes() const noexcept { return {data_, size_}; }
    const std::string& path() const noexcept { return path_; }

private:
    std::string path_;
    const std::uint8_t* data_ = nullptr;
    std::size_t size_ = 0;
    bool mapped_ = false;
    std::vector<std::uint8_t> owned_;  // used for empty files and when mmap is unavailable
};

/// Reads a whole file into memory.
std::vector<std::uint8_t> read_file(const std::filesystem::path& path);

/// Writes `data` to `path` atomically: a temporary file in the same folder is written,
/// flushed and renamed over `path`, so readers never see a half-written output.
void write_file_atomic(const std::filesystem::path& path, std::span<const std::uint8_t> data);
void write_file_atomic(const std::filesystem::path& path, std::string_view text);

}  // namespace navlab
