#!/usr/bin/env python3
"""Plots of the reuse-distance model (gpumemsys rd).

  plot_rd.py hist  rd_histogram.csv rd_histogram.png   reuse-distance histogram (per-set stack distance)
  plot_rd.py sweep rd_sweep.csv     rd_sweep.png       miss rate by class over the parameter sweep
"""
import csv
import sys


def need_matplotlib():
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
        return plt
    except ImportError:
        sys.exit("plot_rd.py: needs matplotlib (apt-get install python3-matplotlib)")


def hist(src, dst):
    plt = need_matplotlib()
    labels, counts = [], []
    with open(src) as f:
        for row in csv.DictReader(f):
            labels.append(row["distance"])
            counts.append(int(row["count"]))
    fig, ax = plt.subplots(figsize=(8, 4))
    ax.bar(range(len(counts)), counts, color=["tab:blue"] * (len(counts) - 1) + ["tab:red"])
    step = max(1, len(labels) // 20)
    ax.set_xticks(range(0, len(labels), step))
    ax.set_xticklabels(labels[::step], rotation=45)
    ax.set_xlabel("reuse distance (lines of the same set; last bar: infinite)")
    ax.set_ylabel("line requests")
    ax.set_title("Reuse-distance histogram")
    fig.tight_layout()
    fig.savefig(dst, dpi=100)


def sweep(src, dst):
    plt = need_matplotlib()
    rows = list(csv.DictReader(open(src)))
    params = ["ways", "size_bytes", "line_bytes", "mshr_entries"]
    classes = ["compulsory", "capacity", "associativity", "mshr"]
    fig, axes = plt.subplots(1, 4, figsize=(14, 4), sharey=True)
    for ax, prm in zip(axes, params):
        pts = [r for r in rows if r["parameter"] == prm]
        x = range(len(pts))
        bottom = [0.0] * len(pts)
        for c in classes:
            v = [100 * float(r[c]) for r in pts]
            ax.bar(x, v, bottom=bottom, label=c)
            bottom = [b + y for b, y in zip(bottom, v)]
        ax.set_xticks(list(x))
        ax.set_xticklabels([r["value"] + ("*" if r["set_index"] == "linear" else "") for r in pts], rotation=45)
        ax.set_title(prm)
    axes[0].set_ylabel("miss rate (%)")
    axes[-1].legend(fontsize=8)
    fig.suptitle("Reuse-distance model: parameter sweep (0.25x .. 4x)")
    fig.tight_layout()
    fig.savefig(dst, dpi=100)


if __name__ == "__main__":
    if len(sys.argv) != 4 or sys.argv[1] not in ("hist", "sweep"):
        sys.exit(__doc__)
    (hist if sys.argv[1] == "hist" else sweep)(sys.argv[2], sys.argv[3])
