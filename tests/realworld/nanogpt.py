"""Port of karpathy/nanoGPT, model.py (commit 04a1d69), CausalSelfAttention.forward (the manual path).

Conventions kept: `B, T, C = x.size()` (batch-first 3-D input only); every head has width
C // n_head (the model width over the heads) for q, k and v; scores scaled by 1/sqrt(k.size(-1));
`att.masked_fill(mask == 0, float('-inf'))` then softmax (a fully masked row is NaN);
`y.transpose(1, 2).contiguous().view(B, T, C)`. The contract's mask replaces nanoGPT's causal buffer.
"""

import numpy as np


def multi_head_attention(X, W_Q, W_K, W_V, W_O, num_heads, mask=None):
    B, T, C = X.shape
    n_head = num_heads
    q, k, v = X @ W_Q, X @ W_K, X @ W_V
    k = np.swapaxes(k.reshape(B, T, n_head, C // n_head), 1, 2)
    q = np.swapaxes(q.reshape(B, T, n_head, C // n_head), 1, 2)
    v = np.swapaxes(v.reshape(B, T, n_head, C // n_head), 1, 2)
    att = (q @ np.swapaxes(k, -2, -1)) * (1.0 / np.sqrt(k.shape[-1]))
    if mask is not None:
        att = np.where(mask == 0, -np.inf, att)
    att = np.exp(att - att.max(axis=-1, keepdims=True))
    att = att / att.sum(axis=-1, keepdims=True)
    y = att @ v
    y = np.swapaxes(y, 1, 2).reshape(B, T, C)
    return y @ W_O
