#include "io/buffer_pool.h"

#include <array>
#include <mutex>

#include "io/memory_advice.h"

namespace navlab {
namespace {

// Two slots: with two workers one returns a payload's buffer while the other takes one, and
// each of them decodes its next binder onto a buffer whose pages are mapped.
struct Pool {
    std::mutex mutex;
    std::array<std::vector<std::uint8_t>, 2> slots;
};

/// Never destroyed: a SharedBytes or Decoded with static storage may give its buffer back
/// during the program's exit, after a pool with static storage would have been destroyed.
Pool& pool() {
    static Pool& p = *new Pool;
    return p;
}

}  // namespace

std::vector<std::uint8_t> take_pooled_buffer(std::size_t n) {
    // A small payload leaves the buffers to the large ones (it would hold one, and make the
    // next large payload fault its pages in again); the sanitizer and fuzz builds keep every
    // payload in its own allocation, so that ASan sees a read past one or after its end.
    if (!kBufferPoolEnabled || n < kPooledBufferMin) return {};
    std::vector<std::uint8_t> out, dropped;  // `dropped` is freed after the lock is let go
    {
        Pool& p = pool();
        const std::lock_guard lock(p.mutex);
        std::vector<std::uint8_t>* fit = nullptr;  // the smallest buffer with room for n
        std::vector<std::uint8_t>* largest = &p.slots[0];
        for (auto& slot : p.slots) {
            if (slot.capacity() >= n && (!fit || slot.capacity() < fit->capacity())) fit = &slot;
            if (slot.capacity() > largest->capacity()) largest = &slot;
        }
        if (fit) out.swap(*fit);
        else dropped.swap(*largest);  // freed before the caller allocates a larger one
    }
    if (out.capacity() > n + kPooledBufferSlack) {
        // Past n + slack the pages held a larger payload: given back, so that a buffer reused
        // for a small payload does not hold much more memory than a new one would.
        give_back_pages(out.data() + n + kPooledBufferSlack, out.capacity() - n - kPooledBufferSlack);
    }
    return out;
}

void recycle_buffer(std::vector<std::uint8_t>&& bytes) noexcept {
    std::vector<std::uint8_t> dropped;  // freed after the lock is let go
    dropped.swap(bytes);
    const std::size_t capacity = dropped.capacity();
    if (!kBufferPoolEnabled || capacity < kPooledBufferMin || capacity > kPooledBufferMax) return;
    dropped.clear();
    Pool& p = pool();
    const std::lock_guard lock(p.mutex);
    std::vector<std::uint8_t>* smallest = &p.slots[0];
    for (auto& slot : p.slots)
        if (slot.capacity() < smallest->capacity()) smallest = &slot;
    if (capacity > smallest->capacity()) smallest->swap(dropped);
}

void release_pooled_buffers() noexcept {
    std::array<std::vector<std::uint8_t>, 2> dropped;
    Pool& p = pool();
    const std::lock_guard lock(p.mutex);
    dropped.swap(p.slots);
}

std::size_t pooled_buffer_bytes() noexcept {
    Pool& p = pool();
    const std::lock_guard lock(p.mutex);
    std::size_t bytes = 0;
    for (const auto& slot : p.slots) bytes += slot.capacity();
    return bytes;
}

}  // namespace navlab
