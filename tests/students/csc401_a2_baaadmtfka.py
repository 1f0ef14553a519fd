"""Port of Baaadmtfka/CSC401_NLP-A2, a2_transformer_model.py (commit 905bd56): MultiHeadAttention.attention and
MultiHeadAttention.forward, a student's solution of University of Toronto CSC401H/2511H (Natural Language Computing),
assignment 2 of winter 2024 (neural machine translation with a Transformer; the course gives the MultiHeadAttention
class with its __init__, the students write attention and forward).

Ports multi_head_attention (the student's forward, run as self-attention the way the student's own
TransformerEncoderLayer calls it: `self.self_attn.forward(query=self.ln1.forward(x), mask=mask)`, key and value None;
it calls the student's attention). The course's __init__ (given code) is kept: `assert d_model % num_heads == 0` and
`self.d_head = d_model // num_heads` (every head D // H wide, D = the input's width).

Conventions kept: forward reads `batch_size, query_seq_len, d_model = query.shape` (3-D input only), projects and
splits the queries with `self.q_linear(query).view(batch_size, query_seq_len, self.num_heads,
self.d_head).transpose(1, 2)` (raises unless the projection is H * (D // H) wide), and then, for self-attention
(`if (key == None and value == None):`), calls `self.attention(query=query, key=query, value=query, mask=mask)`: the
PROJECTED, split queries serve as the keys and the values too (k_linear and v_linear are used only on the
cross-attention path), so each head computes softmax(q q^T / sqrt(d_head)) q. attention: `scores = (query @
key.transpose(2, 3)) / math.sqrt(self.d_head)`, `if mask != None: mask = mask.unsqueeze(1)` (the course's mask is
(batch, query_seq_len, key_seq_len), True where masked; a shared (N, N) mask becomes (N, 1, N)), `scores =
scores.masked_fill(mask, float('-inf'))` (out of place: the mask and the scores are broadcast together),
`nn.Softmax(dim=3)` (an all -inf row is NaN), `@ value`. Back in forward: `attention_output.transpose(1, 2)`,
`output.reshape(batch_size, query_seq_len, d_model)`, `self.out_linear(output)`.

Left out: dropout and attention dropout (p = 0.0 by default), set_attention_scores (visualisation only), the nn.Linear
biases (the contract has none). Added for the contract only: multi_head_attention builds the course's
MultiHeadAttention(num_heads, d_model = X.shape[-1]) and calls forward(query=X, mask=mask) with the contract's boolean
mask as given; q_linear and out_linear are W_Q and W_O (x @ W, not loaded with a shape check); W_K and W_V would be
k_linear and v_linear, which the self-attention path never calls.
"""

import math

import numpy as np


def _softmax(x, axis):  # nn.Softmax(dim=axis): an all -inf slice gives NaN
    e = np.exp(x - np.max(x, axis=axis, keepdims=True))
    return e / np.sum(e, axis=axis, keepdims=True)


def _attention(query, key, value, d_head, mask=None):
    scores = (query @ np.swapaxes(key, 2, 3)) / math.sqrt(d_head)
    if mask is not None:
        mask = np.expand_dims(mask, 1)  # mask.unsqueeze(1)
        scores = np.where(mask, -np.inf, scores)  # scores.masked_fill(mask, float('-inf')), out of place
    softmax_attention = _softmax(scores, axis=3)  # nn.Softmax(dim=3)
    return softmax_attention @ value


def multi_head_attention(X, W_Q, W_K, W_V, W_O, num_heads, mask=None):
    d_model = X.shape[-1]  # MultiHeadAttention(num_heads, d_model).__init__ (the course's)
    assert d_model % num_heads == 0
    d_head = d_model // num_heads
    query = X
    batch_size, query_seq_len, d_model = query.shape
    query = np.swapaxes((query @ W_Q).reshape(batch_size, query_seq_len, num_heads, d_head), 1, 2)
    attention_output = _attention(query, query, query, d_head, mask=mask)  # key is None and value is None
    output = np.swapaxes(attention_output, 1, 2)
    output = output.reshape(batch_size, query_seq_len, d_model)
    return output @ W_O
