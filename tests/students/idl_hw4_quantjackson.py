"""Port of QuantJackson/hw4p1, mytorch/nn/activation.py (Softmax), mytorch/nn/scaled_dot_product_attention.py and
mytorch/nn/multi_head_attention.py (CMU 11-785 HW4P1, a student's numpy solution).

Conventions kept: Softmax(dim) moves dim last, flattens to 2-D, subtracts each row's max (an all -inf
row gives NaN), no temperature; attention follows the course's mask convention, True = IGNORE, and
assigns in place with boolean indexing, `scores[mask] = -eps` (eps = 1e10), which needs a mask of the
scores' own shape (a broadcastable one raises IndexError); scale 1/sqrt(K.shape[-1]); multi-head
attention reads N, L, S, E from (N, L, E) inputs, splits heads of width E // num_heads
(`N, L, E = x.shape; d_k = E // num_heads`), merges the masks by reshaping attn_mask to (1, 1, L, S)
and broadcasting to (N, H, L, S), and concatenates heads back with reshape(N, L, H * d_k). Added for the
contract only: (out, weights) is returned; the weight matrices replace the Linear layers (no biases); the
contract's mask is passed as the student's attn_mask.
"""

import numpy as np

EPS = 1e10  # the course's "DO NOT MODIFY" constant


def softmax(Z, axis=-1, temperature=1.0):
    if axis > len(Z.shape) or axis < -len(Z.shape):
        raise ValueError("Dimension to apply softmax to is greater than the number of dimensions in Z")
    Z_swap = np.moveaxis(Z, axis, -1)
    Z_2d = Z_swap.reshape(-1, Z_swap.shape[-1])
    exp_Z = np.exp(Z_2d - np.max(Z_2d, axis=1, keepdims=True))
    A_2d = exp_Z / np.sum(exp_Z, axis=1, keepdims=True)
    return np.moveaxis(A_2d.reshape(Z_swap.shape), -1, axis)


def scaled_dot_product_attention(Q, K, V, mask=None, scale=None):
    d_k = K.shape[-1]
    scores = np.matmul(Q, K.swapaxes(-1, -2)) / np.sqrt(d_k)
    if mask is not None:
        scores[mask] = -EPS
    weights = softmax(scores, axis=-1)
    return np.matmul(weights, V), weights


def multi_head_attention(X, W_Q, W_K, W_V, W_O, num_heads, mask=None):
    N, L, _ = X.shape
    S = X.shape[1]

    def split_heads(x):
        n, length, E = x.shape
        d_k = E // num_heads
        return np.transpose(x.reshape(n, length, num_heads, d_k), (0, 2, 1, 3))

    q, k, v = split_heads(X @ W_Q), split_heads(X @ W_K), split_heads(X @ W_V)
    merged = None
    if mask is not None:
        key_mask = np.broadcast_to(np.zeros((N, 1, 1, S), dtype=bool), (N, num_heads, L, S))
        attn_mask = np.broadcast_to(mask.reshape(1, 1, L, S), (N, num_heads, L, S))
        merged = np.logical_or(key_mask, attn_mask)
    out, _ = scaled_dot_product_attention(q, k, v, merged)
    out = np.transpose(out, (0, 2, 1, 3))
    n, length, heads, d_k = out.shape
    return out.reshape(n, length, heads * d_k) @ W_O
