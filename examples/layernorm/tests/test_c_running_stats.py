"""Part C: running statistics. Points: the homework's homework.py (POINTS).

Each case makes the student's own RunningStats in the worker (the homework's diagnosis/stateful.py) and checks
count, mean and var after every update, then normalize.
"""

from __future__ import annotations

from autograder.api import check, graded


@graded("C.1", "RunningStats")
def test_running_stats_one_batch(student):
    """RunningStats: one batch gives its own count, mean and (biased) variance; normalize uses them"""
    check(student, "stats-one-batch")


@graded("C.2", "RunningStats")
def test_running_stats_batches(student):
    """RunningStats: batches of different sizes and means merge as if they were one"""
    check(student, "stats-unequal-batches", "stats-two-equal")


@graded("C.3", "RunningStats", hidden=True)
def test_running_stats_leading_axes(student):
    """RunningStats: leading axes are rows; six small batches in a row"""
    check(student, "stats-leading-axes", "stats-many-batches")


@graded("C.4", "RunningStats", hidden=True)
def test_running_stats_eps(student):
    """RunningStats: normalize with eps = 0.5 given to the constructor"""
    check(student, "stats-eps")
