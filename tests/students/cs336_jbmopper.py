"""Port of jbmopper/CS336-assignment1-basics, cs336_basics/implementations.py (commit 002c0b9): softmax and
scaled_dot_product_attention, a student's solution of Stanford CS336 assignment 1.

Conventions kept: `softmax(in_features, dim)` has no default dim and no temperature, and subtracts ONE max over the
whole tensor (`torch.max(in_features)`, not per slice: a slice far below the global max underflows to 0/0, and an
all -inf slice gives 0/0 = NaN) before normalising along `dim`; `scaled_dot_product_attention(Q, K, V, mask)` has
no default mask and no scale argument: scores are Q @ K^T / sqrt(Q.size(-1)), the student's softmax on -1, then the
weights are MULTIPLIED by the mask (`softmax(scaled_product, -1) * mask`: the mask is applied after the softmax, so
the kept weights no longer sum to 1, and without a mask `* None` raises). Added for the contract only: (out,
weights) is returned, with the masked weights the student multiplies V by, and a `scale` parameter (never read)
and a `temperature` parameter (never read) so that the contract's calls reach the student's code. The rest of the
assignment (multi-head attention, RoPE) is not in this file: the reference's stands in, calling these.
"""

import numpy as np


def softmax(Z, axis, temperature=1.0):
    adjusted_features = Z - np.max(Z)
    exp_features = np.exp(adjusted_features)
    return exp_features / np.sum(exp_features, axis=axis, keepdims=True)


def scaled_dot_product_attention(Q, K, V, mask, scale=None):
    d_k = Q.shape[-1]
    scaled_product = (Q @ np.swapaxes(K, -2, -1)) / np.sqrt(d_k)
    masked_product = softmax(scaled_product, -1) * mask
    return masked_product @ V, masked_product
