// The buffer pool (io/buffer_pool.h): a payload's memory is handed to the next payload that
// fits, its pages past the slack given back; dcx::Decoded and SharedBytes give theirs back.
// The sanitizer and fuzz builds do not pool (kBufferPoolEnabled), and check only that.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <thread>
#include <vector>

#include "codec/dcx.h"
#include "io/buffer_pool.h"
#include "io/heap_policy.h"
#include "io/shared_bytes.h"
#include "support/resident_pages.h"

using namespace navlab;
using navlab::test::resident_pages;

namespace {
constexpr std::size_t kMiB = std::size_t{1} << 20;

/// A vector of `bytes` capacity whose every page has been written.
PayloadBuffer touched(std::size_t bytes) {
    return PayloadBuffer(bytes, 0x5A);
}
}  // namespace

#define SKIP_WITHOUT_POOL()                                                                   \
    do {                                                                                      \
        if (!kBufferPoolEnabled) GTEST_SKIP() << "this build keeps every payload on its own"; \
    } while (0)

TEST(BufferPool, TheSanitizerAndFuzzBuildsKeepNothing) {
    release_pooled_buffer();
    recycle_buffer(touched(4 * kMiB));
    EXPECT_EQ(pooled_buffer_bytes(), kBufferPoolEnabled ? 4 * kMiB : 0u);
    release_pooled_buffer();
}

TEST(BufferPool, ARecycledBufferIsHandedToThePayloadThatFits) {
    SKIP_WITHOUT_POOL();
    release_pooled_buffer();
    PayloadBuffer first = touched(4 * kMiB);
    const std::uint8_t* memory = first.data();
    recycle_buffer(std::move(first));
    EXPECT_TRUE(first.empty());
    EXPECT_EQ(pooled_buffer_bytes(), 4 * kMiB);
    PayloadBuffer again = take_pooled_buffer(3 * kMiB);
    EXPECT_EQ(again.data(), memory);
    EXPECT_TRUE(again.empty());  // the caller sizes it (not zero-filled: a PayloadBuffer)
    EXPECT_EQ(pooled_buffer_bytes(), 0u);
    // Nothing pooled: an empty vector without memory.
    EXPECT_EQ(take_pooled_buffer(kMiB).capacity(), 0u);
}

TEST(BufferPool, ASmallPayloadLeavesTheBufferToLargeOnes) {
    SKIP_WITHOUT_POOL();
    release_pooled_buffer();
    recycle_buffer(touched(4 * kMiB));
    EXPECT_EQ(take_pooled_buffer(kPooledBufferMin - 1).capacity(), 0u);
    EXPECT_EQ(take_pooled_buffer(0).capacity(), 0u);
    EXPECT_EQ(pooled_buffer_bytes(), 4 * kMiB);
    release_pooled_buffer();
}

TEST(BufferPool, ABufferTooSmallIsFreedNotKeptBesideTheNewOne) {
    SKIP_WITHOUT_POOL();
    release_pooled_buffer();
    recycle_buffer(touched(2 * kMiB));
    const PayloadBuffer none = take_pooled_buffer(3 * kMiB);
    EXPECT_EQ(none.capacity(), 0u);
    EXPECT_EQ(pooled_buffer_bytes(), 0u);
}

TEST(BufferPool, OnlyBuffersWithinTheBoundsAreKept) {
    SKIP_WITHOUT_POOL();
    release_pooled_buffer();
    recycle_buffer(PayloadBuffer(kPooledBufferMin - 1));
    EXPECT_EQ(pooled_buffer_bytes(), 0u);
    PayloadBuffer huge;
    huge.reserve(kPooledBufferMax + 1);  // reserved, never touched
    recycle_buffer(std::move(huge));
    EXPECT_EQ(pooled_buffer_bytes(), 0u);
    recycle_buffer(PayloadBuffer(kPooledBufferMin));
    EXPECT_EQ(pooled_buffer_bytes(), kPooledBufferMin);
    release_pooled_buffer();
    EXPECT_EQ(pooled_buffer_bytes(), 0u);
}

TEST(BufferPool, OneBufferIsKeptALargerOneReplacesIt) {
    SKIP_WITHOUT_POOL();
    release_pooled_buffer();
    recycle_buffer(PayloadBuffer(1 * kMiB));
    recycle_buffer(PayloadBuffer(3 * kMiB));  // replaces the 1 MiB one
    EXPECT_EQ(pooled_buffer_bytes(), 3 * kMiB);
    recycle_buffer(PayloadBuffer(2 * kMiB));  // smaller: freed
    EXPECT_EQ(pooled_buffer_bytes(), 3 * kMiB);
    EXPECT_EQ(take_pooled_buffer(kMiB).capacity(), 3 * kMiB);
    EXPECT_EQ(pooled_buffer_bytes(), 0u);
    release_pooled_buffer();
}

TEST(BufferPool, WorkersTakingAndGivingBackAtOnceLoseNoBuffer) {
    SKIP_WITHOUT_POOL();
    release_pooled_buffer();
    // Each round takes a buffer (reused or new), sizes it (not filled: a PayloadBuffer), writes
    // its first and last byte, checks them and gives it back; run under the thread sanitizer or
    // ASan this is the pool's race test.
    auto worker = [](std::size_t size) {
        for (int round = 0; round < 200; ++round) {
            PayloadBuffer v = take_pooled_buffer(size);
            if (v.capacity() < size) v.reserve(size);
            v.resize(size);
            v[0] = static_cast<std::uint8_t>(~round), v[size - 1] = static_cast<std::uint8_t>(round);
            if (v[size - 1] != static_cast<std::uint8_t>(round) || v[0] != static_cast<std::uint8_t>(~round)) std::abort();
            recycle_buffer(std::move(v));
        }
    };
    std::thread a(worker, kMiB), b(worker, 3 * kMiB / 2), c(worker, kPooledBufferMin);
    a.join(), b.join(), c.join();
    EXPECT_LE(pooled_buffer_bytes(), 3 * kMiB / 2);  // one buffer at most
    EXPECT_GE(pooled_buffer_bytes(), kPooledBufferMin);  // what was given back last is kept
    release_pooled_buffer();
}

// The payload's memory is not zero-filled before decoding (PayloadBuffer): every decoder must
// write each byte. Each variant decodes into a reused buffer that still holds another pattern
// (in the sanitizer and fuzz builds, into fresh memory poisoned with 0xA5), and the payload must
// come out equal to what was compressed: runs of zeros (Kraken memset blocks, zstd RLE), text
// and random bytes, and a last EDGE chunk shorter than 64 KiB.
TEST(BufferPool, EveryDecoderWritesEveryByteOfAReusedBuffer) {
    // Large blocks on mappings of their own, as in navlab's programs: the Kraken encoder's
    // arrays below are advised for huge pages, and freed into the heap they would leave that
    // advice on ranges later tests allocate (HugePageAllocator's checks the flags of its own).
    map_large_blocks_on_their_own();
    std::vector<std::uint8_t> payload(kMiB + 12345);
    std::uint32_t x = 12345;
    for (std::size_t i = 0; i < payload.size(); ++i) {
        x = x * 1664525u + 1013904223u;
        if (i < 300000) payload[i] = 0;                                                 // a run of zeros
        else if (i < 700000) payload[i] = static_cast<std::uint8_t>("navmesh face "[i % 13]);  // repeats
        else payload[i] = static_cast<std::uint8_t>(x >> 24);                             // noise
    }
    for (const dcx::Variant v : dcx::all_variants()) {
        if (v == dcx::Variant::None) continue;
        const std::vector<std::uint8_t> file = dcx::compress(payload, v);
        release_pooled_buffer();
        PayloadBuffer stale(2 * kMiB, 0x5A);
        const std::uint8_t* memory = stale.data();
        recycle_buffer(std::move(stale));
        const dcx::Decoded d = dcx::decompress(file);
        // The stale buffer was reused (a bare zlib stream, of no declared size, grows its own).
        if (kBufferPoolEnabled && v != dcx::Variant::Zlib) {
            EXPECT_EQ(d.payload.data(), memory) << dcx::variant_name(v);
        }
        ASSERT_EQ(d.payload.size(), payload.size()) << dcx::variant_name(v);
        const auto diff = std::mismatch(payload.begin(), payload.end(), d.payload.begin());
        EXPECT_EQ(diff.first, payload.end()) << dcx::variant_name(v) << ": first difference at byte "
                                             << (diff.first - payload.begin());
    }
    release_pooled_buffer();
}

TEST(BufferPool, PagesPastTheSlackAreGivenBack) {
    SKIP_WITHOUT_POOL();
    release_pooled_buffer();
    constexpr std::size_t n = 16 * kMiB;
    PayloadBuffer big = touched(n);
    const std::uint8_t* memory = big.data();
    const std::size_t page = 4096, pages = n / page;
    ASSERT_GE(resident_pages(memory, n), pages - 1);
    recycle_buffer(std::move(big));
    PayloadBuffer small = take_pooled_buffer(kMiB);
    ASSERT_EQ(small.data(), memory);
    // Resident: the 1 MiB asked for and the 2 MiB slack (and a page of rounding at each end).
    const std::size_t kept = (kMiB + kPooledBufferSlack) / page;
    EXPECT_LE(resident_pages(memory, n), kept + 2);
    EXPECT_GE(resident_pages(memory, kMiB), kMiB / page - 1);
    release_pooled_buffer();
}

TEST(BufferPool, SuccessiveDecompressionsReuseOnePayloadsMemory) {
    SKIP_WITHOUT_POOL();
    release_pooled_buffer();
    PayloadBuffer payload(3 * kMiB);
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
    release_pooled_buffer();
}
