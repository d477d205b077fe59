#!/usr/bin/env python3
"""Tests of scripts/experiment (ctest: ExperimentRunner.<class>; by hand: python3 test_experiment.py [CLASS]).

BadFile, Claims and RdModel need nothing (RdModel's rd runs use a stand-in shell script for gpumemsys);
EndToEnd runs the real gpumemsys (GMS_BINARY, default build/tb/cli/gpumemsys) on configs/tiny.yaml with
two L1 designs, and the rd model beside the simulation.
"""
import contextlib, csv, importlib.util, io, json, os, shutil, stat, sys, tempfile, textwrap, types, unittest
from importlib.machinery import SourceFileLoader

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
BINARY = os.environ.get("GMS_BINARY", os.path.join(ROOT, "build", "tb", "cli", "gpumemsys"))


def load_module():
    loader = SourceFileLoader("gms_experiment", os.path.join(ROOT, "scripts", "experiment"))
    spec = importlib.util.spec_from_loader("gms_experiment", loader)
    mod = importlib.util.module_from_spec(spec)
    loader.exec_module(mod)
    return mod


exp = load_module()

GOOD = """
    name: t
    config: configs/tiny.yaml
    workloads:
      small: configs/workloads/small.yaml
      sharing: {path: configs/workloads/sharing.yaml, set: {sm.scheduler: lrr}}
    designs:
      lru: {l1.design: baseline}
      srrip: {l1.design: baseline, l1.replacement: srrip}
    baseline: lru
    metrics:
      speedup: {expr: "1 / v('system.sim_time_ns')"}
      misses: {expr: "total('l1_*.misses')", normalise: none, better: lower}
    figures:
      - {id: perf, metric: speedup, designs: [srrip]}
      - {id: ways, metric: speedup, sweep: {design: lru, key: l1.ways, values: [2, 4]}}
    claims:
      - {id: A, text: baseline equals itself, metric: speedup, design: lru, value: 1.0, op: ">=", ci: true}
      - {id: B, text: impossible, metric: speedup, design: srrip, value: 1000, op: ">"}
      - {id: C, text: 4 ways at least 2, metric: speedup, design: "lru@l1.ways=4", vs: "lru@l1.ways=2", op: ">="}
    reduced:
      workloads: [small]
"""

# The rd model beside the simulation (paper 003's form): a design that is the preset, one that differs in
# an rd.* key only (shares base's simulation runs), one with a simulation key; list metrics; a sweep of an
# rd.* key; arithmetic means.
RD = """
    name: r
    config: configs/tiny.yaml
    workloads:
      small: configs/workloads/small.yaml
      sharing: configs/workloads/sharing.yaml
    designs:
      base: {}
      noassoc: {rd.ways: 0}
      big: {l1.size_bytes: 8192}
    baseline: base
    metrics:
      sim_miss: {expr: "total('l1_*.misses') / total('l1_*.loads')", normalise: none, better: lower,
                 mean: arithmetic}
      model_miss: {expr: "rd('total.miss_rate')", normalise: none, better: lower, mean: arithmetic}
      err: {expr: "100 * abs(rd('total.miss_rate') - total('l1_*.misses') / total('l1_*.loads'))",
            normalise: none, better: lower, mean: arithmetic, unit: pp}
      speedup: {expr: "1 / v('system.sim_time_ns')"}
    figures:
      - {id: miss, metric: [model_miss, sim_miss], designs: [base, big]}
      - {id: err, metric: err, designs: [base, noassoc], means: {small only: [small]}}
      - {id: ways, metric: [model_miss, sim_miss], sweep: {design: base, key: rd.ways, values: [1, 2]}}
    claims:
      - {id: A, text: the model sees associativity, metric: model_miss, design: base, vs: noassoc, op: ">="}
      - {id: B, text: bigger is not slower, metric: speedup, design: big, value: 0.9, op: ">="}
"""


class TempDir(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.mkdtemp(prefix="gms-exp-test-")
        self.cwd = os.getcwd()
        os.chdir(ROOT)  # experiment files name paths from the repository root

    def tearDown(self):
        os.chdir(self.cwd)
        shutil.rmtree(self.tmp, ignore_errors=True)

    def write(self, text):
        path = os.path.join(self.tmp, "e.yaml")
        with open(path, "w") as f:
            f.write(textwrap.dedent(text))
        return path

    def main(self, *argv):
        err, out = io.StringIO(), io.StringIO()
        with contextlib.redirect_stderr(err), contextlib.redirect_stdout(out):
            rc = exp.main(list(argv))
        return rc, out.getvalue(), err.getvalue()


class BadFile(TempDir):
    def error_of(self, text):
        rc, _, err = self.main(self.write(text), "--out", os.path.join(self.tmp, "o"), "--binary", BINARY)
        self.assertEqual(rc, 2, err)
        return err

    def test_unknown_top_key_names_file_line_and_key(self):
        err = self.error_of(GOOD + "    colour: blue\n")
        self.assertRegex(err, r"e\.yaml:\d+: colour: unknown key")

    def test_baseline_must_be_a_design(self):
        self.assertIn("baseline: 'fifo' is not a design", self.error_of(GOOD.replace("baseline: lru", "baseline: fifo")))

    def test_claim_needs_vs_or_value(self):
        err = self.error_of(GOOD.replace("value: 1.0, ", ""))
        self.assertIn("give exactly one of vs", err)

    def test_missing_workload_file(self):
        err = self.error_of(GOOD.replace("configs/workloads/small.yaml", "configs/workloads/nope.yaml"))
        self.assertIn("workloads.small: expected an existing workload file", err)

    def test_figure_metric_must_exist(self):
        err = self.error_of(GOOD.replace("{id: perf, metric: speedup", "{id: perf, metric: ipc"))
        self.assertIn("'ipc' is not a metric", err)

    def test_bad_expression(self):
        err = self.error_of(GOOD.replace("total('l1_*.misses')", "total('l1_*.misses'"))
        self.assertIn("metrics.misses.expr: not an expression", err)

    def test_best_of_design_and_metric_are_checked(self):
        def best(b):
            return GOOD.replace("    baseline: lru", "      b: %s\n    baseline: lru" % b)
        err = self.error_of(best("{best_of: {design: fifo, key: l1.ways, values: [2], metric: speedup}}"))
        self.assertIn("designs.b.best_of.design: 'fifo' is not a plain design", err)
        err = self.error_of(best("{best_of: {design: lru, key: l1.ways, values: [2], metric: ipc}}"))
        self.assertIn("designs.b.best_of.metric: 'ipc' is not a metric", err)
        err = self.error_of(best("{best_of: {design: lru, key: l1.ways, values: [2], metric: speedup}, by: speedup}"))
        self.assertIn("designs.b: expected {best_of: {design, key, values, metric}} alone", err)

class Claims(unittest.TestCase):
    """Claim checking on hand-made statistics: geometric means over workloads, normalisation, ops."""

    def setUp(self):
        self.cwd = os.getcwd()
        os.chdir(ROOT)
        self.tmp = tempfile.mkdtemp(prefix="gms-exp-test-")
        path = os.path.join(self.tmp, "e.yaml")
        with open(path, "w") as f:
            f.write(textwrap.dedent(GOOD))
        self.ex = exp.load_experiment(path, reduced=False)

    def tearDown(self):
        os.chdir(self.cwd)
        shutil.rmtree(self.tmp, ignore_errors=True)

    def test_normalised_geomean_and_verdicts(self):
        t = {"lru": (100.0, 400.0), "srrip": (50.0, 400.0), "lru@l1.ways=2": (100.0, 100.0),
             "lru@l1.ways=4": (100.0, 100.0)}
        res = {}
        for p, (a, b) in t.items():
            res[(p, "small")] = {"system.sim_time_ns": str(a), "l1_0.misses": "3", "l1_1.misses": "4"}
            res[(p, "sharing")] = {"system.sim_time_ns": str(b), "l1_0.misses": "1", "l1_1.misses": "1"}
        tab = exp.Table(self.ex, res)
        # srrip: 2x faster on small, equal on sharing: geometric mean sqrt(2).
        self.assertAlmostEqual(tab.mean("speedup", "srrip"), 2 ** 0.5)
        self.assertEqual(tab.value("misses", "lru", "small"), 7.0)  # normalise: none, total over l1_*
        rows = {c["id"]: c for c in exp.check_claims(self.ex, tab)}
        self.assertTrue(rows["A"]["ok"])
        self.assertFalse(rows["B"]["ok"])
        self.assertTrue(rows["C"]["ok"])

    def test_best_of_picks_the_best_sweep_point_per_workload(self):
        path = os.path.join(self.tmp, "b.yaml")
        with open(path, "w") as f:
            f.write(textwrap.dedent(GOOD.replace("    baseline: lru", "\n".join([
                "      bs: {best_of: {design: lru, key: l1.ways, values: [2, 4], metric: speedup}}",
                "      bm: {best_of: {design: lru, key: l1.ways, values: [2, 4], metric: misses}}",
                "    baseline: lru"]))))
        ex = exp.load_experiment(path, reduced=False)
        self.assertEqual(ex.best_points("bs"), ["lru@l1.ways=2", "lru@l1.ways=4"])
        res = {}
        for p, small, sharing, m_small, m_sharing in (("lru", 100, 100, 7, 7), ("lru@l1.ways=2", 50, 80, 7, 3),
                                                      ("lru@l1.ways=4", 50, 40, 5, 9)):
            res[(p, "small")] = {"system.sim_time_ns": str(small), "l1_0.misses": str(m_small)}
            res[(p, "sharing")] = {"system.sim_time_ns": str(sharing), "l1_0.misses": str(m_sharing)}
        tab = exp.Table(ex, res)
        self.assertEqual(tab.resolve("bs", "small"), "lru@l1.ways=2")  # a tie: the first value
        self.assertEqual(tab.resolve("bs", "sharing"), "lru@l1.ways=4")
        self.assertAlmostEqual(tab.mean("speedup", "bs"), (2 * 2.5) ** 0.5)
        # better: lower
        self.assertEqual((tab.resolve("bm", "small"), tab.resolve("bm", "sharing")), ("lru@l1.ways=4", "lru@l1.ways=2"))

    def test_missing_statistic_is_an_error(self):
        tab = exp.Table(self.ex, {("lru", "small"): {}})
        with self.assertRaises(exp.ExperimentError):
            tab.value("speedup", "lru", "small")


class RdModel(TempDir):
    """rd(): metrics on hand-made rd.json and statistics, rd.* keys, list metrics, the rd runs' command
    lines (a stand-in script for gpumemsys)."""

    def load(self, text=RD, reduced=False):
        return exp.load_experiment(self.write(text), reduced=reduced)

    def error_of(self, text):
        with self.assertRaises(exp.ExperimentError) as e:
            self.load(text)
        return str(e.exception)

    @staticmethod
    def rd_json(miss_rate, compulsory=10):
        return {"workload": "w", "params": {"ways": 32, "set_index": "linear", "clip": True},
                "total": {"miss_rate": miss_rate, "compulsory": compulsory},
                "kernels": [{"name": "k0", "miss_rate": 1}, {"name": "k1", "miss_rate": miss_rate}]}

    def test_flatten_reads_dotted_paths_and_kernels_by_index_and_name(self):
        flat = exp.flatten(self.rd_json(0.25))
        self.assertEqual(flat["total.miss_rate"], 0.25)
        self.assertEqual(flat["params.ways"], 32)
        self.assertEqual((flat["kernels.1.miss_rate"], flat["kernels.k1.miss_rate"]), (0.25, 0.25))
        self.assertNotIn("params.set_index", flat)  # strings and booleans are no numbers
        self.assertNotIn("params.clip", flat)

    def test_rd_metric_mixes_model_and_simulation(self):
        ex = self.load()
        self.assertEqual([n for n, m in ex.metrics.items() if m["rd"]], ["model_miss", "err"])
        self.assertTrue(ex.uses_rd())
        # base and noassoc share their simulation runs (noassoc differs in rd.ways only)
        sim = {"small": {"l1_0.misses": "30", "l1_0.loads": "100", "system.sim_time_ns": "10"},
               "sharing": {"l1_0.misses": "10", "l1_0.loads": "100", "system.sim_time_ns": "10"}}
        model = {("base", "small"): 0.4, ("base", "sharing"): 0.1, ("noassoc", "small"): 0.25,
                 ("noassoc", "sharing"): 0.05, ("big", "small"): 0.2, ("big", "sharing"): 0.1}
        res = {(p, w): sim[w] for p, w in model}
        rd = {k: exp.flatten(self.rd_json(v)) for k, v in model.items()}
        tab = exp.Table(ex, res, rd)
        self.assertAlmostEqual(tab.value("err", "base", "small"), 10.0)  # 100 * |0.4 - 0.3|
        self.assertAlmostEqual(tab.value("err", "noassoc", "small"), 5.0)
        self.assertAlmostEqual(tab.mean("err", "base"), (10.0 + 0.0) / 2)  # mean: arithmetic
        self.assertAlmostEqual(tab.mean("model_miss", "noassoc"), 0.15)
        self.assertAlmostEqual(tab.mean("sim_miss", "noassoc"), 0.2)
        rows = {c["id"]: c for c in exp.check_claims(ex, tab)}
        self.assertTrue(rows["A"]["ok"])
        self.assertAlmostEqual(rows["A"]["ours"], 0.25)
        # a path rd.json lacks names the metric and both files
        ex.metrics["model_miss"]["expr"] = "rd('total.nope')"
        with self.assertRaisesRegex(exp.ExperimentError, "total.nope.*stats.csv or rd.json"):
            exp.Table(ex, res, rd).value("model_miss", "base", "small")

    def test_rd_metric_in_a_best_of_reads_the_chosen_members_rd_json(self):
        text = RD.replace("      big: {l1.size_bytes: 8192}", "      big: {l1.size_bytes: 8192}\n"
                          "      best: {best_of: {design: base, key: rd.ways, values: [1, 2], metric: err}}")
        ex = self.load(text)
        sim = {"l1_0.misses": "30", "l1_0.loads": "100", "system.sim_time_ns": "10"}
        model = {("base@rd.ways=1", "small"): 0.4, ("base@rd.ways=2", "small"): 0.32}
        tab = exp.Table(ex, {k: sim for k in model}, {k: exp.flatten(self.rd_json(v)) for k, v in model.items()})
        self.assertEqual(tab.resolve("best", "small"), "base@rd.ways=2")  # err 2 pp against 10
        self.assertAlmostEqual(tab.value("model_miss", "best", "small"), 0.32)

    def test_rd_keys_need_a_metric_calling_rd(self):
        plain = GOOD
        for where, text in (
                ("design", plain.replace("srrip: {l1.design: baseline,", "srrip: {rd.ways: 0, l1.design: baseline,")),
                ("set", plain.replace("    baseline: lru", "    baseline: lru\n    set: {rd.sigma: 0}")),
                ("workload set", plain.replace("set: {sm.scheduler: lrr}", "set: {rd.seed: 2}")),
                ("sweep", plain.replace("key: l1.ways", "key: rd.ways")),
                ("claim point", plain.replace('design: "lru@l1.ways=4"', 'design: "lru@rd.ways=4"'))):
            with self.subTest(where):
                self.assertIn("rd.* keys are options of the rd model: they need a metric that calls rd()",
                              self.error_of(text))
        self.load()  # the same keys with an rd() metric are fine

    def test_rd_keys_reach_the_model_only(self):
        self.assertEqual(exp.split_rd({"l1.ways": 4, "rd.ways": 0, "rd.sigma": 0}),
                         ({"l1.ways": 4}, {"ways": 0, "sigma": 0}))

    def test_figure_metric_list(self):
        ex = self.load()
        self.assertEqual(ex.figures[0]["metrics"], ["model_miss", "sim_miss"])
        self.assertEqual(ex.figures[1]["metrics"], ["err"])
        self.assertIn("'ipc' is not a metric", self.error_of(RD.replace("[model_miss, sim_miss], designs",
                                                                        "[model_miss, ipc], designs")))
        self.assertIn("a list of metrics normalised alike",
                      self.error_of(RD.replace("[model_miss, sim_miss], designs", "[model_miss, speedup], designs")))
        self.assertIn("a list of metrics normalised alike",
                      self.error_of(RD.replace("[model_miss, sim_miss], designs", "[], designs")))

    def test_mean_must_be_geometric_or_arithmetic(self):
        self.assertIn("metrics.err.mean: expected geometric or arithmetic",
                      self.error_of(RD.replace("mean: arithmetic, unit", "mean: harmonic, unit")))

    def test_report_one_table_per_listed_metric_with_arithmetic_means(self):
        ex = self.load()
        res, rd = {}, {}
        for p in ex.points():
            for i, w in enumerate(ex.workloads):
                res[(p, w)] = {"l1_0.misses": str(20 + 10 * i), "l1_0.loads": "100", "system.sim_time_ns": "10"}
                rd[(p, w)] = exp.flatten(self.rd_json(0.1 + 0.2 * i))
        tab = exp.Table(ex, res, rd)
        docs = os.path.join(self.tmp, "docs")
        os.makedirs(docs)
        exp.report(ex, tab, exp.check_claims(ex, tab), docs, self.tmp)
        with open(os.path.join(docs, "r.md")) as f:
            md = f.read()
        section = md[md.index("## miss"):md.index("## err")]
        self.assertEqual(section.count("| workload | base | big |"), 2)  # model_miss, then sim_miss
        self.assertEqual(section.count("not normalised; last row: arithmetic mean."), 2)
        self.assertIn("| mean | 0.200 | 0.200 |", section)  # model: (0.1 + 0.3) / 2
        self.assertIn("| mean | 0.250 | 0.250 |", section)  # simulation: (0.2 + 0.3) / 2
        section = md[md.index("## err"):md.index("## ways")]  # a means: subset of an arithmetic metric
        self.assertIn("not normalised; last rows: arithmetic means (mean small only: small).", section)
        self.assertIn("| mean small only | 10.000 | 10.000 |", section)  # 100 * |0.1 - 0.2|
        with open(os.path.join(docs, "r.csv")) as f:
            rows = list(csv.DictReader(f))
        self.assertEqual({(r["metric"]) for r in rows if r["figure"] == "ways"}, {"model_miss", "sim_miss"})
        self.assertEqual({r["point"] for r in rows if r["figure"] == "ways"}, {"base@rd.ways=1", "base@rd.ways=2"})
        self.assertEqual({r["workload"] for r in rows}, {"small", "sharing", "mean", "mean small only"})

    def fake_binary(self):
        """A stand-in for gpumemsys: `rd ... -o DIR` writes DIR/rd.json (miss rate 0.5) and logs its args."""
        path = os.path.join(self.tmp, "fake-gpumemsys")
        with open(path, "w") as f:
            f.write(textwrap.dedent("""\
                #!/bin/sh
                echo "$@" >> "%s"
                while [ $# -gt 0 ]; do [ "$1" = -o ] && out=$2; shift; done
                echo '{"total": {"miss_rate": 0.5}}' > "$out/rd.json"
                """ % os.path.join(self.tmp, "calls.txt")))
        os.chmod(path, os.stat(path).st_mode | stat.S_IXUSR)
        return path

    def calls(self):
        with open(os.path.join(self.tmp, "calls.txt")) as f:
            return [line.split() for line in f]

    def test_run_rd_passes_rd_keys_as_rd_options_and_resumes(self):
        ex = self.load()
        args = types.SimpleNamespace(binary=self.fake_binary(), jobs=2)
        out = os.path.join(self.tmp, "o")
        res, failed = exp.run_rd(ex, out, args, ex.points())
        self.assertEqual(failed, [])
        # base, noassoc, big and the two rd.ways sweep points, on both workloads
        self.assertEqual(len(res), 5 * 2)
        self.assertEqual(res[("noassoc", "small")]["total.miss_rate"], 0.5)
        calls = self.calls()
        self.assertEqual(len(calls), 10)
        self.assertTrue(all(c[0] == "rd" and "-q" in c for c in calls))
        noassoc = [c for c in calls if "ways=0" in c]
        self.assertEqual(len(noassoc), 2)
        self.assertEqual(noassoc[0][noassoc[0].index("ways=0") - 1], "--rd")
        self.assertFalse(any(a.startswith("rd.") for c in calls for a in c))  # never --set rd.KEY
        big = [c for c in calls if "l1.size_bytes=8192" in c]
        self.assertEqual((len(big), big[0][big[0].index("l1.size_bytes=8192") - 1]), (2, "--set"))
        res2, _ = exp.run_rd(ex, out, args, ex.points())  # an existing rd.json is kept
        self.assertEqual(len(self.calls()), 10)
        self.assertEqual(res2, res)

    def test_run_rd_reports_a_failing_model_run(self):
        ex = self.load()
        args = types.SimpleNamespace(binary=os.path.join(self.tmp, "missing"), jobs=1)
        res, failed = exp.run_rd(ex, os.path.join(self.tmp, "o"), args, {"base": {}})
        self.assertEqual(res, {})
        self.assertEqual(len(failed), 2)
        self.assertTrue(all(f.startswith("rd configs/workloads/") and "stderr.txt" in f for f in failed))


@unittest.skipUnless(os.access(BINARY, os.X_OK), "gpumemsys binary not built")
class EndToEnd(TempDir):
    def test_full_run_writes_the_report_and_reduced_checks_ci_claims(self):
        path, docs, out = self.write(GOOD), os.path.join(self.tmp, "docs"), os.path.join(self.tmp, "o")
        rc, stdout, err = self.main(path, "--out", out, "--docs", docs, "--binary", BINARY, "-q", "-j", "2")
        self.assertEqual(rc, 0, err)  # claim B fails, but a full run only reports (no --strict)
        with open(os.path.join(docs, "t.md")) as f:
            report = f.read()
        self.assertIn("| B: impossible |", report)
        self.assertIn("**no**", report)
        self.assertIn("unexplained", report)  # a failing claim without a note says so
        self.assertTrue(os.path.exists(os.path.join(docs, "t_perf.png")))
        with open(os.path.join(docs, "t.csv")) as f:
            rows = list(csv.DictReader(f))
        self.assertEqual({r["workload"] for r in rows}, {"small", "sharing", "geomean"})
        # The workload with its own overrides ran with them.
        self.assertIn("sm.scheduler=lrr", report)
        rc, _, err = self.main(path, "--out", out, "--docs", docs, "--binary", BINARY, "-q", "--strict")
        self.assertEqual(rc, 1, err)  # --strict: B is not reproduced
        rc, stdout, err = self.main(path, "--reduced", "--out", out + "-r", "--binary", BINARY, "-q")
        self.assertEqual(rc, 0, err)  # only ci claim A is checked
        self.assertIn("A ", stdout)
        self.assertNotIn("impossible", stdout)

    def test_rd_model_beside_the_simulation(self):
        path, docs, out = self.write(RD), os.path.join(self.tmp, "docs"), os.path.join(self.tmp, "o")
        rc, stdout, err = self.main(path, "--out", out, "--docs", docs, "--binary", BINARY, "-q", "-j", "2")
        self.assertEqual(rc, 0, err)
        # Simulations: the preset (base, noassoc and the rd.ways points share it) as its own list-less sweep
        # beside big's; rd runs: five points x two workloads.
        self.assertEqual(len(os.listdir(os.path.join(out, "group0", "runs"))), 2)
        self.assertEqual(len(os.listdir(os.path.join(out, "group0-plain", "runs"))), 2)
        rd_runs = os.listdir(os.path.join(out, "rd"))
        self.assertEqual(len(rd_runs), 10)
        with open(os.path.join(docs, "r.csv")) as f:
            rows = {(r["figure"], r["metric"], r["point"], r["workload"]): float(r["value"]) for r in csv.DictReader(f)}
        for w in ("small", "sharing"):
            with open(os.path.join(out, "rd", rd_of(out, "base", w), "rd.json")) as f:
                self.assertAlmostEqual(rows[("miss", "model_miss", "base", w)], json.load(f)["total"]["miss_rate"], 5)
        # noassoc: base's simulation runs, the model with --rd ways=0 (on tiny's 32-way L1 a small change)
        self.assertNotEqual(rows[("err", "err", "noassoc", "small")], rows[("err", "err", "base", "small")])
        self.assertTrue(os.path.exists(os.path.join(docs, "r_ways.png")))


def rd_of(out, point, workload):
    """The rd run folder whose command names the point's workload and no --rd option (base: the preset)."""
    for rid in os.listdir(os.path.join(out, "rd")):
        with open(os.path.join(out, "rd", rid, "command.txt")) as f:
            cmd = f.read()
        if workload + ".yaml" in cmd and "--rd" not in cmd and "--set" not in cmd:
            return rid
    raise AssertionError("no rd run of %s on %s" % (point, workload))


if __name__ == "__main__":
    unittest.main(argv=[sys.argv[0]] + sys.argv[1:])
