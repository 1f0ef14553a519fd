"""Part B: a pre-norm feed-forward block. Points: the homework's homework.py (POINTS).

pre_norm_block calls layer_norm and feed_forward, which calls relu (CALLS in homework.py): when one of them fails
its own tests, a failing caller's feedback says to fix that one first if correct stand-ins make the case pass.
"""

from __future__ import annotations

from autograder.api import check, graded

# ---- relu ---------------------------------------------------------------------------------------------------


@graded("B.1", "relu")
def test_relu(student):
    """relu: max(x, 0) entry by entry, any shape"""
    check(student, "relu-matrix", "relu-3d")


@graded("B.2", "relu", hidden=True)
def test_relu_negative(student):
    """relu: an input with every entry negative becomes zeros"""
    check(student, "relu-negative")


# ---- feed_forward -------------------------------------------------------------------------------------------


@graded("B.3", "feed_forward")
def test_feed_forward(student):
    """feed_forward: relu(x @ W1 + b1) @ W2 + b2 on rows and with leading axes"""
    check(student, "ff-rows", "ff-batch")


@graded("B.4", "feed_forward", hidden=True)
def test_feed_forward_wide(student):
    """feed_forward: a wider hidden layer (H = 8)"""
    check(student, "ff-wide")


# ---- pre_norm_block -----------------------------------------------------------------------------------------


@graded("B.5", "pre_norm_block")
def test_pre_norm_block(student):
    """pre_norm_block: x + feed_forward(layer_norm(x)) on rows and with leading axes"""
    check(student, "block-rows", "block-batch")


@graded("B.6", "pre_norm_block", hidden=True)
def test_pre_norm_block_edges(student):
    """pre_norm_block: one token, and rows far from zero"""
    check(student, "block-one-token", "block-offset")
