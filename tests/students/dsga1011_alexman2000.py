"""Port of AlexMan2000/DSGA-1011-NLP, fall2024/assignment/hw2_newest/submission/layers.py (commit f2c2a9e): attention
and MultiHeadedAttention, a student's solution of NYU DS-GA 1011 (Natural Language Processing with Representation
Learning), fall 2024, homework 2 (a Transformer for German-to-English translation; the starter's `attention` and
`MultiHeadedAttention` are empty, "# Your code here").

Ports scaled_dot_product_attention (the student's `attention`) and multi_head_attention (MultiHeadedAttention).
Conventions kept: attention computes `batch_scores = torch.matmul(query, key.transpose(-2, -1)) / math.sqrt(d_k)`
with `d_k = query.size(-1)`, then `mask = mask.unsqueeze(1)` (written for the course's (B, 1, N_k) / (B, N, N) masks,
to give them a head axis: a contract (N_q, N_k) mask becomes (N_q, 1, N_k)) and `batch_scores =
batch_scores.masked_fill_(mask == 0, float("-inf"))` (True = may attend; IN PLACE: the mask must expand to the scores'
shape, which masked_fill_ cannot grow, so e.g. 2-D scores with any mask raise), `batch_scores.softmax(dim=-1)` (an
all -inf row is NaN) and returns `(torch.matmul(attention_weights, value), attention_weights)`; it has no scale
argument. MultiHeadedAttention.__init__ sets `self.d_k = d_model // h` (no divisibility check) and four
`nn.Linear(d_model, d_model)`; forward reads `batch_size = query.size(0)`, runs
`projection(mat).view(batch_size, -1, self.num_head, self.d_k).transpose(1, 2)` for q, k and v, calls `attention(...,
mask=mask, dropout=self.dropout)` with the mask as given, merges with `attention_out.transpose(1, 2).contiguous()
.view(batch_size, -1, self.d_model)` (the input's width) and applies the last projection.

Left out: dropout (nn.Dropout, off at evaluation; `dropout=None` for the contract's attention) and the Linear
layers' biases (zero here). Added for the contract only: `scale` is accepted and never read; d_model is X.shape[-1]
(the constructor's argument); self-attention passes X as query, key and value; W_Q, W_K, W_V and W_O are the
projections' weights.
"""

import math

import numpy as np


def _softmax_last(Z):  # Tensor.softmax(dim=-1): an all -inf row gives NaN
    E = np.exp(Z - np.max(Z, axis=-1, keepdims=True))
    return E / np.sum(E, axis=-1, keepdims=True)


def scaled_dot_product_attention(Q, K, V, mask=None, scale=None):
    d_k = Q.shape[-1]
    batch_scores = (Q @ np.swapaxes(K, -2, -1)) / math.sqrt(d_k)
    if mask is not None:
        mask = np.expand_dims(np.asarray(mask), 1)  # mask.unsqueeze(1)
        fill = np.broadcast_to(mask == 0, batch_scores.shape)  # masked_fill_ (in place) expands the mask to the scores
        batch_scores = np.where(fill, -np.inf, batch_scores)
    attention_weights = _softmax_last(batch_scores)
    attention_out = attention_weights @ V
    return attention_out, attention_weights


def multi_head_attention(X, W_Q, W_K, W_V, W_O, num_heads, mask=None):
    d_model = X.shape[-1]
    d_k = d_model // num_heads
    batch_size = X.shape[0]
    query_input, key_input, value_input = (
        (X @ W).reshape(batch_size, -1, num_heads, d_k).swapaxes(1, 2) for W in (W_Q, W_K, W_V)
    )
    attention_out, _ = scaled_dot_product_attention(query_input, key_input, value_input, mask=mask)
    attention_out = attention_out.swapaxes(1, 2).reshape(batch_size, -1, d_model)
    return attention_out @ W_O
