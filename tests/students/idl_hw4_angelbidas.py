"""Port of Angelbidas/IDL-HW4, mytorch/nn/activation.py (Softmax), mytorch/nn/scaled_dot_product_attention.py and
mytorch/nn/multi_head_attention.py (CMU 11-785 HW4P1, a student's numpy solution).

Conventions kept: Softmax(dim) subtracts the max along dim, has no temperature and no guard for an all
-inf slice; attention follows the course's mask convention, True = IGNORE, and writes -eps = -1e10 into
the ignored scores with np.where(mask, -eps, scores) before Softmax(dim=-1); scores are divided by
sqrt(Q.shape[-1]); multi-head attention reads `N, L, E = x.shape` (3-D input), splits every
projection into heads of width embed_dim // num_heads (embed_dim = the input width), turns the (L, S)
attn_mask into (1, 1, L, S) with attn_mask[None, None, :, :], and merges the heads back to
(N, L, embed_dim). Added for the contract only: (out, weights) is returned; W_Q, W_K, W_V, W_O replace
the Linear layers (no biases); the contract's mask is passed as the student's attn_mask.
"""

import numpy as np

EPS = 1e10  # the course's "DO NOT MODIFY" constant


def softmax(Z, axis=-1, temperature=1.0):
    if axis > len(Z.shape) or axis < -len(Z.shape):
        raise ValueError("Dimension to apply softmax to is greater than the number of dimensions in Z")
    Z_max = np.max(Z, axis=axis, keepdims=True)
    exp_Z = np.exp(Z - Z_max)
    return exp_Z / np.sum(exp_Z, axis=axis, keepdims=True)


def scaled_dot_product_attention(Q, K, V, mask=None, scale=None):
    d_k = Q.shape[-1]
    K_transposed = np.transpose(K, axes=(*range(K.ndim - 2), K.ndim - 1, K.ndim - 2))
    scores = Q @ K_transposed / np.sqrt(d_k)
    if mask is not None:
        scores = np.where(mask, -EPS, scores)
    weights = softmax(scores, axis=-1)
    return weights @ V, weights


def multi_head_attention(X, W_Q, W_K, W_V, W_O, num_heads, mask=None):
    embed_dim = X.shape[-1]

    def split_heads(x):
        N, L, E = x.shape  # noqa: RUF059 - the student's unpacking (it states the shape assumed)
        return x.reshape(N, L, num_heads, embed_dim // num_heads).transpose(0, 2, 1, 3)

    q, k, v = split_heads(X @ W_Q), split_heads(X @ W_K), split_heads(X @ W_V)
    attention_mask = None if mask is None else mask[None, None, :, :]
    out, _ = scaled_dot_product_attention(q, k, v, attention_mask)
    N, H, L, D = out.shape  # noqa: RUF059 - the student's unpacking (it states the shape assumed)  # noqa: RUF059 - the student's unpacking (it states the shape assumed)
    return out.transpose(0, 2, 1, 3).reshape(N, L, embed_dim) @ W_O
