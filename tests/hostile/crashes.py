"""Functions that take the whole worker process down, and one that does not."""

import ctypes
import os
import signal

import numpy as np


def os_exit(Z):
    os._exit(3)


def segfault(Z):
    return ctypes.string_at(0)


def kill_self(Z):
    os.kill(os.getpid(), signal.SIGKILL)


def memory_bomb(Z):
    blocks = []
    while True:
        blocks.append(np.ones(10**8))  # 800 MB each, far past the address-space limit


def list_bomb(Z):
    return [0] * 10**10


def fine(Z):
    return Z + 1
