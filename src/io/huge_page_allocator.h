// An allocator for large scratch arrays that a thread fills once and keeps: a Kraken encoder's
// parse steps, for example. Their first use faults them in 4 KiB at a time, and a one-shot
// command pays every one of those faults: a level-6 `navlab kraken encode` of the 97 KB
// Elden Ring emevd took 650 more page faults than storing it, and twice its time, on the VM
// the numbers of docs/kraken.md ("Twenty-first session") come from. Large arrays are therefore
// placed on 2 MiB boundaries and advised for transparent huge pages (io/memory_advice.h), so
// one fault brings in 2 MiB.
#pragma once

#include <cstddef>
#include <cstdlib>
#include <memory>
#include <new>
#include <vector>

#include "io/memory_advice.h"

namespace navlab {

/// Arrays of at least this many bytes go on huge pages: below it the 2 MiB a huge page zeroes
/// costs more than the 4 KiB faults it saves on a machine whose faults are cheap.
inline constexpr std::size_t kHugePageArrayBytes = std::size_t(512) << 10;

/// std::allocator, except that an allocation of kHugePageArrayBytes or more is aligned to
/// 2 MiB and advised for transparent huge pages: its whole 2 MiB pages, and the last, partial
/// one too when at least kHugePageArrayBytes of it are used (the allocation then extends to
/// the page's end, address space only). A few bytes past a whole page (an array of 2^k + 1
/// elements) stay on 4 KiB pages rather than bring in another 2 MiB. Only the pages touched
/// become resident. Stateless; any two compare equal.
template <class T>
class HugePageAllocator {
public:
    using value_type = T;
    HugePageAllocator() noexcept = default;
    template <class U>
    HugePageAllocator(const HugePageAllocator<U>&) noexcept {}

    T* allocate(std::size_t n) {
        // The largest n whose byte count can still be rounded up to a whole page.
        if (n > (static_cast<std::size_t>(-1) - (kHugePageBytes - 1)) / sizeof(T)) throw std::bad_array_new_length();
        const std::size_t bytes = n * sizeof(T);
        if (bytes < kHugePageArrayBytes) return std::allocator<T>().allocate(n);
        const std::size_t whole = bytes & ~(kHugePageBytes - 1), tail = bytes - whole;
        const std::size_t size = tail >= kHugePageArrayBytes ? whole + kHugePageBytes : bytes;
        void* p = nullptr;
        if (posix_memalign(&p, kHugePageBytes, size) != 0) throw std::bad_alloc();
        advise_huge_pages(p, size);  // the whole 2 MiB pages inside [p, p + size)
        return static_cast<T*>(p);
    }
    void deallocate(T* p, std::size_t n) noexcept {
        if (n * sizeof(T) < kHugePageArrayBytes)
            std::allocator<T>().deallocate(p, n);
        else
            std::free(p);
    }
    template <class U>
    bool operator==(const HugePageAllocator<U>&) const noexcept {
        return true;
    }
};

/// A vector whose large buffers come from HugePageAllocator.
template <class T>
using HugePageVector = std::vector<T, HugePageAllocator<T>>;

}  // namespace navlab
