"""Port of vnnm404/annotated-transformer, transformer/attention.py (commit a6254df): MultiHeadAttention, a reader's own
"simple clean-readable and shape-annotated implementation of Attention is All You Need" (README) in a repository the
student named after The Annotated Transformer (Harvard NLP); its batched multi-head attention replaced the student's
earlier per-head loop (kept in the file as MultiHeadAttentionSlow).

Ports multi_head_attention (its scaled_dot_product is a method for the (batch, N, heads, h_dim) layout of the split
heads, not a function of the contract's (..., N, d) queries).

Conventions kept: the constructor raises `ValueError("d_model % nhead != 0")` unless the width divides, sets
`self.h_dim = d_model // nhead` and `nn.Linear(d_model, d_model)` for W_query, W_key, W_value and projection;
split reads `batch_size, sequence_length, d_tensor = tensor.size()` (3-D input only) and returns
`tensor.reshape(batch_size, sequence_length, self.nhead, self.h_dim)` (explicit sizes: it raises unless the
projection is nhead * h_dim = d_model wide); scaled_dot_product takes `d_key = torch.tensor(key.size(3))` (h_dim),
`weights = torch.einsum("bihd,bkhd->bhik", query, key)`, `weights * (1 / torch.sqrt(d_key))`, then `if mask is not
None: weights = weights + mask` (an ADDITIVE mask: the student's masks are float, 0 or -inf, like
Transformer.generate_square_subsequent_mask's `torch.triu(torch.ones(sz, sz) * float('-inf'), diagonal=1)`; a boolean
mask adds 1 where True and 0 elsewhere, and a (B, N, N) mask meets the (B, H, N, N) scores without a head axis),
`F.softmax(weights, dim=3)`, `torch.einsum("bhij,bjhk->bihk", weights, value)`; combine reshapes (batch, N, nhead,
h_dim) to (batch, N, nhead * h_dim), then `self.projection(outputs)`; forward returns `(outputs, weights)`.

Left out: the Linear layers' biases (zero here: the contract has none). Added for the contract only: d_model is
X.shape[-1] (the constructor's argument); W_query, W_key, W_value and projection are W_Q, W_K, W_V and W_O;
self-attention passes X as query, key and value; the contract's multi_head_attention returns only `outputs` (the
student's callers unpack `tgt, _ = self.self_attention(...)`).
"""

import numpy as np


def _softmax(Z, axis):  # F.softmax(weights, dim=3)
    E = np.exp(Z - np.max(Z, axis=axis, keepdims=True))
    return E / np.sum(E, axis=axis, keepdims=True)


def multi_head_attention(X, W_Q, W_K, W_V, W_O, num_heads, mask=None):
    d_model, nhead = X.shape[-1], num_heads
    if d_model % nhead != 0:
        raise ValueError("d_model % nhead != 0")
    h_dim = d_model // nhead

    def split(tensor):
        batch_size, sequence_length, _d_tensor = tensor.shape
        return tensor.reshape(batch_size, sequence_length, nhead, h_dim)

    def combine(tensor):
        batch_size, sequence_length, nhead_, h_dim_ = tensor.shape
        return tensor.reshape(batch_size, sequence_length, nhead_ * h_dim_)

    query = split(X @ W_Q)
    key = split(X @ W_K)
    value = split(X @ W_V)

    d_key = key.shape[3]
    weights = np.einsum("bihd,bkhd->bhik", query, key)
    weights = weights * (1 / np.sqrt(d_key))
    if mask is not None:
        weights = weights + mask  # additive: a boolean mask adds 1 where True
    weights = _softmax(weights, axis=3)
    output = np.einsum("bhij,bjhk->bihk", weights, value)
    outputs = combine(output)
    return outputs @ W_O
