"""Functions that raise: the grader reports the type, the message and the student's line."""

import sys

import numpy as np


def softmax(Z, axis=-1, temperature=1.0):
    scale = 1 // 0  # line 9
    return np.exp(Z) * scale


def quits(Z):
    sys.exit("bye")


def interrupted(Z):
    raise KeyboardInterrupt


def recurse(n):
    return recurse(n + 1)


def not_implemented(Z):
    raise NotImplementedError("Dis 10 Q1(c): exp(z/T) / sum exp(z/T)")


def helper_fails(Z):
    return _inner(Z)


def _inner(Z):
    return Z[5, 5]  # line 34: IndexError
