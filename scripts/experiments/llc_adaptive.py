#!/usr/bin/python3
"""Shared vs private vs adaptive memory-side LLC on paper 004's baseline GPU (issue 12).

Runs `gpumemsys run` on configs/volta80-hxbar.yaml (H-Xbar, two-level round-robin CTA order, PAE) for every
workload class of paper 004 section 6 with --set llc.mode=shared|private|adaptive, in a pool of processes,
into OUT/<workload>/<mode>/ (a run whose stats.json exists is not run again, so the script resumes), then
writes docs/results/llc_adaptive.csv and .png (Figures 11, 12 and 14 in shape) and prints the tables that
docs/results/llc_adaptive.md holds.

The adaptive run's windows scale with the workload: profile_cycles = PROFILE_SHARE x and epoch_cycles =
EPOCH_SHARE x the shared run's SM cycles (the paper's 50K / 1M cycles are for runs of one billion
instructions, one or two epochs long), so the shared run goes first.

Usage: scripts/experiments/llc_adaptive.py [--build build] [--out build/llc_experiment] [--jobs 2]
       [--results docs/results] [--set KEY=VALUE ...]
Runs the system's python3 (Debian python3-matplotlib), no other dependency.
"""
import argparse, csv, json, os, subprocess, sys, time
from concurrent.futures import ProcessPoolExecutor

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
CONFIG = "configs/volta80-hxbar.yaml"
MODES = ("shared", "private", "adaptive")
PROFILE_SHARE, EPOCH_SHARE = 0.05, 0.5
# (name, paper 004 class, workload file): tests/data/llc_adaptive/volta/ scales the fermi-sized tables to
# the 6 MB LLC and gives every SM two CTAs; the fermi-sized originals stay as smaller cases.
WORKLOADS = [
    ("sharing-volta", "private-friendly", "tests/data/llc_adaptive/volta/sharing.yaml"),
    ("sharing-30cta", "private-friendly", "tests/data/llc_adaptive/sharing.yaml"),
    ("sharing-sweep", "private-friendly", "configs/workloads/sharing.yaml"),
    ("footprint-volta", "shared-friendly", "tests/data/llc_adaptive/volta/footprint.yaml"),
    ("nosharing-volta", "neutral", "tests/data/llc_adaptive/volta/nosharing.yaml"),
    ("nosharing-60cta", "neutral", "tests/data/llc_adaptive/nosharing.yaml"),
    ("mix", "neutral", "configs/workloads/mix.yaml"),
]
STATS = ["system.sm_cycles", "system.llc_hit_rate", "system.llc_response_rate", "xbar.energy_nj",
         "xbar.energy_dynamic_nj", "xbar.energy_static_nj", "system.dram_bytes", "system.data_mismatches",
         "llc_mode.to_private", "llc_mode.to_shared", "llc_mode.cycles_private", "llc_mode.reconfig_cycles",
         "llc_adaptive.windows", "llc_adaptive.no_samples", "llc_adaptive.rule1", "llc_adaptive.rule2", "llc_adaptive.rule3",
         "llc_adaptive.predicted_private_miss_rate", "llc_adaptive.last_predicted_private_miss_rate",
         "llc_adaptive.last_shared_miss_rate"]


def run_one(binary, out, name, workload, mode, sets, extra):
    """One gpumemsys run into out/name/mode unless its stats.json exists; returns its wall seconds."""
    d = os.path.join(out, name, mode)
    if os.path.exists(os.path.join(d, "stats.json")):
        return name, mode, None
    os.makedirs(d, exist_ok=True)
    cmd = [binary, "run", "-q", "-c", CONFIG, "-w", workload, "-o", d, "--set", "llc.mode=" + mode]
    for s in extra + sets:
        cmd += ["--set", s]
    t = time.time()
    r = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True,
                       env=dict(os.environ, SYSTEMC_DISABLE_COPYRIGHT_MESSAGE="1"))
    wall = time.time() - t
    if r.returncode:
        sys.exit("failed (%d): %s\n%s" % (r.returncode, " ".join(cmd), r.stdout[-2000:] + r.stderr[-2000:]))
    with open(os.path.join(d, "wall_s"), "w") as f:
        f.write("%.2f\n" % wall)
    return name, mode, wall


def read_stats(out, name, mode):
    with open(os.path.join(out, name, mode, "stats.csv")) as f:
        s = dict.fromkeys(STATS, 0.0)  # llc_adaptive.* exist in adaptive runs only
        s.update({r["path"]: float(r["value"]) for r in csv.DictReader(f) if r["path"] in STATS})
    wall = os.path.join(out, name, mode, "wall_s")
    s["wall_s"] = float(open(wall).read()) if os.path.exists(wall) else float("nan")
    return s


def adaptive_sets(shared):
    """The adaptive windows, scaled to the shared run's length (see the module text)."""
    cycles = shared["system.sm_cycles"]
    profile = max(100, int(round(cycles * PROFILE_SHARE, -2)))
    epoch = max(2 * profile, int(round(cycles * EPOCH_SHARE, -2)))
    return ["llc.adaptive.profile_cycles=%d" % profile, "llc.adaptive.epoch_cycles=%d" % epoch]


def run_all(binary, out, jobs, extra):
    """Shared and private runs first, then the adaptive ones, whose windows need the shared run's length."""
    with ProcessPoolExecutor(jobs) as pool:
        for phase in (("shared", "private"), ("adaptive",)):
            futs = [pool.submit(run_one, binary, out, n, w, m,
                                adaptive_sets(read_stats(out, n, "shared")) if m == "adaptive" else [], extra)
                    for n, _, w in WORKLOADS for m in phase]
            for f in futs:
                n, m, wall = f.result()
                print("%-16s %-8s %s" % (n, m, "done in %.1f s" % wall if wall is not None else "kept"))


def collect(out):
    """One row per (workload, mode), with the ratios to the shared run."""
    rows = []
    for n, cls, w in WORKLOADS:
        st = {m: read_stats(out, n, m) for m in MODES}
        sh, pr = st["shared"], st["private"]
        windows = adaptive_sets(sh)
        for m in MODES:
            s = st[m]
            rows.append(dict(
                workload=n, cls=cls, mode=m, sm_cycles=int(s["system.sm_cycles"]),
                perf_norm=sh["system.sm_cycles"] / s["system.sm_cycles"],
                llc_hit_rate=s["system.llc_hit_rate"], llc_response_rate=s["system.llc_response_rate"],
                response_norm=s["system.llc_response_rate"] / sh["system.llc_response_rate"],
                noc_energy_nj=s["xbar.energy_nj"], noc_dynamic_nj=s["xbar.energy_dynamic_nj"],
                noc_static_nj=s["xbar.energy_static_nj"], energy_norm=s["xbar.energy_nj"] / sh["xbar.energy_nj"],
                dram_bytes=int(s["system.dram_bytes"]), mismatches=int(s["system.data_mismatches"]),
                to_private=int(s["llc_mode.to_private"]), to_shared=int(s["llc_mode.to_shared"]),
                private_share=s["llc_mode.cycles_private"] / max(1.0, s["system.sm_cycles"]),
                windows=int(s["llc_adaptive.windows"]), no_samples=int(s["llc_adaptive.no_samples"]), rule1=int(s["llc_adaptive.rule1"]),
                rule2=int(s["llc_adaptive.rule2"]), rule3=int(s["llc_adaptive.rule3"]),
                predicted_private_miss=s["llc_adaptive.predicted_private_miss_rate"] if m == "adaptive" else "",
                private_run_miss=1 - pr["system.llc_hit_rate"] if m == "adaptive" else "",
                profile_cycles=windows[0].split("=")[1] if m == "adaptive" else "",
                epoch_cycles=windows[1].split("=")[1] if m == "adaptive" else "",
                wall_s=s["wall_s"]))
    return rows


def write_csv(rows, path):
    with open(path, "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=list(rows[0]))
        w.writeheader()
        for r in rows:
            w.writerow({k: ("%.4g" % v if isinstance(v, float) else v) for k, v in r.items()})


def plot(rows, path):
    """Figures 11, 12 and 14 in shape: grouped bars per workload, shared / private / adaptive."""
    names = [n for n, _, _ in WORKLOADS]
    panels = [("perf_norm", "performance (1 / SM cycles), norm. to shared", "Fig. 11"),
              ("response_norm", "LLC response rate, norm. to shared", "Fig. 12"),
              ("energy_norm", "NoC energy, norm. to shared", "Fig. 14")]
    fig, axes = plt.subplots(3, 1, figsize=(11, 10), sharex=True)
    for ax, (key, label, fig_name) in zip(axes, panels):
        for i, m in enumerate(MODES):
            vals = [next(r[key] for r in rows if r["workload"] == n and r["mode"] == m) for n in names]
            ax.bar([x + (i - 1) * 0.27 for x in range(len(names))], vals, 0.27, label=m)
        ax.axhline(1.0, color="k", lw=0.6)
        ax.set_ylabel(label, fontsize=8)
        ax.set_title("%s analogue (volta80-hxbar)" % fig_name, fontsize=9)
        ax.grid(axis="y", alpha=0.3)
    axes[0].legend(ncol=3, fontsize=8)
    cls = {n: c for n, c, _ in WORKLOADS}
    axes[-1].set_xticks(range(len(names)))
    axes[-1].set_xticklabels(["%s\n(%s)" % (n, cls[n]) for n in names], fontsize=7)
    fig.tight_layout()
    fig.savefig(path, dpi=110)


def print_tables(rows):
    """Markdown tables for docs/results/llc_adaptive.md."""
    by = {(r["workload"], r["mode"]): r for r in rows}
    names = [n for n, _, _ in WORKLOADS]
    for key, title, fmt in [("perf_norm", "performance normalised to shared", "%.3f"),
                            ("response_norm", "LLC response rate normalised to shared", "%.3f"),
                            ("energy_norm", "NoC energy normalised to shared", "%.3f")]:
        print("\n%s\n\n| workload | class | shared | private | adaptive |\n|---|---|---:|---:|---:|" % title)
        for n, c, _ in WORKLOADS:
            print("| %s | %s | %s |" % (n, c, " | ".join(fmt % by[n, m][key] for m in MODES)))
    print("\nabsolute\n\n| workload | mode | SM cycles | LLC hit rate | responses/cycle | NoC energy uJ "
          "(dyn / static) | DRAM bytes | wall s |\n|---|---|---:|---:|---:|---:|---:|---:|")
    for n in names:
        for m in MODES:
            r = by[n, m]
            print("| %s | %s | %d | %.3f | %.3f | %.1f (%.1f / %.2f) | %d | %.1f |" % (
                n, m, r["sm_cycles"], r["llc_hit_rate"], r["llc_response_rate"], r["noc_energy_nj"] / 1e3,
                r["noc_dynamic_nj"] / 1e3, r["noc_static_nj"] / 1e3, r["dram_bytes"], r["wall_s"]))
    print("\nadaptive decisions\n\n| workload | profile / epoch cycles | windows | no samples | S->P | P->S | rule1 | rule2 | "
          "rule3 | private share of cycles | ATD predicted private miss | private run's miss |\n"
          "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    for n in names:
        r = by[n, "adaptive"]
        print("| %s | %s / %s | %d | %d | %d | %d | %d | %d | %d | %.2f | %.3f | %.3f |" % (
            n, r["profile_cycles"], r["epoch_cycles"], r["windows"], r["no_samples"], r["to_private"], r["to_shared"], r["rule1"],
            r["rule2"], r["rule3"], r["private_share"], r["predicted_private_miss"], r["private_run_miss"]))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--build", default="build", help="build folder holding tb/cli/gpumemsys")
    ap.add_argument("--out", default="build/llc_experiment", help="run folders (resumable)")
    ap.add_argument("--results", default="docs/results", help="where llc_adaptive.csv/.png go")
    ap.add_argument("--jobs", type=int, default=2, help="parallel runs")
    ap.add_argument("--set", action="append", default=[], metavar="KEY=VALUE",
                    help="extra override for every run (a sensitivity study: give it its own --out)")
    a = ap.parse_args()
    binary = os.path.abspath(os.path.join(ROOT, a.build, "tb", "cli", "gpumemsys"))
    out = os.path.abspath(os.path.join(ROOT, a.out))
    t = time.time()
    run_all(binary, out, a.jobs, a.set)
    rows = collect(out)
    bad = [(r["workload"], r["mode"]) for r in rows if r["mismatches"]]
    if bad:
        sys.exit("data mismatches in %s" % bad)
    results = os.path.join(ROOT, a.results)
    write_csv(rows, os.path.join(results, "llc_adaptive.csv"))
    plot(rows, os.path.join(results, "llc_adaptive.png"))
    print_tables(rows)
    print("\nwall %.0f s (this invocation), runs' own wall: %.0f s" % (
        time.time() - t, sum(r["wall_s"] for r in rows if r["wall_s"] == r["wall_s"])))


if __name__ == "__main__":
    main()
