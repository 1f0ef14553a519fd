"""Port of likejazz/llama3.np, llama3.py (commit 30a73d2): softmax, apply_rotary_emb (with the
freqs_cos/freqs_sin tables of Llama.__init__) and Attention.__call__.

Conventions kept: softmax over the last axis, no temperature, no guard for an all -inf row;
RoPE on interleaved pairs (reshape(..., -1, 2)) with cos/sin tables of np.outer(t, inv_freq);
Attention uses head_dim = dim // n_heads and `B, L, _ = x.shape` (batch-first), an additive mask
and the module's own softmax.
"""

import math

import numpy as np


def softmax(Z, axis=-1, temperature=1.0):
    exp_x = np.exp(Z - np.max(Z, axis=-1, keepdims=True))
    return exp_x / np.sum(exp_x, axis=-1, keepdims=True)


def rope(x, positions, base=10000.0):
    head_dim = x.shape[-1]
    inv_freq = 1.0 / (base ** (np.arange(0, head_dim, 2)[: (head_dim // 2)] / head_dim))
    freqs = np.outer(np.asarray(positions, dtype=float), inv_freq)
    freqs_cos, freqs_sin = np.cos(freqs), np.sin(freqs)
    xri = x.reshape(x.shape[:-1] + (-1, 2))  # noqa: RUF005 - the source's spelling
    x_r, x_i = xri[..., 0], xri[..., 1]
    out_r = x_r * freqs_cos - x_i * freqs_sin
    out_i = x_r * freqs_sin + x_i * freqs_cos
    return np.stack([out_r, out_i], axis=-1).reshape(x.shape)


def multi_head_attention(X, W_Q, W_K, W_V, W_O, num_heads, mask=None):
    B, L, dim = X.shape
    head_dim = dim // num_heads
    xq, xk, xv = ((X @ W).reshape(B, L, num_heads, head_dim).transpose(0, 2, 1, 3) for W in (W_Q, W_K, W_V))
    attention = xq @ xk.transpose(0, 1, 3, 2) / math.sqrt(head_dim)
    if mask is not None:
        attention = attention + np.where(mask, 0.0, -np.inf)[None, None, :, :]
    attention = softmax(attention)
    output = (attention @ xv).transpose(0, 2, 1, 3).reshape(B, L, -1)
    return output @ W_O
