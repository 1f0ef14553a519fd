"""Port of the reference implementation in PyTorch's documentation of
torch.nn.functional.scaled_dot_product_attention (pytorch/pytorch, torch/nn/functional.py docstring).

Conventions kept: L, S = query.size(-2), key.size(-2); scale_factor = 1/sqrt(query.size(-1)) unless
given; a boolean mask fills `attn_bias` with -inf where it is False (True = may attend); softmax
over the last axis with no guard (a fully masked row is NaN); the causal mask of `is_causal=True`
is `ones(L, S).tril(diagonal=0)` (top-left). Added for the contract: (out, weights) is returned.
"""

import numpy as np


def causal_mask(n_q, n_k=None):
    L, S = n_q, n_q if n_k is None else n_k
    return np.tril(np.ones((L, S), dtype=bool), k=0)


def scaled_dot_product_attention(Q, K, V, mask=None, scale=None):
    L, S = Q.shape[-2], K.shape[-2]
    scale_factor = 1 / np.sqrt(Q.shape[-1]) if scale is None else scale
    attn_bias = np.zeros((L, S))
    if mask is not None:
        attn_bias = np.where(np.logical_not(mask), -np.inf, attn_bias)
    attn_weight = Q @ np.swapaxes(K, -2, -1) * scale_factor
    attn_weight = attn_weight + attn_bias
    with np.errstate(invalid="ignore"):
        e = np.exp(attn_weight - attn_weight.max(axis=-1, keepdims=True))
        attn_weight = e / e.sum(axis=-1, keepdims=True)
    return attn_weight @ V, attn_weight
