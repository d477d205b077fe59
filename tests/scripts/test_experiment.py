#!/usr/bin/env python3
"""Tests of scripts/experiment (ctest: ExperimentRunner.<class>; by hand: python3 test_experiment.py [CLASS]).

BadFile and Claims need nothing; EndToEnd runs the real gpumemsys (GMS_BINARY, default
build/tb/cli/gpumemsys) on configs/tiny.yaml with two L1 designs.
"""
import contextlib, csv, importlib.util, io, os, shutil, sys, tempfile, textwrap, unittest
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

    def test_missing_statistic_is_an_error(self):
        tab = exp.Table(self.ex, {("lru", "small"): {}})
        with self.assertRaises(exp.ExperimentError):
            tab.value("speedup", "lru", "small")


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


if __name__ == "__main__":
    unittest.main(argv=[sys.argv[0]] + sys.argv[1:])
