"""Port of GerwinMateo/cs224n_gpt, modules/attention.py, CausalSelfAttention.transform and .attention (Stanford
CS224n default final project, GPT-2: a student's solution).

Conventions kept: transform rearranges the projection 'b t (h d) -> b t h d -> b h t d' (3-D
batch-first input; head widths inferred); attention divides query @ key^T by key.size(-1) ** (1/2),
then ADDS torch.triu(torch.ones(seqLen, seqLen), diagonal=1) to the scores (later keys get +1 instead of
being hidden), ignores its attention_mask argument, softmax on the last axis, and merges
'b h t d -> b t (h d)'. Added for the contract only: W_Q, W_K, W_V replace the Linear layers (no biases,
dropout off), the contract's mask is passed as the student's attention_mask, W_O is the GPT-2 layer's
attention_dense applied after attention.
"""

import numpy as np


def _transform(X, W, num_heads):
    b, t, hd = (X @ W).shape
    return (X @ W).reshape(b, t, num_heads, hd // num_heads).transpose(0, 2, 1, 3)


def _attention(key, query, value, attention_mask):
    top = query @ np.swapaxes(key, -2, -1)
    bottom = key.shape[-1] ** (1 / 2)
    attention = top / bottom
    seq_len = query.shape[-2]
    attention = attention + np.triu(np.ones((seq_len, seq_len)), k=1)
    weights = np.exp(attention - attention.max(axis=-1, keepdims=True))
    weights = weights / weights.sum(axis=-1, keepdims=True)
    final = weights @ value
    b, h, t, d = final.shape
    return final.transpose(0, 2, 1, 3).reshape(b, t, h * d)


def multi_head_attention(X, W_Q, W_K, W_V, W_O, num_heads, mask=None):
    key_layer, value_layer = _transform(X, W_K, num_heads), _transform(X, W_V, num_heads)
    query_layer = _transform(X, W_Q, num_heads)
    return _attention(key_layer, query_layer, value_layer, mask) @ W_O
