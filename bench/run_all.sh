#!/usr/bin/env bash
# Runs every bench/ program against the build tree's amcl (and PoCL when installed) and writes
# their tables to one Markdown file.
#   bench/run_all.sh [build dir] [output file]
set -euo pipefail
build=$(realpath "${1:-build}")
out=${2:-$build/bench/results.md}
export OCL_ICD_VENDORS=$build/vendors
{
  echo "# amcl benchmarks ($(date -u +%Y-%m-%dT%H:%MZ), $(nproc) cores, $(uname -m))"
  for b in host_overhead round_trip_threads device_throughput device_peak emulator_throughput compile_time memory_footprint image_instructions; do
    echo
    echo "## $b"
    echo
    echo '```'
    "$build/bench/$b"
    echo '```'
  done
} > "$out"
cat "$out"
echo "written to $out" >&2
