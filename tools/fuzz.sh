#!/usr/bin/env bash
# Builds the libFuzzer targets with clang (whole library instrumented for coverage, ASan and
# UBSan) into build-fuzz and runs one target with a seed corpus made from the samples.
#
#   tools/fuzz.sh [TARGET] [SECONDS] [extra libFuzzer args...]
#   tools/fuzz.sh fuzz_kraken 600          # ten minutes of Kraken fuzzing
#
# Seeds come from $NAVLAB_SAMPLES (else ../shared/samples); they are written below build-fuzz
# and never committed. Findings land in build-fuzz/findings/TARGET.
set -euo pipefail
target=${1:-fuzz_kraken}
seconds=${2:-60}
shift $(( $# >= 2 ? 2 : $# ))
root=$(cd "$(dirname "$0")/.." && pwd)
build=$root/build-fuzz
samples=${NAVLAB_SAMPLES:-$root/../shared/samples}

NAVLAB_FUZZ=1 "$root/tools/install-deps.sh"
flags="-fsanitize=fuzzer-no-link,address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer -g"
CXX=clang++ cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DNAVLAB_FUZZ=ON -DNAVLAB_TESTS=OFF -DNAVLAB_BENCH=OFF \
  -DCMAKE_CXX_FLAGS="$flags" -DCMAKE_EXE_LINKER_FLAGS="-fsanitize=address,undefined" >/dev/null
cmake --build "$build" --target "$target" -j2

seeds=$build/seeds/$target
corpus=$build/corpus/$target
findings=$build/findings/$target
mkdir -p "$seeds" "$corpus" "$findings"

# u32le N: the 4 little-endian bytes of N.
u32le() { printf "\\x$(printf %02x $(($1 & 255)))\\x$(printf %02x $(($1 >> 8 & 255)))\\x$(printf %02x $(($1 >> 16 & 255)))\\x$(printf %02x $(($1 >> 24 & 255)))"; }
# slice FILE OFFSET COUNT: COUNT bytes of a file from OFFSET (no pipe: pipefail-safe).
slice() { dd if="$1" iflag=skip_bytes,count_bytes skip="$2" count="$3" status=none; }
# be32 FILE OFFSET: big-endian u32 of a file.
be32() { od -An -tu1 -j "$2" -N4 "$1" | awk '{print $1*16777216 + $2*65536 + $3*256 + $4}'; }

if [ "$target" = fuzz_kraken ] && [ -d "$samples" ]; then
  # Raw streams already have the fuzzer's layout (small ones only: speed).
  for f in "$samples"/kraken/t*.kraken; do [ -f "$f" ] && cp "$f" "$seeds/"; done
  for f in "$samples"/fromsoft/*.dcx; do
    [ "$(head -c 4 "$f" | od -An -c | tr -d ' ')" = 'DCX\0' ] || continue
    [ "$(dd if="$f" bs=1 skip=40 count=4 2>/dev/null)" = KRAK ] || continue
    out=$(be32 "$f" 28); packed=$(be32 "$f" 32); name=$(basename "$f" .dcx)
    if [ "$out" -le 262144 ]; then
      { u32le "$out"; slice "$f" 76 "$packed"; } > "$seeds/$name"
    else
      # First block only: 2-byte block header, 3-byte quantum header, C compressed bytes.
      q=$(od -An -tu1 -j 78 -N3 "$f" | awk '{print ($1*65536 + $2*256 + $3) % 262144 + 1}')
      { u32le 262144; slice "$f" 76 $((5 + q)); } > "$seeds/$name.block0"
    fi
  done
fi

cd "$findings"
"$build/fuzz/$target" -max_total_time="$seconds" -print_final_stats=1 -rss_limit_mb=4096 \
  -artifact_prefix="$findings/" "$@" "$corpus" "$seeds"
