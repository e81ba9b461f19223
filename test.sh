#!/usr/bin/env bash
# Runs navlab's whole test suite on a fresh Debian 12 machine: installs the dependencies,
# builds everything (library, command, tests, benchmarks) and runs CTest.
#   ./test.sh              # release build in build/
#   ./test.sh --sanitize   # AddressSanitizer + UndefinedBehaviorSanitizer build in build-asan/
# Real game samples are used when NAVLAB_SAMPLES (or ../shared/samples) exists; tests that
# need them skip with a message otherwise.
set -euo pipefail
cd "$(dirname "$0")"
tools/install-deps.sh
# ccache, when installed, makes rebuilds (and CI after a local build) fast; it changes no output.
launcher=()
command -v ccache >/dev/null 2>&1 && launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
dir=build
flags=(-DCMAKE_BUILD_TYPE=Release -DNAVLAB_TESTS=ON -DNAVLAB_BENCH=ON)
if [ "${1:-}" = "--sanitize" ]; then
  dir=build-asan
  flags=(-DCMAKE_BUILD_TYPE=RelWithDebInfo -DNAVLAB_SANITIZE=ON -DNAVLAB_TESTS=ON -DNAVLAB_BENCH=OFF)
  export ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
fi
cmake -S . -B "$dir" -G Ninja "${flags[@]}" "${launcher[@]}" >/dev/null
cmake --build "$dir"
# --no-tests=error: a build that made no tests (e.g. a build/ configured by ./run.sh with
# tests off, before the options above were explicit) must fail, not pass quietly.
ctest --test-dir "$dir" --output-on-failure --no-tests=error -j"$(nproc)"
