"""Port of PsyPao/ee641-hw3-PsyPao, problem1/attention.py (commit fc5d87f): scaled_dot_product_attention and
MultiHeadAttention (split_heads, combine_heads, forward), a student's solution of USC EE 641, homework 3 ("Attention
Mechanisms and Transformers", fall 2025: an encoder-decoder transformer for multi-digit addition).

Ports scaled_dot_product_attention and multi_head_attention (MultiHeadAttention.forward with the student's
split_heads, scaled_dot_product_attention and combine_heads). create_causal_mask is the course's (given) code, not
ported.

Conventions kept: scaled_dot_product_attention(Q, K, V, mask=None) has no scale argument: `d_k = Q.size(-1)`,
`scores = torch.matmul(Q, K.transpose(-2, -1))`, `scores = scores / math.sqrt(d_k)`, `if mask is not None: scores =
scores.masked_fill(mask == 0, -float('inf'))` (1/True = may attend; out of place, so the mask and the scores
broadcast together), `F.softmax(scores, dim=-1)` (an all -inf row gives NaN), `output =
torch.matmul(attention_weights, V)`. MultiHeadAttention(d_model, num_heads): `assert d_model % num_heads ==
0`, `self.d_k = d_model // num_heads`; split_heads reads `batch_size, seq_len, _ = x.size()` (3-D input only) and
`x.view(batch_size, seq_len, self.num_heads, self.d_k)` then `transpose(1, 2)` for the queries, keys AND values
(every head d_model // num_heads wide); forward gives the mask a head axis: `if mask.dim() == 3: mask =
mask.unsqueeze(1)`, `elif mask.dim() == 4 and mask.size(1) == 1: pass`, `else: mask = mask.unsqueeze(1) if
mask.size(1) != self.num_heads else mask` (a shared (N, N) mask becomes (N, 1, N) unless N equals num_heads: against
the (batch, heads, N, N) scores it raises unless N is 1 or num_heads); combine_heads is `if x.dim() == 5: x =
x.squeeze(1)`, then `x.transpose(1, 2).contiguous()` and `x.view(batch_size, seq_len, self.d_model)` (the input's
width), then `self.W_o`.

Left out: the nn.Linear biases (zero here: the contract has none). Added for the contract only:
scaled_dot_product_attention takes a `scale` parameter (never read) so that the contract's calls reach the student's
code; multi_head_attention is MultiHeadAttention(d_model = X.shape[-1], num_heads) run as self-attention (query = key
= value = X) with W_q, W_k, W_v and W_o replaced by W_Q, W_K, W_V and W_O (x @ W, not loaded with a shape check), and
returns only the output (the contract's multi_head_attention has no weights).
"""

import math

import numpy as np


def _softmax_last(x):  # F.softmax(x, dim=-1): an all -inf row gives -inf - (-inf) = NaN
    e = np.exp(x - np.max(x, axis=-1, keepdims=True))
    return e / np.sum(e, axis=-1, keepdims=True)


def scaled_dot_product_attention(Q, K, V, mask=None, scale=None):
    d_k = Q.shape[-1]
    scores = Q @ np.swapaxes(K, -2, -1)
    scores = scores / math.sqrt(d_k)
    if mask is not None:  # masked_fill (out of place): the mask and the scores broadcast together
        scores = np.where(np.asarray(mask) == 0, -np.inf, scores)
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
        if x.ndim == 5 and x.shape[1] == 1:  # x.squeeze(1) (a no-op unless that axis has length 1)
            x = np.squeeze(x, 1)
        batch_size, num_heads, seq_len, d_k = x.shape  # noqa: RUF059
        x = np.swapaxes(x, 1, 2)
        return x.reshape(batch_size, seq_len, d_model)  # x.contiguous().view(batch_size, seq_len, self.d_model)

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
        elif mask.ndim == 4 and mask.shape[1] == 1:
            pass
        else:
            mask = np.expand_dims(mask, 1) if mask.shape[1] != num_heads else mask
    attn_output, _attention_weights = scaled_dot_product_attention(Q, K, V, mask)
    attn_output = combine_heads(attn_output)
    return attn_output @ W_O
