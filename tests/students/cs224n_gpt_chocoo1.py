"""Port of ChoCoo1/CS224nGPT, modules/attention.py, CausalSelfAttention.transform and .attention (Stanford CS224n
default final project, GPT-2: a student's solution).

Conventions kept: transform rearranges 'b t (h d) -> b t h d -> b h t d' (3-D batch-first input; head
widths inferred); scores torch.matmul(query, key.transpose(-2, -1)) / sqrt(key.size(-1)); the mask is
applied with masked_fill(attention_mask == 0, -1e9) (finite) straight onto the (b, h, t, t) scores (no
head axis inserted), and there is no causal mask of its own; softmax on the last axis;
'b h t d -> b t (h d)'. Added for the contract only: W_Q, W_K, W_V replace the Linear layers (no biases,
dropout off), the contract's mask is passed as the student's attention_mask, W_O is the GPT-2 layer's
attention_dense.
"""

import math

import numpy as np


def _transform(X, W, num_heads):
    b, t, hd = (X @ W).shape
    return (X @ W).reshape(b, t, num_heads, hd // num_heads).transpose(0, 2, 1, 3)


def _attention(key, query, value, attention_mask):
    d_k = key.shape[-1]
    scores = (query @ np.swapaxes(key, -2, -1)) / math.sqrt(d_k)
    if attention_mask is not None:
        scores = np.where(attention_mask == 0, -1e9, scores)
    attn_weights = np.exp(scores - scores.max(axis=-1, keepdims=True))
    attn_weights = attn_weights / attn_weights.sum(axis=-1, keepdims=True)
    out = attn_weights @ value
    b, h, t, d = out.shape
    return out.transpose(0, 2, 1, 3).reshape(b, t, h * d)


def multi_head_attention(X, W_Q, W_K, W_V, W_O, num_heads, mask=None):
    key_layer, value_layer = _transform(X, W_K, num_heads), _transform(X, W_V, num_heads)
    query_layer = _transform(X, W_Q, num_heads)
    return _attention(key_layer, query_layer, value_layer, mask) @ W_O
