"""Port of ArunTejCh/cs224n_gpt, modules/attention.py, CausalSelfAttention.transform and .attention (Stanford CS224n
default final project, GPT-2: a student's solution).

Conventions kept: transform rearranges 'b t (h d) -> b t h d -> b h t d' (3-D batch-first input; head
widths inferred); the scores are an einsum over named (batch num_heads seq_len head_dims) axes times
1 / sqrt(key.size(-1)); a causal mask triu(ones(T, T), diagonal=1) * -10000.0 (finite) is ALWAYS added,
then the attention_mask is ADDED too (the project's padding masks are additive); softmax on the last
axis; 'batch num_heads seq_len head_dims -> batch seq_len (num_heads head_dims)'. The student's debug
prints are not ported. Added for the contract only: W_Q, W_K, W_V replace the Linear layers (no biases,
dropout off), the contract's mask is passed as the student's attention_mask (so a boolean mask adds
0/1), W_O is the GPT-2 layer's attention_dense; the project always passes a mask (None adds nothing here).
"""

import math

import numpy as np


def _transform(X, W, num_heads):
    b, t, hd = (X @ W).shape
    return (X @ W).reshape(b, t, num_heads, hd // num_heads).transpose(0, 2, 1, 3)


def _attention(key, query, value, attention_mask):
    scores = np.einsum("bhqd,bhkd->bhqk", query, key)
    scores = scores * (1.0 / math.sqrt(key.shape[-1]))
    T = scores.shape[-1]
    scores = scores + np.triu(np.ones((T, T)), k=1) * -10000.0
    if attention_mask is not None:
        scores = scores + attention_mask
    softmax_scores = np.exp(scores - scores.max(axis=-1, keepdims=True))
    softmax_scores = softmax_scores / softmax_scores.sum(axis=-1, keepdims=True)
    out = softmax_scores @ value
    b, h, t, d = out.shape
    return out.transpose(0, 2, 1, 3).reshape(b, t, h * d)


def multi_head_attention(X, W_Q, W_K, W_V, W_O, num_heads, mask=None):
    key_layer, value_layer = _transform(X, W_K, num_heads), _transform(X, W_V, num_heads)
    query_layer = _transform(X, W_Q, num_heads)
    return _attention(key_layer, query_layer, value_layer, mask) @ W_O
