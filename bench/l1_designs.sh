#!/usr/bin/env bash
# Cost of each L1 design per access, as a ratio to the baseline from interleaved runs in one session (the
# machines are shared: only ratios taken side by side mean anything). Not a test; issue 11 asks that no
# design costs more than 1.5x the baseline per access.
#   bench/l1_designs.sh [ROUNDS] [DESIGN ...]      (default: 3 rounds, every design below)
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/../scripts/setup.sh"
BUILD="${GMS_BUILD_DIR:-$GMS_ROOT/build-fast}"
gms_setup "$BUILD" -DGMS_BUILD_BENCH=ON -DGMS_FAST=ON -DGMS_BUILD_TESTS=OFF >&2
ROUNDS="${1:-3}"
shift || true
DESIGNS=("$@")
if [[ ${#DESIGNS[@]} -eq 0 ]]; then
  DESIGNS=(baseline sector tsc tsc_plus dsc gcache decoupled bypass_all stall_bypass)
fi
BENCH="$BUILD/bench/system/bench_system"
OUT=$(mktemp)
trap 'rm -f "$OUT"' EXIT
for ((r = 0; r < ROUNDS; r++)); do
  for p in streaming random; do
    for d in baseline "${DESIGNS[@]}"; do
      if line=$("$BENCH" "$p" 64 "$GMS_ROOT/configs/fermi.yaml" "l1.design=$d" 2>/dev/null); then
        echo "$d $p $(grep -o 'l1_accesses_per_cpu_s=[0-9]*' <<<"$line" | cut -d= -f2)" >>"$OUT"
      else
        echo "$d $p failed" >>"$OUT"
      fi
    done
  done
done
python3 - "$OUT" <<'PY'
import collections, statistics, sys
runs = collections.defaultdict(list)
for line in open(sys.argv[1]):
    d, p, v = line.split()
    if v != "failed":
        runs[(d, p)].append(int(v))
print(f"{'design':14} {'pattern':10} {'accesses/cpu_s':>15} {'cost vs baseline':>17}")
for (d, p), v in sorted(runs.items(), key=lambda kv: (kv[0][1], kv[0][0])):
    base = statistics.median(runs[("baseline", p)])
    med = statistics.median(v)
    print(f"{d:14} {p:10} {med:15.0f} {base / med:16.2f}x")
PY
