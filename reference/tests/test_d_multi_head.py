"""Part D: multi-head attention (PS4 Q2c). Points: autograder/contract.py (POINTS)."""

from __future__ import annotations

from autograder.api import check, graded


@graded("D.1", "multi_head_attention")
def test_mha_two_heads(student):
    """multi_head_attention: 2 heads, each scaled by 1/sqrt(d_k) of its own width"""
    check(student, "mha-two-heads")


@graded("D.2", "multi_head_attention")
def test_mha_one_head(student):
    """multi_head_attention: 1 head is scaled dot-product attention followed by W_O"""
    check(student, "mha-one-head")


@graded("D.3", "multi_head_attention")
def test_mha_causal(student):
    """multi_head_attention: one causal mask shared by 4 heads"""
    check(student, "mha-causal")


@graded("D.4", "multi_head_attention", hidden=True)
def test_mha_batch(student):
    """multi_head_attention: a batch of 2 sequences, 4 heads, d_k ≠ d_v"""
    check(student, "mha-batch", batched=True)


@graded("D.5", "multi_head_attention", hidden=True)
def test_mha_batch_masks(student):
    """multi_head_attention: a different (5, 5) mask for each sequence of a batch"""
    check(student, "mha-batch-masks", batched=True)


# ---- random shapes (cases drawn by autograder/suite/random_cases.py) -------------------------------------


@graded("D.6", "multi_head_attention", hidden=True)
def test_mha_random_shapes(student):
    """multi_head_attention: random shapes (1 to 6 heads, H·d_k ≠ D, d_k ≠ d_v, 0 to 3 batch axes, mask ranks 1 to 5)"""
    check(student, "random-mha-1", "random-mha-2", "random-mha-3",
          "random-mha-4", "random-mha-5", "random-mha-6", batched=True, shapes=True)
