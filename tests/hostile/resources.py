"""Submissions that go after shared resources: memory outside RLIMIT_AS, process slots, other
processes of the sandbox user, the network, files that outlive the worker.

Everything here is bounded on its own (counts, sizes, deadlines), so a test that fails
to clean up leaves nothing running for long.
"""

import ctypes
import os
import signal
import socket
import time

import numpy as np


def oom_score():
    """The worker's oom_score_adj, a forked child's, and whether lowering it back to 0 was refused."""
    read, write = os.pipe()
    pid = os.fork()
    if pid == 0:
        with open("/proc/self/oom_score_adj") as f:
            os.write(write, f.read().strip().encode())
        os._exit(0)
    os.close(write)
    child = int(os.read(read, 32))
    os.close(read)
    os.waitpid(pid, 0)
    try:
        with open("/proc/self/oom_score_adj", "w") as f:
            f.write("0")
        refused = False
    except OSError:
        refused = True
    with open("/proc/self/oom_score_adj") as f:
        return int(f.read()), child, refused


def fork_until_refused(limit=200, megabytes=8, seconds=30.0):
    """Children that each touch some memory and sleep, until fork fails; how many started."""
    made = []
    for _ in range(limit):
        try:
            pid = os.fork()
        except OSError:
            break
        if pid == 0:
            hold = np.ones(megabytes * 2**20 // 8)
            time.sleep(seconds)
            os._exit(int(hold[0]) - 1)
        made.append(pid)
    return len(made)


def memfds(size=2**20, limit=1000):
    """memfds until one is refused: (how many, bytes held, errno of a write past RLIMIT_FSIZE or 0)."""
    fds, held = [], 0
    chunk = b"\1" * size
    for i in range(limit):
        try:
            fd = os.memfd_create(f"hog{i}")
        except OSError:
            break
        fds.append(fd)
        held += os.write(fd, chunk)
    try:
        for _ in range(64):  # 64 MiB at most
            os.write(fds[0], b"\1" * 2**20)
        past = 0
    except OSError as e:
        past = e.errno
    return len(fds), held, past


def dumpable():
    """PR_GET_DUMPABLE of the worker: 0 means other processes of its user cannot read its memory."""
    return ctypes.CDLL(None).prctl(3, 0, 0, 0, 0)


def connect(port):
    """Try to reach 127.0.0.1:port: 0 when connected, else the errno (-1 for a timeout)."""
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=3):
            return 0
    except OSError as e:
        return e.errno or -1


def plant(tag, target):
    """TOP/TAG.txt, TAG.link (to target), TAG.d (deep, linking to target's folder) for /tmp, /var/tmp, /dev/shm."""
    made = 0
    for top in ("/tmp", "/var/tmp", "/dev/shm"):
        base = os.path.join(top, tag)
        with open(base + ".txt", "w") as f:
            f.write("left for the next submission")
        os.symlink(target, base + ".link")  # removing it must not remove the target
        deep = base + ".d"
        os.mkdir(deep)
        os.symlink(os.path.dirname(target), os.path.join(deep, "up"))  # nor follow this one
        here = os.open(deep, os.O_RDONLY | os.O_DIRECTORY)
        for i in range(300):  # deeper than a recursive walk likes
            os.mkdir("d", dir_fd=here)
            with open(os.open(f"f{i}", os.O_WRONLY | os.O_CREAT, 0o600, dir_fd=here), "w") as f:
                f.write("x")
            inner = os.open("d", os.O_RDONLY | os.O_DIRECTORY, dir_fd=here)
            os.close(here)
            here = inner
        os.close(here)
        os.chmod(deep, 0o500)  # not writable: the grader must still get in
        made += 3
    return made


def storm(kind="chains", count=4, seconds=20.0):
    """Start a fork storm and return at once. "chains": ``count`` processes that fork and exit over
    and over, so no pid lives long; "multiply": every process keeps forking (only the process limit
    stops it). Each process ignores SIGTERM/SIGINT/SIGHUP, leaves the session, and exits after
    ``seconds`` whatever happens."""
    end = time.time() + seconds
    for _ in range(count if kind == "chains" else 1):
        pid = -1
        while pid < 0 and time.time() < end:
            try:
                pid = os.fork()
            except OSError:  # the process limit, reached for a moment (exited chains not reaped yet): insist
                time.sleep(0.001)
        if pid == 0:
            _storm(kind, end)
    return count


def _storm(kind, end):
    try:
        for sig in (signal.SIGTERM, signal.SIGINT, signal.SIGHUP):
            signal.signal(sig, signal.SIG_IGN)
        while time.time() < end:
            try:
                pid = os.fork()
            except OSError:
                time.sleep(0.001)
                continue
            if pid == 0:
                try:
                    os.setsid()
                except OSError:
                    pass
            elif kind == "chains":
                break  # the parent leaves, its child goes on
    finally:
        os._exit(0)
