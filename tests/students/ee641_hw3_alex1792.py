"""Port of alex1792/ee641-hw3-alex1792, problem1/attention.py (commit 46046a2): scaled_dot_product_attention and
MultiHeadAttention (split_heads, combine_heads, forward), a student's solution of USC EE 641, homework 3 ("Attention
Mechanisms and Transformers", fall 2025: an encoder-decoder transformer for multi-digit addition).

Ports scaled_dot_product_attention and multi_head_attention (MultiHeadAttention.forward with the student's
split_heads, scaled_dot_product_attention and combine_heads). create_causal_mask is the course's (given) code, not
ported.

Conventions kept: scaled_dot_product_attention(Q, K, V, mask=None) has no scale argument: `d_k = Q.size(-1)`,
`scores = torch.matmul(Q, K.transpose(-2, -1))`, `scores = scores / math.sqrt(d_k)`, then `if mask is not None:
scores = scores.masked_fill(mask == 0, -1e9)` (1/True = may attend; a large finite fill, so a fully masked row gets
uniform weights over all keys; the out-of-place masked_fill broadcasts the mask and the scores),
`F.softmax(scores, dim=-1)`, `output = torch.matmul(attention_weights, V)`, `return output, attention_weights`.
MultiHeadAttention(d_model, num_heads): `assert d_model % num_heads == 0`, `self.d_k = d_model // num_heads`;
split_heads reads `batch_size, seq_len, _ = x.size()` (3-D input only) and `x.view(batch_size, seq_len,
self.num_heads, self.d_k)` then `transpose(1, 2)` for the queries, keys AND values (every head d_model // num_heads
wide); forward passes the mask as given to scaled_dot_product_attention on the (batch, heads, seq, seq) scores (no
head axis is added: a per-sequence (batch, N, N) mask meets the heads axis); combine_heads is `x.transpose(1, 2)` and
`x.contiguous().view(batch_size, seq_len, self.d_model)` (the input's width), then `self.W_o`.

Left out: the nn.Linear biases (zero here: the contract has none). Added for the contract only:
scaled_dot_product_attention takes a `scale` parameter (never read) so that the contract's calls reach the student's
code; multi_head_attention is MultiHeadAttention(d_model = X.shape[-1], num_heads) run as self-attention (query = key
= value = X) with W_q, W_k, W_v and W_o replaced by W_Q, W_K, W_V and W_O (x @ W, not loaded with a shape check), and
returns only the output (the contract's multi_head_attention has no weights).
"""

import math

import numpy as np


def _softmax_last(x):  # F.softmax(x, dim=-1)
    e = np.exp(x - np.max(x, axis=-1, keepdims=True))
    return e / np.sum(e, axis=-1, keepdims=True)


def scaled_dot_product_attention(Q, K, V, mask=None, scale=None):
    d_k = Q.shape[-1]
    scores = Q @ np.swapaxes(K, -2, -1)
    scores = scores / math.sqrt(d_k)
    if mask is not None:  # masked_fill (out of place): the mask and the scores broadcast together
        scores = np.where(np.asarray(mask) == 0, -1e9, scores)
    attention_weights = _softmax_last(scores)
    output = attention_weights @ V
    return output, attention_weights


def multi_head_attention(X, W_Q, W_K, W_V, W_O, num_heads, mask=None):
    d_model = X.shape[-1]  # MultiHeadAttention(d_model, num_heads)
    assert d_model % num_heads == 0, "d_model must be divisible by num_heads"
    d_k = d_model // num_heads

    def split_heads(x):
        batch_size, seq_len, _ = x.shape
        x = x.reshape(batch_size, seq_len, num_heads, d_k)  # x.view(...)
        return np.swapaxes(x, 1, 2)

    def combine_heads(x):
        batch_size, _, seq_len, d_k = x.shape  # noqa: RUF059
        x = np.swapaxes(x, 1, 2)
        return x.reshape(batch_size, seq_len, d_model)  # x.contiguous().view(batch_size, seq_len, self.d_model)

    query = key = value = X
    Q = query @ W_Q
    K = key @ W_K
    V = value @ W_V
    Q = split_heads(Q)
    K = split_heads(K)
    V = split_heads(V)
    attention_output, _attention_weights = scaled_dot_product_attention(Q, K, V, mask)
    attention_output = combine_heads(attention_output)
    return attention_output @ W_O
