#!/usr/bin/env python3
"""Tests of scripts/sweep and scripts/sweep_plot (ctest: Sweep.<class>; by hand: python3 test_sweep.py [CLASS]).

Expansion, BadFile and SlurmParsing need nothing; LocalSweep runs the real gpumemsys (GMS_BINARY, default
build/tb/cli/gpumemsys) on configs/tiny.yaml; Plot needs matplotlib (/usr/bin/python3 on Debian). The Slurm
backend's end-to-end test is scripts/test_slurm (a real single-node Slurm).
"""
import contextlib, csv, errno, importlib.util, io, json, os, shutil, subprocess, sys, tempfile, textwrap, time, unittest
from unittest import mock
from importlib.machinery import SourceFileLoader

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SWEEP = os.path.join(ROOT, "scripts", "sweep")
PLOT = os.path.join(ROOT, "scripts", "sweep_plot")
BINARY = os.environ.get("GMS_BINARY", os.path.join(ROOT, "build", "tb", "cli", "gpumemsys"))
TINY = os.path.join(ROOT, "configs", "tiny.yaml")
SMALL = os.path.join(ROOT, "configs", "workloads", "small.yaml")
SHARING = os.path.join(ROOT, "configs", "workloads", "sharing.yaml")


def load_module():
    loader = SourceFileLoader("gms_sweep", SWEEP)
    spec = importlib.util.spec_from_loader("gms_sweep", loader)
    mod = importlib.util.module_from_spec(spec)
    loader.exec_module(mod)
    return mod


sweep = load_module()


class TempDir(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.mkdtemp(prefix="gms-sweep-test-")

    def tearDown(self):
        shutil.rmtree(self.tmp, ignore_errors=True)

    def write(self, text, name="sweep.yaml"):
        path = os.path.join(self.tmp, name)
        with open(path, "w") as f:
            f.write(textwrap.dedent(text))
        return path

    def main(self, *argv):
        """scripts/sweep in this process: (exit status, stderr)."""
        err = io.StringIO()
        with contextlib.redirect_stderr(err):
            rc = sweep.main(list(argv))
        return rc, err.getvalue()


class Expansion(TempDir):
    def load(self, text):
        return sweep.load_sweep(self.write(text))

    def test_grid_is_the_cartesian_product_in_file_order(self):
        s = self.load("""
            config: %s
            workloads: [%s, %s]
            grid:
              l1.size_bytes: [4096, 16384]
              l1.design: [baseline, sector, tsc]
        """ % (TINY, SMALL, SHARING))
        runs = s.runs()
        self.assertEqual(len(runs), 2 * 2 * 3)
        self.assertEqual([(r.workload_name, r.sets["l1.size_bytes"], r.sets["l1.design"]) for r in runs[:6]],
                         [("small", "4096", "baseline"), ("small", "4096", "sector"), ("small", "4096", "tsc"),
                          ("small", "16384", "baseline"), ("small", "16384", "sector"), ("small", "16384", "tsc")])
        self.assertEqual(s.param_keys(), ["l1.size_bytes", "l1.design"])

    def test_list_gives_one_run_per_entry(self):
        s = self.load("""
            config: configs/tiny.yaml
            workloads: [w.yaml]
            list:
              - {l1.design: baseline}
              - {l1.design: sector, l1.line_bytes: 128}
              - {l1.ways: 8, l1.replacement: nru}
        """)
        runs = s.runs()
        self.assertEqual([r.sets for r in runs], [{"l1.design": "baseline"},
                                                  {"l1.design": "sector", "l1.line_bytes": "128"},
                                                  {"l1.ways": "8", "l1.replacement": "nru"}])
        self.assertEqual(s.param_keys(), ["l1.design", "l1.line_bytes", "l1.ways", "l1.replacement"])

    def test_grid_times_list_plus_fixed_set_and_several_configs(self):
        s = self.load("""
            config: [a/tiny.yaml, b/fermi.yaml]
            workloads: w.yaml
            set: {system.seed: 7}
            grid: {l1.size_bytes: [4096, 8192]}
            list: [{l1.design: baseline}, {l1.design: sector}]
        """)
        runs = s.runs()
        self.assertEqual(len(runs), 2 * 2 * 2)
        self.assertEqual({r.config_name for r in runs}, {"tiny", "fermi"})
        self.assertTrue(all(r.sets["system.seed"] == "7" for r in runs))
        self.assertEqual(runs[1].sets, {"system.seed": "7", "l1.size_bytes": "4096", "l1.design": "sector"})

    def test_values_become_set_text(self):
        s = self.load("""
            config: c.yaml
            workloads: [w.yaml]
            grid: {system.protocol_check: [true, false], x.rate: [0.5], x.n: [0x10]}
        """)
        self.assertEqual([r.sets["system.protocol_check"] for r in s.runs()], ["true", "false"])
        self.assertEqual(s.runs()[0].sets["x.rate"], "0.5")
        self.assertEqual(s.runs()[0].sets["x.n"], "16")

    def test_ids_are_deterministic_and_depend_on_parameters_only(self):
        a = self.load("""
            name: one
            config: c.yaml
            workloads: [w.yaml]
            list: [{l1.ways: 8, l1.replacement: nru}]
            out: here
        """).runs()[0]
        b = self.load("""
            name: other
            config: c.yaml
            workloads: [w.yaml]
            list: [{l1.replacement: nru, l1.ways: "8"}]
            out: elsewhere
        """).runs()[0]
        c = self.load("""
            config: c.yaml
            workloads: [w.yaml]
            list: [{l1.replacement: nru, l1.ways: 4}]
        """).runs()[0]
        self.assertEqual(a.id, b.id)  # key order, quoting, name and out do not matter
        self.assertNotEqual(a.id, c.id)
        self.assertRegex(a.id, r"^[0-9a-f]{12}$")
        # fixed value: a change here would move every existing run folder
        self.assertEqual(a.id, sweep.Run("c.yaml", "c", "w.yaml", "w",
                                         {"l1.ways": "8", "l1.replacement": "nru"}).id)

    def test_workload_names_are_file_stems_unless_ambiguous(self):
        self.assertEqual(sweep.short_names(["a/x.yaml", "b/y.yaml"]), {"a/x.yaml": "x", "b/y.yaml": "y"})
        self.assertEqual(sweep.short_names(["a/x.yaml", "b/x.yaml"]), {"a/x.yaml": "a/x.yaml", "b/x.yaml": "b/x.yaml"})

    def test_defaults(self):
        s = self.load("""
            config: c.yaml
            workloads: [w.yaml]
        """)
        self.assertEqual(s.name, "sweep")
        self.assertEqual(s.binary, "build/tb/cli/gpumemsys")
        self.assertEqual(s.out, os.path.join("out", "sweeps", "sweep"))
        self.assertEqual(s.stats, sweep.DEFAULT_STATS)
        self.assertEqual(len(s.runs()), 1)


class BadFile(TempDir):
    CASES = [
        # (sweep file, what the one error line must contain)
        ("workloads: [w.yaml]\n", ":1: config: missing (required)"),
        ("config: c.yaml\nworkloads: [w.yaml]\ngrids: {l1.ways: [4]}\n", ":3: grids: unknown key"),
        ("config: c.yaml\nworkloads: [w.yaml]\ngrid:\n  l1.ways: 4\n",
         ":4: grid.l1.ways: expected a non-empty list of values (write [4] for one value)"),
        ("config: c.yaml\nworkloads: [w.yaml]\ngrid:\n  l1.ways: []\n", ":4: grid.l1.ways: expected a non-empty list"),
        ("config: c.yaml\nworkloads: [w.yaml]\nlist:\n  - l1.ways\n", ":4: list[0]: expected a non-empty map"),
        ("config: c.yaml\nworkloads: [w.yaml]\nlist:\n  - {l1.ways: [4, 8]}\n", ":4: list[0].l1.ways: expected a single value"),
        ("config: c.yaml\nworkloads: [w.yaml]\ngrid:\n  l1.ways: [4]\n  l1.ways: [8]\n",
         ":5: grid.l1.ways: duplicate key (first at line 4)"),
        ("config: c.yaml\nworkloads: [w.yaml\n", "YAML syntax error"),
        ("", ":1: empty sweep file"),
        ("- a\n- b\n", ":1: expected a map"),
        ("config: c.yaml\nworkloads: [w.yaml]\ngrid: {l1.ways: [4]}\nlist: [{l1.ways: 8}]\n",
         ":4: list[0].l1.ways: also a grid key"),
        ("config: c.yaml\nworkloads: [w.yaml]\ngrid: {'l1 ways': [4]}\n", ":3: grid.l1 ways: not a configuration key"),
        ("config: c.yaml\nworkloads: []\n", ":2: workloads: expected a path or a non-empty list"),
        ("config: c.yaml\nworkloads: [w.yaml]\nstats: system.sm_cycles\n", ":3: stats: expected a non-empty list"),
        ("config: c.yaml\nworkloads: [w.yaml]\nslurm: {max_parallel: -1}\n", ":3: slurm.max_parallel: expected a whole number"),
        ("config: c.yaml\nworkloads: [w.yaml]\nlist: [{l1.ways: 8}, {l1.ways: 8}]\n", ":3: list[1]: the same as list[0]"),
        ("config: c.yaml\nworkloads: [w.yaml]\ngrid: {l1.ways: [4, 4]}\n", ":3: grid.l1.ways: a value is listed twice"),
    ]

    def test_each_bad_file_is_one_error_naming_file_line_and_key_exit_2(self):
        for text, expected in self.CASES:
            with self.subTest(text=text):
                path = self.write(text)
                rc, err = self.main(path, "--dry-run")
                self.assertEqual(rc, 2, err)
                self.assertEqual(len(err.strip().splitlines()), 1, err)
                self.assertIn("sweep: error: " + path, err)
                self.assertIn(expected, err)

    def test_missing_paths_and_binary(self):
        path = self.write("config: %s\nworkloads: [%s, nowhere.yaml]\n" % (TINY, SMALL))
        rc, err = self.main(path)
        self.assertEqual(rc, 2)
        self.assertIn(":2: workloads[1]: 'nowhere.yaml' not found", err)
        path = self.write("config: %s\nworkloads: [%s]\nbinary: /nonexistent/gpumemsys\n" % (TINY, SMALL))
        rc, err = self.main(path, "--out", os.path.join(self.tmp, "out"))
        self.assertEqual(rc, 2)
        self.assertIn("gpumemsys binary '/nonexistent/gpumemsys' not found", err)

    def test_unreadable_file_and_exit_status_of_the_script(self):
        p = subprocess.run([sys.executable, SWEEP, os.path.join(self.tmp, "missing.yaml")],
                           capture_output=True, text=True)
        self.assertEqual(p.returncode, 2)
        self.assertIn("missing.yaml: cannot read: No such file or directory", p.stderr)


def fake_binary(folder, gate=None):
    """A stand-in for gpumemsys: `run ... -o DIR` logs DIR to FOLDER/calls.txt, waits (at most 60 s) for the
    file GATE when one is given, and writes a stats.csv with the default statistics (no simulation: the
    sweep machinery alone)."""
    path = os.path.join(folder, "fake-gpumemsys")
    stats = "".join("%s,1\\n" % s for s in sweep.DEFAULT_STATS if s not in sweep.DERIVED)
    with open(path, "w") as f:
        f.write(textwrap.dedent("""\
            #!/bin/sh
            while [ $# -gt 0 ]; do [ "$1" = -o ] && out=$2; shift; done
            echo "$out" >> "%s"
            i=0; while [ -n "%s" ] && [ ! -e "%s" ] && [ $i -lt 600 ]; do sleep 0.1; i=$((i+1)); done
            printf 'path,value\\n%s' > "$out/stats.csv"
            echo '{}' > "$out/stats.json"
            """ % (os.path.join(folder, "calls.txt"), gate or "", gate or "", stats)))
    os.chmod(path, 0o755)
    return path


class Hardening(TempDir):
    """Issue 29: every bad input is one line and exit 2, a failed write one line and exit 3, a bug one line
    (the traceback only with --debug); names stay inside the output folder; empty grids are refused."""

    def sweep_file(self, extra="", head=""):
        return self.write(head + "config: %s\nworkloads: [%s]\n" % (TINY, SMALL) + extra)

    def assert_one_error(self, rc, err, status, *parts):
        self.assertEqual(rc, status, err)
        self.assertNotIn("Traceback", err)
        self.assertEqual(len(err.strip().splitlines()), 1, err)
        for p in parts:
            self.assertIn(p, err)

    def test_empty_grid_and_list_are_refused_not_one_plain_run(self):
        for extra, expected in (("grid: {}\n", ":3: grid: empty"), ("list: []\n", ":3: list: empty"),
                                ("grid:\n  l1.ways: []\n", ":4: grid.l1.ways: expected a non-empty list of values, got []")):
            with self.subTest(extra):
                rc, err = self.main(self.sweep_file(extra), "--dry-run")
                self.assert_one_error(rc, err, 2, expected)

    def test_names_that_would_leave_the_output_folder_are_refused(self):
        work = os.path.join(self.tmp, "a", "b", "c")  # the default out is out/sweeps/NAME from here
        os.makedirs(work)
        cwd = os.getcwd()
        os.chdir(work)
        try:
            for name in ("../escape", "../../../x", os.path.join(self.tmp, "abs"), "a/b", "..", "a\\\\b"):
                with self.subTest(name):
                    rc, err = self.main(self.sweep_file(head="name: '%s'\n" % name), "--binary", fake_binary(self.tmp))
                    self.assert_one_error(rc, err, 2, ":1: name: ", "is not a plain name")
        finally:
            os.chdir(cwd)
        # nothing was run or created (main wrote out/escape, a/x and TMP/abs)
        self.assertFalse(os.path.exists(os.path.join(self.tmp, "calls.txt")))
        self.assertEqual(sorted(os.listdir(self.tmp)), ["a", "fake-gpumemsys", "sweep.yaml"])
        self.assertEqual(os.listdir(work), [])

    def test_inputs_that_ended_in_tracebacks_are_one_line(self):
        deep = "set: " + "[" * 3000 + "]" * 3000 + "\n"
        cases = [("grid: {l1.ways: [%s]}\n" % ("9" * 5000), ":3: grid.l1.ways[0]: an integer of 5000 digits"),
                 (deep, ":3: nested more than 64 deep ([ and {)"),
                 ("set:\n" + "- " * 2000 + "x\n", "nested too deeply"),
                 ("set: {system.seed: 2001-13-45}\n", ":3: set.system.seed: '2001-13-45': month must be in 1..12"),
                 ("out: !!python/object:os.system x\n", ":3: out: could not determine a constructor"),
                 ("---\ngrid: {l1.ways: [4]}\n", ":3: a second YAML document")]
        for extra, expected in cases:
            with self.subTest(expected):
                p = subprocess.run([sys.executable, SWEEP, self.sweep_file(extra), "--dry-run"], capture_output=True,
                                   text=True, timeout=60)
                self.assert_one_error(p.returncode, p.stderr, 2, expected)
        for path, expected in (("/dev/zero", "larger than 256 KiB"), (self.tmp, "cannot read: Is a directory")):
            p = subprocess.run([sys.executable, SWEEP, path, "--dry-run"], capture_output=True, text=True, timeout=60)
            self.assert_one_error(p.returncode, p.stderr, 2, expected)
        with open(os.path.join(self.tmp, "latin1.yaml"), "wb") as f:
            f.write(b"config: c\nname: caf\xe9\n")
        rc, err = self.main(os.path.join(self.tmp, "latin1.yaml"), "--dry-run")
        self.assert_one_error(rc, err, 2, "latin1.yaml:2: not UTF-8 text")

    def test_command_line_errors_are_one_line(self):
        for argv in (["-j", "x"], ["--bogus"], ["-j", "0"], ["--poll", "0"], ["--max-parallel", "-1"]):
            with self.subTest(argv):
                rc, err = self.main(self.sweep_file(), *argv)
                self.assert_one_error(rc, err, 2, "sweep: error: ")

    def test_out_that_is_a_file_is_refused_before_anything_runs(self):
        target = os.path.join(self.tmp, "a-file")
        open(target, "w").close()
        rc, err = self.main(self.sweep_file(), "--binary", fake_binary(self.tmp), "--out", target)
        self.assert_one_error(rc, err, 2, "--out %s: cannot create the output folder: a file, not a folder" % target)
        self.assertFalse(os.path.exists(os.path.join(self.tmp, "calls.txt")))

    def test_write_failures_are_one_line_exit_3(self):
        out = os.path.join(self.tmp, "out")
        os.makedirs(os.path.join(out, "results.csv"))  # a folder where the CSV goes
        rc, err = self.main(self.sweep_file(), "--binary", fake_binary(self.tmp), "--out", out, "-q")
        self.assertEqual(rc, 3, err)
        self.assertNotIn("Traceback", err)
        self.assertEqual(err.strip().splitlines()[-1],
                         "sweep: error: %s: cannot write: Is a directory" % os.path.join(out, "results.csv"))
        # a full disk (an injected ENOSPC on the first write into the output folder): exit 3, no temporary left
        out2 = os.path.join(self.tmp, "out2")
        full = OSError(errno.ENOSPC, "No space left on device")
        with mock.patch.object(sweep.os, "replace", side_effect=full):
            rc, err = self.main(self.sweep_file(), "--binary", fake_binary(self.tmp), "--out", out2, "-q")
        self.assert_one_error(rc, err, 3, "run.json: cannot write: No space left on device")
        self.assertEqual([n for _, _, fs in os.walk(out2) for n in fs if ".tmp" in n], [])
        # the disk fills while the runs run: the first run that cannot write its result stops the sweep
        real = sweep.write_atomic

        def write(path, text):
            if path.endswith("result.json"):
                e = sweep.TE.OutputError("%s: cannot write: No space left on device" % path)
                e.errno = errno.ENOSPC
                raise e
            real(path, text)
        path = self.write("config: %s\nworkloads: [%s]\ngrid: {l1.ways: [2, 4, 8, 16]}\n" % (TINY, SMALL))
        with mock.patch.object(sweep, "write_atomic", side_effect=write):
            rc, err = self.main(path, "--binary", fake_binary(self.tmp), "--out", os.path.join(self.tmp, "o3"),
                                "-q", "-j", "1")
        self.assertEqual(rc, 3, err)
        self.assertNotIn("Traceback", err)
        self.assertRegex(err.strip().splitlines()[-1], r"^sweep: error: run [0-9a-f]{12}: \S+/result.json: cannot "
                         r"write: No space left on device \(the sweep stopped; run it again to resume\)$")
        self.assertEqual(len(err.strip().splitlines()), 2, err)  # the start line, then the error

    def test_internal_errors_are_one_line_and_debug_shows_the_traceback(self):
        path = self.sweep_file()
        with mock.patch.object(sweep, "load_sweep", side_effect=RuntimeError("boom")):
            rc, err = self.main(path, "--dry-run")
            self.assert_one_error(rc, err, 1, "sweep: internal error: RuntimeError: boom", "--debug")
            rc, err = self.main(path, "--dry-run", "--debug")
        self.assertEqual(rc, 1)
        self.assertIn("Traceback", err)
        self.assertTrue(err.strip().splitlines()[-1].startswith("sweep: internal error: RuntimeError: boom"))


class Lock(TempDir):
    """Issue 29: two sweeps on one --out ran every point twice into the same folders."""

    def start(self, path, out, binary, *extra):
        return subprocess.Popen([sys.executable, SWEEP, path, "--out", out, "--binary", binary, "-j", "1", "-q"] +
                                list(extra), stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)

    def wait_started(self, proc):
        for _ in range(1200):  # the first sweep holds the lock once its first run has started
            if os.path.exists(os.path.join(self.tmp, "calls.txt")) or proc.poll() is not None:
                return
            time.sleep(0.05)

    def calls(self):
        with open(os.path.join(self.tmp, "calls.txt")) as f:
            return [l.strip() for l in f]

    def test_a_second_sweep_on_the_same_out_refuses_and_each_point_runs_once(self):
        path = self.write("config: %s\nworkloads: [%s]\ngrid: {l1.ways: [2, 4, 8]}\n" % (TINY, SMALL))
        gate = os.path.join(self.tmp, "go")  # the first sweep's runs wait for it: the second meets a held lock
        out, binary = os.path.join(self.tmp, "out"), fake_binary(self.tmp, gate)
        first = self.start(path, out, binary)
        self.wait_started(first)
        second = self.start(path, out, binary)
        _, err2 = second.communicate(timeout=60)
        open(gate, "w").close()
        _, err1 = first.communicate(timeout=60)
        self.assertEqual(first.returncode, 0, err1)
        self.assertEqual(second.returncode, 2, err2)
        self.assertEqual(err2.strip().splitlines(), [
            "sweep: error: --out %s: in use by another run (pid %d, sweep; lock %s): wait for it, pass --wait, or "
            "choose another --out" % (out, first.pid, os.path.join(out, ".lock"))])
        calls = self.calls()
        self.assertEqual(len(calls), 3)
        self.assertEqual(len(set(calls)), 3)  # each point once

    def test_wait_waits_for_the_first_and_runs_nothing_twice(self):
        path = self.write("config: %s\nworkloads: [%s]\ngrid: {l1.ways: [2, 4]}\n" % (TINY, SMALL))
        gate = os.path.join(self.tmp, "go")
        out, binary = os.path.join(self.tmp, "out"), fake_binary(self.tmp, gate)
        first = self.start(path, out, binary)
        self.wait_started(first)
        second = self.start(path, out, binary, "--wait")
        waiting = second.stderr.readline()  # the first line it prints: it is waiting for the lock
        open(gate, "w").close()
        _, err2 = second.communicate(timeout=60)
        _, err1 = first.communicate(timeout=60)
        self.assertEqual((first.returncode, second.returncode), (0, 0), err1 + err2)
        self.assertIn("is in use (pid %d, sweep): waiting for it (--wait)" % first.pid, waiting)
        self.assertIn("2 runs, 2 done, 0 to run", err2)
        self.assertEqual(len(self.calls()), 2)

    def test_a_file_system_without_locks_warns_and_runs(self):
        path = self.write("config: %s\nworkloads: [%s]\n" % (TINY, SMALL))
        nolock = OSError(errno.ENOSYS, "Function not implemented")  # Lustre mounted noflock
        with mock.patch.object(sweep.TE.fcntl, "flock", side_effect=nolock):
            rc, err = self.main(path, "--out", os.path.join(self.tmp, "out"), "--binary", fake_binary(self.tmp), "-q")
        self.assertEqual(rc, 0, err)
        self.assertIn("sweep: warning: %s: the file system takes no lock (Function not implemented)" %
                      os.path.join(self.tmp, "out", ".lock"), err)


class SlurmParsing(unittest.TestCase):
    """The state parsers against the text formats of sacct -P and scontrol -o (Slurm 22.05)."""

    def test_sacct(self):
        text = "17_0|COMPLETED\n17_0.batch|COMPLETED\n17_1|FAILED\n17_1.batch|FAILED\n17_2|RUNNING\n" \
               "17_2.batch|RUNNING\n17_[3-5,7%2]|PENDING\n17_6|CANCELLED by 0\n"
        self.assertEqual(sweep.parse_sacct(text), {
            ("17", 0): "COMPLETED", ("17", 1): "FAILED", ("17", 2): "RUNNING", ("17", 3): "PENDING",
            ("17", 4): "PENDING", ("17", 5): "PENDING", ("17", 7): "PENDING", ("17", 6): "CANCELLED"})

    def test_scontrol(self):
        text = ("JobId=9 ArrayJobId=9 ArrayTaskId=2-3%1 ArrayTaskThrottle=1 JobName=gms JobState=PENDING "
                "Reason=JobArrayTaskLimit ExitCode=0:0\n"
                "JobId=11 ArrayJobId=9 ArrayTaskId=1 JobName=gms JobState=FAILED Reason=NonZeroExitCode ExitCode=3:0\n"
                "JobId=10 ArrayJobId=9 ArrayTaskId=0 JobName=gms JobState=COMPLETED Reason=None ExitCode=0:0\n")
        self.assertEqual(sweep.parse_scontrol(text, "9"), {
            ("9", 0): "COMPLETED", ("9", 1): "FAILED", ("9", 2): "PENDING", ("9", 3): "PENDING"})


# Under ctest GMS_BINARY is set and a missing binary fails the test; by hand, no build skips it.
@unittest.skipUnless("GMS_BINARY" in os.environ or os.access(BINARY, os.X_OK),
                     "no gpumemsys binary at %s (set GMS_BINARY)" % BINARY)
class LocalSweep(TempDir):
    """Real runs of gpumemsys on the tiny preset (each well under a second)."""

    def four_runs(self, extra="", sizes="[4096, 8192]"):
        return self.write("""
            name: four
            config: %s
            workloads: [%s]
            grid:
              l1.size_bytes: %s
            list:
              - {l1.design: baseline}
              - {l1.design: sector}
            %s
        """ % (TINY, SMALL, sizes, extra))

    def text(self, path):
        with open(path) as f:
            return f.read()

    def run_sweep(self, path, *extra):
        out = os.path.join(self.tmp, "out")
        rc, err = self.main(path, "--binary", BINARY, "--out", out, "-j", "2", *extra)
        return rc, err, out

    def read_csv(self, out):
        with open(os.path.join(out, "results.csv"), newline="") as f:
            return list(csv.DictReader(f))

    def test_four_runs_csv_and_resume(self):
        t0 = time.monotonic()
        rc, err, out = self.run_sweep(self.four_runs())
        self.assertEqual(rc, 0, err)
        self.assertIn("four: 4 runs, 0 done, 4 to run (local, 2 at once)", err)
        self.assertIn("4/4 done, 0 failed, elapsed", err)
        self.assertIn("ETA", err)
        rows = self.read_csv(out)
        self.assertEqual(len(rows), 4)
        self.assertEqual(list(rows[0]), ["run_id", "config", "workload", "l1.size_bytes", "l1.design"] +
                         sweep.DEFAULT_STATS + ["status", "exit_status", "wall_s"])
        self.assertEqual([(r["l1.size_bytes"], r["l1.design"]) for r in rows],
                         [("4096", "baseline"), ("4096", "sector"), ("8192", "baseline"), ("8192", "sector")])
        for r in rows:
            self.assertEqual((r["config"], r["workload"], r["status"], r["exit_status"]), ("tiny", "small", "ok", "0"))
            self.assertTrue(os.path.exists(os.path.join(out, "runs", r["run_id"], "stats.json")))
            self.assertGreater(int(r["system.sm_cycles"]), 0)
            self.assertEqual(r["system.data_mismatches"], "0")
            self.assertAlmostEqual(float(r["warp_insts_per_cycle"]),
                                   int(r["system.warp_insts"]) / int(r["system.sm_cycles"]), places=5)
            with open(os.path.join(out, "runs", r["run_id"], "run.json")) as f:
                spec = json.load(f)
            self.assertEqual(spec["set"], {"l1.size_bytes": r["l1.size_bytes"], "l1.design": r["l1.design"]})
        # the L1 size matters: a bigger baseline L1 hits more on this workload
        self.assertGreater(float(rows[2]["system.l1_hit_rate"]), float(rows[0]["system.l1_hit_rate"]))
        before = self.text(os.path.join(out, "results.csv"))

        # resume: nothing runs again ...
        stamps = {r["run_id"]: os.stat(os.path.join(out, "runs", r["run_id"], "result.json")).st_mtime_ns for r in rows}
        rc, err, _ = self.run_sweep(self.four_runs())
        self.assertEqual(rc, 0, err)
        self.assertIn("4 runs, 4 done, 0 to run (nothing)", err)
        self.assertEqual(before, self.text(os.path.join(out, "results.csv")))
        # ... except a run whose result is gone; a grown sweep runs only its new runs
        os.remove(os.path.join(out, "runs", rows[1]["run_id"], "result.json"))
        rc, err, _ = self.run_sweep(self.four_runs())
        self.assertEqual(rc, 0, err)
        self.assertIn("4 runs, 3 done, 1 to run", err)
        strip = lambda rs: [{k: v for k, v in r.items() if k != "wall_s"} for r in rs]
        self.assertEqual(strip(rows), strip(self.read_csv(out)))  # the same statistics again
        for r in rows:
            if r is not rows[1]:
                self.assertEqual(stamps[r["run_id"]],
                                 os.stat(os.path.join(out, "runs", r["run_id"], "result.json")).st_mtime_ns)
        rc, err, _ = self.run_sweep(self.four_runs(sizes="[4096, 8192, 16384]"))
        self.assertEqual(rc, 0, err)
        self.assertIn("6 runs, 4 done, 2 to run", err)
        self.assertEqual(len(self.read_csv(out)), 6)
        self.assertLess(time.monotonic() - t0, 20)

    def test_failed_runs_are_reported_with_exit_status_and_stderr(self):
        path = self.write("""
            config: %s
            workloads: [%s]
            list:
              - {l1.ways: 4}
              - {l1.ways: 3}
              - {system.max_time_us: 1}
        """ % (TINY, SMALL))
        rc, err, out = self.run_sweep(path)
        self.assertEqual(rc, 3, err)
        self.assertIn("1 ok, 2 failed", err)
        self.assertIn("exit status 2", err)     # bad input: gpumemsys names the key
        self.assertIn("l1.size_bytes: 4096 is not a multiple of ways x line_bytes", err)
        self.assertIn("exit status 3", err)     # the simulation failed
        self.assertIn("reached system.max_time_us (1 us)", err)
        rows = self.read_csv(out)
        self.assertEqual([(r["status"], r["exit_status"]) for r in rows], [("ok", "0"), ("failed", "2"), ("failed", "3")])
        self.assertEqual(rows[2]["system.sm_cycles"], "")  # a failed run's statistics are not results
        self.assertIn("system.max_time_us=1", self.text(os.path.join(out, "failures.txt")))
        # failed runs run again on resume (and fail again); the good one does not
        rc, err, _ = self.run_sweep(path)
        self.assertEqual(rc, 3)
        self.assertIn("3 runs, 1 done, 2 to run", err)

    def test_stats_globs_and_unknown_statistics(self):
        rc, err, out = self.run_sweep(self.four_runs("stats: [system.sm_cycles, 'system.llc_*hit_rate']"))
        self.assertEqual(rc, 0, err)
        self.assertEqual(list(self.read_csv(out)[0])[5:-3], ["system.sm_cycles", "system.llc_hit_rate",
                                                             "system.llc_sector_hit_rate", "system.llc_read_sector_hit_rate"])
        rc, err, _ = self.run_sweep(self.four_runs("stats: [system.sm_cycles, system.no_such_stat]"))
        self.assertEqual(rc, 2)
        self.assertIn("stats: 'system.no_such_stat' is in no run's stats.csv", err)

    def test_the_script_runs_as_a_program(self):
        p = subprocess.run([sys.executable, SWEEP, self.four_runs(), "--binary", BINARY, "-q",
                            "--out", os.path.join(self.tmp, "o")], capture_output=True, text=True)
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertNotIn("done, 0 failed, elapsed", p.stderr)  # -q: no progress lines
        self.assertIn("4 ok, 0 failed", p.stderr)


class Plot(TempDir):
    CSV = ("run_id,config,workload,l1.size_bytes,l1.design,system.l1_hit_rate,status,exit_status,wall_s\n"
           "a,tiny,small,4096,baseline,0.03,ok,0,0.1\n"
           "b,tiny,small,4096,sector,0.01,ok,0,0.1\n"
           "c,tiny,small,8192,baseline,0.1,ok,0,0.1\n"
           "d,tiny,small,8192,sector,0.04,ok,0,0.1\n"
           "e,tiny,small,16384,sector,,failed,3,0.1\n")

    def plot(self, *args, env=None):
        return subprocess.run([sys.executable, PLOT, self.write(self.CSV, "results.csv")] + list(args),
                              capture_output=True, text=True, env=env)

    def test_draws_a_png(self):
        if importlib.util.find_spec("matplotlib") is None:
            self.skipTest("%s has no matplotlib" % sys.executable)
        png = os.path.join(self.tmp, "p.png")
        p = self.plot("-x", "l1.size_bytes", "-y", "system.l1_hit_rate", "--group-by", "l1.design", "--logx",
                      "--out", png)
        self.assertEqual(p.returncode, 0, p.stderr)
        with open(png, "rb") as f:
            self.assertEqual(f.read(8), b"\x89PNG\r\n\x1a\n")
        p = self.plot("-x", "l1.design", "-y", "system.l1_hit_rate", "--where", "l1.size_bytes=4096")  # bars
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertTrue(os.path.exists(os.path.join(self.tmp, "system_l1_hit_rate_vs_l1_design.png")))

    def test_bad_columns_and_ambiguous_points(self):
        if importlib.util.find_spec("matplotlib") is None:
            self.skipTest("%s has no matplotlib" % sys.executable)
        p = self.plot("-x", "l1.size", "-y", "system.l1_hit_rate")
        self.assertEqual(p.returncode, 2)
        self.assertIn("no column 'l1.size' (columns: run_id, config", p.stderr)
        p = self.plot("-x", "l1.size_bytes", "-y", "system.l1_hit_rate")
        self.assertEqual(p.returncode, 2)
        self.assertIn("2 rows share one point (l1.size_bytes=4096)", p.stderr)
        self.assertIn("they differ in l1.design", p.stderr)

    def test_clear_message_without_matplotlib(self):
        fake = os.path.join(self.tmp, "fake")
        os.makedirs(os.path.join(fake, "matplotlib"))
        with open(os.path.join(fake, "matplotlib", "__init__.py"), "w") as f:
            f.write("raise ImportError('No module named matplotlib')\n")
        p = self.plot("-x", "l1.size_bytes", "-y", "system.l1_hit_rate",
                      env=dict(os.environ, PYTHONPATH=fake))
        self.assertEqual(p.returncode, 2)
        self.assertIn("sweep_plot: error: needs matplotlib", p.stderr)
        self.assertIn("python3-matplotlib", p.stderr)


if __name__ == "__main__":
    unittest.main()
