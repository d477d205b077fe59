#!/usr/bin/env python3
"""A fixed-seed mutation fuzz of sweep and experiment files (ctest: ToolFuzz.<class>; by hand:
python3 test_tool_fuzz.py [CLASS]).

The seeds are the files in configs/sweeps and scripts/experiments. Each is mutated (bytes deleted or
inserted, lines dropped, duplicated or swapped, values swapped for other types, emptied, made huge, made
`../` names, unicode or control characters, duplicate keys, aliases, several documents, non-YAML) and fed
to the tool's checking entry, `--dry-run` (nothing runs, nothing is written): every input must end in exit
status 0, or 2 with exactly one line on stderr, and never a traceback. `Findings` runs the inputs in
tests/scripts/fuzz_findings/, each of which made the tools of commit b8a1df7 end in a traceback or run
something they should have refused, as real processes.
"""
import contextlib, glob, importlib.util, io, os, random, subprocess, sys, tempfile, unittest
from importlib.machinery import SourceFileLoader

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SCRIPTS = os.environ.get("GMS_SCRIPTS", os.path.join(ROOT, "scripts"))  # another tree's tools, to compare
FINDINGS = os.path.join(ROOT, "tests", "scripts", "fuzz_findings")
SEED = int(os.environ.get("GMS_FUZZ_SEED", "20261129"))  # another seed or GMS_FUZZ_PER_SEED=N: a longer search
# Mutations per seed file (one sweep file; five experiment files of ~200 lines, ~50 ms each): ~15 s in all.
PER_SEED = {"sweep": 300, "experiment": 40}


def load(name, path):
    loader = SourceFileLoader(name, path)
    spec = importlib.util.spec_from_loader(name, loader)
    mod = importlib.util.module_from_spec(spec)
    loader.exec_module(mod)
    return mod


sweep = load("gms_sweep_fuzz", os.path.join(SCRIPTS, "sweep"))
experiment = load("gms_experiment_fuzz", os.path.join(SCRIPTS, "experiment"))

# Values a mutation puts where a value was: other types, empty ones, huge ones, names that leave the
# output folder, unicode and control characters, YAML features (tags, aliases, timestamps).
HOSTILE = ["{}", "[]", "''", "null", "~", "true", "-1", "0", "1e999", "-.inf", ".nan", "9" * 5000,
           "0x" + "f" * 40, "../../escape", "/etc/passwd", "a/b", "..", ".", "'\\u00e9\\u2713\\u202e'",
           "\"a\\nb\\tc\\x01\"", "\"\\0\"", "!!binary aGVsbG8=", "!!python/object:os.system x", "2001-13-45",
           "2001-12-14", "*nowhere", "&x [*x]", "[[[[[[[[[[]]]]]]]]]]", "{a: {b: {c: [1, {d: 2}]}}}",
           "[1, [2, 3]]", "{l1.ways: 4}", "'x'", "'lru@'", "'lru@l1.ways'", "'lru@../x=1'", "'v.__class__'",
           "'__import__(\"os\")'", "'9 ** 9 ** 9'", "'log(-1)'", "'v()'", "'nosuch(1)'", "'(' * 200",
           "'[1,2][0]'", "'lambda: 1'", "'>'", "'=='", "-", "? complex", "|\n  block\n  text"]

JUNK = [b"\x00", b"\xff\xfe", b"\t", b"\r", b"\x1b[31m", b"\xc3(", b"---\n", b"...\n", b"%YAML 1.1\n",
        b"- ", b": ", b"{", b"}", b"[", b"]", b"&a ", b"*a ", b"!!", b"#", b"'", b'"', b"\xe2\x80\xae",
        b"\n" * 3, b"  ", b"? "]


PY_HOSTILE = [None, [], {}, "", 0, -1, True, 2 ** 70, 10 ** 5000, 1e300, float("inf"), "../../escape", "/abs/path",
              "a/b", "..", "\u00e9\u2713\u202e", "a\nb", "\x00", "-rf", [1, [2]], {"a": {"b": []}}, ["x"] * 3,
              "lru@", "lru@l1.ways", "x@y=1", "v.__class__", "nosuch(1)", "9 ** 9 ** 9", "log(-1)", "v()", "(" * 300]


def structural(rng, text):
    """The seed parsed, one value somewhere in its tree swapped for another type, removed or emptied, and
    written back as YAML: type swaps deep inside (a claim's metric a list, a figure's id a map)."""
    import yaml
    try:
        data = yaml.safe_load(text)
    except (yaml.YAMLError, ValueError, RecursionError):  # not YAML any more, a bad date, deep nesting
        return text
    paths = []

    def walk(x, path):
        paths.append(path)
        if len(path) > 20:  # a recursive alias (&x [*x]) loads as a list inside itself
            return
        if isinstance(x, dict):
            for k, v in x.items():
                walk(v, path + (k,))
        elif isinstance(x, list):
            for i, v in enumerate(x):
                walk(v, path + (i,))
    walk(data, ())
    path = rng.choice(paths[1:] or paths)
    parent = data
    for p in path[:-1]:
        parent = parent[p]
    if not path:
        return text
    r = rng.random()
    if r < 0.15 and isinstance(parent, dict):
        del parent[path[-1]]
    elif r < 0.25 and isinstance(parent[path[-1]], (list, dict)):
        parent[path[-1]] = type(parent[path[-1]])()
    else:
        parent[path[-1]] = rng.choice(PY_HOSTILE)
    try:
        return yaml.safe_dump(data, sort_keys=False, allow_unicode=rng.random() < 0.5).encode("utf-8", "replace")
    except (yaml.YAMLError, ValueError, RecursionError):
        return text


def flow_value(rng, data):
    """A value inside a flow map or list ({id: A, metric: x}) swapped for a hostile one."""
    import re
    spots = [m for m in re.finditer(rb"(: |\[|, )([^,\]\}\n]*)", data)]
    if not spots:
        return data
    m = rng.choice(spots)
    return data[:m.start(2)] + rng.choice(HOSTILE).encode() + data[m.end(2):]


def mutate(rng, text):
    """One mutation (sometimes two or three stacked) of the bytes of a YAML file."""
    data = text
    for _ in range(rng.choice((1, 1, 1, 2, 3))):
        lines = data.split(b"\n")
        kind = rng.randrange(16)
        if kind >= 12:
            data = structural(rng, data) if kind >= 14 else flow_value(rng, data)
            continue
        i = rng.randrange(len(lines)) if lines else 0
        if kind == 0 and data:  # delete a run of bytes
            a = rng.randrange(len(data))
            data = data[:a] + data[a + rng.randint(1, 40):]
        elif kind == 1:  # insert junk bytes
            a = rng.randrange(len(data) + 1)
            data = data[:a] + rng.choice(JUNK) + data[a:]
        elif kind == 2 and lines:  # drop a line
            data = b"\n".join(lines[:i] + lines[i + 1:])
        elif kind == 3 and lines:  # duplicate a line (duplicate keys, repeated list items)
            data = b"\n".join(lines[:i + 1] + lines[i:])
        elif kind == 4 and len(lines) > 1:  # swap two lines
            j = rng.randrange(len(lines))
            lines[i], lines[j] = lines[j], lines[i]
            data = b"\n".join(lines)
        elif kind in (5, 6, 7):  # a value swapped for a hostile one
            cands = [k for k, l in enumerate(lines) if b": " in l and not l.lstrip().startswith(b"#")]
            if cands:
                k = rng.choice(cands)
                head = lines[k].split(b": ", 1)[0]
                lines[k] = head + b": " + rng.choice(HOSTILE).encode()
                data = b"\n".join(lines)
        elif kind == 8:  # a list item or flow value swapped
            cands = [k for k, l in enumerate(lines) if l.lstrip().startswith(b"- ") or b"[" in l]
            if cands:
                k = rng.choice(cands)
                l = lines[k]
                a = l.find(b"[") + 1 if b"[" in l else l.find(b"- ") + 2
                lines[k] = l[:a] + rng.choice(HOSTILE).encode() + b", " + l[a:]
                data = b"\n".join(lines)
        elif kind == 9:  # truncated
            data = data[:rng.randrange(len(data) + 1)]
        elif kind == 10:  # a top-level key given again (duplicate key) or a second document
            top = [l for l in lines if l[:1].isalpha() and b":" in l]
            extra = rng.choice(top) if top and rng.random() < 0.7 else b"---\nname: again"
            data = data + b"\n" + extra + b"\n"
        else:  # indentation broken
            if lines:
                lines[i] = (b"\t" if rng.random() < 0.5 else b"   ") + lines[i]
                data = b"\n".join(lines)
    return data


def whole_inputs(rng):
    """Inputs that are not mutations of a seed: nothing YAML at all."""
    return [b"", b"\n", b"---\n", b"--- \n...\n", bytes(rng.randrange(256) for _ in range(300)),
            b"\x00" * 64, b"[" * 5000 + b"]" * 5000, b"{a: " * 3000 + b"}" * 3000, b"- " * 2000 + b"x",
            "\u00e9\u2713: \u202e\n".encode(), b"a: 1\n" * 3, b"key: [unclosed\n", b"!!set {a, b}\n",
            b"<html><body>not yaml</body></html>\n", b"\xef\xbb\xbfname: bom\n"]


def call(mod, argv):
    """MOD.main(ARGV) in this process: (exit status, stdout, stderr)."""
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        rc = mod.main(list(argv))
    return rc, out.getvalue(), err.getvalue()


class Fuzz(unittest.TestCase):
    def setUp(self):
        self.cwd = os.getcwd()
        os.chdir(ROOT)  # the seeds name their presets and workloads from the repository root
        self.tmp = tempfile.mkdtemp(prefix="gms-fuzz-")

    def tearDown(self):
        os.chdir(self.cwd)
        import shutil
        shutil.rmtree(self.tmp, ignore_errors=True)

    def check(self, mod, prog, data, extra=()):
        path = os.path.join(self.tmp, "in.yaml")
        with open(path, "wb") as f:
            f.write(data)
        try:
            rc, _, err = call(mod, [path, "--dry-run"] + list(extra))
        except BaseException as e:  # an exception out of main is a finding too
            self.fail("%s: %s escaped main on input %r" % (prog, type(e).__name__, data[:300]))
        msg = "%s on input %r: exit %s, stderr %r" % (prog, data[:300], rc, err[-600:])
        self.assertIn(rc, (0, 2), msg)
        self.assertNotIn("Traceback", err, msg)
        if rc == 2:
            self.assertEqual(len(err.splitlines()), 1, msg)
            self.assertTrue(err.startswith("%s: error: " % prog), msg)
        return rc

    def fuzz(self, mod, prog, seeds, extras):
        rng = random.Random(SEED)
        counts = {0: 0, 2: 0}
        for seed in seeds:
            with open(seed, "rb") as f:
                text = f.read()
            for extra in extras:  # the seed itself passes
                self.assertEqual(self.check(mod, prog, text, extra), 0, seed)
            for n in range(int(os.environ.get("GMS_FUZZ_PER_SEED", PER_SEED[prog]))):
                data = mutate(rng, text)
                counts[self.check(mod, prog, data, extras[n % len(extras)])] += 1
        for data in whole_inputs(rng):
            counts[self.check(mod, prog, data)] += 1
        print("\n%s: %d inputs: %d accepted, %d refused with one line" % (prog, sum(counts.values()), counts[0],
                                                                        counts[2]), file=sys.stderr)
        self.assertGreater(counts[2], counts[0])  # the mutations mostly break the file: the fuzz reaches the checks

    def test_sweep_files(self):
        seeds = sorted(glob.glob(os.path.join(ROOT, "configs", "sweeps", "*.yaml")))
        self.assertTrue(seeds)
        self.fuzz(sweep, "sweep", seeds, [()])

    def test_experiment_files(self):
        seeds = sorted(glob.glob(os.path.join(ROOT, "scripts", "experiments", "*.yaml")))
        self.assertTrue(seeds)
        self.fuzz(experiment, "experiment", seeds, [(), ("--reduced",)])


class Findings(unittest.TestCase):
    """The inputs that broke the tools before (tests/scripts/fuzz_findings/TOOL_WHAT.yaml), run as real
    processes: exit 2, one line naming the file, no traceback."""

    def test_each_finding_is_one_error_line_exit_2(self):
        files = sorted(glob.glob(os.path.join(FINDINGS, "*.yaml")))
        self.assertGreaterEqual(len(files), 10)
        for path in files:
            tool = os.path.basename(path).split("_", 1)[0]
            with self.subTest(os.path.basename(path)):
                p = subprocess.run([sys.executable, os.path.join(SCRIPTS, tool), path, "--dry-run"], cwd=ROOT,
                                   capture_output=True, text=True, timeout=60)
                self.assertEqual(p.returncode, 2, p.stderr)
                self.assertNotIn("Traceback", p.stderr)
                self.assertEqual(len(p.stderr.splitlines()), 1, p.stderr)
                self.assertTrue(p.stderr.startswith("%s: error: %s" % (tool, path)), p.stderr)


if __name__ == "__main__":
    unittest.main(argv=[sys.argv[0]] + sys.argv[1:])
