// expect_error(fn): runs fn and returns the navlab::Error it throws, so a test can assert the
// error's offset, field and text; fails the test when fn throws nothing.
#pragma once

#include <gtest/gtest.h>

#include "io/error.h"

namespace navlab::test {

template <class Fn>
Error expect_error(Fn&& fn) {
    try {
        fn();
    } catch (const Error& e) {
        return e;
    }
    ADD_FAILURE() << "expected a navlab::Error";
    return Error("none");
}

}  // namespace navlab::test
