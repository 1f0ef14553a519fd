"""Reports what the worker's world looks like from inside, and pushes on its caps."""

import errno
import os
import socket

import numpy as np


def _out(value):
    """``value`` as UTF-8 bytes of its repr in a uint8 array: the grader takes back only numbers."""
    return np.frombuffer(repr(value).encode(), dtype=np.uint8)


def view():
    """(top-level names of /, pids in /proc, hostname, whether / is writable, whether HOME is)."""
    pids = sorted(int(p) for p in os.listdir("/proc") if p.isdigit())
    return _out((sorted(os.listdir("/")), pids, socket.gethostname(), os.access("/", os.W_OK),
                 os.access(os.environ["HOME"], os.W_OK)))


def fill(folder, megabytes):
    """Write up to ``megabytes`` MiB (in 1 MiB files) under ``folder``: (MiB written, errno that stopped it)."""
    block = b"x" * 2**20
    for i in range(megabytes):
        try:
            with open(os.path.join(folder, f"fill-{i}"), "wb") as f:
                f.write(block)
        except OSError as e:
            return i, e.errno == errno.ENOSPC
    return megabytes, False


def many(folder, count):
    """Create up to ``count`` empty files under ``folder``: (files made, whether ENOSPC stopped it)."""
    for i in range(count):
        try:
            os.close(os.open(os.path.join(folder, f"f{i}"), os.O_WRONLY | os.O_CREAT, 0o600))
        except OSError as e:
            return i, e.errno == errno.ENOSPC
    return count, False


def network():
    """Names of the network interfaces the worker sees (/proc/net/dev: if_nameindex needs a netlink socket, which
    the worker's seccomp filter refuses)."""
    with open("/proc/net/dev") as f:
        return _out(sorted(line.split(":")[0].strip() for line in f.readlines()[2:]))


def plant(folder, name):
    """Leave a file, a folder with a file in it, and a symlink in ``folder``: how many were made."""
    made = 0
    for make in (lambda p: open(p, "w").close(), lambda p: (os.mkdir(p), open(p + "/inner", "w").close()),
                 lambda p: os.symlink("/etc/hostname", p)):
        try:
            make(os.path.join(folder, f"{name}-{made}"))
            made += 1
        except OSError:
            pass
    return made
