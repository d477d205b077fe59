#!/usr/bin/env python3
"""Replays the three H100 kernels (tests/data/accelsim/h100: vector add, stencil; h100-colcopy: a column walk)
at both L1 carve-outs through the SystemC model and the reuse-distance model with configs/h100.yaml, and
prints them next to the hardware's Nsight Compute counters (the tables in the folders' README.md):
  L1 load hit rate  l1tex__t_sector_pipe_lsu_mem_global_op_ld_hit_rate
  L1 all-sector     l1tex__t_sector_hit_rate (loads and stores; the model's stores never hit its L1)
  L2 hit rate       lts__t_sector_hit_rate (reads and writes)
  L2 read hit rate  lts__t_sector_op_read_hit_rate
  DRAM sectors read, and the kernel's SM cycles (where the README gives them)
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
COLCOPY = os.path.join(ROOT, "tests", "data", "accelsim", "h100-colcopy")
# (name, folder, trace, load sectors, store sectors): the sectors from the READMEs (equal to Nsight's).
KERNELS = [("vector add", SAMPLES, "kernel-2.traceg.xz", 655360, 327680),
           ("stencil", SAMPLES, "kernel-6.traceg.xz", 898560, 163840),
           ("column copy", COLCOPY, "kernel-9.traceg.xz", 131072, 131072)]
SIZES = [("224 KiB", 229376), ("28 KiB", 28672)]
UNIFIED = 256 * 1024  # L1 + shared memory per SM


def number(text):
    return float(text.replace(",", "").rstrip(" %"))


def hardware_table():
    """(kernel, size label) -> dict of l1_load, l1_all, l2, l2_read (%), dram_read (sectors), cycles (SM
    cycles), from the READMEs; a value the README does not give is absent."""
    hw = {}
    kernel = None
    for line in TE.read_text(os.path.join(SAMPLES, "README.md"), " README").splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) != 6:
            continue
        m = re.match(r"(\d+) KiB", cells[1])
        if not m:
            continue
        kernel = cells[0] or kernel
        pct = [number(c) for c in cells[2:6]]
        hw[(kernel, m.group(1) + " KiB")] = dict(zip(("l1_all", "l1_load", "l2", "l2_read"), pct))
    text = TE.read_text(os.path.join(COLCOPY, "README.md"), " README")
    rows = {}
    for line in text.splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) == 3:
            rows[cells[0].split(" (")[0]] = cells[1:]
        if len(cells) == 5 and cells[0] in ("vector add", "stencil"):  # the samples' L2 table (224 KiB)
            hw.setdefault((cells[0], "224 KiB"), {})["dram_read"] = number(cells[4])
    for i, size in enumerate(("224 KiB", "28 KiB")):
        d = hw.setdefault(("column copy", size), {})
        for key, label in (("l1_load", "L1 load sector hit rate"), ("l1_all", "L1 sector hit rate, loads and stores"),
                           ("l2", "L2 sector hit rate"), ("l2_read", "L2 read sector hit rate")):
            if label in rows:
                d[key] = number(rows[label][i])
        if "DRAM sectors read / written" in rows:
            d["dram_read"] = number(rows["DRAM sectors read / written"][i].split("/")[0])
        if "kernel time" in rows:
            m = re.search(r"\(([\d,]+) SM cycles\)", rows["kernel time"][i])
            if m:
                d["cycles"] = number(m.group(1))
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


def workload_dir(tmp, folder, trace):
    d = os.path.join(tmp, trace.split(".")[0])
    os.makedirs(d, exist_ok=True)
    link = os.path.join(d, trace)
    if not os.path.exists(link):
        os.symlink(os.path.join(folder, trace), link)
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
        for kname, folder, trace, ld_sectors, st_sectors in KERNELS:
            w = workload_dir(tmp, folder, trace)
            for slabel, sbytes in SIZES:
                sets = ["--set", "l1.size_bytes=%d" % sbytes, "--set", "sm.max_shmem=%d" % (UNIFIED - sbytes)]
                tag = "%s_%dk" % (trace.split(".")[0], sbytes // 1024)
                sim_out = os.path.join(a.out, tag, "sim")
                rd_out = os.path.join(a.out, tag, "rd")
                run([a.bin, "run", "-c", a.config, "-w", w, "-o", sim_out, "-q"] + sets)
                run([a.bin, "rd", "-c", a.config, "-w", w, "-o", rd_out] + sets)
                stats = read_json(os.path.join(sim_out, "stats.json"))
                s = stats["system"]
                l1_hits = sum(g.get("load_sector_hits", 0) for k, g in stats.items() if k.startswith("l1_"))
                dram_read = sum(g.get("bytes_read", 0) for k, g in stats.items() if k.startswith("dram")) / 32
                rd = read_json(os.path.join(rd_out, "rd.json"))
                rd_l1 = rd["total"]["load_sector_hit_rate"] if "total" in rd else rd["load_sector_hit_rate"]
                model = {"l1_load": 100 * s["l1_load_sector_hit_rate"],
                         "l1_all": 100 * l1_hits / (ld_sectors + st_sectors),
                         "l2": 100 * s["llc_sector_hit_rate"], "l2_read": 100 * s["llc_read_sector_hit_rate"],
                         "dram_read": dram_read, "cycles": s["sm_cycles"], "mismatches": s["data_mismatches"]}
                rows.append((kname, slabel, hw.get((kname, slabel), {}), model, 100 * rd_l1))

    def pct(d, k):
        return "%.1f %%" % d[k] if k in d else "-"

    def count(d, k):
        return "{:,}".format(int(d[k])) if k in d else "-"

    print("H100 kernels, %s (hardware: Nsight Compute, cold caches; hw / SystemC)" % os.path.relpath(a.config, ROOT))
    print()
    print("| kernel | L1 | L1 load hit | rd model | L1 all-sector hit | L2 hit | L2 read hit | DRAM sectors read "
          "| SM cycles | mismatches |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    worst = [0.0, 0.0, 0.0, 0.0]
    for kname, slabel, h, m, rdl1 in rows:
        cells = ["%s / %s" % (pct(h, k), pct(m, k)) for k in ("l1_load",)]
        cells.append("%.1f %%" % rdl1)
        cells += ["%s / %s" % (pct(h, k), pct(m, k)) for k in ("l1_all", "l2", "l2_read")]
        cells += ["%s / %s" % (count(h, k), count(m, k)) for k in ("dram_read", "cycles")]
        print("| %s | %s | %s | %d |" % (kname, slabel, " | ".join(cells), m["mismatches"]))
        for i, k in enumerate(("l1_load", "l2", "l2_read")):
            if k in h:
                worst[i] = max(worst[i], abs(m[k] - h[k]))
        worst[3] = max(worst[3], abs(rdl1 - m["l1_load"]))
    print()
    print("largest differences: SystemC L1 load vs hw %.1f points (target 2), L2 %.1f (target 3), L2 read %.1f "
          "(target 3), rd vs SystemC L1 %.1f (target 3)" % tuple(worst))
    return 0 if worst[0] <= 2 and worst[1] <= 3 and worst[2] <= 3 and worst[3] <= 3 else 1


if __name__ == "__main__":
    sys.exit(main())
