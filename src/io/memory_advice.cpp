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

namespace {

// The advice values this system has; kNoAdvice where the header lacks one (or outside Linux),
// so the functions below need no conditional code of their own.
constexpr int kNoAdvice = -1;
#if defined(__linux__) && defined(MADV_HUGEPAGE)
constexpr int kHugePage = MADV_HUGEPAGE;
#else
constexpr int kHugePage = kNoAdvice;
#endif
#if defined(__linux__) && defined(MADV_POPULATE_WRITE)
constexpr int kPopulateWrite = MADV_POPULATE_WRITE;
#else
constexpr int kPopulateWrite = kNoAdvice;
#endif
#if defined(__linux__) && defined(MADV_DONTNEED)
constexpr int kDontNeed = MADV_DONTNEED;
#else
constexpr int kDontNeed = kNoAdvice;
#endif

/// The system's page size, not 4 KiB: on a 16 or 64 KiB kernel a range rounded to 4 KiB would
/// be widened by madvise past the caller's range, into memory that is not the caller's.
std::size_t system_page_bytes() noexcept {
#if defined(__linux__)
    static const std::size_t page = static_cast<std::size_t>(sysconf(_SC_PAGESIZE));
    return page;
#else
    return 4096;
#endif
}

/// madvise(advice) on the whole `page`-aligned pages inside [data, data + size), if any; the
/// result is ignored (advice only). Nothing for kNoAdvice.
void advise_whole_pages(void* data, std::size_t size, std::size_t page, int advice) noexcept {
#if defined(__linux__)
    const PageRange r = whole_pages_inside(data, size, page);
    if (advice != kNoAdvice && r.end > r.begin) madvise(static_cast<std::uint8_t*>(data) + r.begin, r.end - r.begin, advice);
#else
    (void)data, (void)size, (void)page, (void)advice;
#endif
}

}  // namespace

void advise_huge_pages(void* data, std::size_t size) noexcept { advise_whole_pages(data, size, kHugePageBytes, kHugePage); }

void prefault_pages(void* data, std::size_t size) noexcept {
    advise_whole_pages(data, size, system_page_bytes(), kPopulateWrite);
}

void give_back_pages(void* data, std::size_t size) noexcept { advise_whole_pages(data, size, system_page_bytes(), kDontNeed); }

}  // namespace navlab
