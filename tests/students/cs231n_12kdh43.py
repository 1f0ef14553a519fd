"""Port of 12kdh43/cs231n, assignment3/cs231n/transformer_layers.py, MultiHeadAttention.forward (Stanford CS231n
assignment 3, a student's solution).

Conventions kept: `N, S, D = query.shape` (batch-first 3-D input only); query, key and value are
reshaped to (N, S, H, D // H) and transposed (every head has the model width over the heads, also for
the values); scores torch.matmul(q, k.transpose(2, 3)) / sqrt(D // H); masked_fill(attn_mask == 0,
-inf) then softmax on -1 (an all -inf row is NaN); output transpose(1, 2).reshape(N, S, -1) then the
projection. Added for the contract only: W_Q, W_K, W_V, W_O replace the Linear layers (no biases,
dropout off), self-attention (query = key = value = X).
"""

import math

import numpy as np


def multi_head_attention(X, W_Q, W_K, W_V, W_O, num_heads, mask=None):
    N, S, D = X.shape
    H = num_heads
    q = (X @ W_Q).reshape(N, S, H, D // H).transpose(0, 2, 1, 3)
    k = (X @ W_K).reshape(N, S, H, D // H).transpose(0, 2, 1, 3)
    v = (X @ W_V).reshape(N, S, H, D // H).transpose(0, 2, 1, 3)
    e = np.matmul(q, k.transpose(0, 1, 3, 2)) / math.sqrt(D // H)
    if mask is not None:
        e = np.where(mask == 0, -np.inf, e)
    a = np.exp(e - e.max(axis=-1, keepdims=True))
    a = a / a.sum(axis=-1, keepdims=True)
    output = np.matmul(a, v).transpose(0, 2, 1, 3).reshape(N, S, -1)
    return output @ W_O
