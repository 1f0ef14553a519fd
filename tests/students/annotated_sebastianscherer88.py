"""Port of SebastianScherer88/annotated-transformer, src/architecture/attention.py (commit 1b9d073): attention and
MultiHeadedAttention, a reader's own refactoring of The Annotated Transformer (Harvard NLP) into a reusable package
(src/architecture), whose multi-head attention the student rewrote as a loop over per-head projection layers in place
of the post's batched `view(nbatches, -1, h, d_k)`.

Ports multi_head_attention. The student's `attention` function (the post's scaled dot-product attention retyped, with
a `coefficient_mask` argument) is kept as the private helper it calls, not ported as the contract's
scaled_dot_product_attention, and subsequent_mask (the post's, renamed) is not ported either.

Conventions kept: attention computes `softmax_input = torch.matmul(query, key.transpose(-2,-1)) / math.sqrt(d_k)` with
`d_k = query.size(-1)`, then `if coefficient_mask is not None: softmax_input =
softmax_input.masked_fill(coefficient_mask == 0, -1e9)` (True = may attend, masked scores -1e9: a fully masked row
is uniform; out of place, so the mask and the scores broadcast), `softmax_input.softmax(dim=-1)`, dropout, and
returns `(torch.matmul(coefficient, value), coefficient)`. MultiHeadedAttention(h, d_model) asserts `d_model % h ==
0`, sets `d_k = d_model // h` ("We assume d_v always equals d_k"), `self.head_projections =
clones(clones(nn.Linear(d_model, d_k), 3), h)` and `self.final_projection = nn.Linear(d_model, d_model)`; forward
runs, for each head's `W_q, W_k, W_v`, `attention(W_q(query), W_k(key), W_v(value), mask, self.dropout)` with the
mask as given (no head axis is needed: each head's scores have the input's own leading axes), then
`torch.concat(head_attentions, -1)` and `self.final_projection(multi_attention)`.

Left out: dropout (the identity at evaluation), the Linear layers' biases (zero here: the contract has none), the
stacked coefficients kept in self.attn for plots. Added for the contract only: d_model is X.shape[-1] (the
constructor's argument); head i's three layers are columns [i * d_k, (i + 1) * d_k) of W_Q, W_K and W_V and
final_projection is W_O; self-attention passes X as query, key and value.
"""

import math

import numpy as np


def _attention(query, key, value, coefficient_mask=None):
    d_k = query.shape[-1]
    softmax_input = np.matmul(query, np.swapaxes(key, -2, -1)) / math.sqrt(d_k)
    if coefficient_mask is not None:  # masked_fill (out of place): mask and scores broadcast
        softmax_input = np.where(np.asarray(coefficient_mask) == 0, -1e9, softmax_input)
    E = np.exp(softmax_input - np.max(softmax_input, axis=-1, keepdims=True))
    coefficient = E / np.sum(E, axis=-1, keepdims=True)
    attention = np.matmul(coefficient, value)
    return attention, coefficient


def multi_head_attention(X, W_Q, W_K, W_V, W_O, num_heads, mask=None):
    d_model, h = X.shape[-1], num_heads
    assert d_model % h == 0
    d_k = d_model // h
    head_attentions = []
    for i in range(h):  # self.head_projections: one (W_q, W_k, W_v) of nn.Linear(d_model, d_k) per head
        cols = slice(i * d_k, (i + 1) * d_k)
        head_attention = _attention(X @ W_Q[:, cols], X @ W_K[:, cols], X @ W_V[:, cols], mask)
        head_attentions.append(head_attention[0])
    multi_attention = np.concatenate(head_attentions, -1)
    return multi_attention @ W_O  # self.final_projection
