#include "io/memory_advice.h"

#include <cstdint>

#if defined(__linux__)
#include <sys/mman.h>
#include <unistd.h>
#endif

namespace navlab {

PageRange whole_pages_inside(const void* data, std::size_t size, std::size_t page) noexcept {
    const auto begin = reinterpret_cast<std::uintptr_t>(data);
    if (data == nullptr || page == 0 || size > UINTPTR_MAX - begin) return {};
    const std::uintptr_t first = (begin + page - 1) & ~(page - 1), last = (begin + size) & ~(page - 1);
    if (first < begin || last <= first) return {};  // first < begin: rounding up wrapped
    return {first - begin, last - begin};
}

PageRange huge_page_range(const void* data, std::size_t size) noexcept {
    return whole_pages_inside(data, size, kHugePageBytes);
}

void advise_huge_pages(void* data, std::size_t size) noexcept {
#if defined(__linux__) && defined(MADV_HUGEPAGE)
    const PageRange r = huge_page_range(data, size);
    if (r.end > r.begin) madvise(static_cast<std::uint8_t*>(data) + r.begin, r.end - r.begin, MADV_HUGEPAGE);
#else
    (void)data;
    (void)size;
#endif
}

void give_back_pages(void* data, std::size_t size) noexcept {
#if defined(__linux__) && defined(MADV_DONTNEED)
    // The system's page size, not 4 KiB: on a 16 or 64 KiB kernel a range rounded to 4 KiB
    // would be widened by madvise past `size`, into memory that is not the caller's.
    static const std::size_t page = static_cast<std::size_t>(sysconf(_SC_PAGESIZE));
    const PageRange r = whole_pages_inside(data, size, page);
    if (r.end > r.begin) madvise(static_cast<std::uint8_t*>(data) + r.begin, r.end - r.begin, MADV_DONTNEED);
#else
    (void)data;
    (void)size;
#endif
}

}  // namespace navlab
