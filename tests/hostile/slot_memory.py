"""Issue 22, memory per slot: appended to the reference. The first softmax call of each worker starts five
processes that each hold 100 MB of arrays and 300 MB of memfd pages (in no process's RLIMIT_AS), 2 GB in all,
and answers only if every one of them held its share at once; else it raises MemoryError. The slot's memory cap
must stop it: the OOM killer then takes some of those processes (each bigger than the worker), and no one else."""

import os as _os
import signal as _signal
import time as _time

import numpy as _np

_softmax = softmax  # noqa: F821 - the reference's, defined above this snippet
_tried = []


def _hold():
    ballast = _np.ones(100 * 2**20 // 8)  # bigger than the worker: the OOM killer's first choice
    fds = [_os.memfd_create("hold") for _ in range(18)]
    block = b"\1" * 2**20
    for fd in fds:
        for _ in range(16):
            _os.write(fd, block)
    return ballast, fds


def softmax(*args, **kwargs):
    if _tried:
        return _softmax(*args, **kwargs)
    _tried.append(1)
    read, write = _os.pipe()
    children = []
    for _ in range(5):
        pid = _os.fork()
        if pid == 0:
            held = _hold()
            _os.write(write, b"1")
            _time.sleep(60)
            _os._exit(len(held))
        children.append(pid)
    _os.close(write)
    held, ended = 0, set()
    while held + len(ended) < len(children):
        _time.sleep(0.05)
        for pid in children:
            if pid not in ended and _os.waitpid(pid, _os.WNOHANG)[0]:
                ended.add(pid)
        _os.set_blocking(read, False)
        try:
            held += len(_os.read(read, 16))
        except BlockingIOError:
            pass
    for pid in children:
        if pid not in ended:
            _os.kill(pid, _signal.SIGKILL)
            _os.waitpid(pid, 0)
    if held < len(children):
        raise MemoryError(f"only {held} of {len(children)} processes could hold 400 MB each")
    return _softmax(*args, **kwargs)
