#pragma once
// NAVLAB_PROMISE(cond): a caller's promise that the types cannot state (an index below a
// count kept elsewhere, a value of a kind the caller has checked). The sanitizer and fuzz
// builds check it and abort with its text and place when it is broken; Release builds
// compile it to nothing. <cassert> would not do: CI's sanitizer build is RelWithDebInfo,
// which defines NDEBUG, so its asserts never ran where the tests and fuzzers run.
//
// Only for promises whose breaking is a bug in navlab, never for a check on input: bad
// input gets a navlab::Error (io/error.h) in every build.

#ifdef NAVLAB_CHECK_PROMISES

#include <cstdio>
#include <cstdlib>

namespace navlab::detail {
[[noreturn]] inline void broken_promise(const char* text, const char* file, int line) noexcept {
    std::fprintf(stderr, "%s:%d: navlab: broken promise: %s\n", file, line, text);
    std::abort();
}
}  // namespace navlab::detail

#define NAVLAB_PROMISE(cond) ((cond) ? void(0) : ::navlab::detail::broken_promise(#cond, __FILE__, __LINE__))

#else

#define NAVLAB_PROMISE(cond) ((void)0)

#endif
