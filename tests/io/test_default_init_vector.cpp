// DefaultInitVector grows without a fill; ZeroedArray is zero without one. The first is shown
// against std::vector's own behaviour on the same steps (which must fill), the second by its
// values and by the pages the kernel has not had to supply (mincore).
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <utility>
#include <vector>

#include "io/default_init_vector.h"
#include "io/heap_policy.h"
#include "support/resident_pages.h"

using namespace navlab;
using navlab::test::resident_pages;

namespace {
/// Fills n bytes with 0xAB, shrinks to 0 (capacity kept) and grows back to n: how many bytes
/// hold `value` now. (Reading the regrown bytes reads indeterminate values of unsigned char,
/// which the language allows.)
template <class Vector>
std::size_t bytes_after_regrowth(Vector& v, std::size_t n, unsigned char value) {
    v.assign(n, 0xAB);
    v.clear();
    v.resize(n);
    return static_cast<std::size_t>(std::count(v.begin(), v.end(), value));
}

}  // namespace

TEST(DefaultInitVector, GrowingWithinItsCapacityWritesNothing) {
    std::vector<std::uint8_t> filled;
    DefaultInitVector<std::uint8_t> unfilled;
    EXPECT_EQ(bytes_after_regrowth(filled, 4096, 0), 4096u);  // std::vector zero-fills what resize adds
    if (kScratchPoisoned)  // the sanitizer and fuzz builds write poison where others write nothing
        EXPECT_EQ(bytes_after_regrowth(unfilled, 4096, kScratchPoison), 4096u);
    else
        EXPECT_EQ(bytes_after_regrowth(unfilled, 4096, 0xAB), 4096u);
    // Construction with values and copies behave as std::vector's.
    DefaultInitVector<std::int32_t> v(3, -7);
    v.push_back(5);
    EXPECT_EQ(std::vector<std::int32_t>(v.begin(), v.end()), (std::vector<std::int32_t>{-7, -7, -7, 5}));
    const DefaultInitVector<std::int32_t> copy = v;
    EXPECT_EQ(copy, v);
}

TEST(ZeroedArray, IsZeroAndTouchesNoPageUntilUsed) {
    // 16 MiB of uint32_t: served by mmap, as in navlab's programs. Fixed here because glibc
    // raises its threshold after another test in this process frees a large block, and calloc
    // must then fill heap memory.
    map_large_blocks_on_their_own();
    constexpr std::size_t n = std::size_t{1} << 22;
    ZeroedArray<std::uint32_t> a(n);
    ASSERT_EQ(a.size(), n);
    // calloc of fresh pages: no fill touched them (a fill would make all 4,096 resident).
    EXPECT_LT(resident_pages(a.data(), n * sizeof(std::uint32_t)), 64u) << "a 16 MiB ZeroedArray was filled";
    EXPECT_TRUE(std::all_of(a.begin(), a.end(), [](std::uint32_t x) { return x == 0; }));
    a[n - 1] = 9;
    ZeroedArray<std::uint32_t> moved = std::move(a);
    EXPECT_EQ(moved.size(), n);
    EXPECT_EQ(moved[n - 1], 9u);
    EXPECT_EQ(a.size(), 0u);  // NOLINT(bugprone-use-after-move): moved-from is empty by contract
    EXPECT_EQ(a.data(), nullptr);
    EXPECT_EQ(a.begin(), a.end());
    ZeroedArray<std::uint32_t> assigned;
    assigned = std::move(moved);
    EXPECT_EQ(assigned.size(), n);
    EXPECT_EQ(moved.size(), 0u);
    EXPECT_EQ(ZeroedArray<std::uint8_t>(0).size(), 0u);
}
