// bulk_copy against a byte-by-byte copy, and RecordVector's growth without construction against
// std::vector's growth.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <random>
#include <vector>

#include "io/bulk_copy.h"
#include "io/default_init_vector.h"

using namespace navlab;

namespace {

/// Copies n bytes from src + from_at to a zeroed buffer at to_at with `copy` and checks the
/// buffer byte by byte against a byte-by-byte copy into the same buffer (so also that no byte before
/// or after the n is written). Returns the number of differing bytes.
template <class Copy>
std::size_t bytes_differing(Copy copy, const std::vector<std::uint8_t>& src, std::size_t from_at, std::size_t to_at,
                            std::size_t n) {
    std::vector<std::uint8_t> got(to_at + n + 160, 0x5C), want = got;
    copy(got.data() + to_at, src.data() + from_at, n);
    // The reference a byte at a time (GCC 12's -Wstringop-overflow misreads a memcpy here).
    for (std::size_t i = 0; i < n; ++i) want[to_at + i] = src[from_at + i];
    std::size_t differ = 0;
    for (std::size_t i = 0; i < got.size(); ++i) differ += got[i] != want[i];
    return differ;
}

/// A record with default member initialisers, as the mesh's Face and Edge.
struct Record {
    std::int32_t a = -1;
    std::uint8_t b = 4;
    std::uint8_t c = 0;
    std::uint16_t d = 0xCDCD;
};

}  // namespace

// Every length 0 … 700 (the 128-byte and 64-byte blocks, and each tail length after them) at
// source and destination offsets 0 … 35, and a few long arrays: the same bytes as a byte loop, and
// nothing written outside the destination range.
TEST(BulkCopy, EqualsMemcpyAtEveryLengthAndAlignment) {
    std::mt19937 rng(43);
    std::vector<std::uint8_t> src(3 << 20);
    for (auto& b : src) b = static_cast<std::uint8_t>(rng());
    using CopyFn = void (*)(void*, const void*, std::size_t) noexcept;
    for (CopyFn copy : {CopyFn{&bulk_copy}, CopyFn{&bulk_copy_without_avx2}}) {
        std::size_t cases = 0;
        for (std::size_t n = 0; n <= 700; ++n)
            for (std::size_t from_at : {0u, 1u, 7u, 16u, 33u})
                for (std::size_t to_at : {0u, 3u, 8u, 32u, 35u}) {
                    ASSERT_EQ(bytes_differing(copy, src, from_at, to_at, n), 0u) << n << " bytes from +" << from_at << " to +" << to_at;
                    ++cases;
                }
        for (std::size_t n : {std::size_t{1} << 20, (std::size_t{5} << 19) + 77, (std::size_t{3} << 20) - 100}) {
            ASSERT_EQ(bytes_differing(copy, src, 5, 11, n), 0u) << n << " bytes";
            ++cases;
        }
        EXPECT_EQ(cases, 701u * 25 + 3);
    }
    // Empty ranges may come with null pointers (an empty vector's data()).
    bulk_copy(nullptr, nullptr, 0);
    bulk_copy_without_avx2(nullptr, nullptr, 0);
}

// append_uninitialized adds elements without constructing them: regrown within its capacity,
// the vector still holds the bytes written before (or the poison of the sanitizer builds), where
// resize() value-initialises as std::vector's does. Elements already there are kept, also when
// the append reallocates.
TEST(RecordVector, AppendUninitializedConstructsNothingAndResizeStillDoes) {
    RecordVector<Record> v;
    v.resize(40);
    for (const Record& r : v) EXPECT_TRUE(r.a == -1 && r.b == 4 && r.c == 0 && r.d == 0xCDCD);
    std::memset(static_cast<void*>(v.data()), 0x3E, v.size() * sizeof(Record));
    v.clear();
    Record* first = append_uninitialized(v, 40);
    ASSERT_EQ(first, v.data());
    ASSERT_EQ(v.size(), 40u);
    const unsigned char expected = kScratchPoisoned ? kScratchPoison : 0x3E;
    std::size_t same = 0;
    for (std::size_t i = 0; i < v.size() * sizeof(Record); ++i) same += reinterpret_cast<const unsigned char*>(v.data())[i] == expected;
    EXPECT_EQ(same, v.size() * sizeof(Record));
    // Appending past the capacity keeps the elements before.
    for (std::size_t i = 0; i < v.size(); ++i) v[i] = Record{static_cast<std::int32_t>(i), 1, 2, 3};
    Record* more = append_uninitialized(v, 1000);
    ASSERT_EQ(v.size(), 1040u);
    EXPECT_EQ(more, v.data() + 40);
    for (std::size_t i = 0; i < 40; ++i) EXPECT_EQ(v[i].a, static_cast<std::int32_t>(i));
    // resize(), push_back and emplace_back() construct as std::vector's.
    v.clear();
    v.emplace_back();
    v.push_back(Record{7, 8, 9, 10});
    v.resize(3);
    EXPECT_TRUE(v[0].a == -1 && v[0].d == 0xCDCD && v[1].a == 7 && v[1].d == 10 && v[2].b == 4 && v[2].d == 0xCDCD);
    EXPECT_EQ(append_uninitialized(v, 0), v.data() + 3);
    EXPECT_EQ(v.size(), 3u);
}
