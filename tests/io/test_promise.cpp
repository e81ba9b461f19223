// NAVLAB_PROMISE: checked (abort with the promise's text and place) in the sanitizer and fuzz
// builds, compiled to nothing elsewhere. Which build this is comes from CMake's definition,
// not from the header under test.
#include <gtest/gtest.h>

#include "io/promise.h"

namespace {
int evaluations = 0;
[[maybe_unused]] bool counted(bool value) {  // unused where promises compile to nothing
    ++evaluations;
    return value;
}
}  // namespace

TEST(Promise, AKeptPromiseLetsTheCallerGoOn) {
    evaluations = 0;
    NAVLAB_PROMISE(counted(true));
#ifdef NAVLAB_CHECK_PROMISES
    EXPECT_EQ(evaluations, 1);
#else
    EXPECT_EQ(evaluations, 0);  // Release: the condition is not even evaluated
#endif
}

#ifdef NAVLAB_CHECK_PROMISES
TEST(PromiseDeathTest, ABrokenPromiseAbortsNamingItsTextAndPlace) {
    GTEST_FLAG_SET(death_test_style, "threadsafe");
    const int count = 3;
    EXPECT_DEATH(NAVLAB_PROMISE(count < 3), "test_promise\\.cpp:[0-9]+: navlab: broken promise: count < 3");
}
#else
TEST(Promise, ABrokenPromiseCostsNothingInRelease) {
    evaluations = 0;
    NAVLAB_PROMISE(counted(false));
    EXPECT_EQ(evaluations, 0);
}
#endif
