"""Port of jifanyao/ee641-hw3-jifanyao, problem1/attention.py (commit 2407920): scaled_dot_product_attention and
MultiHeadAttention (split_heads, combine_heads, forward), a student's solution of USC EE 641, homework 3 ("Attention
Mechanisms and Transformers", fall 2025: an encoder-decoder transformer for multi-digit addition).

Ports scaled_dot_product_attention and multi_head_attention (MultiHeadAttention.forward with the student's
split_heads, scaled_dot_product_attention and combine_heads). create_causal_mask is the course's (given) code, not
ported.

Conventions kept: scaled_dot_product_attention(Q, K, V, mask=None) has no scale argument: `d_k = Q.size(-1)`,
`scores = torch.matmul(Q, K.transpose(-2, -1)) / math.sqrt(d_k)`, `if mask is not None: scores =
scores.masked_fill(mask == 0, float('-inf'))` (1/True = may attend; out of place, so the mask and the scores
broadcast together), `F.softmax(scores, dim=-1)` (an all -inf row gives NaN), `output = torch.matmul(attn_weights,
V)`. MultiHeadAttention(d_model, num_heads): `assert d_model % num_heads == 0`, `self.d_k = d_model // num_heads`;
split_heads reads `batch, seq_len, _ = x.size()` (3-D input only) and `x.view(batch, seq_len, self.num_heads,
self.d_k)` then `transpose(1, 2)` for the queries, keys AND values (every head d_model // num_heads wide); forward
gives the mask its head axis with `if mask.dim() == 3: mask = mask.unsqueeze(1)` then `mask = mask.expand(-1,
self.num_heads, -1, -1)` (torch's expand: -1 keeps an existing axis and may not name a new leading one, so a shared
2-D (N, N) mask raises, and so does a 4-D mask whose second axis is neither 1 nor num_heads); combine_heads is
`x.transpose(1, 2).contiguous().view(batch, seq_len, num_heads * d_k)` (the heads' own width), then `self.W_O`.

Left out: the nn.Linear biases (zero here: the contract has none), `self.last_attention` (a detached copy for
analysis). Added for the contract only: scaled_dot_product_attention takes a `scale` parameter (never read) so that
the contract's calls reach the student's code; multi_head_attention is MultiHeadAttention(d_model = X.shape[-1],
num_heads) run as self-attention (query = key = value = X) with W_Q, W_K, W_V and W_O as its layers (x @ W, not
loaded with a shape check), and returns only the output (the contract's multi_head_attention has no weights).
"""

import math

import numpy as np


def _softmax_last(x):  # F.softmax(x, dim=-1): an all -inf row gives -inf - (-inf) = NaN
    e = np.exp(x - np.max(x, axis=-1, keepdims=True))
    return e / np.sum(e, axis=-1, keepdims=True)


def _expand(t, *sizes):  # torch.Tensor.expand
    if len(sizes) < t.ndim:
        raise RuntimeError(f"expand: the number of sizes provided ({len(sizes)}) must be greater or equal to the "
                           f"number of dimensions in the tensor ({t.ndim})")
    lead = len(sizes) - t.ndim
    shape = []
    for i, size in enumerate(sizes):
        if i < lead:
            if size == -1:
                raise RuntimeError(f"The expanded size of the tensor (-1) isn't allowed in a leading, non-existing "
                                   f"dimension {i}")
            shape.append(size)
            continue
        current = t.shape[i - lead]
        if size == -1:
            shape.append(current)
        elif current in (size, 1):
            shape.append(size)
        else:
            raise RuntimeError(f"The expanded size of the tensor ({size}) must match the existing size ({current}) at "
                               f"non-singleton dimension {i}.  Target sizes: {list(sizes)}.  Tensor sizes: "
                               f"{list(t.shape)}")
    return np.broadcast_to(t, shape)


def scaled_dot_product_attention(Q, K, V, mask=None, scale=None):
    d_k = Q.shape[-1]
    scores = Q @ np.swapaxes(K, -2, -1) / math.sqrt(d_k)
    if mask is not None:  # masked_fill (out of place): the mask and the scores broadcast together
        scores = np.where(np.asarray(mask) == 0, -np.inf, scores)
    attn_weights = _softmax_last(scores)
    output = attn_weights @ V
    return output, attn_weights


def multi_head_attention(X, W_Q, W_K, W_V, W_O, num_heads, mask=None):
    d_model = X.shape[-1]  # MultiHeadAttention(d_model, num_heads)
    assert d_model % num_heads == 0, "d_model must be divisible by num_heads"
    d_k = d_model // num_heads

    def split_heads(x):
        batch, seq_len, _ = x.shape
        x = x.reshape(batch, seq_len, num_heads, d_k)  # x.view(...)
        return np.swapaxes(x, 1, 2)

    def combine_heads(x):
        batch, num_heads, seq_len, d_k = x.shape
        return np.swapaxes(x, 1, 2).reshape(batch, seq_len, num_heads * d_k)

    query = key = value = X
    Q = query @ W_Q
    K = key @ W_K
    V = value @ W_V
    Q = split_heads(Q)
    K = split_heads(K)
    V = split_heads(V)
    if mask is not None:
        mask = np.asarray(mask)
        if mask.ndim == 3:
            mask = np.expand_dims(mask, 1)  # mask.unsqueeze(1)
        mask = _expand(mask, -1, num_heads, -1, -1)
    output, _attn = scaled_dot_product_attention(Q, K, V, mask)
    output = combine_heads(output)
    return output @ W_O
