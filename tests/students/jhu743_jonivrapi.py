"""Port of jonivrapi/chatgpt-from-scratch, week4/mha.py (commit fe2605e): CustomMHA.__init__ and forward, a student's
solution of Johns Hopkins University EN.705.743 "ChatGPT from Scratch" (fall 2025), programming assignment 4
(multi-head attention, no causal mask yet: "You do NOT need to apply a causal mask").

Ports the contract's multi_head_attention only (the student wrote no other contract function; week5's masked
CustomMHA is the course's given code with two filled lines).

Conventions kept: `self.head_dim = d_model // n_heads` in the constructor, `self.W_qkv` (3 * d_model, d_model) and
`self.W_o` (d_model, d_model); forward reads `B, S, D = x.shape` (a 3-D input only: any other rank raises),
computes `qkv = x @ self.W_qkv.t()`, `Q, K, V = torch.chunk(qkv, 3, dim=-1)` (three equal chunks of the fused
projection), `Q.reshape(B, S, h, head_dim).transpose(1, 2)` (and K, V: heads of width d_model // n_heads),
`attention_scores = (Q @ K.transpose(-2, -1)) / math.sqrt(head_dim)`, torch.softmax(dim=-1), `context =
attention_weights @ V`, `context.transpose(1, 2).contiguous().reshape(B, S, D)` (merged back into the input's width)
and `context @ self.W_o.t()`. There is no mask. Added for the contract only: d_model is X.shape[-1] (the
constructor's argument), `self.W_qkv.t()` is [W_Q | W_K | W_V] and `self.W_o.t()` is W_O; the contract's `mask` is
never read.
"""

import math

import numpy as np


def _chunk3(T):  # torch.chunk(T, 3, dim=-1): chunks of ceil(width / 3) columns, unpacked into three names
    c = -(-T.shape[-1] // 3)
    chunks = [T[..., i:i + c] for i in range(0, T.shape[-1], c)]
    if len(chunks) != 3:
        raise ValueError(f"not enough values to unpack (expected 3, got {len(chunks)})")
    return chunks


def multi_head_attention(X, W_Q, W_K, W_V, W_O, num_heads, mask=None):
    d_model, n_heads = X.shape[-1], num_heads
    head_dim_init = d_model // n_heads  # self.head_dim
    x = X
    B, S, D = x.shape
    h = n_heads
    head_dim = head_dim_init
    qkv = x @ np.concatenate([W_Q, W_K, W_V], axis=1)  # x @ self.W_qkv.t()
    Q, K, V = _chunk3(qkv)  # torch.chunk(qkv, 3, dim=-1)
    Q = np.swapaxes(Q.reshape(B, S, h, head_dim), 1, 2)
    K = np.swapaxes(K.reshape(B, S, h, head_dim), 1, 2)
    V = np.swapaxes(V.reshape(B, S, h, head_dim), 1, 2)
    attention_scores = (Q @ np.swapaxes(K, -2, -1)) / math.sqrt(head_dim)
    E = np.exp(attention_scores - np.max(attention_scores, axis=-1, keepdims=True))  # torch.softmax(dim=-1)
    attention_weights = E / np.sum(E, axis=-1, keepdims=True)
    context = attention_weights @ V
    context = np.swapaxes(context, 1, 2).reshape(B, S, D)
    return context @ W_O
