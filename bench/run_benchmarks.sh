#!/usr/bin/env bash
# Builds and runs every benchmark and prints their figures (not a test; see README "Benchmarks").
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/../scripts/setup.sh"
# Its own build: -O3 with link-time optimisation (GMS_FAST), no tests.
BUILD="${GMS_BUILD_DIR:-$GMS_ROOT/build-fast}"
gms_setup "$BUILD" -DGMS_BUILD_BENCH=ON -DGMS_FAST=ON -DGMS_BUILD_TESTS=OFF >&2
echo "== system (fermi preset): L1 accesses per second and peak memory; two lengths show memory does not grow"
for p in streaming random; do
  for n in 32 128; do "$BUILD/bench/system/bench_system" "$p" "$n"; done
done
if [[ -x "$BUILD/bench/dram/bench_dram" ]]; then
  echo "== one DRAM channel, 1,000,000 random and 1,000,000 sequential 64 B reads"
  "$BUILD/bench/dram/bench_dram"
fi
if [[ -x "$BUILD/bench/traces/bench_traces" ]]; then
  echo "== native trace: write and read back 10,000,000 instructions (peak memory while reading)"
  "$BUILD/bench/traces/bench_traces"
fi
if [[ -x "$BUILD/bench/analytic/bench_rd" ]]; then
  echo "== reuse-distance model on a 10-million-access trace"
  "$BUILD/bench/analytic/bench_rd"
fi
if [[ -x "$BUILD/bench/ports/bench_port_generation" ]]; then
  echo "== kernel ports: warp instructions per CPU second of generation (no simulator), then memory flatness"
  "$BUILD/bench/ports/bench_port_generation"
  "$BUILD/bench/ports/bench_port_generation" --flat
fi
