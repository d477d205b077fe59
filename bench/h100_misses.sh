#!/usr/bin/env bash
# The noise-free side of issue 14's speed target. bench/h100_speed.sh times the H100 and fermi presets on
# the vecadd sample, but the H100 run is bound by host memory (11,000 requests in flight, 80 MB of cache
# arrays) and on a shared machine its wall time swings far more than fermi's: single interleaved pairs
# gave h100/fermi ratios from 0.46 to 0.82 in one session. This runs both presets once under callgrind's
# cache simulation, counting only inside GpuSystem::run (the simulation phase the speed figure divides by;
# set-up and statistics output excluded), and prints instructions, L1 data misses and last-level misses
# (a 32 MiB LL, the EPYC's L3; 64 KiB 8-way L1D) per preset and their h100/fermi ratios. Deterministic for
# a given binary: compare two binaries (before/after a change) side by side. Takes about 6 minutes on two
# cores (both presets in parallel).
#   bench/h100_misses.sh [gpumemsys binary]   (default: build-fast's, built as bench/h100_speed.sh does)
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/../scripts/setup.sh"
command -v valgrind >/dev/null || { echo "h100_misses.sh: needs valgrind (apt-get install valgrind)" >&2; exit 2; }
if [[ $# -ge 1 ]]; then
  BIN="$(realpath "$1")"
else
  BUILD="${GMS_BUILD_DIR:-$GMS_ROOT/build-fast}"
  gms_setup "$BUILD" -DGMS_BUILD_BENCH=ON -DGMS_FAST=ON -DGMS_BUILD_TESTS=OFF >&2
  BIN="$BUILD/tb/cli/gpumemsys"
fi
TMP="$(mktemp -d)"
trap 'rm -rf "$TMP"' EXIT
mkdir -p "$TMP/w"
ln -s "$GMS_ROOT/tests/data/accelsim/h100/kernel-2.traceg.xz" "$TMP/w/"
echo "kernel-2.traceg.xz" >"$TMP/w/kernelslist.g"
for preset in fermi h100; do
  # GMS_HUGE_PAGES=0: no re-exec (valgrind would follow it) and no glibc tunables under valgrind.
  GMS_HUGE_PAGES=0 valgrind --tool=callgrind --cache-sim=yes --D1=65536,8,64 --LL=33554432,16,64 \
    --toggle-collect='gms::GpuSystem::run()' --callgrind-out-file="$TMP/$preset.cg" \
    "$BIN" run -c "$GMS_ROOT/configs/$preset.yaml" -w "$TMP/w" -o "$TMP/out_$preset" -q \
    >"$TMP/$preset.log" 2>&1 &
done
wait
python3 - "$TMP" <<'PY'
import sys
d = {}
for p in ("fermi", "h100"):
    events = totals = None
    for line in open("%s/%s.cg" % (sys.argv[1], p)):
        if line.startswith("events:"):
            events = line.split()[1:]
        elif line.startswith("totals:") or line.startswith("summary:"):
            totals = [int(x) for x in line.split()[1:]]
    v = dict(zip(events, totals))
    d[p] = (v["Ir"], v["D1mr"] + v["D1mw"], v["DLmr"], v["DLmw"])
print("simulation phase (GpuSystem::run), vecadd sample, callgrind cache simulation")
print("(a load that misses stalls; a store miss mostly drains from the store buffer)")
print("%-10s %14s %12s %14s %14s" % ("preset", "instructions", "L1D misses", "LL load miss", "LL store miss"))
for p in ("fermi", "h100"):
    print("%-10s %14d %12d %14d %14d" % ((p,) + d[p]))
print("%-10s %14.2f %12.2f %14.2f %14.2f" % (("h100/fermi",) + tuple(h / f for h, f in zip(d["h100"], d["fermi"]))))
PY
