"""Part B: softmax (Dis 10 Q1c,f; Dis 11 Q2). Points: autograder/contract.py (POINTS)."""

from __future__ import annotations

from autograder.api import check, graded, points_of_test


@graded("B.1", "softmax")
def test_softmax_rows(student):
    """softmax: each row sums to 1 along the last axis"""
    check(student, "softmax-rows", "softmax-square")


@graded("B.2", "softmax")
def test_softmax_axis(student):
    """softmax: slices sum to 1 along axis=1 of a 3-D array and along axis=0"""
    check(student, "softmax-axis1", "softmax-axis0")


@graded("B.3", "softmax")
def test_softmax_large_logits(student):
    """softmax: large logits (±1000) do not overflow"""
    check(student, "softmax-large")


@graded("B.4", "softmax")
def test_softmax_temperature(student):
    """softmax: the temperature T divides the logits (T = 0.5 and T = 2.5)"""
    check(student, "softmax-temperature-batch", "softmax-temperature-axis0")


@graded("B.5", "softmax", hidden=True, partial=True)
def test_softmax_dis11_matrices(student, set_score=None):
    """softmax: Dis 11 Q2 matrices A, B, C and D (-inf gets weight 0)"""
    cases = ("softmax-dis11-A", "softmax-dis11-B", "softmax-dis11-C", "softmax-dis11-D")
    check(student, *cases, set_score=set_score, points=points_of_test("B.5", "softmax"))


@graded("B.6", "softmax", hidden=True)
def test_softmax_dis11_temperature(student):
    """softmax: Dis 11 Q2c temperature on matrix B, T → 0 one-hot and T → ∞ uniform"""
    check(student, "softmax-dis11-cold", "softmax-dis11-warm", "softmax-dis11-hot")


@graded("B.7", "softmax", hidden=True)
def test_softmax_all_neginf(student):
    """softmax: a slice whose entries are all -inf becomes zeros (no NaN)"""
    check(student, "softmax-neginf-rows", "softmax-neginf-column")


# ---- random shapes (cases drawn by autograder/suite/random_cases.py) -------------------------------------


@graded("B.8", "softmax", hidden=True)
def test_softmax_random_shapes(student):
    """softmax: random shapes (1 to 4 axes, a random axis, a random temperature)"""
    check(student, "random-softmax-1", "random-softmax-2", "random-softmax-3",
          "random-softmax-4", "random-softmax-5", "random-softmax-6", shapes=True)
