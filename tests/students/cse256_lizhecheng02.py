"""Port of Lizhecheng02/UCSD-CSE256-PA2, transformer.py (commit e670a62): SelfAttention, a student's solution of UC San
Diego CSE 256 (Statistical Natural Language Processing), programming assignment 2 (transformer encoder and decoder).

Conventions kept: the constructor sets `self.head_dim = embed_size // heads` and asserts `self.head_dim * heads ==
embed_size` (values, keys and queries are nn.Linear(embed_size, embed_size): every head, the values' too, is the
model width over the heads); forward takes `N = query.shape[0]` and the lengths from `shape[1]` (3-D input only),
reshapes each projection to (N, len, heads, head_dim), `qk = torch.einsum("nqhd, nkhd -> nhqk", ...)`, with a mask
`qk.masked_fill(mask == 0, float("-inf"))` (the mask meets the (N, heads, q, k) scores as it is: the course's masks
come with their head axis, (N, 1, 1, k) or (N, 1, q, k)), `attention = qk / (self.embed_size ** (1 / 2))` (scaled by
the model width, not the head's), torch.softmax(dim=3) (an all -inf row is NaN), `torch.einsum("nhqk, nkhd ->
nqhd", ...).reshape(N, query_len, self.heads * self.head_dim)` and fc_out. Left out: the Linear layers' biases and
the optional ALiBi bias (None by default). Added for the contract only: the projections are W_Q, W_K, W_V and W_O
(fc_out), self-attention (value = key = query = X), embed_size is X.shape[-1] (the constructor's argument).
"""

import numpy as np


def multi_head_attention(X, W_Q, W_K, W_V, W_O, num_heads, mask=None):
    embed_size, heads = X.shape[-1], num_heads
    head_dim = embed_size // heads
    assert head_dim * heads == embed_size, "Embedding size needs to be divisible by heads"
    value = key = query = X
    N = query.shape[0]
    value_len, key_len, query_len = value.shape[1], key.shape[1], query.shape[1]
    values = (value @ W_V).reshape(N, value_len, heads, head_dim)
    keys = (key @ W_K).reshape(N, key_len, heads, head_dim)
    queries = (query @ W_Q).reshape(N, query_len, heads, head_dim)
    qk = np.einsum("nqhd,nkhd->nhqk", queries, keys)
    if mask is not None:
        qk = np.where(mask == 0, -np.inf, qk)
    attention = qk / (embed_size ** (1 / 2))
    E = np.exp(attention - np.max(attention, axis=3, keepdims=True))
    attention = E / np.sum(E, axis=3, keepdims=True)
    out = np.einsum("nhqk,nkhd->nqhd", attention, values).reshape(N, query_len, heads * head_dim)
    return out @ W_O
