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


def fake_sim(folder):
    """A stand-in for gpumemsys run: writes a stats.csv with the statistics GOOD's metrics and sweep's
    defaults read (no simulation: the experiment machinery alone)."""
    path = os.path.join(folder, "fake-gpumemsys")
    names = [n for n in exp.SW.DEFAULT_STATS if n not in exp.SW.DERIVED] + ["l1_0.misses", "l1_0.loads"]
    with open(path, "w") as f:
        f.write("#!/bin/sh\nwhile [ $# -gt 0 ]; do [ \"$1\" = -o ] && out=$2; shift; done\n"
                "echo \"$out\" >> '%s'\nprintf 'path,value\\n%s' > \"$out/stats.csv\"\n" % (
                    os.path.join(folder, "calls.txt"), "".join("%s,2\\n" % n for n in names)))
    os.chmod(path, 0o755)
    return path


class Hardening(TempDir):
    """Issue 29: bad input is one line naming file, line and field, exit 2, found when the file is read (not
    after the runs, not as a traceback); names stay inside the output folders; a busy run folder refuses;
    a failed write is one line, exit 3."""

    def run_main(self, text, *extra):
        return self.main(self.write(text), "--out", os.path.join(self.tmp, "o"), "--docs",
                         os.path.join(self.tmp, "a", "docs"), "--binary", fake_sim(self.tmp), "-q", *extra)

    def assert_one_error(self, rc, err, status, *parts):
        self.assertEqual(rc, status, err)
        self.assertNotIn("Traceback", err)
        self.assertEqual(len(err.strip().splitlines()), 1, err)
        for p in parts:
            self.assertIn(p, err)

    def assert_refused_before_running(self, text, *parts):
        if os.path.exists(os.path.join(self.tmp, "calls.txt")):
            os.remove(os.path.join(self.tmp, "calls.txt"))
        rc, _, err = self.run_main(text)
        self.assert_one_error(rc, err, 2, *parts)
        self.assertFalse(os.path.exists(os.path.join(self.tmp, "calls.txt")), "something ran")

    def test_unknown_names_and_attributes_in_expressions_are_refused_when_read(self):
        self.assert_refused_before_running(GOOD.replace("1 / v(", "1 / nosuch("),
                                           "e.yaml:12: metrics.speedup.expr: unknown name 'nosuch'")
        self.assert_refused_before_running(GOOD.replace("1 / v('system.sim_time_ns')", "v.__class__"),
                                           "metrics.speedup.expr: Attribute is not allowed")
        self.assert_refused_before_running(GOOD.replace("1 / v('system.sim_time_ns')", "__import__('os')"),
                                           "metrics.speedup.expr: unknown name '__import__'")

    def test_names_that_become_paths_stay_inside_the_output_folders(self):
        self.assert_refused_before_running(GOOD.replace("name: t", "name: ../../escape"),
                                           "e.yaml:2: name: '../../escape' is not a plain name")
        self.assert_refused_before_running(GOOD.replace("{id: perf,", "{id: ../perf,"),
                                           "figures.0.id: '../perf' is not a plain name")
        self.assert_refused_before_running(GOOD.replace("{id: perf,", "{id: /perf,"),
                                           "figures.0.id: '/perf' is not a plain name")
        # main wrote the report to A/DOCS/../../escape.md, beside the run folders
        self.assertEqual(sorted(os.listdir(self.tmp)), ["e.yaml", "fake-gpumemsys"])

    def test_wrong_types_are_one_line_naming_the_field(self):
        for old, new, expected in (
                ("metric: speedup, design: lru,", "metric: [speedup], design: lru,", "claims.0.metric: ['speedup'] is not a metric"),
                ("value: 1.0,", "value: fast,", "claims.0.value: expected a number, got 'fast'"),
                ("values: [2, 4]", "values: 4", "figures.1.sweep.values: expected a non-empty list of values, got 4"),
                ('design: "lru@l1.ways=4"', 'design: "lru@l1.ways"', "claims.2.design: 'lru@l1.ways': expected DESIGN@KEY=VALUE"),
                ("designs: [srrip]", "designs: srrip", "figures.0.designs: expected a list of designs, got 'srrip'"),
                ("workloads: [small]", "workloads: [[small]]", "reduced.workloads: ['small'] is not a workload"),
                ("key: l1.ways", "key: [l1.ways]", "figures.1.sweep.key: ['l1.ways'] is not a configuration key"),
                ("{id: A, text: baseline equals itself,", "{id: A, text: [1, 2],", "claims.0.text: expected text")):
            with self.subTest(new):
                self.assertIn(old, GOOD)
                self.assert_refused_before_running(GOOD.replace(old, new), expected)

    def test_empty_and_binary_files(self):
        for data, expected in ((b"", "e.yaml:1: expected a map"), (b"name: caf\xe9\n", "e.yaml:1: not UTF-8 text"),
                               (b"name: t\n---\nname: u\n", "e.yaml:2: a second YAML document")):
            with self.subTest(data):
                with open(os.path.join(self.tmp, "e.yaml"), "wb") as f:
                    f.write(data)
                rc, _, err = self.main(os.path.join(self.tmp, "e.yaml"), "--dry-run")
                self.assert_one_error(rc, err, 2, expected)

    def test_evaluation_errors_name_the_metric(self):
        path = self.write(GOOD.replace("1 / v('system.sim_time_ns')", "log(v('system.sim_time_ns') - 100)"))
        ex = exp.load_experiment(path, reduced=False)
        with self.assertRaisesRegex(exp.ExperimentError, r"e\.yaml:12: metrics\.speedup\.expr: cannot evaluate: "
                                                         r"ValueError: math domain error"):
            exp.Table(ex, {("lru", "small"): {"system.sim_time_ns": "10"}}).raw("speedup", "lru", "small")
        ex.metrics["speedup"]["expr"] = "10 ** 400 * v('system.sim_time_ns')"  # floats: overflows at once
        with self.assertRaisesRegex(exp.ExperimentError, "OverflowError"):
            exp.Table(ex, {("lru", "small"): {"system.sim_time_ns": "10"}}).raw("speedup", "lru", "small")

    def test_dry_run_lists_the_runs_and_writes_nothing(self):
        rc, out, err = self.run_main(GOOD, "--dry-run")
        self.assertEqual(rc, 0, err)
        lines = out.strip().splitlines()
        self.assertEqual(len(lines), 4 * 2)  # lru, srrip, lru@l1.ways=2 and =4, on two workloads
        self.assertIn("sharing", out)
        self.assertIn("sm.scheduler=lrr", out)
        self.assertEqual(sorted(os.listdir(self.tmp)), ["e.yaml", "fake-gpumemsys"])

    def test_out_or_docs_that_is_a_file_is_refused_before_anything_runs(self):
        target = os.path.join(self.tmp, "a-file")
        open(target, "w").close()
        rc, _, err = self.main(self.write(GOOD), "--out", target, "--binary", fake_sim(self.tmp), "-q")
        self.assert_one_error(rc, err, 2, "--out %s: cannot create the output folder: a file, not a folder" % target)
        rc, _, err = self.main(self.write(GOOD), "--out", os.path.join(self.tmp, "o"), "--docs", target,
                               "--binary", fake_sim(self.tmp), "-q")
        self.assert_one_error(rc, err, 2, "--docs %s: cannot create the folder: a file, not a folder" % target)
        self.assertFalse(os.path.exists(os.path.join(self.tmp, "calls.txt")))

    def test_a_busy_run_folder_refuses_and_fresh_keeps_the_lock(self):
        out = os.path.join(self.tmp, "o")
        holder = exp.TE.lock_folder(out, "test")  # another experiment or sweep on this folder
        try:
            rc, _, err = self.run_main(GOOD, "--fresh")
            self.assert_one_error(rc, err, 2, "--out %s: in use by another run (pid %d, test; lock %s)" % (
                out, os.getpid(), os.path.join(out, ".lock")))
            self.assertFalse(os.path.exists(os.path.join(self.tmp, "calls.txt")))
        finally:
            holder.close()
        rc, _, err = self.run_main(GOOD, "--fresh", "--reduced")
        self.assertEqual(rc, 0, err)
        self.assertTrue(os.path.exists(os.path.join(out, ".lock")))
        with open(os.path.join(out, ".lock")) as f:
            self.assertEqual(f.read(), "pid %d, experiment\n" % os.getpid())

    def test_a_report_that_cannot_be_written_is_one_line_exit_3(self):
        os.makedirs(os.path.join(self.tmp, "a", "docs", "t.md"))  # a folder where the report goes
        rc, _, err = self.run_main(GOOD)
        self.assertEqual(rc, 3, err)
        self.assertNotIn("Traceback", err)
        self.assertEqual(err.strip().splitlines()[-1], "experiment: error: %s: cannot write: Is a directory" %
                         os.path.join(self.tmp, "a", "docs", "t.md"))


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
