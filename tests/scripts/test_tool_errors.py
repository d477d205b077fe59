#!/usr/bin/env python3
"""The error path of the other Python tools under scripts/ (ctest: ToolErrors.<class>; by hand: python3
test_tool_errors.py [CLASS]): sweep_plot, plot_rd.py, gen_docs.py, fidelity.py and test_slurm end bad input
in one line and exit 2, a failed write in one line and exit 3, never a traceback (scripts/tool_errors.py;
scripts/sweep and scripts/experiment: test_sweep.py and test_experiment.py). Needs no gpumemsys; the plots
need matplotlib (/usr/bin/python3 on Debian).
"""
import importlib.util, os, shutil, subprocess, sys, tempfile, unittest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SCRIPTS = os.path.join(ROOT, "scripts")
HAS_MPL = importlib.util.find_spec("matplotlib") is not None


class OtherTools(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.mkdtemp(prefix="gms-tools-test-")
        self.full = os.path.join(self.tmp, "full.png")  # a full disk: every write fails with ENOSPC
        os.symlink("/dev/full", self.full)
        self.folder = os.path.join(self.tmp, "folder.png")  # a folder where the file goes
        os.makedirs(self.folder)

    def tearDown(self):
        shutil.rmtree(self.tmp, ignore_errors=True)

    def write(self, name, text):
        path = os.path.join(self.tmp, name)
        with open(path, "w") as f:
            f.write(text)
        return path

    def tool(self, script, *args, cwd=None):
        p = subprocess.run([sys.executable, os.path.join(SCRIPTS, script)] + list(args), capture_output=True,
                           text=True, timeout=120, cwd=cwd)
        return p.returncode, p.stderr

    def assert_one_error(self, result, status, prefix, *parts):
        rc, err = result
        self.assertEqual(rc, status, err)
        self.assertNotIn("Traceback", err)
        self.assertEqual(len(err.strip().splitlines()), 1, err)
        self.assertTrue(err.startswith(prefix), err)
        for p in parts:
            self.assertIn(p, err)

    @unittest.skipUnless(HAS_MPL, "no matplotlib")
    def test_sweep_plot(self):
        csv = self.write("results.csv", "run_id,l1.ways,system.l1_hit_rate,status\na,2,0.1,ok\nb,4,0.2,ok\n")
        plot = lambda *a: self.tool("sweep_plot", csv, "-x", "l1.ways", "-y", "system.l1_hit_rate", *a)
        self.assertEqual(plot("--out", os.path.join(self.tmp, "ok.png"))[0], 0)
        self.assert_one_error(plot("--out", self.full), 3, "sweep_plot: error: ",
                              "full.png: cannot write: No space left on device")
        self.assert_one_error(plot("--out", self.folder), 3, "sweep_plot: error: ", "folder.png: cannot write: Is a directory")
        self.assert_one_error(self.tool("sweep_plot", csv, "-x", "l1.ways"), 2,
                              "sweep_plot: error: command line: the following arguments are required: -y")
        bad = self.write("bad.csv", "a,b\n1,2,3\n")
        self.assert_one_error(self.tool("sweep_plot", bad, "-x", "a", "-y", "b"), 2,
                              "sweep_plot: error: %s:2: a row with another number of fields" % bad)
        self.assert_one_error(self.tool("sweep_plot", "/dev/zero", "-x", "a", "-y", "b"), 2,
                              "sweep_plot: error: /dev/zero: larger than")

    @unittest.skipUnless(HAS_MPL, "no matplotlib")
    def test_plot_rd(self):
        hist = self.write("h.csv", "distance,count\n1,5\n2,3\ninf,1\n")
        self.assertEqual(self.tool("plot_rd.py", "hist", hist, os.path.join(self.tmp, "h.png"))[0], 0)
        self.assert_one_error(self.tool("plot_rd.py", "hist", hist, self.full), 3, "plot_rd.py: error: ",
                              "full.png: cannot write: No space left on device")
        self.assert_one_error(self.tool("plot_rd.py", "hist", os.path.join(self.tmp, "nope.csv"), "x.png"), 2,
                              "plot_rd.py: error: ", "nope.csv: cannot read: No such file or directory")
        bad = self.write("bad.csv", "distance,count\n1,many\n")
        self.assert_one_error(self.tool("plot_rd.py", "hist", bad, "x.png"), 2, "plot_rd.py: error: ",
                              "bad.csv:2: count: 'many' is not a number")
        self.assert_one_error(self.tool("plot_rd.py", "sweep", hist, "x.png"), 2, "plot_rd.py: error: ",
                              "h.csv: no column parameter")
        self.assert_one_error(self.tool("plot_rd.py"), 2, "plot_rd.py: error: command line: usage")

    def test_gen_docs(self):
        # a copy of the script and its docs: a missing page, then a folder where docs/config.md goes
        tree = os.path.join(self.tmp, "tree")
        os.makedirs(os.path.join(tree, "scripts"))
        for name in ("gen_docs.py", "tool_errors.py"):
            shutil.copy(os.path.join(SCRIPTS, name), os.path.join(tree, "scripts"))
        shutil.copytree(os.path.join(ROOT, "docs", "parts"), os.path.join(tree, "docs", "parts"))
        shutil.copytree(os.path.join(ROOT, "docs", "blocks"), os.path.join(tree, "docs", "blocks"))
        gen = lambda *a: subprocess.run([sys.executable, os.path.join(tree, "scripts", "gen_docs.py")] + list(a),
                                        capture_output=True, text=True, timeout=60)
        p = gen()
        self.assert_one_error((p.returncode, p.stderr), 2, "gen_docs.py: error: ",
                              "docs/workloads.md: cannot read: No such file or directory")
        shutil.copy(os.path.join(ROOT, "docs", "workloads.md"), os.path.join(tree, "docs"))
        os.makedirs(os.path.join(tree, "docs", "config.md"))
        p = gen()
        self.assert_one_error((p.returncode, p.stderr), 3, "gen_docs.py: error: ",
                              "docs/config.md: cannot write: Is a directory")
        p = gen("--bogus")
        self.assert_one_error((p.returncode, p.stderr), 2, "gen_docs.py: error: command line")

    def test_fidelity(self):
        self.assert_one_error(self.tool("fidelity.py", "--bin", os.path.join(self.tmp, "nope")), 2,
                              "fidelity: error: --bin %s: cannot run: No such file or directory" % os.path.join(self.tmp, "nope"))
        self.assert_one_error(self.tool("fidelity.py", "--bogus"), 2, "fidelity: error: command line: unrecognized")

    def test_test_slurm_command_line(self):
        # only a bad command line: a good one would start Slurm as root
        self.assert_one_error(self.tool("test_slurm", "--bogus"), 2, "test_slurm: error: command line: unrecognized")


if __name__ == "__main__":
    unittest.main(argv=[sys.argv[0]] + sys.argv[1:])
