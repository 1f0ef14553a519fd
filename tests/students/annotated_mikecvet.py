"""Port of mikecvet/annotated-transformer, src/multihead.py (commit 5247791): MultiHeadAttention, a reader's own
from-scratch Transformer ("An Annotated Transformer", README: "The best way to learn is by doing", built with the help
of The Annotated Transformer, Harvard NLP, among other readings).

Ports multi_head_attention (its scaled_dot_product_attention is a method that scales by the layer's own
self.kqv_dim, not a function of the contract's queries).

Conventions kept: the constructor asserts `dim % num_attn_heads == 0`, sets `self.kqv_dim = dim // num_attn_heads`
and `nn.Linear(dim, dim)` for W_q, W_k, W_v (bias=False) and W_o; split_attn_heads reads `batch_size, seq_length, _ =
X.size()` (3-D input only) and returns `X.view(batch_size, seq_length, self.num_attn_heads,
self.kqv_dim).transpose(1, 2)` (explicit sizes: it raises unless the projection is num_attn_heads * kqv_dim = dim
wide); scaled_dot_product_attention computes `torch.matmul(Q, K.transpose(-2, -1)) / math.sqrt(self.kqv_dim)`, then
`if mask is not None: attn_scores = attn_scores.masked_fill(mask == 0, 1e-10)` (True = may attend, but a masked score
becomes 1e-10, about ZERO, not a large negative number: masked keys keep weight exp(0 - max); out of place, so the
mask and the scores broadcast, and a (B, N, N) mask meets the (B, H, N, N) scores without a head axis),
`torch.softmax(attn_scores, dim=-1)`, dropout, `attn_probs @ V`; combine_heads reads `batch_size, _, seq_length, _ =
X.size()` and returns `X.transpose(1, 2).contiguous().view(batch_size, seq_length, self.dim)`; forward ends with
`self.W_o(combined)`.

Left out: dropout (the identity at evaluation), W_o's bias (zero-initialised, and the contract has none), the weight
initialisation. Added for the contract only: dim is X.shape[-1] (the constructor's argument); W_q, W_k, W_v and W_o
are W_Q, W_K, W_V and W_O; self-attention passes X as Q, K and V.
"""

import math

import numpy as np


def _softmax_last(Z):  # torch.softmax(attn_scores, dim=-1)
    E = np.exp(Z - np.max(Z, axis=-1, keepdims=True))
    return E / np.sum(E, axis=-1, keepdims=True)


def multi_head_attention(X, W_Q, W_K, W_V, W_O, num_heads, mask=None):
    dim, num_attn_heads = X.shape[-1], num_heads
    assert dim % num_attn_heads == 0, f"dimensionality {dim} must be divisible by num heads {num_attn_heads}"
    kqv_dim = dim // num_attn_heads

    def split_attn_heads(M):
        batch_size, seq_length, _ = M.shape
        return np.swapaxes(M.reshape(batch_size, seq_length, num_attn_heads, kqv_dim), 1, 2)

    def combine_heads(M):
        batch_size, _, seq_length, _ = M.shape
        return np.swapaxes(M, 1, 2).reshape(batch_size, seq_length, dim)

    Q = split_attn_heads(X @ W_Q)
    K = split_attn_heads(X @ W_K)
    V = split_attn_heads(X @ W_V)

    attn_scores = np.matmul(Q, np.swapaxes(K, -2, -1)) / math.sqrt(kqv_dim)
    if mask is not None:  # masked_fill (out of place): mask and scores broadcast
        attn_scores = np.where(np.asarray(mask) == 0, 1e-10, attn_scores)
    attn_probs = _softmax_last(attn_scores)
    attn = attn_probs @ V
    combined = combine_heads(attn)
    return combined @ W_O
