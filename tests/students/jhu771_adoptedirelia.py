"""Port of adoptedirelia/NLP601-771, 1-2.py (commit 39594ab): SelfAttention, a student's solution of Johns Hopkins
CS 601.471/671/771 (Advanced Self-Supervised Statistical NLP), homework 1, question 1 (profiling self-attention: the
students write their own self-attention layer).

Ports multi_head_attention (SelfAttention.forward).

Conventions kept: one fused projection `self.qkv = torch.nn.Linear(embed_dim, embed_dim * 3)`; forward reads
`B, N, C = x.shape` (3-D input only) and computes `qkv = self.qkv(x).reshape(B, N, 3, self.num_heads, C //
self.num_heads).permute(2, 0, 3, 1, 4)` (the fused columns cut into three equal thirds for q, k and v, each in heads of
C // H columns, C the input width; no check that C divides by H: the reshape raises unless the fused width is
3 * H * (C // H)), `attn = (q @ k.transpose(-2, -1)) * (1.0 / (k.size(-1) ** 0.5))`, softmax over the last axis,
`out = (attn @ v).transpose(1, 2).reshape(B, N, C)` and `self.proj(out)`: no mask.
Left out: the Linear layers' biases (zero here: the contract has none) and the profiling code. Added for the contract
only: the fused weight is [W_Q | W_K | W_V] (embed_dim = X.shape[-1]), W_O is `self.proj`, and a `mask` parameter is
never read.
"""

import numpy as np


def multi_head_attention(X, W_Q, W_K, W_V, W_O, num_heads, mask=None):
    B, N, C = X.shape
    qkv = (X @ np.concatenate([W_Q, W_K, W_V], axis=1)).reshape(B, N, 3, num_heads, C // num_heads)
    qkv = np.transpose(qkv, (2, 0, 3, 1, 4))
    q, k, v = qkv[0], qkv[1], qkv[2]
    attn = (q @ np.swapaxes(k, -2, -1)) * (1.0 / (k.shape[-1] ** 0.5))
    E = np.exp(attn - np.max(attn, axis=-1, keepdims=True))
    attn = E / np.sum(E, axis=-1, keepdims=True)
    out = np.swapaxes(attn @ v, 1, 2).reshape(B, N, C)
    return out @ W_O
