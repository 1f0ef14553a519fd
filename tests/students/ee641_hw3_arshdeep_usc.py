"""Port of arshdeep-usc/ee641-hw3, problem1/attention.py (commit 5cb9f08): scaled_dot_product_attention and
MultiHeadAttention (split_heads, combine_heads, forward), a student's solution of USC EE 641, homework 3 ("Attention
Mechanisms and Transformers", fall 2025: an encoder-decoder transformer for multi-digit addition).

Ports scaled_dot_product_attention and multi_head_attention (MultiHeadAttention.forward with the student's
split_heads, scaled_dot_product_attention and combine_heads). create_causal_mask is the course's (given) code, not
ported.

Conventions kept: scaled_dot_product_attention(Q, K, V, mask=None) has no scale argument: `scores = (Q @
K.transpose(-2, -1)) / math.sqrt(d_k)` with `d_k = Q.size(-1)`; with a mask (`if mask != None:`) it reshapes the mask
itself: `if m.dim() == 2:  # padding mask [batch, seq]` `m = m[:, None, None, :]` (a 2-D mask is read as (batch,
N_k): row b of a shared (N_q, N_k) mask becomes the keys' mask of batch b, for every query), `elif m.dim() == 3:` `m =
m[:, None, :, :]` (a 3-D mask is read as (batch, N_q, N_k)), then sizes it from the scores' four axes, `batch_size,
seq_q, seq_k = scores.shape[0], scores.shape[2], scores.shape[3]` (with a mask, 2-D and 3-D scores raise
IndexError), `if m.size(0) == 1: m = m.expand(batch_size, -1, -1, -1)`, `if m.size(1) == 1: m = m.expand(-1,
scores.size(1), -1, -1)`, `if m.size(2) != seq_q or m.size(3) != seq_k: m = m.expand(-1, -1, seq_q, seq_k)`, `m =
m.to(dtype=torch.bool, ...)` and `scores = scores.masked_fill(~m, float('-inf'))` (True = may attend; out of place,
so the mask and the scores broadcast together: a 2-D mask's N_q rows meet the B sequences, which raises unless B is 1
or N_q); `F.softmax(scores, dim=-1)` (an all -inf row gives NaN), `output = attention_weights @ V`.
MultiHeadAttention(d_model, num_heads): `assert d_model % num_heads == 0`, `self.d_k = d_model // num_heads`;
split_heads reads `batch_size, seq_len, _ = x.size()` (3-D input only) and `x.view(batch_size, seq_len,
self.num_heads, self.d_k)` then `transpose(1, 2)` for the queries, keys AND values (every head d_model // num_heads
wide); forward passes the mask as given to scaled_dot_product_attention; combine_heads is `x.transpose(1,
2).contiguous().view(batch_size, seq_len, num_heads * d_k)` (the heads' own width), then `self.out`.

Left out: the nn.Linear biases (zero here: the contract has none). Added for the contract only:
scaled_dot_product_attention takes a `scale` parameter (never read) so that the contract's calls reach the student's
code; multi_head_attention is MultiHeadAttention(d_model = X.shape[-1], num_heads) run as self-attention (query = key
= value = X) with its layers Q, K, V and out replaced by W_Q, W_K, W_V and W_O (x @ W, not loaded with a shape check),
and returns only the output (the contract's multi_head_attention has no weights).
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
    scores = (Q @ np.swapaxes(K, -2, -1)) / math.sqrt(d_k)
    if mask is not None:  # `if mask != None:` (a tensor compared with None is simply not None)
        m = np.asarray(mask)
        if m.ndim == 2:  # padding mask [batch, seq]
            m = m[:, None, None, :]  # [batch, 1, 1, seq]
        elif m.ndim == 3:  # [batch, seq_q, seq_k]
            m = m[:, None, :, :]  # [batch, 1, seq_q, seq_k]
        elif m.ndim == 4:
            pass  # already [batch, heads, seq_q, seq_k]
        batch_size, seq_q, seq_k = scores.shape[0], scores.shape[2], scores.shape[3]
        if m.shape[0] == 1:
            m = _expand(m, batch_size, -1, -1, -1)
        if m.shape[1] == 1:
            m = _expand(m, -1, scores.shape[1], -1, -1)
        if m.shape[2] != seq_q or m.shape[3] != seq_k:
            m = _expand(m, -1, -1, seq_q, seq_k)
        m = m.astype(bool)
        scores = np.where(~m, -np.inf, scores)  # masked_fill (out of place): m and the scores broadcast together
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
        batch_size, num_heads, seq_len, d_k = x.shape
        return np.swapaxes(x, 1, 2).reshape(batch_size, seq_len, num_heads * d_k)

    query = key = value = X
    Q = split_heads(query @ W_Q)
    K = split_heads(key @ W_K)
    V = split_heads(value @ W_V)
    atten_out, _atten_weight = scaled_dot_product_attention(Q, K, V, mask)
    combined_output = combine_heads(atten_out)
    return combined_output @ W_O
