#include "io/memory_advice.h"

#include <cstdint>

#if defined(__linux__)
#include <sys/mman.h>
#endif

namespace navlab {

HugePageRange huge_page_range(const void* data, std::size_t size) noexcept {
    constexpr std::uintptr_t kHuge = std::uintptr_t(2) << 20;
    const auto begin = reinterpret_cast<std::uintptr_t>(data);
    if (data == nullptr || size > UINTPTR_MAX - begin) return {};
    const std::uintptr_t first = (begin + kHuge - 1) & ~(kHuge - 1), last = (begin + size) & ~(kHuge - 1);
    if (first < begin || last <= first) return {};  // first < begin: rounding up wrapped
    return {first - begin, last - begin};
}

void advise_huge_pages(void* data, std::size_t size) noexcept {
#if defined(__linux__) && defined(MADV_HUGEPAGE)
    const HugePageRange r = huge_page_range(data, size);
    if (r.end > r.begin) madvise(static_cast<std::uint8_t*>(data) + r.begin, r.end - r.begin, MADV_HUGEPAGE);
#else
    (void)data;
    (void)size;
#endif
}

void give_back_pages(void* data, std::size_t size) noexcept {
#if defined(__linux__) && defined(MADV_DONTNEED)
    constexpr std::uintptr_t kPage = 4096;
    const auto begin = reinterpret_cast<std::uintptr_t>(data);
    if (data == nullptr || size > UINTPTR_MAX - begin) return;
    const std::uintptr_t first = (begin + kPage - 1) & ~(kPage - 1), last = (begin + size) & ~(kPage - 1);
    if (first < begin || last <= first) return;
    madvise(reinterpret_cast<void*>(first), last - first, MADV_DONTNEED);
#else
    (void)data;
    (void)size;
#endif
}

}  // namespace navlab
