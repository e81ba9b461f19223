// Running a third-party reader in a child process, so that its crash or hang on a damaged file
// becomes a navlab::Error instead of ending (or stalling) the caller.
//
// Why: `navlab build` hands level geometry to Assimp, whose readers crash (SIGSEGV) and spin
// forever on some damaged files (a PLY header cut inside a comment, a PLY header whose
// `end_header` follows a stray byte). Those are bugs in the library Debian ships; navlab cannot
// fix them, but it can keep them away from its own process and name the file.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#if defined(__SANITIZE_ADDRESS__)
#define NAVLAB_ISOLATED_UNDER_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define NAVLAB_ISOLATED_UNDER_ASAN 1
#endif
#endif

namespace navlab {

/// Whether IsolationLimits::extra_memory is applied: not under AddressSanitizer (GCC's or
/// clang's), which reserves terabytes of address space itself.
#ifdef NAVLAB_ISOLATED_UNDER_ASAN
inline constexpr bool kIsolatedMemoryLimitApplies = false;
#else
inline constexpr bool kIsolatedMemoryLimitApplies = true;
#endif

/// What the child may use before it is stopped.
struct IsolationLimits {
    /// User plus system CPU time (RLIMIT_CPU), in whole seconds, 1 to 10⁶. A reader spinning
    /// in a loop is stopped here; the caller sizes it to its input.
    std::uint64_t cpu_seconds = 60;
    /// Wall-clock seconds before a child that neither answers nor ends (a reader blocked, not
    /// spinning, which the CPU limit misses) is killed; 0 = ten times cpu_seconds plus 10.
    std::uint64_t wall_seconds = 0;
    /// Address space the child may add to what it inherits (RLIMIT_AS), in bytes; 0 = no limit.
    /// Not applied when kIsolatedMemoryLimitApplies is false, nor without /proc.
    std::uint64_t extra_memory = 0;
};

/// Runs `work` in a forked child process and returns the bytes it returned.
///
/// Throws navlab::Error, its field set to `what` (e.g. "a.ply: the geometry reader (Assimp)"),
/// when the child
/// - ends on a signal (a crash): the message names the signal; or exits without an answer
///   (a sanitizer's report of a crash): the message names the exit status;
/// - passes `limits.cpu_seconds` of CPU time, or its wall-clock limit without ending: the
///   message names the limit (another SIGKILL is named as coming from outside);
/// - runs out of `limits.extra_memory` (std::bad_alloc);
/// - cannot be waited for (the caller ignores SIGCHLD, so the kernel reaped it unseen).
/// - throws: a navlab::Error thrown by `work` comes back as it was thrown (message, offset,
///   field and file), any other exception as its what() in an Error with `what`.
///
/// The child leaves with `_exit`, so no atexit handler or static destructor of the caller runs
/// twice, and it writes no core file; it is killed if the caller dies. Call it where no other
/// thread holds a lock `work` needs (glibc's malloc is safe across fork, and its loader lock for
/// the dlopen that `build`'s reader does in the child; most else is not guaranteed: no other
/// thread may be inside dlopen at the fork), and not from several threads at once (a sibling child would inherit the other
/// pipe's write end and delay its end).
std::vector<std::uint8_t> run_isolated(const std::function<std::vector<std::uint8_t>()>& work,
                                       const IsolationLimits& limits, const std::string& what);

}  // namespace navlab
