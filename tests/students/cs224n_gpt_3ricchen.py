"""Port of 3ricchen/CS224N-Project, modules/attention.py, CausalSelfAttention.transform and .attention (Stanford
CS224n default final project, GPT-2: a student's solution).

Conventions kept: transform rearranges 'b t (h d) -> b t h d -> b h t d' (3-D batch-first input; head
widths inferred); the scores are divided by self.attention_head_size ** 0.5, where attention_head_size =
hidden_size / num_attention_heads (the model width over the heads, not the projection's head width);
a causal mask triu(full((T, T), -inf), diagonal=1) is ALWAYS added, and the attention_mask is ADDED
(`scores + attention_mask + mask`: the project's padding masks are additive); softmax on the last axis;
'b h t d -> b t (h d)'. Added for the contract only: hidden_size is X.shape[-1]; W_Q, W_K, W_V replace
the Linear layers (no biases, dropout off); the contract's mask is passed as the student's attention_mask
(a boolean mask adds 0/1; the project always passes one, so None is taken as 0); W_O is the GPT-2
layer's attention_dense.
"""

import numpy as np


def _transform(X, W, num_heads):
    b, t, hd = (X @ W).shape
    return (X @ W).reshape(b, t, num_heads, hd // num_heads).transpose(0, 2, 1, 3)


def _attention(key, query, value, attention_mask, attention_head_size):
    scores = query @ np.swapaxes(key, -1, -2)
    scores = scores / (attention_head_size ** 0.5)
    seq_len = scores.shape[-1]
    causal = np.triu(np.full((seq_len, seq_len), -np.inf), k=1)
    scores = scores + (0.0 if attention_mask is None else attention_mask) + causal
    attn_weights = np.exp(scores - scores.max(axis=-1, keepdims=True))
    attn_weights = attn_weights / attn_weights.sum(axis=-1, keepdims=True)
    out = attn_weights @ value
    b, h, t, d = out.shape
    return out.transpose(0, 2, 1, 3).reshape(b, t, h * d)


def multi_head_attention(X, W_Q, W_K, W_V, W_O, num_heads, mask=None):
    attention_head_size = int(X.shape[-1] / num_heads)
    key_layer, value_layer = _transform(X, W_K, num_heads), _transform(X, W_V, num_heads)
    query_layer = _transform(X, W_Q, num_heads)
    return _attention(key_layer, query_layer, value_layer, mask, attention_head_size) @ W_O
