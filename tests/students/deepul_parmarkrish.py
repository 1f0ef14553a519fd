"""Port of parmarkrish/deepul, autoregressive/transformer.py (commit 511a626): MultiHeadAttention.forward, a student's
solution of UC Berkeley CS 294-158 (Deep Unsupervised Learning), homework 1 (autoregressive models: the causal
Transformer, with a KV-cache variant for sampling).

Ports multi_head_attention.

Conventions kept: MultiHeadAttention(d_model, num_heads, dropout=0.1, attn_mask=None, is_causal=False) builds
`nn.Linear(d_model, d_model)` for key, query, value and proj and `self.scaling_factor = math.sqrt(d_model /
num_heads)`; forward(query, key, value) reads `B, S, D = query.shape` and `B, T, D = value.shape` (3-D input only),
splits each projection with `.view(B, S, H, D//H).transpose(1, 2)` (H * (D // H) columns: it raises unless the
projections are that wide), computes `Y = torch.matmul(Q, K.transpose(2, 3)) / self.scaling_factor`, then `if
self.attn_mask is not None: Y = Y.masked_fill(self.attn_mask == 0, float("-inf"))` (True = may attend; out-of-place
masked_fill broadcasts the mask against the (B, H, S, T) scores, so a per-sequence (B, N, N) mask meets the head
axis), `F.softmax(Y, dim=-1) @ V` (an all -inf row is NaN), and merges with `Y.transpose(1, 2).reshape(B, S, D)` (the
input's width D) before `self.proj`. The layer's mask is the constructor's attn_mask (with is_causal=True forward
would replace it by `torch.tril(torch.ones(S, T))`). Left out: the Linear layers' biases, dropout (the identity at
evaluation), MultiHeadAttentionWithKVCache (sampling one token at a time: not a contract function's input). Added for
the contract only: d_model is X.shape[-1] (the constructor's argument), the contract's `mask` is the constructor's
attn_mask with is_causal=False, W_Q, W_K, W_V and W_O are the query, key, value and proj layers, and self-attention
passes X as query, key and value (MultiHeadSelfAttention.forward).
"""

import math

import numpy as np


def multi_head_attention(X, W_Q, W_K, W_V, W_O, num_heads, mask=None):
    d_model = X.shape[-1]
    attn_mask, is_causal = mask, False
    scaling_factor = math.sqrt(d_model / num_heads)
    query = key = value = X
    B, S, D = query.shape
    B, T, D = value.shape
    H = num_heads

    Q = (query @ W_Q).reshape(B, S, H, D // H).swapaxes(1, 2)  # .view(B, S, H, D//H).transpose(1, 2)
    K = (key @ W_K).reshape(B, T, H, D // H).swapaxes(1, 2)
    V = (value @ W_V).reshape(B, T, H, D // H).swapaxes(1, 2)

    Y = np.matmul(Q, K.swapaxes(2, 3)) / scaling_factor
    if is_causal:
        attn_mask = np.tril(np.ones((S, T)))
    if attn_mask is not None:  # masked_fill(attn_mask == 0, -inf): out of place, mask and scores broadcast
        Y = np.where(np.asarray(attn_mask) == 0, -np.inf, Y)

    with np.errstate(invalid="ignore"):  # F.softmax: an all -inf row gives -inf - (-inf) = NaN
        e = np.exp(Y - np.max(Y, axis=-1, keepdims=True))
        Y = e / np.sum(e, axis=-1, keepdims=True)
    Y = Y @ V
    return Y.swapaxes(1, 2).reshape(B, S, D) @ W_O  # self.proj(Y.transpose(1, 2).reshape(B, S, D))
