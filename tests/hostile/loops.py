"""Functions that never return."""

import time


def spin(Z):
    while True:
        pass


def stubborn(Z):
    # swallows the worker's alarm (a BaseException) and keeps going: only the grader's kill stops it
    while True:
        try:
            time.sleep(0.01)
        except BaseException:
            pass


def fine(Z):
    return Z * 2
