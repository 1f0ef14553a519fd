"""Port of Chenxinnnn/my_NLP_projects, German_to_English_Machine_Translation/layers.py (commit 0ae510a): attention
and MultiHeadedAttention, a student's solution of NYU DS-GA 1011 (Natural Language Processing with Representation
Learning), fall 2024, homework 2 (a Transformer for German-to-English translation; the starter's `attention` and
`MultiHeadedAttention` are empty, "# Your code here").

Ports scaled_dot_product_attention (the student's `attention`) and multi_head_attention (MultiHeadedAttention).
Conventions kept: attention computes `scores = torch.matmul(query, key.transpose(-2, -1)) / math.sqrt(d_k)` with
`d_k = query.size(-1)`, then `mask = mask.unsqueeze(1)` (written for the course's (B, 1, N_k) / (B, N, N) masks, to
give them a head axis: a contract (N_q, N_k) mask becomes (N_q, 1, N_k)) and `scores = scores.masked_fill(mask == 0,
-1e9)` (True = may attend; a finite fill; out of place, so masked_fill broadcasts the scores up to the mask's shape),
`torch.softmax(scores, dim=-1)` and returns `(torch.matmul(p_attn, value), p_attn)`; it has no scale argument.
MultiHeadedAttention.__init__ asserts `d_model % h == 0` and sets `self.d_k = d_model // h` with four
`nn.Linear(d_model, d_model)`; forward reads `batch_size = query.size(0)`, runs `lin(x).view(batch_size, -1, self.h,
self.d_k).transpose(1, 2)` for q, k and v, calls `attention(query, key, value, mask=mask, dropout=self.dropout)` with
the mask as given, merges with `x.transpose(1, 2).contiguous().view(batch_size, -1, self.h * self.d_k)` and applies
`self.linears[-1]`.

Left out: dropout (nn.Dropout, off at evaluation; `dropout=None` for the contract's attention) and the Linear
layers' biases (zero here). Added for the contract only: `scale` is accepted and never read; d_model is X.shape[-1]
(the constructor's argument); self-attention passes X as query, key and value; W_Q, W_K, W_V and W_O are the four
Linear layers' weights.
"""

import math

import numpy as np


def _softmax_last(Z):  # torch.softmax(..., dim=-1)
    E = np.exp(Z - np.max(Z, axis=-1, keepdims=True))
    return E / np.sum(E, axis=-1, keepdims=True)


def scaled_dot_product_attention(Q, K, V, mask=None, scale=None):
    d_k = Q.shape[-1]
    scores = (Q @ np.swapaxes(K, -2, -1)) / math.sqrt(d_k)
    if mask is not None:
        mask = np.expand_dims(np.asarray(mask), 1)  # mask.unsqueeze(1)
        scores = np.where(mask == 0, -1e9, scores)  # masked_fill (out of place) broadcasts mask and scores
    p_attn = _softmax_last(scores)
    return p_attn @ V, p_attn


def multi_head_attention(X, W_Q, W_K, W_V, W_O, num_heads, mask=None):
    d_model = X.shape[-1]
    assert d_model % num_heads == 0
    d_k = d_model // num_heads
    batch_size = X.shape[0]
    query, key, value = ((X @ W).reshape(batch_size, -1, num_heads, d_k).swapaxes(1, 2) for W in (W_Q, W_K, W_V))
    x, _ = scaled_dot_product_attention(query, key, value, mask=mask)
    x = x.swapaxes(1, 2).reshape(batch_size, -1, num_heads * d_k)
    return x @ W_O
