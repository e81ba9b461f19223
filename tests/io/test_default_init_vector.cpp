// DefaultInitVector grows without a fill; ZeroedArray is zero without one. The first is shown
// against std::vector's own behaviour on the same steps (which must fill), the second by its
// values and by the page faults it does not take.
#include <gtest/gtest.h>

#include <sys/resource.h>

#include <algorithm>
#include <cstdint>
#include <thread>
#include <utility>
#include <vector>

#include "io/default_init_vector.h"

using namespace navlab;

namespace {
/// Fills n bytes with 0xAB, shrinks to 0 (capacity kept) and grows back to n: what is there now.
template <class Vector>
std::size_t bytes_left_as_written(Vector& v, std::size_t n) {
    v.assign(n, 0xAB);
    v.clear();
    v.resize(n);
    return static_cast<std::size_t>(std::count(v.begin(), v.end(), 0xAB));
}

long minor_faults() {
    rusage u{};
    getrusage(RUSAGE_THREAD, &u);
    return u.ru_minflt;
}
}  // namespace

TEST(DefaultInitVector, GrowingWithinItsCapacityWritesNothing) {
    std::vector<std::uint8_t> filled;
    DefaultInitVector<std::uint8_t> unfilled;
    EXPECT_EQ(bytes_left_as_written(filled, 4096), 0u);  // std::vector zero-fills what resize adds
    EXPECT_EQ(bytes_left_as_written(unfilled, 4096), 4096u);
    // Construction with values and copies behave as std::vector's.
    DefaultInitVector<std::int32_t> v(3, -7);
    v.push_back(5);
    EXPECT_EQ(std::vector<std::int32_t>(v.begin(), v.end()), (std::vector<std::int32_t>{-7, -7, -7, 5}));
    const DefaultInitVector<std::int32_t> copy = v;
    EXPECT_EQ(copy, v);
}

TEST(ZeroedArray, IsZeroAndTouchesNoPageUntilUsed) {
    constexpr std::size_t n = std::size_t{1} << 22;  // 16 MiB of uint32_t: served by mmap
    long faults = 0;
    bool all_zero = false, written = false;
    // On its own thread, so the count is this allocation's alone.
    std::thread([&] {
        const long before = minor_faults();
        ZeroedArray<std::uint32_t> a(n);
        faults = minor_faults() - before;  // calloc of fresh pages: no fill touched them
        all_zero = std::all_of(a.begin(), a.end(), [](std::uint32_t x) { return x == 0; });
        a[n - 1] = 9;
        ZeroedArray<std::uint32_t> moved = std::move(a);
        written = moved.size() == n && moved[n - 1] == 9 && a.data() == nullptr;
    }).join();
    EXPECT_LT(faults, 64) << "a 16 MiB ZeroedArray was filled page by page";
    EXPECT_TRUE(all_zero);
    EXPECT_TRUE(written);
    EXPECT_EQ(ZeroedArray<std::uint8_t>(0).size(), 0u);
}
