"""Port of hw46/cs440, mp09/mha.py (commit c1b499c): MultiHeadAttention's compute_scaled_dot_product_attention and
compute_mh_qkv_transformation, a student's solution of UIUC CS 440 / ECE 448 (Artificial Intelligence), MP 9 (pushed in
the fall of 2024, on the spring 2024 template of mha.py: a Transformer for sequence-to-sequence learning; the students
fill in multi-head attention in mha.py, the course gives __init__ and forward).

Ports multi_head_attention (the course's forward: `self.W_o(self.compute_scaled_dot_product_attention(
*self.compute_mh_qkv_transformation(query, key, value), key_padding_mask=..., attention_mask=...))`, run as
self-attention). The course's __init__ (given code) is kept: `self.d_k = d_model // num_heads` and `assert (self.d_k *
self.num_heads) == self.d_model` (every head D // num_heads wide, D = the input's width).

Conventions kept: compute_mh_qkv_transformation splits each projection with `self.W_q(Q).view(-1, Q.size(1),
self.num_heads, self.d_k).transpose(1, 2)` (and K, V: the -1 takes whatever batch the elements make, so a projection
that is not num_heads * (D // num_heads) wide either raises or is cut into other sequences; Q.size(1) is read as the
tokens, so the input must be (B, T, D)). compute_scaled_dot_product_attention: `B, _, T_q, d_k = query.size()`,
`scores = torch.matmul(query, key.transpose(-2, -1)) / math.sqrt(d_k)`, the course's attention_mask (an int mask whose
NON-ZERO entries are disallowed: `0 1 1 / 0 0 1 / 0 0 0` is causal) ADDED in place, `scores += (attention_mask.unsqueeze
(1) * min_val)`, with the course's `min_val = torch.finfo(query.dtype).min` (finite; a score plus min_val rounds to
min_val; in place, the (T_q, 1, T_k) a shared mask becomes must broadcast to the scores' own shape), `torch.softmax(
scores, dim=-1)`, `torch.matmul(attention_weights, value)` and `x.transpose(1, 2).contiguous().view(B, -1,
self.num_heads * self.d_k)`.

Left out: the key_padding_mask branch (the contract has no padding mask: None), the nn.Linear biases (zero here: the
contract has none). Added for the contract only: multi_head_attention builds the course's MultiHeadAttention(d_model =
X.shape[-1], num_heads), calls forward(X, X, X, key_padding_mask=None, attention_mask=mask) with the contract's
boolean mask as given (True * min_val is min_val, False * min_val is -0.0), and W_q, W_k, W_v and W_o are W_Q, W_K,
W_V and W_O (x @ W, not loaded with a shape check).
"""

import math

import numpy as np


def _softmax(x, axis):  # torch.softmax
    e = np.exp(x - np.max(x, axis=axis, keepdims=True))
    return e / np.sum(e, axis=axis, keepdims=True)


def _compute_mh_qkv_transformation(Q, K, V, W_Q, W_K, W_V, num_heads, d_k):
    q = np.swapaxes((Q @ W_Q).reshape(-1, Q.shape[1], num_heads, d_k), 1, 2)
    k = np.swapaxes((K @ W_K).reshape(-1, K.shape[1], num_heads, d_k), 1, 2)
    v = np.swapaxes((V @ W_V).reshape(-1, V.shape[1], num_heads, d_k), 1, 2)
    return q, k, v


def _compute_scaled_dot_product_attention(query, key, value, num_heads, self_d_k, attention_mask=None):
    min_val = np.finfo(query.dtype).min
    B, _, _T_q, d_k = query.shape  # a 4-D query only
    scores = (query @ np.swapaxes(key, -2, -1)) / math.sqrt(d_k)
    if attention_mask is not None:
        scores += np.expand_dims(attention_mask, 1) * min_val  # in place: must broadcast to the scores' shape
    attention_weights = _softmax(scores, axis=-1)
    x = attention_weights @ value
    return np.swapaxes(x, 1, 2).reshape(B, -1, num_heads * self_d_k)


def multi_head_attention(X, W_Q, W_K, W_V, W_O, num_heads, mask=None):
    d_model = X.shape[-1]  # MultiHeadAttention(d_model, num_heads).__init__ (the course's)
    d_k = d_model // num_heads
    assert (d_k * num_heads) == d_model
    q, k, v = _compute_mh_qkv_transformation(X, X, X, W_Q, W_K, W_V, num_heads, d_k)
    attention_mask = None if mask is None else np.asarray(mask)
    return _compute_scaled_dot_product_attention(q, k, v, num_heads, d_k, attention_mask=attention_mask) @ W_O
