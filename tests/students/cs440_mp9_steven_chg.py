"""Port of steven-chg/Artificial-Intelligence, mp09/mha.py (commit 40e2a0c): MultiHeadAttention's
compute_scaled_dot_product_attention and compute_mh_qkv_transformation, a student's solution of UIUC CS 440 / ECE 448
(Artificial Intelligence), spring 2024, MP 9 (a Transformer for sequence-to-sequence learning: the students fill in
multi-head attention in mha.py; the course gives __init__ and forward).

Ports multi_head_attention (the course's forward: `self.W_o(self.compute_scaled_dot_product_attention(
*self.compute_mh_qkv_transformation(query, key, value), key_padding_mask=..., attention_mask=...))`, run as
self-attention). The course's __init__ (given code) is kept: `self.d_k = d_model // num_heads` and `assert (self.d_k *
self.num_heads) == self.d_model` (every head D // num_heads wide, D = the input's width).

Conventions kept: compute_mh_qkv_transformation reads `B = Q.size()[0]`, `T_q = Q.size()[1]` (and T_k, T_v) and splits
each projection with `q.contiguous().view(B, T_q, self.num_heads, self.d_k).transpose(1, 2)` (a 3-D (B, T, D) input
only; it raises unless the projection is num_heads * (D // num_heads) wide). compute_scaled_dot_product_attention:
`d_k = query.size()[3]`, `QK_t = torch.matmul(query, key) / (d_k ** 0.5)` with key transposed, the course's
attention_mask (an int mask whose NON-ZERO entries are disallowed: `0 1 1 / 0 0 1 / 0 0 0` is causal) given its head
axis with `attention_mask = attention_mask.unsqueeze(1)` (right for a (B, T_q, T_k) mask; a shared (T_q, T_k) mask
becomes (T_q, 1, T_k)) and `QK_t = QK_t.masked_fill(attention_mask != 0, min_val)` (out of place: mask and scores
broadcast together) with the course's `min_val = torch.finfo(query.dtype).min` (finite), `torch.softmax(QK_t, dim =
-1)`, `torch.matmul(QK_t, value)`, `x.transpose(1, 2)` and the course's `x.contiguous().view(query.size()[0], -1,
self.num_heads * self.d_k)`.

Left out: the key_padding_mask branch (the contract has no padding mask: None), the nn.Linear biases (zero here: the
contract has none). Added for the contract only: multi_head_attention builds the course's MultiHeadAttention(d_model =
X.shape[-1], num_heads), calls forward(X, X, X, key_padding_mask=None, attention_mask=mask) with the contract's
boolean mask as given, and W_q, W_k, W_v and W_o are W_Q, W_K, W_V and W_O (x @ W, not loaded with a shape check).
"""

import numpy as np


def _softmax(x, axis):  # torch.softmax
    e = np.exp(x - np.max(x, axis=axis, keepdims=True))
    return e / np.sum(e, axis=axis, keepdims=True)


def _compute_mh_qkv_transformation(Q, K, V, W_Q, W_K, W_V, num_heads, d_k):
    B = Q.shape[0]
    q = Q @ W_Q
    T_q = Q.shape[1]
    k = K @ W_K
    T_k = K.shape[1]
    v = V @ W_V
    T_v = V.shape[1]
    q = np.swapaxes(q.reshape(B, T_q, num_heads, d_k), 1, 2)
    k = np.swapaxes(k.reshape(B, T_k, num_heads, d_k), 1, 2)
    v = np.swapaxes(v.reshape(B, T_v, num_heads, d_k), 1, 2)
    return q, k, v


def _compute_scaled_dot_product_attention(query, key, value, num_heads, self_d_k, attention_mask=None):
    min_val = np.finfo(query.dtype).min
    d_k = query.shape[3]
    key = np.swapaxes(key, -2, -1)
    QK_t = (query @ key) / (d_k ** 0.5)
    if attention_mask is not None:
        attention_mask = np.expand_dims(attention_mask, 1)  # attention_mask.unsqueeze(1)
        QK_t = np.where(attention_mask != 0, min_val, QK_t)  # masked_fill (out of place): both broadcast
    QK_t = _softmax(QK_t, axis=-1)
    x = QK_t @ value
    x = np.swapaxes(x, 1, 2)
    return x.reshape(query.shape[0], -1, num_heads * self_d_k)


def multi_head_attention(X, W_Q, W_K, W_V, W_O, num_heads, mask=None):
    d_model = X.shape[-1]  # MultiHeadAttention(d_model, num_heads).__init__ (the course's)
    d_k = d_model // num_heads
    assert (d_k * num_heads) == d_model
    q, k, v = _compute_mh_qkv_transformation(X, X, X, W_Q, W_K, W_V, num_heads, d_k)
    attention_mask = None if mask is None else np.asarray(mask)
    return _compute_scaled_dot_product_attention(q, k, v, num_heads, d_k, attention_mask=attention_mask) @ W_O
