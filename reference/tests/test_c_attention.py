"""Part C: masks and scaled dot-product attention (Dis 10 Q2, Dis 11 Q2). Points: autograder/contract.py."""

from __future__ import annotations

from autograder.api import check, graded

# ---- causal_mask ----------------------------------------------------------------------------------------


@graded("C.1", "causal_mask")
def test_mask_square(student):
    """causal_mask: a square mask is lower-triangular, diagonal included"""
    check(student, "mask-square")


@graded("C.2", "causal_mask")
def test_mask_more_keys(student):
    """causal_mask: with more keys than queries it is bottom-right aligned"""
    check(student, "mask-more-keys")


@graded("C.3", "causal_mask", hidden=True)
def test_mask_dis11_and_shapes(student):
    """causal_mask: Dis 11 Q2 matrix C, one query over 7 keys, and more queries than keys"""
    check(student, "mask-dis11-C", "mask-one-query", "mask-more-queries")


# ---- scaled_dot_product_attention -----------------------------------------------------------------------


@graded("C.4", "scaled_dot_product_attention")
def test_sdpa_scale(student):
    """scaled_dot_product_attention: returns (out, weights), scaled by 1/sqrt(d_k) unless scale is given"""
    check(student, "sdpa-default-scale", "sdpa-explicit-scale")


@graded("C.5", "scaled_dot_product_attention")
def test_sdpa_causal(student):
    """scaled_dot_product_attention: a causal mask hides later keys"""
    check(student, "sdpa-causal")


@graded("C.6", "scaled_dot_product_attention")
def test_sdpa_batch(student):
    """scaled_dot_product_attention: batch and head axes, n_q ≠ n_k, one mask for all"""
    check(student, "sdpa-batch", batched=True)


@graded("C.7", "scaled_dot_product_attention", hidden=True)
def test_sdpa_dis10(student):
    """scaled_dot_product_attention: Dis 10 Q1 with scale=1.0 (a_3 ≈ [0.00247, 0.99753, 0], out_3 ≈ [-7.94, 0.067])"""
    check(student, "sdpa-dis10")


@graded("C.8", "scaled_dot_product_attention", hidden=True)
def test_sdpa_ps4(student):
    """scaled_dot_product_attention: PS4 Q3 unscaled attention map and outputs"""
    check(student, "sdpa-ps4")


@graded("C.9", "scaled_dot_product_attention", hidden=True)
def test_sdpa_previous_token_head(student):
    """scaled_dot_product_attention: the Q&A previous-token head copies each token's predecessor"""
    check(student, "sdpa-previous-token")


@graded("C.10", "scaled_dot_product_attention", hidden=True)
def test_sdpa_fully_masked_row(student):
    """scaled_dot_product_attention: a fully masked row gives zero weights and a zero output"""
    check(student, "sdpa-fully-masked")


@graded("C.11", "scaled_dot_product_attention", hidden=True)
def test_sdpa_mask_over_heads(student):
    """scaled_dot_product_attention: a mask broadcast over heads, with an explicit scale"""
    check(student, "sdpa-mask-heads", batched=True)


# ---- random shapes (cases drawn by autograder/suite/random_cases.py) -------------------------------------


@graded("C.12", "causal_mask", hidden=True)
def test_mask_random_shapes(student):
    """causal_mask: random n_q and n_k from 1 to 12 (n_q ≠ n_k, or n_k left at its default)"""
    check(student, "random-mask-1", "random-mask-2", "random-mask-3",
          "random-mask-4", "random-mask-5", "random-mask-6", shapes=True)


@graded("C.13", "scaled_dot_product_attention", hidden=True)
def test_sdpa_random_shapes(student):
    """scaled_dot_product_attention: random shapes (0 to 3 leading axes, n_q ≠ n_k, d_k ≠ d_v, masks of rank 1 to 5)"""
    check(student, "random-sdpa-1", "random-sdpa-2", "random-sdpa-3",
          "random-sdpa-4", "random-sdpa-5", "random-sdpa-6", batched=True, shapes=True)
