"""Port of RonaldLN/deepul_sp24, models/transformer.py (commit 0090774): MultiHeadAttention.forward, a student's
solution of UC Berkeley CS 294-158 (Deep Unsupervised Learning), spring 2024, homework 1 (autoregressive models: the
causal Transformer of questions 3 and 4, written by the student from scratch).

Ports multi_head_attention.

Conventions kept: MultiHeadAttention(embed_dim, num_heads) builds `self.query = nn.Linear(embed_dim, embed_dim)` (and
key, value, proj alike), `self.head_dim = embed_dim // num_heads` and `self.scale = self.head_dim ** 0.5`; forward reads
`N, S, D = query.shape` and `N, T, D = value.shape` (3-D input only), splits each projection with `.view(N, S, H,
D_H).permute(0, 2, 1, 3)` (the keys with `.permute(0, 2, 3, 1)`, already transposed; a view of H * (D // H) columns:
it raises unless the projections are that wide), computes `attn_scores = Q @ K_T / self.scale`, then `if attn_mask
is not None: attn_scores = attn_scores.masked_fill(attn_mask == 0, -1e10)` (True = may attend; out-of-place
masked_fill broadcasts the mask against the (N, H, S, T) scores, so a per-sequence (B, N, N) mask meets the head axis;
a FINITE fill: a fully masked row gets uniform weights), `torch.softmax(attn_scores, dim=-1) @ V`, and merges with
`output.permute(0, 2, 1, 3).reshape(N, S, D)` (the input's width D) before `self.proj`. Left out: the Linear layers'
biases, dropout (the identity at evaluation), the kv_cache_forward path (sampling with a cache: not a contract
function's input). Added for the contract only: embed_dim is X.shape[-1] (the constructor's argument), W_Q, W_K, W_V
and W_O are the query, key, value and proj layers, and self-attention passes X as query, key and value.
"""

import numpy as np


def _softmax_last(x):  # torch.softmax(dim=-1)
    e = np.exp(x - np.max(x, axis=-1, keepdims=True))
    return e / np.sum(e, axis=-1, keepdims=True)


def multi_head_attention(X, W_Q, W_K, W_V, W_O, num_heads, mask=None):
    query = key = value = X
    embed_dim = X.shape[-1]
    head_dim = embed_dim // num_heads
    scale = head_dim ** 0.5
    N, S, D = query.shape
    N, T, D = value.shape
    H = num_heads
    D_H = head_dim

    Q = (query @ W_Q).reshape(N, S, H, D_H).transpose(0, 2, 1, 3)  # .view(N, S, H, D_H).permute(0, 2, 1, 3)
    K_T = (key @ W_K).reshape(N, T, H, D_H).transpose(0, 2, 3, 1)  # .permute(0, 2, 3, 1)
    V = (value @ W_V).reshape(N, T, H, D_H).transpose(0, 2, 1, 3)

    attn_scores = Q @ K_T / scale
    if mask is not None:  # masked_fill(attn_mask == 0, -1e10): out of place, mask and scores broadcast
        attn_scores = np.where(np.asarray(mask) == 0, -1e10, attn_scores)

    output = _softmax_last(attn_scores) @ V  # (N, H, S, D/H)
    output = output.transpose(0, 2, 1, 3).reshape(N, S, D)  # .permute(0, 2, 1, 3).reshape(N, S, D)
    return output @ W_O
