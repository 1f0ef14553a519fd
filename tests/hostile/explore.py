"""Walks / and /proc and reads whatever it can: what a submission could learn of the machine.

``explore(markers, seconds)`` lists every path under / (not /proc, /sys, /dev, nor inside /usr
and the interpreter's own folders) and reads the start of every regular file, then every process
in /proc: its command line, environment, working directory and root. It returns (files read, walk
complete, paths whose name or content holds a marker, other processes' command lines, how many
workers' run folders it saw). ``explored`` returns the same as bytes; ``report`` as one line, for
a submission (``submission``) whose functions raise it.
"""

import os
import stat
import sys
import time

SKIP = ("/proc", "/sys", "/dev")
_found = []


def explore(markers=(), seconds=6.0):
    deadline = time.monotonic() + seconds
    markers = [m for m in markers if m]
    quiet = tuple(os.path.realpath(p) + "/" for p in {sys.prefix, sys.base_prefix, "/usr"})
    hits, read, complete, runs = set(), 0, True, set()

    def check(path, data=b""):
        if any(m in path or m.encode() in data for m in markers):
            hits.add(path)
        if "/ag-run-" in path:  # a worker's run folder: its own, or another slot's
            runs.add(path.split("/ag-run-", 1)[1].split("/", 1)[0])

    todo = ["/"]  # depth first, without recursion (the worker's recursion limit is low)
    while todo:
        if time.monotonic() > deadline:
            complete = False
            break
        top = todo.pop()
        try:
            with os.scandir(top) as listing:
                entries = [(e.path, e.is_dir(follow_symlinks=False), e.is_file(follow_symlinks=False))
                           for e in listing]
        except OSError:
            continue
        for path, is_dir, is_file in entries:
            check(path)
            if is_dir and path not in SKIP and not (path + "/").startswith(quiet):
                todo.append(path)
            elif is_file and not top.startswith(quiet):
                data = _read(path)
                if data is not None:
                    read += 1
                    check(path, data)
    commands = []
    for pid in sorted(filter(str.isdigit, os.listdir("/proc")), key=int):
        if int(pid) == os.getpid():
            continue
        for what in ("cmdline", "environ"):
            data = _read(f"/proc/{pid}/{what}")
            if data:
                check(f"/proc/{pid}/{what}", data)
                if what == "cmdline":
                    commands.append(data.replace(b"\0", b" ").decode("utf-8", "replace").strip()[:300])
        for link in ("cwd", "root", "exe"):
            try:
                check(f"/proc/{pid}/{link} -> " + os.readlink(f"/proc/{pid}/{link}"))
                check(f"/proc/{pid}/{link}/", b" ".join(n.encode() for n in os.listdir(f"/proc/{pid}/{link}")))
            except OSError:
                pass
    return read, complete, sorted(hits), commands, len(runs)


def explored(markers=(), seconds=6.0):
    """explore()'s findings as UTF-8 bytes in a uint8 array (what the grader accepts back)."""
    import numpy as np

    return np.frombuffer(repr(explore(markers, seconds)).encode(), dtype=np.uint8)


def _read(path):
    """The first 64 KiB of ``path`` when it is a regular file we may read, else None."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_NOFOLLOW)
    except OSError:
        return None
    try:
        return os.read(fd, 1 << 16) if path.startswith("/proc/") or stat.S_ISREG(os.fstat(fd).st_mode) else None
    except OSError:
        return None
    finally:
        os.close(fd)


def report(markers):
    """explore() once (leaving a file in each shared folder), as one line of numbers: what it read,
    whether it saw everything, how many paths held a marker (the interpreter's own folders and the
    folders on the way to them aside), how many workers' run folders it saw, how many other
    processes it saw; then the first finding."""
    if not _found:
        _found.append(explore(markers))
        for folder in ("/tmp", "/var/tmp", "/dev/shm", os.environ.get("HOME", "/tmp")):  # and leave files behind
            try:
                with open(os.path.join(folder, f"left-by-{os.getpid()}"), "w") as f:
                    f.write("x")
            except OSError:
                pass
    read, complete, hits, commands, runs = _found[0]
    chain = set()
    for prefix in {sys.prefix, os.path.realpath(sys.prefix), sys.base_prefix}:
        parts = prefix.rstrip("/").split("/")
        chain |= {"/".join(parts[: i + 1]) for i in range(1, len(parts))}
    hits = [h for h in hits if h not in chain]
    first = "".join(c if c.isalnum() or c in "/._-" else "_" for c in (hits + commands + ["none"])[0][:120])
    return f"EXPLORED read={read} complete={int(complete)} hits={len(hits)} runs={runs} commands={len(commands)} " \
           f"first={first} END"


def submission(markers, names):
    """An attention.py whose every graded function (and class) raises report(markers)."""
    with open(__file__) as f:
        source = f.read()
    lines = [source, f"MARKERS = {list(markers)!r}"]
    for name in names:
        head = f"class {name}:\n    def __init__(self, *a, **k):" if name[0].isupper() else f"def {name}(*a, **k):"
        lines.append(head + "\n" + " " * (8 if name[0].isupper() else 4) + "raise RuntimeError(report(MARKERS))")
    return "\n\n".join(lines) + "\n"
