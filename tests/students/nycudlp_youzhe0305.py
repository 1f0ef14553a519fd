"""Port of youzhe0305/NYCU-DLP, lab5/models/Transformer/modules/layers.py (commit 7ba387d): Attention and
MultiHeadAttention (__init__ and forward), a student's solution of National Yang Ming Chiao Tung University (NYCU,
Taiwan) Deep Learning and Practice (DLP), 2024, lab 5 (MaskGIT for image inpainting: the students write the
bidirectional transformer's multi-head attention, "TODO1").

Ports multi_head_attention only (the lab has no other contract function; the student's Attention class is the
per-head attention it calls).

Conventions kept: MultiHeadAttention.__init__(dim=768, num_heads=16, attn_drop=0.1) sets `self.d_model = dim`,
`self.d_k = dim // num_heads`, `self.d_v = dim // num_heads` (the input's width D over the heads), the bias-free
`self.mul_W_Q = nn.Linear(self.d_model, self.num_heads * self.d_k, bias=False)` (likewise mul_W_K, mul_W_V) and
`self.mul_W_O = nn.Linear(self.d_v*num_heads, self.d_model, bias=False)`; forward(x) has no mask argument:
`batch_size, n_token, dim = x.shape` (3-D input only), `Q = self.mul_W_Q(x).view(batch_size, self.num_heads,
n_token, self.d_k)` (and K, V with d_v: the (B, N, H*d) projection viewed straight as (B, H, N, d), no transpose, so
each "head" is a block of N*d consecutive numbers of the row-major projection, not a slice of columns). Attention:
`dot_product = Q @ K.transpose(-2,-1)`, dropout on the scores, `gate = torch.nn.functional.softmax(dot_product /
(self.d_k ** -0.5), dim=-1)` (divided by 1/sqrt(d_k): the scores are MULTIPLIED by sqrt(d_k)), `attention = gate @
V`; then `concat_attention = attention.view(batch_size, n_token, self.d_v * self.num_heads)` (the (B, H, N, d) head
outputs viewed straight as (B, N, H*d), no transpose back) and `self.mul_W_O(concat_attention)`.

Left out: dropout (off at evaluation). Added for the contract only: d_model is X.shape[-1] (the constructor's
argument); mul_W_Q, mul_W_K, mul_W_V and mul_W_O are W_Q, W_K, W_V and W_O (x @ W, not loaded with a shape check:
projections of another width than H * (D // H) raise at the view, as the view would); the contract's mask is
accepted and never read.
"""

import numpy as np


def _softmax_last(x):  # torch.nn.functional.softmax(dim=-1)
    e = np.exp(x - np.max(x, axis=-1, keepdims=True))
    return e / np.sum(e, axis=-1, keepdims=True)


def _attention(Q, K, V, d_k):  # the student's Attention.forward (dropout left out)
    dot_product = Q @ np.swapaxes(K, -2, -1)
    gate = _softmax_last(dot_product / (d_k ** -0.5))
    return gate @ V


def multi_head_attention(X, W_Q, W_K, W_V, W_O, num_heads, mask=None):
    d_model = X.shape[-1]  # MultiHeadAttention(dim, num_heads)
    d_k = d_model // num_heads
    d_v = d_model // num_heads
    x = X
    batch_size, n_token, _dim = x.shape
    Q = (x @ W_Q).reshape(batch_size, num_heads, n_token, d_k)  # .view(...): no transpose
    K = (x @ W_K).reshape(batch_size, num_heads, n_token, d_k)
    V = (x @ W_V).reshape(batch_size, num_heads, n_token, d_v)
    attention = _attention(Q, K, V, d_k)
    concat_attention = attention.reshape(batch_size, n_token, d_v * num_heads)  # .view(...): no transpose back
    return concat_attention @ W_O  # self.mul_W_O
