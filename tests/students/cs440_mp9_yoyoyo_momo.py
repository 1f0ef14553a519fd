"""Port of yoyoyo-momo/CS_440, mp09/mha.py (commit c7027f8): MultiHeadAttention's compute_scaled_dot_product_attention
and compute_mh_qkv_transformation, a student's solution of UIUC CS 440 / ECE 448 (Artificial Intelligence), spring
2024, MP 9 (a Transformer for sequence-to-sequence learning: the students fill in multi-head attention in mha.py; the
course gives __init__ and forward).

Ports multi_head_attention (the course's forward: `self.W_o(self.compute_scaled_dot_product_attention(
*self.compute_mh_qkv_transformation(query, key, value), key_padding_mask=..., attention_mask=...))`, run as
self-attention). The course's __init__ (given code) is kept: `self.d_k = d_model // num_heads` and `assert (self.d_k *
self.num_heads) == self.d_model` (every head D // num_heads wide, D = the input's width).

Conventions kept: compute_mh_qkv_transformation reads `B = Q.size(0)` and splits each projection with
`q.contiguous().view(B, -1, self.num_heads, self.d_k)` then `torch.Tensor.transpose(q, 1, 2)` (and k, v: the -1 takes
whatever token count the elements make, so a projection that is not num_heads * (D // num_heads) wide either raises or
is cut into other tokens; the first axis is read as the batch). compute_scaled_dot_product_attention: `K =
torch.Tensor.transpose(key, 2, 3)`, `QK = torch.matmul(query, K)`, `QK /= math.sqrt(self.d_k)`, the course's
attention_mask (an int mask whose NON-ZERO entries are disallowed: `0 1 1 / 0 0 1 / 0 0 0` is causal) applied with `if
attention_mask.size(0) == 1: QK = QK.masked_fill(attention_mask == 1, min_val)` `else: QK = QK.masked_fill(
torch.unsqueeze(attention_mask, 1) == 1, min_val)` (a mask whose first axis is not 1 gets its head axis at position
1: right for a (B, T_q, T_k) mask; a shared (T_q, T_k) mask becomes (T_q, 1, T_k); out of place, mask and scores
broadcast together) with the course's `min_val = torch.finfo(query.dtype).min` (finite), `torch.softmax(QK, -1)`,
`torch.matmul(softQK, value)`, `torch.Tensor.transpose(x, 1, 2)`, `B = key.size(0)` and the course's
`x.contiguous().view(B, -1, self.num_heads * self.d_k)`.

Left out: the key_padding_mask branch (the contract has no padding mask: None), the nn.Linear biases (zero here: the
contract has none). Added for the contract only: multi_head_attention builds the course's MultiHeadAttention(d_model =
X.shape[-1], num_heads), calls forward(X, X, X, key_padding_mask=None, attention_mask=mask) with the contract's
boolean mask as given (True == 1), and W_q, W_k, W_v and W_o are W_Q, W_K, W_V and W_O (x @ W, not loaded with a shape
check).
"""

import math

import numpy as np


def _softmax(x, axis):  # torch.softmax
    e = np.exp(x - np.max(x, axis=axis, keepdims=True))
    return e / np.sum(e, axis=axis, keepdims=True)


def _compute_mh_qkv_transformation(Q, K, V, W_Q, W_K, W_V, num_heads, d_k):
    B = Q.shape[0]
    q = (Q @ W_Q).reshape(B, -1, num_heads, d_k)
    q = np.swapaxes(q, 1, 2)
    k = (K @ W_K).reshape(B, -1, num_heads, d_k)
    k = np.swapaxes(k, 1, 2)
    v = (V @ W_V).reshape(B, -1, num_heads, d_k)
    v = np.swapaxes(v, 1, 2)
    return q, k, v


def _compute_scaled_dot_product_attention(query, key, value, num_heads, self_d_k, attention_mask=None):
    min_val = np.finfo(query.dtype).min
    K = np.swapaxes(key, 2, 3)
    QK = query @ K
    QK /= math.sqrt(self_d_k)
    if attention_mask is not None:
        if attention_mask.shape[0] == 1:
            QK = np.where(attention_mask == 1, min_val, QK)  # masked_fill (out of place): both broadcast
        else:
            QK = np.where(np.expand_dims(attention_mask, 1) == 1, min_val, QK)
    softQK = _softmax(QK, -1)
    x = softQK @ value
    x = np.swapaxes(x, 1, 2)
    B = key.shape[0]
    return x.reshape(B, -1, num_heads * self_d_k)


def multi_head_attention(X, W_Q, W_K, W_V, W_O, num_heads, mask=None):
    d_model = X.shape[-1]  # MultiHeadAttention(d_model, num_heads).__init__ (the course's)
    d_k = d_model // num_heads
    assert (d_k * num_heads) == d_model
    q, k, v = _compute_mh_qkv_transformation(X, X, X, W_Q, W_K, W_V, num_heads, d_k)
    attention_mask = None if mask is None else np.asarray(mask)
    return _compute_scaled_dot_product_attention(q, k, v, num_heads, d_k, attention_mask=attention_mask) @ W_O
