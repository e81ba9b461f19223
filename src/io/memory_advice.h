// Advice to the kernel about large buffers a decoder is about to fill.
#pragma once

#include <cstddef>

namespace navlab {

/// A byte range [begin, end) as offsets from a buffer's start.
struct PageRange {
    std::size_t begin = 0, end = 0;
};
/// The whole `page`-aligned pages inside [data, data + size) ({0, 0} when there is none, when
/// data is null or the range would wrap). @param page a power of two.
PageRange whole_pages_inside(const void* data, std::size_t size, std::size_t page) noexcept;
/// The transparent huge page size advised (x86-64 and most arm64 kernels).
inline constexpr std::size_t kHugePageBytes = std::size_t(2) << 20;
/// The whole 2 MiB pages inside [data, data + size): the range advise_huge_pages advises.
PageRange huge_page_range(const void* data, std::size_t size) noexcept;

/// Asks for transparent huge pages (2 MiB) on the whole 2 MiB-aligned pages inside
/// [data, data + size), before their first touch. Why: a decompressed binder (up to tens of
/// MB, mapped on its own, io/heap_policy.h) is otherwise faulted in 4 KiB at a time, and those
/// faults were ~10 % of an Elden Ring audit's CPU. Smaller buffers, and systems without
/// madvise(MADV_HUGEPAGE) (or with THP off), are left as they are; errors are ignored
/// (advice only). Caveat: with the kernel's THP defrag set to "madvise" (the kernel's default) a
/// fault may compact memory to find a free huge page; on a badly fragmented host that can cost
/// more than the 4 KiB faults saved (not seen here). In a program that keeps glibc's own
/// mmap threshold (io/heap_policy.h), a large payload may come from the heap, whose range then
/// keeps the advice after the payload is freed.
void advise_huge_pages(void* data, std::size_t size) noexcept;

/// Maps the whole pages (of the system's page size) inside [data, data + size) writable now, in
/// one call (madvise(MADV_POPULATE_WRITE), Linux 5.14 and later), for a buffer a decoder is
/// about to fill whole. Why: with two workers, the one without the pooled payload buffer
/// (io/buffer_pool.h) faulted each payload in page by page; a fault costs far more than the
/// page's zeroing on a virtual machine, and those faults were 11 % of a 2-thread Elden Ring
/// audit's time (docs/audit.md, "Twenty-seventh session"). Only for pages the caller will write
/// anyway: then this commits no memory it would not. Errors (an older kernel, no memory left)
/// are ignored: the pages then fault in as before. Nothing is done outside Linux.
void prefault_pages(void* data, std::size_t size) noexcept;

/// Gives the whole pages (of the system's page size) inside [data, data + size) back to the system
/// (madvise(MADV_DONTNEED)): their contents are dropped, and they read as zero pages when next
/// touched. For a pooled buffer's memory well past the payload it now holds (io/buffer_pool.h),
/// so a buffer reused for a smaller payload holds little more memory than a new one. Errors are
/// ignored (advice only); nothing is done outside Linux.
void give_back_pages(void* data, std::size_t size) noexcept;

}  // namespace navlab
