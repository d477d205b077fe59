#!/usr/bin/env bash
# Simulator speed of bench_noc against BookSim 2 on the same network (issue 9): 64 terminals, two stages of
# 8x8 routers (our hxbar with 8 slices per MC = BookSim's 8-ary 2-fly), 1 VC x 8 flits, iSLIP, 1- and
# 5-flit packets, at saturation (1 packet/cycle/terminal offered) and at 5 % load (0.05 flits/cycle/terminal),
# 100,000 cycles each (BookSim: warm-up + sample period; ours runs OURS_CYCLES, default 5x as long, so its
# shorter CPU times are still well above /usr/bin/time's 10 ms resolution; the figures are per cycle and per
# flit, and our state does not grow with the run). Runs are interleaved (ours, BookSim, ours, ...) so machine noise hits both alike;
# CPU time (user + sys) comes from /usr/bin/time for the whole process on both sides.
# Usage: noc_speed.sh [build dir]   Env: REPS (3), CYCLES (100000), OURS_CYCLES (5 x CYCLES),
#   BOOKSIM_REF (/tmp/booksim-ref).
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
BIN=${1:-$ROOT/build-fast}/bench/noc/bench_noc
REF=${BOOKSIM_REF:-/tmp/booksim-ref}
BS=$REF/src/src/booksim
REPS=${REPS:-3}
CYCLES=${CYCLES:-100000}
OURS_CYCLES=${OURS_CYCLES:-$((5 * CYCLES))}
OUT=$(mktemp -d /tmp/noc_speed.XXXXXX)
export SYSTEMC_DISABLE_COPYRIGHT_MESSAGE=1
[ -x "$BIN" ] || { echo "no $BIN: ninja -C build-fast bench_noc"; exit 1; }
HAVE_BS=0
[ -x "$BS" ] && [ -d "$REF/configs" ] && HAVE_BS=1 || echo "no BookSim at $REF: ours only"

# set name -> our mode flags, BookSim config (half of CYCLES is BookSim's warm-up, half its sample period)
declare -A OURS=([sat_p1]="--sat --packet-flits 1" [load05_p1]="--load 0.05 --packet-flits 1"
                 [sat_p5]="--sat --packet-flits 5" [load05_p5]="--load 0.05 --packet-flits 5")
declare -A CFG=([sat_p1]=fly8x2_sat [load05_p1]=fly8x2_load05 [sat_p5]=fly8x2_sat_p5 [load05_p5]=fly8x2_load05_p5)
SETS="sat_p1 load05_p1 sat_p5 load05_p5"

for r in $(seq 1 "$REPS"); do
  for s in $SETS; do
    # shellcheck disable=SC2086
    /usr/bin/time -f "%e %U %S" -o "$OUT/ours_${s}_$r.time" "$BIN" speed --type hxbar --inputs 64 --outputs 64 \
      --spm 8 --vcs 1 --vc-buf 8 --alloc islip ${OURS[$s]} --cycles "$OURS_CYCLES" > "$OUT/ours_${s}_$r.log"
    if [ $HAVE_BS = 1 ]; then  # BookSim exits 255 on success: judge by its "Time taken" line
      /usr/bin/time -f "%e %U %S" -o "$OUT/bs_${s}_$r.time" "$BS" "$REF/configs/${CFG[$s]}.cfg" \
        sample_period=$((CYCLES / 2)) > "$OUT/bs_${s}_$r.log" 2>&1 || true
      grep -q '^Time taken is' "$OUT/bs_${s}_$r.log" || echo "WARNING: BookSim $s rep $r did not finish"
    fi
  done
done
echo "$(uname -srm), $(nproc) CPUs,$(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2); load: $(cut -d' ' -f1-3 /proc/loadavg)"
/usr/bin/python3 "$ROOT/bench/noc/noc_speed_table.py" "$OUT" $((CYCLES / 2))
echo "logs: $OUT"
