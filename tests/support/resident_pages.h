// How many pages of a range the kernel has mapped (mincore): for tests that a buffer was not
// touched, or that its pages were given back. And how many this process maps (pagemap): for
// a file mapping, whose pages mincore counts while they are in the page cache.
#pragma once

#include <fcntl.h>
#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <cstdint>
#include <optional>
#include <vector>

namespace navlab::test {

/// Pages of [p, p + bytes) that are resident now (every page when mincore fails).
inline std::size_t resident_pages(const void* p, std::size_t bytes) {
    const auto page = static_cast<std::uintptr_t>(sysconf(_SC_PAGESIZE));
    const auto first = reinterpret_cast<std::uintptr_t>(p) & ~(page - 1);
    const std::size_t pages = (reinterpret_cast<std::uintptr_t>(p) + bytes - first + page - 1) / page;
    std::vector<unsigned char> in(pages);
    if (mincore(reinterpret_cast<void*>(first), pages * page, in.data()) != 0) return pages;
    return static_cast<std::size_t>(std::count_if(in.begin(), in.end(), [](unsigned char b) { return b & 1; }));
}

/// Pages of [p, p + bytes) present in this process's page tables now (/proc/self/pagemap, bit
/// 63), whether anonymous or a file's; nullopt when pagemap cannot be read.
inline std::optional<std::size_t> mapped_pages(const void* p, std::size_t bytes) {
    const auto page = static_cast<std::uintptr_t>(sysconf(_SC_PAGESIZE));
    const std::uintptr_t first = reinterpret_cast<std::uintptr_t>(p) / page;
    const std::uintptr_t last = (reinterpret_cast<std::uintptr_t>(p) + bytes + page - 1) / page;
    std::vector<std::uint64_t> entries(last - first);
    const int fd = open("/proc/self/pagemap", O_RDONLY | O_CLOEXEC);
    if (fd < 0) return std::nullopt;
    const std::size_t want = entries.size() * 8;
    const ssize_t got = pread(fd, entries.data(), want, static_cast<off_t>(first * 8));
    close(fd);
    if (got != static_cast<ssize_t>(want)) return std::nullopt;
    return static_cast<std::size_t>(std::count_if(entries.begin(), entries.end(), [](std::uint64_t e) { return e >> 63; }));
}

}  // namespace navlab::test
