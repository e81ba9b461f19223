#!/usr/bin/env bash
# A long fuzzing campaign in the background on a shared machine: every target in turn, one
# process at a time under `nice -n 19`, in slices of SLICE seconds, until UNTIL (a `date -d`
# time), on a corpus kept outside the build (CORPUS/TARGET) so it survives rebuilds and grows
# across sessions. Each slice appends one line to CORPUS/ledger.tsv; `--summary` adds them up
# per target (executions, last coverage, corpus, findings) for docs/reliability.md.
#
#   tools/fuzz.sh all 1                                   # build the targets and write seeds first
#   tools/fuzz-campaign.sh /work/fuzz-corpus 18:40 300 &  # rotate until 18:40, 5-minute slices
#   tools/fuzz-campaign.sh /work/fuzz-corpus --summary
#
# Same limits as tools/fuzz.sh (10 s per input, 2 GiB RSS and malloc); a target with a finding
# leaves the reproducer in CORPUS/findings/TARGET/ and is not run again in this campaign.
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=$root/build-fuzz
corpus_root=${1:?corpus folder}
ledger=$corpus_root/ledger.tsv
if [ "${2:-}" = --summary ]; then
  # Ledger statuses: ok, ok-interrupted (stopped by SIGINT, executions still reported),
  # finding (open), finding-fixed (fixed, with a regression test), ok-starved-timeout (a wall-clock
  # timeout whose reproducer, run alone, takes well under a second: the niced process was starved).
  printf '%-20s %14s %8s %8s %s\n' target executions edges corpus open-findings
  awk -F'\t' '{ex[$2]+=$3; cov[$2]=$4; corp[$2]=$5; if ($6 == "finding") bad[$2]++; sec[$2]+=$7}
    END {for (t in ex) printf "%-20s %14d %8s %8s %d (%d s, %.0f/s)\n", t, ex[t], cov[t], corp[t], bad[t], sec[t], ex[t]/(sec[t]?sec[t]:1)}' \
    "$ledger" | sort
  exit 0
fi
until_epoch=$(date -d "${2:?until}" +%s)
slice=${3:-300}
targets=()
for f in "$root"/fuzz/fuzz_*.cpp; do targets+=("$(basename "$f" .cpp)"); done
export ASAN_OPTIONS=detect_leaks=1:allocator_may_return_null=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
declare -A failed
while [ "$(date +%s)" -lt "$until_epoch" ]; do
  for target in "${targets[@]}"; do
    left=$((until_epoch - $(date +%s)))
    [ "$left" -le 10 ] && break
    [ -n "${failed[$target]:-}" ] && continue
    corpus=$corpus_root/$target findings=$corpus_root/findings/$target seeds=$corpus_root/seeds/$target
    log=$corpus_root/logs/$target.$(date +%H%M%S).log
    mkdir -p "$corpus" "$findings" "$seeds" "$(dirname "$log")"
    NAVLAB_FUZZ_WRITE_SEEDS=$seeds "$build/fuzz/$target" -runs=0 >/dev/null 2>&1
    seconds=$((left < slice ? left : slice))
    status=ok
    (cd "$findings" && nice -n 19 "$build/fuzz/$target" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 \
      -malloc_limit_mb=2048 -print_final_stats=1 -artifact_prefix="$findings/" "$corpus" "$seeds") >"$log" 2>&1 ||
      { status=finding; failed[$target]=1; }
    execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
    line=$(grep -E '^#[0-9]+[[:space:]]+(DONE|pulse|NEW|REDUCE|INITED)' "$log" | tail -1)
    cov=$(sed -n 's/.* cov: \([0-9]*\).*/\1/p' <<<"$line")
    corp=$(sed -n 's/.* corp: \([0-9]*\/[0-9]*[a-zA-Z]*\).*/\1/p' <<<"$line")
    printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$(date -u +%FT%TZ)" "$target" "${execs:-0}" "${cov:-?}" "${corp:-?}" \
      "$status" "$seconds" >>"$ledger"
  done
done
