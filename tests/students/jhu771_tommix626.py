"""Port of tommix626/CS-601-771-Fa25, profiling_self_attention.py (commit 4bfe81f): SelfAttention, a student's
solution of Johns Hopkins CS 601.471/671/771 (Advanced Self-Supervised Statistical NLP, Fall 2025), homework 1,
question 1 (profiling self-attention: the students write their own self-attention layer).

Ports multi_head_attention (SelfAttention.forward).

Conventions kept: the constructor asserts `d_model % n_heads == 0`, sets `self.d_head = d_model // n_heads` and one
fused projection `self.qkv = torch.nn.Linear(d_model, 3 * d_model, bias=False)`; forward reads `B, L, D = x.shape`
(3-D input only), computes `qkv = self.qkv(x)` and `q, k, v = qkv.chunk(3, dim=-1)` (three equal thirds of the fused
columns, torch.chunk: pieces of ceil(width / 3) columns, so a width that does not split in three gives a short last
piece or only two pieces), views each as `.view(B, L, H, Dh).transpose(1, 2)` with Dh = d_model // n_heads (raises
unless the piece is D wide), `scores = torch.matmul(q, k.transpose(-1, -2)) / math.sqrt(Dh)`,
`torch.softmax(scores, dim=-1)`, `context.transpose(1, 2).contiguous().view(B, L, D)` and `self.out(context)`: no
mask. Left out: the @torch.no_grad() decorator and the profiling code. Added for the contract only: the fused weight
is [W_Q | W_K | W_V] (d_model = X.shape[-1]), W_O is `self.out`, and a `mask` parameter is never read.
"""

import math

import numpy as np


def _chunk3(t):  # torch.chunk(t, 3, dim=-1): pieces of ceil(n / 3) columns, the last one shorter
    n = t.shape[-1]
    size = -(-n // 3)
    return [t[..., i:i + size] for i in range(0, n, size)]


def multi_head_attention(X, W_Q, W_K, W_V, W_O, num_heads, mask=None):
    d_model, n_heads = X.shape[-1], num_heads
    assert d_model % n_heads == 0, "d_model must be divisible by n_heads"
    d_head = d_model // n_heads

    B, L, D = X.shape
    qkv = X @ np.concatenate([W_Q, W_K, W_V], axis=1)
    q, k, v = _chunk3(qkv)

    H, Dh = n_heads, d_head
    q = np.swapaxes(q.reshape(B, L, H, Dh), 1, 2)
    k = np.swapaxes(k.reshape(B, L, H, Dh), 1, 2)
    v = np.swapaxes(v.reshape(B, L, H, Dh), 1, 2)

    scores = np.matmul(q, np.swapaxes(k, -1, -2)) / math.sqrt(Dh)
    E = np.exp(scores - np.max(scores, axis=-1, keepdims=True))
    attn = E / np.sum(E, axis=-1, keepdims=True)
    context = np.matmul(attn, v)
    context = np.swapaxes(context, 1, 2).reshape(B, L, D)
    return context @ W_O
