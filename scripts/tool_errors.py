"""The one error path of the Python tools under scripts/ (docs/errors.md, section Scripts).

Every entry point runs its body through guard(): bad input (a file, a field, the command line) is an
InputError, printed as one line `PROG: error: <file>:<line>: <field>: <what>` with exit status 2; a failed
write of an output is an OutputError (or an OSError that escaped), one line and exit status 3; anything
else is a bug: one line `PROG: internal error: ...` and the tool's documented internal status (1, or 3
where 1 already means something). The traceback is printed only with --debug. Standard library only.
"""
import argparse, errno, fcntl, os, sys, traceback

EXIT_INPUT, EXIT_OUTPUT, EXIT_INTERRUPTED = 2, 3, 130
MAX_INPUT_BYTES = 256 << 10  # a sweep or experiment file is a few KiB; more is not one (e.g. /dev/zero)


class InputError(Exception):
    """Bad input: a file, a field of it, or the command line. Exit status 2, one line."""


class OutputError(Exception):
    """An output could not be written (a full disk, a folder where a file goes). Exit status 3, one line."""
    errno = None


# A write that fails with one of these fails for every run after it: the tools stop rather than go on.
DISK_FULL = (errno.ENOSPC, errno.EDQUOT, errno.EROFS, errno.EIO)


class ArgParser(argparse.ArgumentParser):
    """argparse whose errors are one line (no usage block) through guard(): exit status 2."""

    def error(self, message):
        raise InputError("command line: %s (see --help)" % message)


def add_debug(ap):
    ap.add_argument("--debug", action="store_true", help="on an error, also print the Python traceback")


def one_line(msg):
    """MSG with control characters escaped, so an error is exactly one line whatever the input held."""
    return "".join(c if c.isprintable() or c == " " else repr(c)[1:-1] for c in str(msg))


def excerpt(v, limit=60):
    """A user value for a message: its repr, cut to LIMIT characters (a 5000-digit number stays short)."""
    try:
        s = repr(v)
    except ValueError:  # an integer too long for repr (sys.get_int_max_str_digits)
        return "<a %d-bit integer>" % v.bit_length()
    return s if len(s) <= limit else s[:limit - 3] + "..."


def read_text(path, what, limit=MAX_INPUT_BYTES):
    """The text of an input file, read in bounded memory: a missing or unreadable file, a folder, one over
    LIMIT bytes (a device such as /dev/zero), NUL bytes or invalid UTF-8 are InputErrors."""
    try:
        with open(path, "rb") as f:
            data = f.read(limit + 1)
    except OSError as e:
        raise InputError("%s: cannot read: %s" % (path, e.strerror or e))
    if len(data) > limit:
        raise InputError("%s: larger than %d KiB: not a%s file" % (path, limit >> 10, what))
    if b"\0" in data:
        raise InputError("%s:%d: a NUL byte: a binary file, not a%s file" % (
            path, data[:data.index(b"\0")].count(b"\n") + 1, what))
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as e:
        raise InputError("%s:%d: not UTF-8 text (byte 0x%02x)" % (path, data[:e.start].count(b"\n") + 1,
                                                                   data[e.start]))


def check_plain_name(name):
    """Why NAME cannot be a file or folder name inside an output folder, or None: names become paths
    (OUT/..., docs/results/NAME.md), so '..', '.', absolute paths and path separators are refused."""
    if not isinstance(name, str) or not name:
        return "expected a non-empty name"
    if name in (".", "..") or "/" in name or "\\" in name:
        return "%s is not a plain name: it must stay inside the output folder (no '/', '\\', '.' or '..')" % (
            excerpt(name))
    if not name.isprintable() or name.startswith("-"):
        return "%s is not a plain name (no control characters, no leading '-')" % excerpt(name)
    if len(name) > 100:
        return "a name of %d characters: at most 100" % len(name)
    return None


def check_path_text(path):
    """Why PATH (from a file) cannot be a path, or None: a NUL byte or a control character."""
    if not isinstance(path, str) or not path:
        return "expected a non-empty path"
    if not path.isprintable():
        return "%s: a path with a control character" % excerpt(path)
    return None


def guard(prog, body, debug=False, internal_status=1):
    """Runs BODY() and returns its exit status; every exception ends as one line on stderr."""
    def say(kind, msg, status):
        if debug:
            traceback.print_exc()
        print("%s: %s: %s" % (prog, kind, one_line(msg)), file=sys.stderr, flush=True)
        return status
    try:
        return body()
    except InputError as e:
        return say("error", e, EXIT_INPUT)
    except OutputError as e:
        return say("error", e, EXIT_OUTPUT)
    except KeyboardInterrupt:
        return say("error", "interrupted", EXIT_INTERRUPTED)
    except OSError as e:  # a write that no caller wrapped: still an output failure, not a bug
        where = e.filename if e.filename is not None else "output"
        return say("error", "%s: %s" % (where, e.strerror or e), EXIT_OUTPUT)
    except Exception as e:  # a bug: say what, point at --debug
        return say("internal error", "%s: %s (a bug: please report it; --debug prints the traceback)" % (
            type(e).__name__, e), internal_status)


def write_text(path, text):
    """Writes TEXT to PATH through a temporary file and a rename; a failure is an OutputError naming PATH."""
    tmp = "%s.tmp%d" % (path, os.getpid())
    try:
        with open(tmp, "w", encoding="utf-8", newline="") as f:
            f.write(text)
        os.replace(tmp, path)
    except OSError as e:
        try:
            os.remove(tmp)
        except OSError:
            pass
        err = OutputError("%s: cannot write: %s" % (path, e.strerror or e))
        err.errno = e.errno  # a full disk (ENOSPC) stops a sweep; other failures stay with their run
        raise err


def lock_folder(folder, prog, what="--out", wait=False):
    """Creates FOLDER (an output folder) and takes an exclusive lock on FOLDER/.lock for as long as the
    returned file stays open (the process's life): a second sweep or experiment on the same folder would
    run every point again into the same run folders. Busy: an InputError naming the folder and the
    holder's pid, or with WAIT, blocks until the holder is done. A folder that cannot be made is an
    InputError too (nothing has run yet)."""
    try:
        os.makedirs(folder, exist_ok=True)
    except OSError as e:
        why = "a file, not a folder" if isinstance(e, FileExistsError) else e.strerror or e
        raise InputError("%s %s: cannot create the output folder: %s" % (what, folder, why))
    path = os.path.join(folder, ".lock")
    try:
        f = open(path, "a+")
    except OSError as e:
        raise InputError("%s %s: cannot create its lock file %s: %s" % (what, folder, path, e.strerror or e))
    try:
        fcntl.flock(f, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError as e:
        if e.errno not in (errno.EAGAIN, errno.EACCES, errno.EWOULDBLOCK):
            # A file system without locks (Lustre mounted noflock): run unguarded rather than not at all.
            print("%s: warning: %s: the file system takes no lock (%s): a second run on this folder would not "
                  "be kept out" % (prog, path, e.strerror or e), file=sys.stderr, flush=True)
            return f
        f.seek(0)
        holder = f.read(200).strip() or "unknown pid"
        if not wait:
            f.close()
            raise InputError("%s %s: in use by another run (%s; lock %s): wait for it, pass --wait, or choose "
                             "another %s" % (what, folder, holder, path, what))
        print("%s: %s is in use (%s): waiting for it (--wait)" % (prog, folder, holder), file=sys.stderr,
              flush=True)
        fcntl.flock(f, fcntl.LOCK_EX)
    f.seek(0)
    f.truncate()
    f.write("pid %d, %s\n" % (os.getpid(), prog))
    f.flush()
    return f
