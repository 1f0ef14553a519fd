"""Attempts to influence the grader from inside the worker."""

import os
import sys

import numpy as np


def wrong_but_patched(Z):
    # a wrong answer, plus numpy's comparison functions rigged to say "equal"
    np.allclose = lambda *args, **kwargs: True
    np.array_equal = lambda *args, **kwargs: True
    np.testing.assert_allclose = lambda *args, **kwargs: None
    sys.modules["numpy"].isclose = lambda a, b, **kwargs: np.ones(np.shape(a), dtype=bool)
    return Z * 0


def garbage(Z):
    os.write(int(sys.argv[2]), b"\x00\x00\x00\x00\x00\x00\x00\x20this is not a frame at all!!!!!!")
    return Z


def huge_frame(Z):
    os.write(int(sys.argv[2]), b"\xff" * 8)
    return Z


def read_file(path):
    with open(path, "rb") as f:
        return np.frombuffer(f.read(), dtype=np.uint8)


def fine(Z):
    return Z - 1
