"""Part A: projections and scores (Dis 10 Q1). Points: autograder/contract.py (POINTS)."""

from __future__ import annotations

from autograder.api import check, graded

# ---- qkv_project ----------------------------------------------------------------------------------------


@graded("A.1", "qkv_project")
def test_qkv_rows_are_tokens(student):
    """qkv_project: one row of Q, K and V per token (d_k = 4, d_v = 2, and square weights)"""
    check(student, "qkv-rect", "qkv-square")


@graded("A.2", "qkv_project")
def test_qkv_batch_axes(student):
    """qkv_project: leading batch and head axes are kept"""
    check(student, "qkv-batch", batched=True)


@graded("A.3", "qkv_project", hidden=True)
def test_qkv_dis10(student):
    """qkv_project: Dis 10 Q1 queries, keys and values of x_1, x_2, x_3 (q_2 = [-1, 0, -2])"""
    check(student, "qkv-dis10")


@graded("A.4", "qkv_project", hidden=True)
def test_qkv_ps4(student):
    """qkv_project: PS4 Q3 projections Q = I W_Q, K = I W_K, V = I W_V"""
    check(student, "qkv-ps4")


# ---- attention_scores -----------------------------------------------------------------------------------


@graded("A.5", "attention_scores")
def test_scores_rows_are_queries(student):
    """attention_scores: one row per query, one column per key (n_q ≠ n_k)"""
    check(student, "scores-more-keys", "scores-square-k")


@graded("A.6", "attention_scores")
def test_scores_batch_axes(student):
    """attention_scores: batch and head axes, 4 queries against 6 keys"""
    check(student, "scores-batch", batched=True)


@graded("A.7", "attention_scores", hidden=True)
def test_scores_worksheets(student):
    """attention_scores: Dis 10 Q1 scores (z_3 = [2, 8, -20]) and PS4 Q3 scores"""
    check(student, "scores-dis10", "scores-ps4")


# ---- random shapes (cases drawn by autograder/suite/random_cases.py) -------------------------------------


@graded("A.8", "qkv_project", hidden=True)
def test_qkv_random_shapes(student):
    """qkv_project: random shapes (0 to 3 leading axes, N from 1 to 12, d_k ≠ d_v)"""
    check(student, "random-qkv-1", "random-qkv-2", "random-qkv-3",
          "random-qkv-4", "random-qkv-5", "random-qkv-6", batched=True, shapes=True)


@graded("A.9", "attention_scores", hidden=True)
def test_scores_random_shapes(student):
    """attention_scores: random shapes (0 to 3 leading axes, n_q ≠ n_k, d_k from 1 to 16)"""
    check(student, "random-scores-1", "random-scores-2", "random-scores-3",
          "random-scores-4", "random-scores-5", "random-scores-6", batched=True, shapes=True)
