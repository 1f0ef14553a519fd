"""Port of pytorch/pytorch, torch/nn/functional.py, multi_head_attention_forward (what
nn.MultiheadAttention(batch_first=True, bias=False) computes).

Conventions kept: a boolean attn_mask marks what is NOT allowed (True = masked, filled with -inf;
the opposite of F.scaled_dot_product_attention); head_dim = embed_dim // num_heads for q, k and v;
q scaled by sqrt(1 / head_dim); unbatched (L, E) or batched (N, L, E) input; a 3-D attn_mask must
be (N * num_heads, L, S) and is viewed as (N, num_heads, L, S); a fully masked row is NaN.
"""

import math

import numpy as np


def multi_head_attention(X, W_Q, W_K, W_V, W_O, num_heads, mask=None):
    is_batched = X.ndim == 3
    if not is_batched:
        X = X[None]
        mask = None if mask is None else (mask[None] if mask.ndim == 3 else mask)
    bsz, tgt_len, embed_dim = X.shape
    head_dim = embed_dim // num_heads
    q, k, v = (np.swapaxes((X @ W).reshape(bsz, tgt_len, num_heads, head_dim), 1, 2) for W in (W_Q, W_K, W_V))
    attn_bias = 0.0
    if mask is not None:
        if mask.ndim == 3:
            mask = mask.reshape(bsz, num_heads, tgt_len, tgt_len)
        attn_bias = np.where(mask, -np.inf, 0.0)
    q_scaled = q * math.sqrt(1.0 / float(head_dim))
    scores = q_scaled @ np.swapaxes(k, -2, -1) + attn_bias
    with np.errstate(invalid="ignore"):
        e = np.exp(scores - scores.max(axis=-1, keepdims=True))
        weights = e / e.sum(axis=-1, keepdims=True)
    out = np.swapaxes(weights @ v, 1, 2).reshape(bsz, tgt_len, embed_dim) @ W_O
    return out if is_batched else out[0]
