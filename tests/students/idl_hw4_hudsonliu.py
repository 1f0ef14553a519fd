"""Port of HudsonLiuHCL/idl_hw4, mytorch/nn/scaled_dot_product_attention.py (CMU 11-785 HW4P1, a student's numpy
solution).

Conventions kept: d_k = Q.shape[-1]; K^T with np.swapaxes(K, -2, -1); scores / sqrt(d_k); the course's
mask convention True = IGNORE, np.where(mask, -eps, scores) with eps = 1e10 (finite: a fully masked row
becomes uniform); softmax on the last axis (the student's Softmax(dim=-1); this port calls the module's
softmax). Added for the contract only: (out, weights) is returned; the `scale` argument does not exist in
the student's function.
"""

import numpy as np

EPS = 1e10  # the course's "DO NOT MODIFY" constant


def scaled_dot_product_attention(Q, K, V, mask=None, scale=None):
    d_k = Q.shape[-1]
    K_T = np.swapaxes(K, -2, -1)
    scores = (Q @ K_T) / np.sqrt(d_k)
    if mask is not None:
        scores = np.where(mask, -EPS, scores)
    weights = softmax(scores, axis=-1)  # noqa: F821 - the submission's softmax (the reference's stands in for the student's library call)
    return weights @ V, weights
