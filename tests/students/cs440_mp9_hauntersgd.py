"""Port of hauntersgd/cs440, mp9/mha.py (commit a97e17f): MultiHeadAttention's compute_scaled_dot_product_attention and
compute_mh_qkv_transformation, a student's solution of UIUC CS 440 / ECE 448 (Artificial Intelligence), MP 9 (pushed in
the fall of 2024, on the spring 2024 template of mha.py: a Transformer for sequence-to-sequence learning; the students
fill in multi-head attention in mha.py, the course gives __init__ and forward).

Ports multi_head_attention (the course's forward: `self.W_o(self.compute_scaled_dot_product_attention(
*self.compute_mh_qkv_transformation(query, key, value), key_padding_mask=..., attention_mask=...))`, run as
self-attention). The course's __init__ (given code) is kept: `self.d_k = d_model // num_heads` and `assert (self.d_k *
self.num_heads) == self.d_model` (every head D // num_heads wide, D = the input's width).

Conventions kept: compute_mh_qkv_transformation splits each projection with `q.reshape(q.shape[0], q.shape[1],
self.num_heads, self.d_k)` and `torch.transpose(q, 1, 2)` (and k, v: a 3-D (B, T, D) input only; it raises unless the
projection is num_heads * (D // num_heads) wide). compute_scaled_dot_product_attention: `x = torch.matmul(query,
torch.transpose(key, 2, 3))`, `x = x / math.sqrt(query.shape[3])`, `B = x.shape[0]`, `num_heads = x.shape[1]`, the
course's attention_mask (an int mask whose NON-ZERO entries are disallowed: `0 1 1 / 0 0 1 / 0 0 0` is causal) passed
straight to in-place masked_fill_ with the course's `min_val = torch.finfo(query.dtype).min` (finite), head by head:
`if attention_mask.shape[0] == 1:` `for i in range(B): for j in range(num_heads): x[i, j, :, :].masked_fill_(
attention_mask, min_val)` (each (T_q, T_k) slice: masked_fill_ expands the mask to the slice's own shape, so a (1,
T_q, T_k) mask raises) `else: for i in range(num_heads): x[:, i, :, :].masked_fill_(attention_mask, min_val)` (each
(B, T_q, T_k) slice: a shared (T_q, T_k) mask or a (B, T_q, T_k) one), then `torch.softmax(x, dim=-1)`,
`torch.matmul(x, value)`, `torch.transpose(x, 1, 2)` and the course's `x.contiguous().view(B, -1, self.num_heads *
self.d_k)`. masked_fill_ takes only a boolean mask.

Left out: the key_padding_mask branch (the contract has no padding mask: None), the nn.Linear biases (zero here: the
contract has none). Added for the contract only: multi_head_attention builds the course's MultiHeadAttention(d_model =
X.shape[-1], num_heads), calls forward(X, X, X, key_padding_mask=None, attention_mask=mask) with the contract's
boolean mask as given, and W_q, W_k, W_v and W_o are W_Q, W_K, W_V and W_O (x @ W, not loaded with a shape check).
"""

import math

import numpy as np


def _softmax(x, axis):  # torch.softmax
    e = np.exp(x - np.max(x, axis=axis, keepdims=True))
    return e / np.sum(e, axis=axis, keepdims=True)


def _masked_fill_(target, mask, value):  # torch's in-place masked_fill_: the mask is expanded to target's shape
    if mask.dtype != bool:
        raise RuntimeError(f"masked_fill_ only supports boolean masks, but got mask with dtype {mask.dtype}")
    target[np.broadcast_to(mask, target.shape)] = value


def _compute_mh_qkv_transformation(Q, K, V, W_Q, W_K, W_V, num_heads, d_k):
    q = Q @ W_Q
    k = K @ W_K
    v = V @ W_V
    q = q.reshape(q.shape[0], q.shape[1], num_heads, d_k)
    k = k.reshape(k.shape[0], k.shape[1], num_heads, d_k)
    v = v.reshape(v.shape[0], v.shape[1], num_heads, d_k)
    q = np.swapaxes(q, 1, 2)
    k = np.swapaxes(k, 1, 2)
    v = np.swapaxes(v, 1, 2)
    return q, k, v


def _compute_scaled_dot_product_attention(query, key, value, num_heads, self_d_k, attention_mask=None):
    min_val = np.finfo(query.dtype).min
    transposed_key = np.swapaxes(key, 2, 3)
    x = query @ transposed_key
    x = x / math.sqrt(query.shape[3])
    B = x.shape[0]
    n_heads = x.shape[1]
    if attention_mask is not None:
        if attention_mask.shape[0] == 1:
            for i in range(B):
                for j in range(n_heads):
                    _masked_fill_(x[i, j, :, :], attention_mask, min_val)
        else:
            for i in range(n_heads):
                _masked_fill_(x[:, i, :, :], attention_mask, min_val)
    x = _softmax(x, axis=-1)
    x = x @ value
    B = x.shape[0]
    x = np.swapaxes(x, 1, 2)
    return x.reshape(B, -1, num_heads * self_d_k)


def multi_head_attention(X, W_Q, W_K, W_V, W_O, num_heads, mask=None):
    d_model = X.shape[-1]  # MultiHeadAttention(d_model, num_heads).__init__ (the course's)
    d_k = d_model // num_heads
    assert (d_k * num_heads) == d_model
    q, k, v = _compute_mh_qkv_transformation(X, X, X, W_Q, W_K, W_V, num_heads, d_k)
    attention_mask = None if mask is None else np.asarray(mask)
    return _compute_scaled_dot_product_attention(q, k, v, num_heads, d_k, attention_mask=attention_mask) @ W_O
