// How many pages of a range the kernel has mapped (mincore): for tests that a buffer was not
// touched, or that its pages were given back.
#pragma once

#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <cstdint>
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

}  // namespace navlab::test
