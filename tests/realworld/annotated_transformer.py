"""Port of harvardnlp/annotated-transformer, the_annotated_transformer.py: attention(),
subsequent_mask() and MultiHeadedAttention.forward.

Conventions kept: `scores.masked_fill(mask == 0, -1e9)` (a fully masked row becomes uniform);
d_k = query.size(-1) for the scale; subsequent_mask is `triu(ones, diagonal=1) == 0` (top-left);
MultiHeadedAttention uses d_k = d_model // h for q, k and v, `mask.unsqueeze(1)` for the heads,
and `view(nbatches, -1, h, d_k)` (batch-first input).
"""

import numpy as np


def causal_mask(n_q, n_k=None):
    n_k = n_q if n_k is None else n_k
    return np.triu(np.ones((n_q, n_k)), k=1) == 0


def scaled_dot_product_attention(Q, K, V, mask=None, scale=None):
    d_k = Q.shape[-1]
    scores = Q @ np.swapaxes(K, -2, -1) / np.sqrt(d_k) if scale is None else Q @ np.swapaxes(K, -2, -1) * scale
    if mask is not None:
        scores = np.where(mask == 0, -1e9, scores)
    p_attn = np.exp(scores - scores.max(axis=-1, keepdims=True))
    p_attn = p_attn / p_attn.sum(axis=-1, keepdims=True)
    return p_attn @ V, p_attn


def multi_head_attention(X, W_Q, W_K, W_V, W_O, num_heads, mask=None):
    h, d_k = num_heads, X.shape[-1] // num_heads
    if mask is not None:
        mask = np.expand_dims(mask, 1)
    nbatches = X.shape[0]
    query, key, value = (np.swapaxes((X @ W).reshape(nbatches, -1, h, d_k), 1, 2) for W in (W_Q, W_K, W_V))
    x, _ = scaled_dot_product_attention(query, key, value, mask=mask)
    x = np.swapaxes(x, 1, 2).reshape(nbatches, -1, h * d_k)
    return x @ W_O
