// The buffer pool (io/buffer_pool.h): a payload's memory is handed to the next payload that
// fits, its pages past the slack given back; dcx::Decoded and SharedBytes give theirs back.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <vector>

#include "codec/dcx.h"
#include "io/buffer_pool.h"
#include "io/shared_bytes.h"
#include "support/resident_pages.h"

using namespace navlab;
using navlab::test::resident_pages;

namespace {
constexpr std::size_t kMiB = std::size_t{1} << 20;

/// A vector of `bytes` capacity whose every page has been written.
std::vector<std::uint8_t> touched(std::size_t bytes) {
    std::vector<std::uint8_t> v(bytes, 0x5A);
    return v;
}
}  // namespace

TEST(BufferPool, ARecycledBufferIsHandedToThePayloadThatFits) {
    release_pooled_buffers();
    std::vector<std::uint8_t> first = touched(4 * kMiB);
    const std::uint8_t* memory = first.data();
    recycle_buffer(std::move(first));
    EXPECT_TRUE(first.empty());
    EXPECT_EQ(pooled_buffer_bytes(), 4 * kMiB);
    std::vector<std::uint8_t> again = take_pooled_buffer(3 * kMiB);
    EXPECT_EQ(again.data(), memory);
    EXPECT_TRUE(again.empty());  // the caller sizes it (and so zero-fills it)
    EXPECT_EQ(pooled_buffer_bytes(), 0u);
    // Nothing pooled: an empty vector without memory.
    EXPECT_EQ(take_pooled_buffer(kMiB).capacity(), 0u);
}

TEST(BufferPool, ABufferTooSmallIsFreedNotKeptBesideTheNewOne) {
    release_pooled_buffers();
    recycle_buffer(touched(2 * kMiB));
    const std::vector<std::uint8_t> none = take_pooled_buffer(3 * kMiB);
    EXPECT_EQ(none.capacity(), 0u);
    EXPECT_EQ(pooled_buffer_bytes(), 0u);
}

TEST(BufferPool, OnlyBuffersWithinTheBoundsAreKept) {
    release_pooled_buffers();
    recycle_buffer(std::vector<std::uint8_t>(kPooledBufferMin - 1));
    EXPECT_EQ(pooled_buffer_bytes(), 0u);
    std::vector<std::uint8_t> huge;
    huge.reserve(kPooledBufferMax + 1);  // reserved, never touched
    recycle_buffer(std::move(huge));
    EXPECT_EQ(pooled_buffer_bytes(), 0u);
    recycle_buffer(std::vector<std::uint8_t>(kPooledBufferMin));
    EXPECT_EQ(pooled_buffer_bytes(), kPooledBufferMin);
    release_pooled_buffers();
    EXPECT_EQ(pooled_buffer_bytes(), 0u);
}

TEST(BufferPool, TwoBuffersAreKeptAndALargerOneReplacesTheSmallest) {
    release_pooled_buffers();
    recycle_buffer(std::vector<std::uint8_t>(1 * kMiB));
    recycle_buffer(std::vector<std::uint8_t>(3 * kMiB));
    EXPECT_EQ(pooled_buffer_bytes(), 4 * kMiB);
    recycle_buffer(std::vector<std::uint8_t>(2 * kMiB));  // replaces the 1 MiB one
    EXPECT_EQ(pooled_buffer_bytes(), 5 * kMiB);
    recycle_buffer(std::vector<std::uint8_t>(1 * kMiB));  // smaller than both: freed
    EXPECT_EQ(pooled_buffer_bytes(), 5 * kMiB);
    EXPECT_EQ(take_pooled_buffer(kMiB).capacity(), 2 * kMiB);  // the smallest that fits
    release_pooled_buffers();
}

TEST(BufferPool, PagesPastTheSlackAreGivenBack) {
    release_pooled_buffers();
    constexpr std::size_t n = 16 * kMiB;
    std::vector<std::uint8_t> big = touched(n);
    const std::uint8_t* memory = big.data();
    const std::size_t page = 4096, pages = n / page;
    ASSERT_GE(resident_pages(memory, n), pages - 1);
    recycle_buffer(std::move(big));
    std::vector<std::uint8_t> small = take_pooled_buffer(kMiB);
    ASSERT_EQ(small.data(), memory);
    // Resident: the 1 MiB asked for and the 2 MiB slack (and a page of rounding at each end).
    const std::size_t kept = (kMiB + kPooledBufferSlack) / page;
    EXPECT_LE(resident_pages(memory, n), kept + 2);
    EXPECT_GE(resident_pages(memory, kMiB), kMiB / page - 1);
    release_pooled_buffers();
}

TEST(BufferPool, SuccessiveDecompressionsReuseOnePayloadsMemory) {
    release_pooled_buffers();
    std::vector<std::uint8_t> payload(3 * kMiB);
    for (std::size_t i = 0; i < payload.size(); ++i) payload[i] = static_cast<std::uint8_t>(i * 7 + (i >> 12));
    const std::vector<std::uint8_t> file = dcx::compress(payload, dcx::Variant::Zstd);
    const std::uint8_t* memory = nullptr;
    {
        const dcx::Decoded d = dcx::decompress(file);
        ASSERT_EQ(d.payload, payload);
        memory = d.payload.data();
    }  // ~Decoded gives the payload's memory back
    EXPECT_GE(pooled_buffer_bytes(), payload.size());
    {
        dcx::Decoded d = dcx::decompress(file);
        EXPECT_EQ(d.payload.data(), memory);
        EXPECT_EQ(d.payload, payload);
        const SharedBytes shared(std::move(d.payload));  // moved out: ~Decoded gives nothing back
        EXPECT_EQ(pooled_buffer_bytes(), 0u);
        EXPECT_EQ(shared.data(), memory);
    }  // the last SharedBytes on it gives it back
    EXPECT_GE(pooled_buffer_bytes(), payload.size());
    const dcx::Decoded third = dcx::decompress(file);
    EXPECT_EQ(third.payload.data(), memory);
    EXPECT_EQ(third.payload, payload);
    release_pooled_buffers();
}
