#!/usr/bin/env bash
# What tracing costs (issue 13: "an untraced run is not slower than today"). Builds gpumemsys from this
# tree and from a git revision (the main before the probes went in), both with the same flags, then runs
#   1. untraced, interleaved A B A B ...: the embedded default (or the run given after --) on each binary;
#   2. this tree traced with every probe (--vcd, --trace '*') against untraced, interleaved, on a config
#      and workload (default: configs/fermi.yaml with configs/workloads/mix.yaml; the embedded default
#      takes no options, and its full dump would be gigabytes).
#   3. where valgrind is installed, the instructions each binary executes for run 1 (cachegrind, no cache
#      simulation): deterministic, so it settles what noisy timings cannot (GMS_BENCH_NO_VALGRIND=1 skips).
# Prints every run's wall and CPU time (user + system, /usr/bin/time), the medians and their ratios, and
# the traced run's VCD size. Not a test: the machines are shared and noisy, only medians of interleaved
# runs taken side by side mean anything.
#   bench/trace_overhead.sh [REV] [RUNS] [-- gpumemsys run options for step 1]
#     REV   git revision to compare with (default befa9fd)     RUNS  runs per side (default 5, at least 5)
#   env GMS_BENCH_CMAKE_ARGS  extra cmake flags of both builds (default none: the -O2 Release build that
#                             scripts/run makes; -DGMS_FAST=ON for the -O3/LTO one of bench/run_benchmarks.sh)
#       TRACE_RUN             options of step 2 (default: -c configs/fermi.yaml -w configs/workloads/mix.yaml)
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/../scripts/setup.sh"
REV="${1:-befa9fd}"
RUNS="${2:-5}"
shift $(($# < 2 ? $# : 2))
[[ "${1:-}" == "--" ]] && shift
RUN_ARGS=("$@")
((RUNS >= 5)) || { echo "trace_overhead.sh: RUNS must be at least 5" >&2; exit 2; }
read -r -a CMAKE_ARGS <<<"${GMS_BENCH_CMAKE_ARGS:-}"
read -r -a TRACE_RUN <<<"${TRACE_RUN:-run -c $GMS_ROOT/configs/fermi.yaml -w $GMS_ROOT/configs/workloads/mix.yaml}"
command -v ccache >/dev/null && CMAKE_ARGS+=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
gms_install_packages

# build SRC BUILD: only the gpumemsys binary, no tests or benchmarks.
build() {
  cmake -S "$1" -B "$2" -DCMAKE_BUILD_TYPE=Release -DGMS_BUILD_TESTS=OFF -DGMS_BUILD_BENCH=OFF \
    "${CMAKE_ARGS[@]}" >/dev/null
  cmake --build "$2" --target gpumemsys -j "$(gms_jobs)" >&2
}
SHA="$(git -C "$GMS_ROOT" rev-parse --short "$REV^{commit}")"
# The revision's sources, with its build inside as in a checkout (so ccache finds the same relative
# paths), kept for the next invocation.
BASE="$GMS_ROOT/build-rev/$SHA"
if [[ ! -f "$BASE/CMakeLists.txt" ]]; then
  mkdir -p "$BASE"
  git -C "$GMS_ROOT" archive "$SHA" | tar -x -C "$BASE"
fi
echo "building $SHA and this tree (Release ${CMAKE_ARGS[*]})" >&2
build "$BASE" "$BASE/build"
build "$GMS_ROOT" "$GMS_ROOT/build-trace-bench"
OLD="$BASE/build/tb/cli/gpumemsys"
NEW="$GMS_ROOT/build-trace-bench/tb/cli/gpumemsys"

TMP="$(mktemp -d)"
trap 'rm -rf "$TMP"' EXIT
# timed LABEL CMD...: one run in $TMP (the embedded default writes out/ in the working directory).
timed() {
  local label="$1"
  shift
  (cd "$TMP" && /usr/bin/time -f "%e %U %S" -o "$TMP/time" "$@" >"$TMP/log" 2>&1) ||
    { cat "$TMP/log" >&2; exit 1; }
  read -r wall user sys_ <"$TMP/time"
  echo "$label $wall $(python3 -c "print(round($user + $sys_, 2))")" >>"$TMP/results"
}
for ((i = 0; i < RUNS; i++)); do
  timed "untraced_$SHA" "$OLD" "${RUN_ARGS[@]}"
  timed "untraced_this_tree" "$NEW" "${RUN_ARGS[@]}"
done
for ((i = 0; i < RUNS; i++)); do
  timed "untraced" "$NEW" "${TRACE_RUN[@]}" -q -o "$TMP/o"
  timed "traced_all_probes" "$NEW" "${TRACE_RUN[@]}" -q -o "$TMP/o" --vcd "$TMP/all.vcd" --trace '*'
done
VCD_BYTES="$(stat -c %s "$TMP/all.vcd")"
# instructions BINARY: instructions executed untraced (GMS_HUGE_PAGES=0: the CLI's re-exec would leave
# valgrind behind).
instructions() {
  (cd "$TMP" && GMS_HUGE_PAGES=0 valgrind --tool=cachegrind --cache-sim=no --cachegrind-out-file=/dev/null \
    "$1" "${RUN_ARGS[@]}" 2>&1 >/dev/null | awk '/I +refs/ {gsub(",", "", $4); print $4}')
}
INSN=""
if command -v valgrind >/dev/null && [[ -z "${GMS_BENCH_NO_VALGRIND:-}" ]]; then
  echo "counting instructions (valgrind, a few minutes)" >&2
  INSN="$(instructions "$OLD") $(instructions "$NEW")"
fi
python3 - "$TMP/results" "$SHA" "$VCD_BYTES" "${RUN_ARGS[*]:-(embedded default)}" "${TRACE_RUN[*]}" \
  "$INSN" <<'PY'
import statistics, sys
path, sha, vcd_bytes, run1, run2, insn = sys.argv[1:]
runs = {}
for line in open(path):
    label, wall, cpu = line.split()
    runs.setdefault(label, []).append((float(wall), float(cpu)))
med = {k: (statistics.median(w for w, _ in v), statistics.median(c for _, c in v)) for k, v in runs.items()}
def show(k):
    v = runs[k]
    print("  %-20s wall s %-34s cpu s %-34s median wall %.2f cpu %.2f" % (k, " ".join("%.2f" % w for w, _ in v),
          " ".join("%.2f" % c for _, c in v), *med[k]))
def ratio(a, b, what):
    print("  %s: wall %.3f, cpu %.3f" % (what, med[a][0] / med[b][0], med[a][1] / med[b][1]))
print("1. untraced, this tree vs %s, interleaved: gpumemsys %s" % (sha, run1))
show("untraced_" + sha); show("untraced_this_tree")
ratio("untraced_this_tree", "untraced_" + sha, "this tree / " + sha + " (median)")
print("2. traced with every probe vs untraced, this tree, interleaved: gpumemsys %s" % run2)
show("untraced"); show("traced_all_probes")
ratio("traced_all_probes", "untraced", "traced / untraced (median)")
print("  VCD: %.1f MB" % (int(vcd_bytes) / 1e6))
if insn.strip():
    old, new = (int(x) for x in insn.split())
    print("3. instructions executed untraced (cachegrind): %s %d, this tree %d, ratio %.4f" % (sha, old, new, new / old))
PY
