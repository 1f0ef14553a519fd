"""Reports what the worker can see about itself."""

import os
import resource
import sys


def limits():
    names = ("RLIMIT_AS", "RLIMIT_FSIZE", "RLIMIT_CORE", "RLIMIT_CPU", "RLIMIT_NPROC", "RLIMIT_NOFILE")
    return tuple(resource.getrlimit(getattr(resource, name))[0] for name in names)


def identity():
    return os.getuid(), os.geteuid(), os.getgid(), len(os.getgroups()), os.getsid(0) == os.getpid()


def surroundings():
    print("ENV", sorted(os.environ.items()))
    print("CWD", os.getcwd())
    print("FDS", sorted(int(fd) for fd in os.listdir("/proc/self/fd")))
    print("PATH", [p for p in sys.path if p])
    print("STDIN", os.readlink("/proc/self/fd/0"))
    return 0


def threads():
    return len(os.listdir("/proc/self/task"))
