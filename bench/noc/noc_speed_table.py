"""Summarises noc_speed.sh's logs: flits delivered and cycles simulated per CPU second (median of the
interleaved reps), ours against BookSim. Usage: noc_speed_table.py LOGDIR SAMPLE_PERIOD"""
import glob, os, re, statistics as st, sys

out, sample = sys.argv[1], int(sys.argv[2])


def times(path):
    wall, usr, sys_ = map(float, open(path).read().split()[-3:])
    return wall, usr + sys_


def ours(log):
    kv = dict(x.split("=", 1) for x in open(log).read().split())
    return int(kv["flits"]), int(kv["cycles"]), float(kv["accepted"])


def booksim(log):
    text = open(log).read()
    cycles = int(re.search(r"^Time taken is (\d+) cycles", text, re.M).group(1))
    # delivered = every window's accepted flits + what was in flight at the end (the drain delivers it)
    win = [float(x) for x in re.findall(r"^Accepted flit rate average= ([0-9.eE+-]+)", text, re.M)]
    inflight = [int(x) for x in re.findall(r"^Total in-flight flits = (\d+)", text, re.M)]
    flits = sum(round(w * 64 * sample) for w in win) + (inflight[-1] if inflight else 0)
    acc = float(re.findall(r"^Accepted flit rate average = ([0-9.eE+-]+)", text, re.M)[-1])
    return flits, cycles, acc


rows = {}
for tf in sorted(glob.glob(os.path.join(out, "*.time"))):
    name = os.path.basename(tf)[:-5]
    who, s, rep = re.match(r"(ours|bs)_(\w+?)_(\d+)$", name).groups()
    flits, cycles, acc = (ours if who == "ours" else booksim)(tf[:-5] + ".log")
    wall, cpu = times(tf)
    rows.setdefault((s, who), []).append(dict(f=flits / cpu, c=cycles / cpu, wall=wall, cpu=cpu, acc=acc))

print("| set | simulator | accepted flits/cycle/node | wall s | CPU s | flits/CPU-s | cycles/CPU-s | ours/BookSim |")
print("|---|---|---:|---:|---:|---:|---:|---:|")
for s in ("sat_p1", "load05_p1", "sat_p5", "load05_p5"):
    med = {}
    for who in ("bs", "ours"):
        rs = rows.get((s, who))
        if not rs:
            continue
        m = {k: st.median(r[k] for r in rs) for k in rs[0]}
        med[who] = m
        fig = "f" if s.startswith("sat") else "c"  # the figure: flits at saturation, cycles at 5 %
        ratio = "%.2fx" % (m[fig] / med["bs"][fig]) if who == "ours" and "bs" in med else ""
        print("| %s | %s | %.4f | %.2f | %.2f | %s | %s | %s |" % (
            s, "BookSim 2" if who == "bs" else "bench_noc", m["acc"], m["wall"], m["cpu"],
            "{:,.0f}".format(m["f"]), "{:,.0f}".format(m["c"]), ratio))
print("(median of %d interleaved reps; ratio: flits/CPU-s for sat, cycles/CPU-s for load05)" %
      len(rows.get(("sat_p1", "ours"), [])))
