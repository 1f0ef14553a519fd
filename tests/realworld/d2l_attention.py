"""Port of d2l-ai/d2l-en, d2l/torch.py: masked_softmax, DotProductAttention, MultiHeadAttention with
transpose_qkv / transpose_output.

Conventions kept: masked entries are replaced by -1e6 before the softmax (a fully masked row becomes
uniform); d = queries.shape[-1]; heads are split with reshape(batch, tokens, num_heads, -1)
(batch-first input, each head's width inferred) and moved into the batch axis, the mask
repeated per head (repeat_interleave).
"""

import math

import numpy as np


def scaled_dot_product_attention(Q, K, V, mask=None, scale=None):
    d = Q.shape[-1]
    scores = Q @ np.swapaxes(K, 1, 2) / math.sqrt(d) if scale is None else Q @ np.swapaxes(K, 1, 2) * scale
    if mask is not None:
        scores = np.where(mask, scores, -1e6)
    e = np.exp(scores - scores.max(axis=-1, keepdims=True))
    weights = e / e.sum(axis=-1, keepdims=True)
    return weights @ V, weights


def _transpose_qkv(X, num_heads):
    X = X.reshape(X.shape[0], X.shape[1], num_heads, -1).transpose(0, 2, 1, 3)
    return X.reshape(-1, X.shape[2], X.shape[3])


def multi_head_attention(X, W_Q, W_K, W_V, W_O, num_heads, mask=None):
    queries, keys, values = (_transpose_qkv(X @ W, num_heads) for W in (W_Q, W_K, W_V))
    if mask is not None and mask.ndim == 3:
        mask = np.repeat(mask, num_heads, axis=0)
    output, _ = scaled_dot_product_attention(queries, keys, values, mask)
    output = output.reshape(-1, num_heads, output.shape[1], output.shape[2]).transpose(0, 2, 1, 3)
    return output.reshape(output.shape[0], output.shape[1], -1) @ W_O
