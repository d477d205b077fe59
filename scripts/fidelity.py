#!/usr/bin/env python3
"""Replays the two H100 sample kernels (tests/data/accelsim/h100) at both L1 carve-outs through the SystemC
model and the reuse-distance model with configs/h100.yaml, and prints their sector hit rates next to the
hardware's (the table in tests/data/accelsim/h100/README.md, Nsight Compute counters):
  L1 load hit rate  l1tex__t_sector_pipe_lsu_mem_global_op_ld_hit_rate
  L2 hit rate       lts__t_sector_hit_rate (reads and writes)
  L2 read hit rate  lts__t_sector_op_read_hit_rate
Usage: scripts/fidelity [--bin GPUMEMSYS] [--out DIR] [--config FILE]   (scripts/fidelity builds first)
Exit status 0 every difference within its target, 1 one is not; 2 a bad command line or input (one line:
a missing binary, a config gpumemsys refuses); 3 a run failed, an output cannot be written, or an internal
error (--debug prints the traceback).
"""
import json
import os
import re
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import tool_errors as TE  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SAMPLES = os.path.join(ROOT, "tests", "data", "accelsim", "h100")
KERNELS = [("vector add", "kernel-2.traceg.xz"), ("stencil", "kernel-6.traceg.xz")]
SIZES = [("224 KiB", 229376), ("28 KiB", 28672)]
UNIFIED = 256 * 1024  # L1 + shared memory per SM


def hardware_table():
    """(kernel, size label) -> (L1 load hit, L2 hit, L2 read hit) in %, from the samples' README."""
    hw = {}
    kernel = None
    for line in TE.read_text(os.path.join(SAMPLES, "README.md"), " README").splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) != 6 or not cells[1].endswith("KiB") and "KiB" not in cells[1]:
            continue
        m = re.match(r"(\d+) KiB", cells[1])
        if not m:
            continue
        kernel = cells[0] or kernel
        pct = [float(c.rstrip(" %")) for c in cells[3:6]]
        hw[(kernel, m.group(1) + " KiB")] = tuple(pct)
    return hw


def run(cmd):
    try:
        r = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, errors="replace")
    except OSError as e:
        raise TE.InputError("--bin %s: cannot run: %s" % (cmd[0], e.strerror or e))
    if r.returncode != 0:  # gpumemsys' own last line says why; 2 is bad input (--config), else the run failed
        last = (r.stdout.strip().splitlines() or ["no output"])[-1]
        err = TE.InputError if r.returncode == 2 else TE.OutputError
        raise err("%s (exit %d): %s" % (" ".join(cmd[:2]), r.returncode, last))
    return r.stdout


def read_json(path):
    try:
        with open(path) as f:
            return json.load(f)
    except (OSError, ValueError) as e:
        raise TE.OutputError("%s: cannot read the run's output: %s" % (path, getattr(e, "strerror", None) or e))


def workload_dir(tmp, trace):
    d = os.path.join(tmp, trace.split(".")[0])
    os.makedirs(d, exist_ok=True)
    link = os.path.join(d, trace)
    if not os.path.exists(link):
        os.symlink(os.path.join(SAMPLES, trace), link)
    with open(os.path.join(d, "kernelslist.g"), "w") as f:
        f.write(trace + "\n")
    return d


def main(argv=None):
    argv = sys.argv[1:] if argv is None else argv
    return TE.guard("fidelity", lambda: fidelity_main(argv), "--debug" in argv, internal_status=3)


def fidelity_main(argv):
    import argparse
    ap = TE.ArgParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--bin", default=os.path.join(ROOT, "build", "tb", "cli", "gpumemsys"))
    ap.add_argument("--config", default=os.path.join(ROOT, "configs", "h100.yaml"))
    ap.add_argument("--out", default=os.path.join(ROOT, "out", "fidelity"))
    TE.add_debug(ap)
    try:
        a = ap.parse_args(argv)
    except SystemExit as e:  # --help
        return 2 if e.code else 0
    hw = hardware_table()
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        for kname, trace in KERNELS:
            w = workload_dir(tmp, trace)
            for slabel, sbytes in SIZES:
                sets = ["--set", "l1.size_bytes=%d" % sbytes, "--set", "sm.max_shmem=%d" % (UNIFIED - sbytes)]
                tag = "%s_%dk" % (trace.split(".")[0], sbytes // 1024)
                sim_out = os.path.join(a.out, tag, "sim")
                rd_out = os.path.join(a.out, tag, "rd")
                run([a.bin, "run", "-c", a.config, "-w", w, "-o", sim_out, "-q"] + sets)
                run([a.bin, "rd", "-c", a.config, "-w", w, "-o", rd_out] + sets)
                s = read_json(os.path.join(sim_out, "stats.json"))["system"]
                rd = read_json(os.path.join(rd_out, "rd.json"))
                rd_l1 = rd["total"]["load_sector_hit_rate"] if "total" in rd else rd["load_sector_hit_rate"]
                rows.append((kname, slabel, hw.get((kname, slabel)),
                             (100 * s["l1_load_sector_hit_rate"], 100 * s["llc_sector_hit_rate"],
                              100 * s["llc_read_sector_hit_rate"], s["data_mismatches"]),
                             100 * rd_l1))
    print("H100 sample kernels, %s (hardware: Nsight Compute, cold caches)" % os.path.relpath(a.config, ROOT))
    print()
    print("| kernel | L1 | L1 load hit: hw | SystemC | rd model | L2 hit: hw | SystemC | L2 read hit: hw | SystemC | mismatches |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    worst = [0.0, 0.0, 0.0]
    for kname, slabel, h, sim, rdl1 in rows:
        h = h or (float("nan"),) * 3
        print("| %s | %s | %.1f %% | %.1f %% | %.1f %% | %.1f %% | %.1f %% | %.2f %% | %.1f %% | %d |" %
              (kname, slabel, h[0], sim[0], rdl1, h[1], sim[1], h[2], sim[2], sim[3]))
        worst = [max(worst[0], abs(sim[0] - h[0])), max(worst[1], abs(sim[1] - h[1])), max(worst[2], abs(rdl1 - sim[0]))]
    print()
    print("largest differences: SystemC L1 vs hw %.1f points (target 2), SystemC L2 vs hw %.1f (target 3), "
          "rd vs SystemC L1 %.1f (target 3)" % tuple(worst))
    return 0 if worst[0] <= 2 and worst[1] <= 3 and worst[2] <= 3 else 1


if __name__ == "__main__":
    sys.exit(main())
