#!/usr/bin/env bash
# Runs the libFuzzer targets of an -DAMCL_LIBFUZZER=ON build for a bounded time each and prints
# what they did: executions, corpus growth, crashes. Corpora persist under <build>/fuzz-corpus
# (a later run continues from them); a crashing input is saved under <build>/fuzz-artifacts
# and replays with `<build>/fuzz/<target> <file>`. Exits 1 when any target found a crash.
#
#   scripts/run-fuzzers.sh <build dir> [seconds per target (default 20)] [target ...]
#
# Targets: code_object build api pm4 sdma ip_discovery spirv (default: all).
set -uo pipefail
build=$(realpath "${1:?usage: run-fuzzers.sh <build dir> [seconds] [target ...]}")
seconds=${2:-20}
shift $(( $# >= 2 ? 2 : 1 ))
targets=("$@")
[ ${#targets[@]} -eq 0 ] && targets=(code_object build api pm4 sdma ip_discovery spirv)
src=$(cd "$(dirname "$0")/.." && pwd)

export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
seeds=$build/fuzz-seeds
"$build/fuzz/fuzz_seeds" "$seeds" "$src/tests/corpus" || exit 1
mkdir -p "$build/fuzz-artifacts" "$build/fuzz-logs"

# libFuzzer runs one input at a time on one thread: the targets run AMCL_FUZZ_JOBS at a time
# (default: one per CPU), each for its full time.
jobs=${AMCL_FUZZ_JOBS:-$(nproc)}
fuzz_one() {
  local t=$1 corpus=$build/fuzz-corpus/$1 inputs args
  mkdir -p "$corpus"
  args=(-max_total_time="$seconds" -print_final_stats=1 -timeout=60 -rss_limit_mb=4096
        -artifact_prefix="$build/fuzz-artifacts/$t-")
  case $t in
  code_object | build | ip_discovery) inputs=("$corpus" "$seeds/$t") ;;
  spirv) inputs=("$corpus" "$build/fuzz/spirv-seeds") ;;
  *) inputs=("$corpus"); args+=(-max_len=512) ;; # decision streams: let them grow long
  esac
  "$build/fuzz/${t}_fuzzer" "${args[@]}" "${inputs[@]}" >"$build/fuzz-logs/$t.log" 2>&1
  echo $? >"$build/fuzz-logs/$t.rc"
}
for t in "${targets[@]}"; do
  while [ "$(jobs -rp | wc -l)" -ge "$jobs" ]; do wait -n; done
  fuzz_one "$t" &
done
wait

status=0
printf '%-12s %10s %9s %8s %7s  %s\n' target executions exec/s "corpus" crashes log
for t in "${targets[@]}"; do
  log=$build/fuzz-logs/$t.log
  rc=$(cat "$build/fuzz-logs/$t.rc" 2>/dev/null || echo 1)
  execs=$(grep -o 'number_of_executed_units: *[0-9]*' "$log" | grep -o '[0-9]*$')
  rate=$(grep -o 'average_exec_per_sec: *[0-9]*' "$log" | grep -o '[0-9]*$')
  crashes=$(find "$build/fuzz-artifacts" -name "$t-*" | wc -l)
  printf '%-12s %10s %9s %8s %7s  %s\n' "$t" "${execs:-?}" "${rate:-?}" "$(ls "$build/fuzz-corpus/$t" | wc -l)" \
    "$crashes" "$log"
  if [ "$rc" -ne 0 ]; then
    status=1
    echo "  $t exited with $rc:" && grep -E 'ERROR|amcl fuzz:|SUMMARY' "$log" | head -5 | sed 's/^/    /'
  fi
done
exit $status
