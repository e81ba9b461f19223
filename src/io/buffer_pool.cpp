#include "io/buffer_pool.h"

#include <array>
#include <mutex>

#include "io/memory_advice.h"

namespace navlab {
namespace {

// Two slots: with two workers one returns a payload's buffer while the other takes one, and
// each of them decodes its next binder onto a buffer whose pages are mapped.
std::mutex pool_mutex;
std::array<std::vector<std::uint8_t>, 2> pooled;

}  // namespace

std::vector<std::uint8_t> take_pooled_buffer(std::size_t n) {
    std::vector<std::uint8_t> out, dropped;  // `dropped` is freed after the lock is let go
    {
        const std::lock_guard lock(pool_mutex);
        std::vector<std::uint8_t>* fit = nullptr;  // the smallest buffer with room for n
        std::vector<std::uint8_t>* largest = &pooled[0];
        for (auto& p : pooled) {
            if (p.capacity() >= n && p.capacity() > 0 && (!fit || p.capacity() < fit->capacity())) fit = &p;
            if (p.capacity() > largest->capacity()) largest = &p;
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
    if (capacity < kPooledBufferMin || capacity > kPooledBufferMax) return;
    dropped.clear();
    const std::lock_guard lock(pool_mutex);
    std::vector<std::uint8_t>* smallest = &pooled[0];
    for (auto& p : pooled)
        if (p.capacity() < smallest->capacity()) smallest = &p;
    if (capacity > smallest->capacity()) smallest->swap(dropped);
}

void release_pooled_buffers() noexcept {
    std::array<std::vector<std::uint8_t>, 2> dropped;
    const std::lock_guard lock(pool_mutex);
    dropped.swap(pooled);
}

std::size_t pooled_buffer_bytes() noexcept {
    const std::lock_guard lock(pool_mutex);
    std::size_t bytes = 0;
    for (const auto& p : pooled) bytes += p.capacity();
    return bytes;
}

}  // namespace navlab
