#!/usr/bin/env python3
"""Plots of the reuse-distance model (gpumemsys rd).

  plot_rd.py hist  rd_histogram.csv rd_histogram.png   reuse-distance histogram (per-set stack distance)
  plot_rd.py sweep rd_sweep.csv     rd_sweep.png       miss rate by class over the parameter sweep

Exit status 0; 2 a bad command line or CSV (one line naming the file, the row and the column), or no
matplotlib; 3 the PNG cannot be written; 1 an internal error (--debug prints the traceback).
"""
import csv
import io
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import tool_errors as TE  # noqa: E402

PROG = "plot_rd.py"


def need_matplotlib():
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
        return plt
    except ImportError:
        raise TE.InputError("needs matplotlib (apt-get install python3-matplotlib)")


def read_rows(src, columns):
    """The CSV's rows; a missing column is an InputError naming it."""
    text = TE.read_text(src, " CSV", 256 << 20)
    try:
        rows = list(csv.DictReader(io.StringIO(text, newline="")))
    except csv.Error as e:
        raise TE.InputError("%s: not a CSV file: %s" % (src, e))
    have = rows[0].keys() if rows else ()
    for c in columns:
        if c not in have:
            raise TE.InputError("%s: no column %s (expected %s)" % (src, c, ", ".join(columns)))
    return rows


def number(src, i, row, col, conv=float):
    try:
        return conv(row[col])
    except (TypeError, ValueError):
        raise TE.InputError("%s:%d: %s: %s is not a number" % (src, i + 2, col, TE.excerpt(row[col])))


def save(fig, dst):
    try:
        fig.savefig(dst, dpi=100)
    except OSError as e:
        raise TE.OutputError("%s: cannot write: %s" % (dst, e.strerror or e))


def hist(src, dst):
    plt = need_matplotlib()
    rows = read_rows(src, ["distance", "count"])
    labels = [r["distance"] for r in rows]
    counts = [number(src, i, r, "count", int) for i, r in enumerate(rows)]
    if not counts:
        raise TE.InputError("%s: no rows" % src)
    fig, ax = plt.subplots(figsize=(8, 4))
    ax.bar(range(len(counts)), counts, color=["tab:blue"] * (len(counts) - 1) + ["tab:red"])
    step = max(1, len(labels) // 20)
    ax.set_xticks(range(0, len(labels), step))
    ax.set_xticklabels(labels[::step], rotation=45)
    ax.set_xlabel("reuse distance (lines of the same set; last bar: infinite)")
    ax.set_ylabel("line requests")
    ax.set_title("Reuse-distance histogram")
    fig.tight_layout()
    save(fig, dst)


def sweep(src, dst):
    plt = need_matplotlib()
    params = ["ways", "size_bytes", "line_bytes", "mshr_entries"]
    classes = ["compulsory", "capacity", "associativity", "mshr"]
    rows = read_rows(src, ["parameter", "value", "set_index"] + classes)
    for i, r in enumerate(rows):
        for c in classes:
            number(src, i, r, c)
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
    save(fig, dst)


def main(argv):
    debug = "--debug" in argv
    argv = [a for a in argv if a != "--debug"]

    def body():
        if argv[:1] in (["-h"], ["--help"]):
            print(__doc__)
            return 0
        if len(argv) != 3 or argv[0] not in ("hist", "sweep"):
            raise TE.InputError("command line: usage: plot_rd.py hist|sweep CSV PNG [--debug]")
        (hist if argv[0] == "hist" else sweep)(argv[1], argv[2])
        return 0
    return TE.guard(PROG, body, debug)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
