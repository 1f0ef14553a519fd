"""Port of Tomer0013/cs231n-spring21-solutions, assignment3/cs231n/transformer_layers.py, MultiHeadAttention
(Stanford CS231n spring 2021 assignment 3, a student's solution).

Conventions kept: `N, S, D = query.shape` and `N, T, D = value.shape` (batch-first 3-D input only);
d_h = int(D / H) (the model width over the heads) for the key, value and query splits reshape(N, T, H,
d_h).transpose(1, 2); scores torch.matmul(q, k^T) divided by sqrt(d_h); masked_fill(attn_mask == 0,
-inf) on the (N, H, S, T) scores (a per-sequence mask gets no head axis), then softmax on the last axis
(an all -inf row is NaN); the heads are merged with transpose(1, 2).reshape(N, -1, D) before the
projection. Added for the contract only: W_Q, W_K, W_V, W_O replace the Linear layers (no biases, dropout
off); self-attention (query = key = value = X).
"""

import numpy as np


def multi_head_attention(X, W_Q, W_K, W_V, W_O, num_heads, mask=None):
    N, S, D = X.shape
    N, T, D = X.shape
    H = num_heads
    d_h = int(D / H)
    k, v, q = X @ W_K, X @ W_V, X @ W_Q
    k_split = k.reshape(N, T, H, d_h).transpose(0, 2, 1, 3)
    v_split = v.reshape(N, T, H, d_h).transpose(0, 2, 1, 3)
    q_split = q.reshape(N, S, H, d_h).transpose(0, 2, 1, 3)
    alignment = np.matmul(q_split, np.swapaxes(k_split, 2, 3))
    alignment = alignment / np.sqrt(d_h)
    if mask is not None:
        alignment = np.where(mask == 0, -np.inf, alignment)
    e = np.exp(alignment - alignment.max(axis=-1, keepdims=True))
    attention = e / e.sum(axis=-1, keepdims=True)
    output_split = np.matmul(attention, v_split).transpose(0, 2, 1, 3)
    output = output_split.reshape(N, -1, D)
    return output @ W_O
