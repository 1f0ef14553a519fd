"""Port of Sihan0229/cs231n_assignment_2023, assignment3/cs231n/transformer_layers.py, MultiHeadAttention.forward
(Stanford CS231n 2023 assignment 3, a student's solution).

Conventions kept: `N, S, E = query.shape` and `N, T, E = value.shape` (batch-first 3-D input only); query, key and
value are viewed as (N, S, H, E // H) with self.head_dim = embed_dim // num_heads (every head has the model width
over the heads, also for the values) and permuted; scores torch.matmul(query, key) / sqrt(head_dim);
`score.masked_fill(attn_mask.view(1, 1, *attn_mask.size()) == 0, -inf)` (two leading axes put in front of the mask:
a per-sequence (N, S, T) mask becomes (1, 1, N, S, T) and meets the heads instead of a head axis), F.softmax on -1
(an all -inf row is NaN), output permute(0, 2, 1, 3).reshape(N, S, E) then the projection; the constructor asserts
embed_dim % num_heads == 0. Added for the contract only: W_Q, W_K, W_V, W_O replace the Linear layers (no biases,
dropout off), self-attention (query = key = value = X).
"""

import math

import numpy as np


def multi_head_attention(X, W_Q, W_K, W_V, W_O, num_heads, mask=None):
    N, S, E = X.shape
    N, T, E = X.shape
    assert E % num_heads == 0  # the constructor's `assert embed_dim % num_heads == 0`
    n_head, head_dim = num_heads, E // num_heads
    query = (X @ W_Q).reshape(N, S, n_head, head_dim).transpose(0, 2, 1, 3)
    key = (X @ W_K).reshape(N, T, n_head, head_dim).transpose(0, 2, 3, 1)
    value = (X @ W_V).reshape(N, T, n_head, head_dim).transpose(0, 2, 1, 3)
    score = np.matmul(query, key) / math.sqrt(head_dim)
    if mask is not None:
        mask = np.asarray(mask)
        score = np.where(mask.reshape(1, 1, *mask.shape) == 0, -np.inf, score)
    with np.errstate(invalid="ignore"):
        weights = np.exp(score - score.max(axis=-1, keepdims=True))
        weights = weights / weights.sum(axis=-1, keepdims=True)
    output = np.matmul(weights, value)
    output = output.transpose(0, 2, 1, 3).reshape(N, S, E)
    return output @ W_O
