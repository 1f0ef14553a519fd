"""Port of andresc44/neural-machine-translation-transformer, a2_transformer_model.py (commit c19a329):
MultiHeadAttention.attention and MultiHeadAttention.forward, a student's solution of University of Toronto
CSC401H/2511H (Natural Language Computing), assignment 2 (neural machine translation with a Transformer, the 2024
template: the repository keeps the course's files under "provided files"; the course gives the MultiHeadAttention
class with its __init__, the students write attention and forward).

Ports multi_head_attention (the student's forward, run as self-attention as the student's own
TransformerEncoderLayer calls it, `self.self_attn(x, None, None, mask)`; it calls the student's attention). The
course's __init__ (given code) is kept: `assert d_model % num_heads == 0` and `self.d_head = d_model // num_heads`
(every head D // H wide, D = the input's width).

Conventions kept: forward reads `batch_size = query.shape[0]`, computes `Q = self.q_linear(query)`, sets `key = query`
and `value = query` when either is None, `K = self.k_linear(key)`, `V = self.v_linear(value)`, and splits each with
`.view(batch_size, -1, self.num_heads, self.d_head).permute(0, 2, 1, 3)` (the first axis read as the batch; the -1
tokens absorb a projection that is not H * (D // H) wide, or the view raises). attention: `scores =
torch.matmul(query, key.transpose(-2, -1))`, `d_k = torch.tensor(self.d_head, dtype=scores.dtype)`, `scores /
math.sqrt(d_k)` (the constructor's head width), `mask = mask.unsqueeze(1)` (for the course's (batch, query_seq_len,
key_seq_len) mask; a shared (N, N) mask becomes (N, 1, N)), `attention_scores.masked_fill(mask == 0, -1e9)` (the
course's mask is True where masked, but the student fills where it is False: True = may attend, the contract's
polarity; out of place, the mask and the scores are broadcast together; finite, so a fully masked row is uniform),
`nn.functional.softmax(attention_scores, dim=-1)`, `torch.matmul(attention_weights, value)`. Back in forward:
`context.permute(0, 2, 1, 3)`, `context.contiguous().view(batch_size, -1, self.num_heads * self.d_head)`,
`self.out_linear(context)`.

Left out: dropout and attention dropout (p = 0.0 by default), set_attention_scores (visualisation only), the
nn.Linear biases (the contract has none). Added for the contract only: multi_head_attention builds the course's
MultiHeadAttention(num_heads, d_model = X.shape[-1]) and calls forward(X, None, None, mask) with the contract's
boolean mask as given; q_linear, k_linear, v_linear and out_linear are W_Q, W_K, W_V and W_O (x @ W, not loaded with
a shape check).
"""

import math

import numpy as np


def _attention(query, key, value, d_head, mask=None):
    scores = query @ np.swapaxes(key, -2, -1)
    d_k = float(d_head)  # torch.tensor(self.d_head, dtype=scores.dtype)
    attention_scores = scores / math.sqrt(d_k)
    if mask is not None:
        mask = np.expand_dims(mask, 1)  # mask.unsqueeze(1)
        attention_scores = np.where(mask == 0, -1e9, attention_scores)  # masked_fill(mask == 0, -1e9), out of place
    e = np.exp(attention_scores - np.max(attention_scores, axis=-1, keepdims=True))
    attention_weights = e / np.sum(e, axis=-1, keepdims=True)
    return attention_weights @ value


def multi_head_attention(X, W_Q, W_K, W_V, W_O, num_heads, mask=None):
    d_model = X.shape[-1]  # MultiHeadAttention(num_heads, d_model).__init__ (the course's)
    assert d_model % num_heads == 0
    d_head = d_model // num_heads
    query = X
    batch_size = query.shape[0]
    Q = query @ W_Q
    key = value = query  # key == None or value == None: self-attention
    K = key @ W_K
    V = value @ W_V
    Q = Q.reshape(batch_size, -1, num_heads, d_head).transpose(0, 2, 1, 3)
    K = K.reshape(batch_size, -1, num_heads, d_head).transpose(0, 2, 1, 3)
    V = V.reshape(batch_size, -1, num_heads, d_head).transpose(0, 2, 1, 3)
    context = _attention(Q, K, V, d_head, mask)
    context = context.transpose(0, 2, 1, 3)
    context = context.reshape(batch_size, -1, num_heads * d_head)
    return context @ W_O
