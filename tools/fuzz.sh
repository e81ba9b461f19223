#!/usr/bin/env bash
# Builds navlab's libFuzzer targets with clang (the whole library instrumented for coverage,
# ASan and UBSan) into build-fuzz, writes each target's seed corpus with navlab's own writers
# (fuzz/support/seeds.h: never game files) and fuzzes the targets one after the other.
#
#   tools/fuzz.sh [TARGET|all] [SECONDS] [extra libFuzzer args...]
#   NAVLAB_FUZZ_PARALLEL=2 tools/fuzz.sh all 30   # CI: every target 30 s, two at a time
#   tools/fuzz.sh fuzz_kraken 600 -jobs=1   # ten minutes of Kraken fuzzing
#
# Fails (exit 1) on any crash, leak, timeout (10 s per input) or out-of-memory (2 GiB RSS,
# malloc limit likewise); the input that caused it lands in build-fuzz/findings/TARGET/ and
# the log in build-fuzz/logs/TARGET.log. The corpus grows in build-fuzz/corpus/TARGET (not
# committed). The last line per target is a summary: executions, coverage (edges), corpus.
set -euo pipefail
which=${1:-all}
seconds=${2:-60}
shift $(( $# >= 2 ? 2 : $# ))
root=$(cd "$(dirname "$0")/.." && pwd)
build=$root/build-fuzz

"$root/tools/install-deps.sh"
flags="-fsanitize=fuzzer-no-link,address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer -g"
launcher=()
command -v ccache >/dev/null && launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
CXX=clang++ cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DNAVLAB_FUZZ=ON -DNAVLAB_TESTS=OFF -DNAVLAB_BENCH=OFF "${launcher[@]}" \
  -DCMAKE_CXX_FLAGS="$flags" -DCMAKE_EXE_LINKER_FLAGS="-fsanitize=address,undefined" >/dev/null

if [ "$which" = all ]; then
  targets=()
  for f in "$root"/fuzz/fuzz_*.cpp; do targets+=("$(basename "$f" .cpp)"); done
else
  targets=("$which")
fi
cmake --build "$build" --target "${targets[@]}" -j"${NAVLAB_FUZZ_BUILD_JOBS:-2}"

export ASAN_OPTIONS=detect_leaks=1:allocator_may_return_null=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1

# fuzz_one TARGET: seeds, then SECONDS of fuzzing; prints one summary line; fails on a finding.
fuzz_one() {
  local target=$1
  local seeds=$build/seeds/$target corpus=$build/corpus/$target findings=$build/findings/$target
  local log=$build/logs/$target.log status=0
  rm -rf "$seeds"
  mkdir -p "$corpus" "$findings" "$(dirname "$log")"
  # Targets with writer-made seeds write them and exit in LLVMFuzzerInitialize; -runs=0 makes
  # any other target (fuzz_query, fuzz_kraken_encode: no seeds needed) exit at once too.
  mkdir -p "$seeds"
  NAVLAB_FUZZ_WRITE_SEEDS=$seeds "$build/fuzz/$target" -runs=0 >/dev/null 2>&1
  (cd "$findings" && "$build/fuzz/$target" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 \
    -malloc_limit_mb=2048 -print_final_stats=1 -artifact_prefix="$findings/" "${extra[@]}" "$corpus" "$seeds") \
    >"$log" 2>&1 || status=$?
  local execs done_line cov corp
  execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
  done_line=$(grep -E '^#[0-9]+[[:space:]]+(DONE|pulse|NEW|REDUCE|INITED)' "$log" | tail -1 || true)
  cov=$(sed -n 's/.* cov: \([0-9]*\).*/\1/p' <<<"$done_line")
  corp=$(sed -n 's/.* corp: \([0-9]*\/[0-9]*[a-zA-Z]*\).*/\1/p' <<<"$done_line")
  if [ $status -ne 0 ]; then
    echo "navlab fuzz: $target FAILED (exit $status) after ${execs:-?} executions; log: $log" >&2
    grep -E 'ERROR: (AddressSanitizer|libFuzzer|LeakSanitizer)|runtime error|SUMMARY|Test unit written' "$log" | head -8 >&2 || true
    return 1
  fi
  echo "navlab fuzz: $target ok: ${execs:-?} executions in ${seconds} s, ${cov:-?} edges, corpus ${corp:-?}"
}

# NAVLAB_FUZZ_PARALLEL targets at a time (libFuzzer uses one core each).
extra=("$@")
parallel=${NAVLAB_FUZZ_PARALLEL:-1}
failed=0 running=0
for target in "${targets[@]}"; do
  if [ "$running" -ge "$parallel" ]; then
    wait -n || failed=1
    running=$((running - 1))
  fi
  fuzz_one "$target" &
  running=$((running + 1))
done
while [ "$running" -gt 0 ]; do
  wait -n || failed=1
  running=$((running - 1))
done
if [ $failed -ne 0 ]; then
  echo "navlab fuzz: findings (reproducers in $build/findings/, logs in $build/logs/)" >&2
  exit 1
fi
