#!/usr/bin/python3
"""Latency vs offered load for crossbar, concentrated and hxbar paired by bisection bandwidth (issue 9).

Paper 004 section 3.4 pairs designs by bisection bandwidth: a full crossbar and H-Xbar with 32 B channels
(BW); a concentrated crossbar of concentration c with 32 B channels and H-Xbar with 32/c B channels (BW/c).
64 SMs x 64 LLC slices, 8 slices per memory controller (H-Xbar: 8 SM-routers x 8 MC-routers), request
network, 128 B of data per packet (136 B with the 8 B header). Writes docs/results/noc_latency_<pattern>.csv
and .png and prints a summary table. Usage: noc_curves.py [build dir] (default build-fast).
Runs the system's python3 (Debian python3-matplotlib).
"""
import csv, io, math, os, subprocess, sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
BUILD = sys.argv[1] if len(sys.argv) > 1 else os.path.join(ROOT, "build-fast")
BIN = os.path.join(BUILD, "bench", "noc", "bench_noc")
OUT = os.path.join(ROOT, "docs", "results")
PKT_BYTES, HOT = 8 + 128, 0.2  # header + data; hotspot: 20 % of packets to slice 0
GROUPS = [("BW", [("crossbar", 1, 32), ("hxbar", 1, 32)]),
          ("BW/2", [("concentrated", 2, 32), ("hxbar", 1, 16)]),
          ("BW/4", [("concentrated", 4, 32), ("hxbar", 1, 8)]),
          ("BW/8", [("concentrated", 8, 32), ("hxbar", 1, 4)])]


def capacity(pattern, conc, flit):
    """Packets/cycle/terminal a design can take at best (ignoring contention): only places the rate grid."""
    n = math.ceil(PKT_BYTES / flit)
    cap = 1.0 / (conc * n)  # a router port sends one flit a cycle for `conc` terminals
    if pattern == "hotspot":  # the hot output's port: the hot share plus its conc outputs' uniform share
        cap = min(cap, 1.0 / (n * 64 * (HOT + conc * (1 - HOT) / 64)))
    return cap


def run(pattern, kind, conc, flit):
    cap = capacity(pattern, conc, flit)
    rates = ",".join("%.6f" % (cap * f / 20) for f in range(1, 27))  # 5 % .. 130 % of the capacity
    cmd = [BIN, "curve", "--type", kind, "--conc", str(conc), "--flit-bytes", str(flit), "--pattern", pattern,
           "--hot-frac", str(HOT), "--rates", rates, "--overload"]
    env = dict(os.environ, SYSTEMC_DISABLE_COPYRIGHT_MESSAGE="1")
    text = subprocess.run(cmd, check=True, capture_output=True, text=True, env=env).stdout
    return list(csv.DictReader(io.StringIO(text)))


def label(r):
    return ("%s c=%s" % (r["type"], r["conc"]) if r["type"] == "concentrated" else r["type"]) + \
        ", %s B" % r["flit_bytes"]


def main():
    os.makedirs(OUT, exist_ok=True)
    summary = ["| pattern | group | design | flits/packet | zero-load latency | load at 3x zero-load "
               "(B/cycle/terminal) | saturation throughput (B/cycle/terminal) |", "|---|---|---|---:|---:|---:|---:|"]
    for pattern in ("uniform", "hotspot"):
        rows, fig, axes = [], *plt.subplots(1, 4, figsize=(18, 4.2))
        for ax, (group, designs) in zip(axes, GROUPS):
            ymax = 0
            for (kind, conc, flit), style in zip(designs, ("-o", "-s")):
                rs = run(pattern, kind, conc, flit)
                for r in rs:
                    r["group"] = group
                rows += rs
                pts = [r for r in rs if r["rate_pkt"] != "1"]
                sat = float([r for r in rs if r["rate_pkt"] == "1"][0]["accepted_Bpc"])
                zl = float(pts[0]["mean_lat"])
                knee = max((float(r["offered_Bpc"]) for r in pts if float(r["mean_lat"]) <= 3 * zl), default=0)
                x = [float(r["offered_Bpc"]) for r in pts]
                line, = ax.plot(x, [float(r["mean_lat"]) for r in pts], style, ms=3, label=label(pts[0]) + " mean")
                ax.plot(x, [float(r["p99_lat"]) for r in pts], ":", color=line.get_color(), label="  p99")
                ax.axvline(sat, color=line.get_color(), ls="--", lw=0.8)
                ymax = max(ymax, 8 * zl)
                summary.append("| %s | %s | %s | %s | %.1f | %.2f | %.2f |" % (
                    pattern, group, label(pts[0]), pts[0]["packet_flits"], zl, knee, sat))
            ax.set_ylim(0, ymax)
            ax.set_title("%s, %s traffic" % (group, pattern))
            ax.set_xlabel("offered load (bytes/cycle/terminal)")
            ax.grid(alpha=0.3)
            ax.legend(fontsize=7)
        axes[0].set_ylabel("packet latency (cycles, from creation)")
        fig.suptitle("64x64 request network, 136 B packets; dashed: saturation throughput (all sources backed up)")
        fig.tight_layout()
        fig.savefig(os.path.join(OUT, "noc_latency_%s.png" % pattern), dpi=110)
        cols = ["group"] + [c for c in rows[0] if c != "group"]
        with open(os.path.join(OUT, "noc_latency_%s.csv" % pattern), "w", newline="") as f:
            w = csv.DictWriter(f, fieldnames=cols)
            w.writeheader()
            w.writerows(rows)
    print("\n".join(summary))


if __name__ == "__main__":
    main()
