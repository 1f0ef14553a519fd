"""Issue 22, finding 3: appended to the reference. causal_mask (which no other function calls) ignores SIGCHLD, so
the kernel reaps its descendants at once and their CPU time reaches no one's ``cutime``; blocks SIGALRM; starts
five processes that each keep a short-lived spinning child running (one after another), and spins itself at the
lowest priority: the worker waits for a CPU nearly all the time, so the student's time (wall-clock minus that
wait) hardly advances, and the CPU time of the worker's processes that /proc still shows hardly grows."""

import os as _os
import signal as _signal
import time as _time


def _spin(seconds):
    end = _time.monotonic() + seconds
    while _time.monotonic() < end:
        pass


def _keep_spinning():
    end = _time.monotonic() + 120
    while _time.monotonic() < end:
        try:
            if _os.fork() == 0:
                _spin(0.2)
                _os._exit(0)
            _os.wait()  # SIGCHLD ignored: returns (ECHILD) once the child is gone, reaped by the kernel
        except OSError:
            _time.sleep(0.01)
    _os._exit(0)


def causal_mask(*args, **kwargs):
    _signal.signal(_signal.SIGCHLD, _signal.SIG_IGN)
    _signal.pthread_sigmask(_signal.SIG_BLOCK, {_signal.SIGALRM})
    for _ in range(5):
        try:
            if _os.fork() == 0:
                _keep_spinning()
        except OSError:
            pass
    _os.nice(19)
    while True:
        pass
