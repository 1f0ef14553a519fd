"""Port of jaymody/picoGPT, gpt2.py (commit 018a1e1): softmax, attention, mha, the causal mask.

Conventions kept: softmax over the last axis only (no `axis`, no temperature, no guard for an
all -inf row); an ADDITIVE causal mask `(1 - np.tri(n)) * -1e10` built top-left (np.tri); attention
is `softmax(q @ k.T / sqrt(q.shape[-1]) + mask) @ v` on 2-D arrays (k.T); heads are np.split along
the last axis and merged with np.hstack. Added for the contract only: the boolean mask is turned into
picoGPT's additive form, and (out, weights) is returned.
"""

import numpy as np


def softmax(Z, axis=-1, temperature=1.0):
    exp_x = np.exp(Z - np.max(Z, axis=-1, keepdims=True))
    return exp_x / np.sum(exp_x, axis=-1, keepdims=True)


def causal_mask(n_q, n_k=None):
    n_k = n_q if n_k is None else n_k
    return (1 - np.tri(n_q, n_k)) * -1e10


def scaled_dot_product_attention(Q, K, V, mask=None, scale=None):
    additive = 0.0 if mask is None else (1 - np.asarray(mask, dtype=float)) * -1e10
    weights = softmax(Q @ K.T / np.sqrt(Q.shape[-1]) + additive)
    return weights @ V, weights


def multi_head_attention(X, W_Q, W_K, W_V, W_O, num_heads, mask=None):
    qkv = [X @ W_Q, X @ W_K, X @ W_V]
    qkv_heads = [np.split(x, num_heads, axis=-1) for x in qkv]
    out_heads = [scaled_dot_product_attention(q, k, v, mask)[0] for q, k, v in zip(*qkv_heads)]
    return np.hstack(out_heads) @ W_O
