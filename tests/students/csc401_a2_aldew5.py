"""Port of aldew5/French-Translation, a2_transformer_model.py (commit 5866ab3): MultiHeadAttention.attention and
MultiHeadAttention.forward, a student's solution of University of Toronto CSC401H/2511H (Natural Language Computing),
assignment 2 of winter 2024 (neural machine translation with a Transformer; the course gives the MultiHeadAttention
class with its __init__, the students write attention and forward).

Ports multi_head_attention (the student's forward, run as self-attention as the student's own
TransformerEncoderLayer calls it, `self.self_attn(x, mask=mask)`; it calls the student's attention). The course's
__init__ (given code) is kept: `assert d_model % num_heads == 0` and `self.d_head = d_model // num_heads` (every head
D // H wide, D = the input's width).

Conventions kept: forward sets `key = query` and `value = query` when either is None, projects with q_linear,
k_linear and v_linear, reads `batch_size = query.size(0)` and splits each with `.view(batch_size, -1, self.num_heads,
self.d_head).transpose(1, 2)` (the first axis read as the batch; the -1 tokens absorb a projection that is not H *
(D // H) wide, or the view raises). attention: `torch.matmul(query, key.transpose(-2, -1)) / math.sqrt(self.d_head)`,
then `mask = mask.unsqueeze(1)` and `mask = mask.expand(-1, self.num_heads, -1, -1)` (the course's mask is (batch,
query_seq_len, key_seq_len), True where masked: it becomes (batch, num_heads, query_seq_len, key_seq_len); torch's
expand takes 4 sizes, so the unsqueezed mask must have 4 axes: a 2-D (N, N) mask, (N, 1, N) after unsqueeze, needs a
new leading axis of size -1 and raises, and a 4-D mask, 5-D after unsqueeze, raises too), `attention_scores.
masked_fill(mask, float('-inf'))` (out of place: the mask and the scores are broadcast together),
`torch.softmax(attention_scores, dim=-1)` (an all -inf row is NaN), `torch.matmul(attention_weights, value)`. Back in
forward: `x.transpose(1, 2).contiguous().view(batch_size, -1, self.num_heads * self.d_head)`, `self.out_linear(x)`.

Left out: dropout and attention dropout (p = 0.0 by default), set_attention_scores (visualisation only), the
nn.Linear biases (the contract has none). Added for the contract only: multi_head_attention builds the course's
MultiHeadAttention(num_heads, d_model = X.shape[-1]) and calls forward(X, mask=mask) with the contract's boolean mask
as given; q_linear, k_linear, v_linear and out_linear are W_Q, W_K, W_V and W_O (x @ W, not loaded with a shape
check).
"""

import math

import numpy as np


def _expand(mask, sizes):  # torch's Tensor.expand(*sizes)
    if len(sizes) < mask.ndim:
        raise RuntimeError("expand: the number of sizes provided must be >= the number of dimensions in the tensor")
    lead = len(sizes) - mask.ndim
    if any(s == -1 for s in sizes[:lead]):
        raise RuntimeError("expand: -1 is not allowed in a leading, non-existing dimension")
    shape = list(sizes[:lead])
    for size, s in zip(mask.shape, sizes[lead:]):
        if s == -1:
            shape.append(size)
        elif size in (1, s):
            shape.append(s)
        else:
            raise RuntimeError(f"expand: the expanded size {s} must match the existing size {size}")
    return np.broadcast_to(mask, tuple(shape))


def _attention(query, key, value, d_head, num_heads, mask=None):
    attention_scores = (query @ np.swapaxes(key, -2, -1)) / math.sqrt(d_head)
    if mask is not None:
        mask = np.expand_dims(mask, 1)  # mask.unsqueeze(1)
        mask = _expand(mask, (-1, num_heads, -1, -1))
        attention_scores = np.where(mask, -np.inf, attention_scores)  # masked_fill(mask, -inf), out of place
    e = np.exp(attention_scores - np.max(attention_scores, axis=-1, keepdims=True))  # an all -inf row: NaN
    attention_weights = e / np.sum(e, axis=-1, keepdims=True)
    return attention_weights @ value


def multi_head_attention(X, W_Q, W_K, W_V, W_O, num_heads, mask=None):
    d_model = X.shape[-1]  # MultiHeadAttention(num_heads, d_model).__init__ (the course's)
    assert d_model % num_heads == 0
    d_head = d_model // num_heads
    query = key = value = X  # key is None or value is None: self-attention
    query = query @ W_Q
    key = key @ W_K
    value = value @ W_V
    batch_size = query.shape[0]
    query = np.swapaxes(query.reshape(batch_size, -1, num_heads, d_head), 1, 2)
    key = np.swapaxes(key.reshape(batch_size, -1, num_heads, d_head), 1, 2)
    value = np.swapaxes(value.reshape(batch_size, -1, num_heads, d_head), 1, 2)
    x = _attention(query, key, value, d_head, num_heads, mask)
    x = np.swapaxes(x, 1, 2).reshape(batch_size, -1, num_heads * d_head)
    return x @ W_O
