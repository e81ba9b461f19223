#!/usr/bin/env bash
# A long fuzzing campaign in the background, on a corpus kept outside the build (CORPUS/TARGET)
# so it survives rebuilds and grows across sessions. Each slice appends one line to
# CORPUS/ledger.tsv; `--summary` adds them up per target (executions, last coverage, corpus,
# findings) for docs/reliability.md. Two ways to run:
#
#   tools/fuzz.sh all 1                                   # build the targets and write seeds first
#   tools/fuzz-campaign.sh /work/fuzz-corpus 18:40 300 &  # rotate: every target in turn until 18:40
#   tools/fuzz-campaign.sh /work/fuzz-corpus --goal 10000000 --workers 2 --slice 1200 &
#   tools/fuzz-campaign.sh /work/fuzz-corpus --summary
#   tools/fuzz-campaign.sh /work/fuzz-corpus --next 10000000   # the target goal mode would run next
#   tools/fuzz-campaign.sh --help                               # this text
#
# Rotate mode runs one process at a time, SLICE seconds per target. Goal mode runs WORKERS
# processes; each slice goes to the target with the most estimated time left to reach GOAL
# executions (executions left / its rate in the ledger) that no other worker is running, and a
# worker stops when no target is left for it (each is at GOAL, has an open finding, failed to run
# in this campaign, or is being run by another worker), at --until TIME, or when CORPUS/stop
# exists (the running slices finish; remove the file before the next start). Killing only the
# main process leaves the workers running: stop with CORPUS/stop or signal the whole process
# group. One campaign at a time per CORPUS (CORPUS/campaign.lock). NAVLAB_FUZZ_NICE sets the
# niceness (default 19: the campaign yields to everything else on a shared machine);
# NAVLAB_FUZZ_BUILD the build folder (default build-fuzz).
#
# Executions from an earlier corpus that was lost (a new machine) can be carried into the
# ledger as lines with status `carried` and 0 seconds; they count toward GOAL, not toward rates.
# Ledger statuses: ok, ok-interrupted (stopped by SIGINT/SIGTERM, executions still reported),
# finding (open: a new reproducer or a sanitizer/libFuzzer SUMMARY), finding-fixed (fixed, with a
# regression test), ok-starved-timeout (a wall-clock timeout whose reproducer, run alone, takes
# well under a second: the niced process was starved), error (the fuzzer failed without a
# finding, or ended long before its time), carried. The seconds column is the slice's
# wall-clock time, not the time it was given.
#
# Same limits as tools/fuzz.sh (10 s per input, 2 GiB RSS and malloc); a target with a finding
# leaves the reproducer in CORPUS/findings/TARGET/. Rotate mode does not run it again in this
# campaign; goal mode does not run it again while the ledger has its `finding` line (edit it to
# finding-fixed once fixed). A target whose slice ends in `error` is not run again in this
# campaign.
set -uo pipefail
if [ "${1:-}" = --help ] || [ "${1:-}" = -h ] || [ $# -eq 0 ]; then
  sed -n '2,/^set -uo/{/^set -uo/d; s/^# \{0,1\}//; p}' "$0"  # this header
  exit 0
fi
root=$(cd "$(dirname "$0")/.." && pwd)
build=${NAVLAB_FUZZ_BUILD:-$root/build-fuzz}
corpus_root=${1:?corpus folder}
shift
ledger=$corpus_root/ledger.tsv
nice_level=${NAVLAB_FUZZ_NICE:-19}
mkdir -p "$corpus_root"
touch "$ledger"
# Per target, for --summary and the goal-mode pick: ex all executions, run and sec those of real
# slices (carried lines count toward the goal, not toward the rate), bad its open findings.
ledger_sums='{ex[$2]+=$3; if ($6 != "carried") {run[$2]+=$3; sec[$2]+=$7}; if ($6 == "finding") bad[$2]++}'

if [ "${1:-}" = --summary ]; then
  printf '%-20s %14s %8s %8s %s\n' target executions edges corpus open-findings
  awk -F'\t' "$ledger_sums"'
    $6 != "carried" {cov[$2]=$4; corp[$2]=$5}
    END {for (t in ex) printf "%-20s %14.0f %8s %8s %d (%d s, %.0f/s)\n", t, ex[t], cov[t], corp[t], bad[t],
                              sec[t], run[t]/(sec[t]?sec[t]:1)}' "$ledger" | sort
  exit 0
fi

targets=()
for f in "$root"/fuzz/fuzz_*.cpp; do targets+=("$(basename "$f" .cpp)"); done
export ASAN_OPTIONS=detect_leaks=1:allocator_may_return_null=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1

# run_slice TARGET SECONDS: one libFuzzer run on CORPUS/TARGET plus the target's writer-made
# seeds; appends its ledger line; returns 0 (ok), 1 (finding), 2 (error: no binary, a failure
# without a finding, or a run that ended long before its time) or 3 (interrupted).
run_slice() {
  local target=$1 seconds=$2 status=ok rc=0 start before
  local corpus=$corpus_root/$target findings=$corpus_root/findings/$target seeds=$corpus_root/seeds/$target
  local log=$corpus_root/logs/$target.$(date +%Y%m%dT%H%M%S).$BASHPID.log
  if [ ! -x "$build/fuzz/$target" ]; then
    echo "fuzz-campaign: no $build/fuzz/$target (tools/fuzz.sh all 1 builds it)" >&2
    return 2
  fi
  mkdir -p "$corpus" "$findings" "$seeds" "$(dirname "$log")"
  NAVLAB_FUZZ_WRITE_SEEDS=$seeds nice -n "$nice_level" "$build/fuzz/$target" -runs=0 >/dev/null 2>&1
  before=$(ls -A "$findings" | wc -l)
  start=$SECONDS
  (cd "$findings" && nice -n "$nice_level" "$build/fuzz/$target" -max_total_time="$seconds" -timeout=10 \
    -rss_limit_mb=2048 -malloc_limit_mb=2048 -print_final_stats=1 -artifact_prefix="$findings/" \
    "$corpus" "$seeds") >"$log" 2>&1 || rc=$?
  local elapsed=$((SECONDS - start))
  # Only a reproducer or a crash report is a finding: a missing or half-written binary (a rebuild),
  # SIGINT/SIGTERM (libFuzzer exits with -interrupted_exitcode) or the OOM killer are not.
  if [ "$(ls -A "$findings" | wc -l)" -gt "$before" ] || grep -q '^SUMMARY: ' "$log"; then
    status=finding
  elif grep -q 'libFuzzer: run interrupted' "$log"; then
    status=ok-interrupted
  elif [ "$rc" -ne 0 ] || [ $((elapsed * 2)) -lt "$seconds" ]; then
    status=error
    echo "fuzz-campaign: $target exited $rc after $elapsed s of $seconds (see $log)" >&2
  fi
  local execs line cov corp
  execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
  line=$(grep -E '^#[0-9]+[[:space:]]+(DONE|pulse|NEW|REDUCE|INITED)' "$log" | tail -1)
  cov=$(sed -n 's/.* cov: \([0-9]*\).*/\1/p' <<<"$line")
  corp=$(sed -n 's/.* corp: \([0-9]*\/[0-9]*[a-zA-Z]*\).*/\1/p' <<<"$line")
  printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$(date -u +%FT%TZ)" "$target" "${execs:-0}" "${cov:-?}" "${corp:-?}" \
    "$status" "$elapsed" >>"$ledger"
  case $status in ok) return 0 ;; finding) return 1 ;; error) return 2 ;; *) return 3 ;; esac
}

# pick_target GOAL [SKIP]: prints "TARGET SECONDS": the target with the most estimated seconds
# left to GOAL, and those seconds, skipping targets at GOAL, with an open finding, in SKIP (a
# space-separated list), or locked by another worker (CORPUS/running/TARGET); nothing when none
# is left. Targets with no measured rate yet count at 1,000 executions/s.
pick_target() {
  local goal=$1
  awk -F'\t' -v goal="$goal" -v locked="$(ls "$corpus_root/running" 2>/dev/null | tr '\n' ' ') ${2:-}" \
      -v all="${targets[*]}" "$ledger_sums"'
    END {
      n = split(all, names, " "); split(locked, held, " "); for (i in held) busy[held[i]] = 1
      best = ""; best_left = 0
      for (i = 1; i <= n; i++) {
        t = names[i]
        if (bad[t] || busy[t] || ex[t] >= goal) continue
        rate = sec[t] > 0 && run[t] > 0 ? run[t] / sec[t] : 1000
        left = (goal - ex[t]) / rate
        if (best == "" || left > best_left) { best = t; best_left = left }
      }
      if (best != "") printf "%s %d\n", best, best_left + 1
    }' "$ledger"
}

goal_worker() {
  local goal=$1 slice=$2 until_epoch=$3 picked target needed seconds left rc skip=""
  while [ ! -e "$corpus_root/stop" ]; do
    left=$((until_epoch - $(date +%s)))
    [ "$left" -le 10 ] && return 0
    # Picking and locking happen under one flock, so two workers never take the same target.
    picked=$( {
      flock 9
      p=$(pick_target "$goal" "$skip")
      [ -n "$p" ] && mkdir "$corpus_root/running/${p% *}" && echo "$p"
    } 9>"$corpus_root/running.lock")
    [ -z "$picked" ] && return 0
    target=${picked% *} needed=${picked#* }
    # A target close to GOAL gets a slice a little longer than its estimate (rates drift with
    # load), not a whole SLICE that would run far past the goal while others wait.
    seconds=$((needed + needed / 10 + 30))
    [ "$seconds" -gt "$slice" ] && seconds=$slice
    [ "$seconds" -gt "$left" ] && seconds=$left
    rc=0
    run_slice "$target" "$seconds" || rc=$?
    rmdir "$corpus_root/running/$target"
    [ "$rc" -eq 2 ] && skip="$skip $target"  # not again in this campaign (by this worker)
    [ "$rc" -eq 3 ] && return 0              # interrupted: the campaign is being stopped
  done
}

if [ "${1:-}" = --next ]; then
  pick_target "${2:?executions per target}" | cut -d' ' -f1
  exit 0
fi

die() { echo "fuzz-campaign: $*" >&2; exit 2; }
positive() { [[ $1 =~ ^[0-9]+$ ]] && [ "$1" -gt 0 ]; }
for target in "${targets[@]}"; do
  [ -x "$build/fuzz/$target" ] || die "no $build/fuzz/$target (tools/fuzz.sh all 1 builds the targets)"
done
# One campaign per corpus: a second one would clear the first one's locks and fuzz the same
# targets. The lock is inherited by the workers and fuzzers, so it outlives a killed main process.
exec 8>>"$corpus_root/campaign.lock"
flock -n 8 || die "another campaign runs on $corpus_root"

if [ "${1:-}" = --goal ]; then
  goal=${2:?executions per target}
  shift 2
  workers=1 slice=1200 until_epoch=$(($(date +%s) + 365 * 86400))
  while [ $# -gt 0 ]; do
    [ $# -ge 2 ] || die "$1 needs a value"
    case $1 in
      --workers) workers=$2 ;;
      --slice) slice=$2 ;;
      --until) until_epoch=$(date -d "$2" +%s) || die "bad --until $2" ;;
      *) die "unknown option $1" ;;
    esac
    shift 2
  done
  positive "$goal" && positive "$workers" && positive "$slice" || die "GOAL, --workers and --slice are positive integers"
  [ "$until_epoch" -gt "$(($(date +%s) + 10))" ] || die "--until is in the past"
  [ -e "$corpus_root/stop" ] && die "$corpus_root/stop exists (left by the last campaign?): remove it first"
  rm -rf "$corpus_root/running"
  mkdir -p "$corpus_root/running"
  for ((w = 0; w < workers; w++)); do
    goal_worker "$goal" "$slice" "$until_epoch" &
    sleep 1
  done
  wait
  exit 0
fi

until_epoch=$(date -d "${1:?until}" +%s) || die "bad UNTIL $1"
slice=${2:-300}
declare -A failed
while [ "$(date +%s)" -lt "$until_epoch" ]; do
  for target in "${targets[@]}"; do
    left=$((until_epoch - $(date +%s)))
    [ "$left" -le 10 ] && break
    [ -n "${failed[$target]:-}" ] && continue
    run_slice "$target" $((left < slice ? left : slice)) || failed[$target]=1
  done
done
