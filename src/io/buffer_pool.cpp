#include "io/buffer_pool.h"

#include <mutex>

#include "io/memory_advice.h"

namespace navlab {
namespace {

// One buffer. A second one, so that two workers each reuse memory, measured faster with two
// threads but sat idle beside two payloads in flight, where the audit's memory budget does not
// see it: the eldenring audit's own peak went to 2.1–2.2× its largest payload (1.8× with one).
struct Pool {
    std::mutex mutex;
    PayloadBuffer buffer;
};

/// Never destroyed: a SharedBytes or Decoded with static storage may give its buffer back
/// during the program's exit, after a pool with static storage would have been destroyed.
Pool& pool() {
    static Pool& p = *new Pool;
    return p;
}

}  // namespace

PayloadBuffer take_pooled_buffer(std::size_t n) {
    // A small payload leaves the buffer to the large ones (it would hold it, and make the next
    // large payload fault its pages in again); the sanitizer and fuzz builds keep every payload
    // in its own allocation, so that ASan sees a read past one or after its end.
    if (!kBufferPoolEnabled || n < kPooledBufferMin) return {};
    PayloadBuffer out;
    {
        Pool& p = pool();
        const std::lock_guard lock(p.mutex);
        out.swap(p.buffer);
    }
    if (out.capacity() < n) {
        PayloadBuffer().swap(out);  // freed before the caller allocates a larger one
    } else if (out.capacity() > n + kPooledBufferSlack) {
        // Past n + slack the pages held a larger payload: given back, so that a buffer reused
        // for a small payload does not hold much more memory than a new one would.
        give_back_pages(out.data() + n + kPooledBufferSlack, out.capacity() - n - kPooledBufferSlack);
    }
    return out;
}

void recycle_buffer(PayloadBuffer&& bytes) noexcept {
    PayloadBuffer dropped;  // freed after the lock is let go
    dropped.swap(bytes);
    const std::size_t capacity = dropped.capacity();
    if (!kBufferPoolEnabled || capacity < kPooledBufferMin || capacity > kPooledBufferMax) return;
    dropped.clear();
    Pool& p = pool();
    const std::lock_guard lock(p.mutex);
    if (capacity > p.buffer.capacity()) p.buffer.swap(dropped);
}

std::size_t release_pooled_buffer() noexcept {
    PayloadBuffer dropped;
    Pool& p = pool();
    const std::lock_guard lock(p.mutex);
    dropped.swap(p.buffer);
    return dropped.capacity();
}

std::size_t pooled_buffer_bytes() noexcept {
    Pool& p = pool();
    const std::lock_guard lock(p.mutex);
    return p.buffer.capacity();
}

}  // namespace navlab
