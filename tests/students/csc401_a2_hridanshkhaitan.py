"""Port of Hridanshkhaitan/French-english-NMT, a2_transformer_model.py (commit 19f2e1b): MultiHeadAttention.attention
and MultiHeadAttention.forward, a student's solution of University of Toronto CSC401H/2511H (Natural Language
Computing), assignment 2 of winter 2024 (neural machine translation with a Transformer; the course gives the
MultiHeadAttention class with its __init__, the students write attention and forward).

Ports multi_head_attention (the student's forward, run as self-attention: key and value None, or the input three
times, as the student's own layers call it; it calls the student's attention). The course's __init__ (given code) is
kept: `assert d_model % num_heads == 0` and `self.d_head = d_model // num_heads` (every head D // H wide, D = the
input's width).

Conventions kept: forward sets `key = query` and `value = query` when both are None, reads `batch_size =
query.size(0)`, projects with q_linear, k_linear and v_linear and splits each with `.reshape(batch_size, -1,
self.num_heads, self.d_head).transpose(1,2)` (the first axis read as the batch; the -1 tokens absorb a projection that
is not H * (D // H) wide, or the reshape raises). attention: `d_head = torch.tensor(self.d_head, dtype=
torch.float32)`, `attention_score = torch.matmul(query, key.transpose(-2, -1))/ torch.sqrt(d_head)` (the constructor's
head width, its square root taken in float32), `mask = mask.unsqueeze(1)` (the course's mask is (batch, query_seq_len,
key_seq_len), True where masked; a shared (N, N) mask becomes (N, 1, N)), `attention_score.masked_fill(mask, -1e9)`
(out of place: the mask and the scores are broadcast together; finite, so a fully masked row is uniform),
`torch.softmax(attention_score, dim= -1)`, `torch.matmul(weights, value)`. Back in forward: `scaled_attention.
transpose(1,2).reshape(batch_size, -1, self.num_heads * self.d_head)`, `self.out_linear(scaled_attention)`.

Left out: dropout and attention dropout (p = 0.0 by default), `mask.to(attention_score.device)`,
set_attention_scores (visualisation only), the nn.Linear biases (the contract has none). Added for the contract only:
multi_head_attention builds the course's MultiHeadAttention(num_heads, d_model = X.shape[-1]) and calls
forward(X, mask=mask) with the contract's boolean mask as given; q_linear, k_linear, v_linear and out_linear are W_Q,
W_K, W_V and W_O (x @ W, not loaded with a shape check).
"""

import numpy as np


def _attention(query, key, value, d_head, mask=None):
    d_head = np.float32(d_head)  # torch.tensor(self.d_head, dtype=torch.float32)
    attention_score = (query @ np.swapaxes(key, -2, -1)) / np.sqrt(d_head)
    if mask is not None:
        mask = np.expand_dims(mask, 1)  # mask.unsqueeze(1)
        attention_score = np.where(mask, -1e9, attention_score)  # masked_fill(mask, -1e9), out of place
    e = np.exp(attention_score - np.max(attention_score, axis=-1, keepdims=True))  # torch.softmax(dim=-1)
    weights = e / np.sum(e, axis=-1, keepdims=True)
    return weights @ value


def multi_head_attention(X, W_Q, W_K, W_V, W_O, num_heads, mask=None):
    d_model = X.shape[-1]  # MultiHeadAttention(num_heads, d_model).__init__ (the course's)
    assert d_model % num_heads == 0
    d_head = d_model // num_heads
    query = key = value = X  # key is None and value is None: self-attention
    batch_size = query.shape[0]
    query = query @ W_Q
    key = key @ W_K
    value = value @ W_V
    query = np.swapaxes(query.reshape(batch_size, -1, num_heads, d_head), 1, 2)
    key = np.swapaxes(key.reshape(batch_size, -1, num_heads, d_head), 1, 2)
    value = np.swapaxes(value.reshape(batch_size, -1, num_heads, d_head), 1, 2)
    scaled_attention = _attention(query, key, value, d_head, mask)
    scaled_attention = np.swapaxes(scaled_attention, 1, 2).reshape(batch_size, -1, num_heads * d_head)
    return scaled_attention @ W_O
