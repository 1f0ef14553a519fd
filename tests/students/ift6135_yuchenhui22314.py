"""Port of YuchenHui22314/IFT6135_W2023_Programming_assignment2, transformer_solution.py (commit 7d97c2e):
MultiHeadedAttention (get_attention_weights, apply_attention, split_heads, merge_heads and forward), a student's
solution of Université de Montréal / Mila IFT6135 Representation Learning, winter 2023, assignment 2 (practical): a
Transformer encoder whose attention takes the course's padding mask, a `torch.LongTensor` of shape `(batch_size,
sequence_length)` (1 = token, 0 = padding).

Ports scaled_dot_product_attention (get_attention_weights, then `torch.matmul(attention_weights, values)` as in
apply_attention) and multi_head_attention (forward with the student's split_heads, apply_attention and merge_heads).

Conventions kept: get_attention_weights(queries, keys, mask=None) computes `S = torch.matmul(queries,
keys.transpose(-1, -2))/math.sqrt(self.head_size)` (the constructor's head_size; no scale argument), then `if mask is
not None: mask = 1 - mask.to(torch.int32)` and `S = S.masked_fill(mask.unsqueeze(1).unsqueeze(1).repeat(1,
self.num_heads, self.sequence_length, 1).bool(), -torch.inf)` (the mask read as a (B, N_k) key-padding mask: row b of
the mask masks the keys of sequence b for every query; torch's repeat raises when the mask has more than two axes;
masked_fill out of place: mask and scores broadcast together), then `F.softmax(S, dim=-1)` (an all -inf row is NaN).
apply_attention: `torch.matmul(attention_weights, values)` then merge_heads (`tensor.transpose(1, 2)`, `bs, seq_len =
tensor.size(0), tensor.size(1)`, `tensor.contiguous().view(bs, seq_len, self.num_heads * head_size)` with head_size =
tensor.size(3)); split_heads: `bs, seq_len = tensor.shape[:2]`, `hidden_size = tensor.shape[2]`, `tensor.view(bs,
seq_len, self.num_heads, hidden_size // self.num_heads )`, `.transpose(1, 2)`; forward: `self.linear_q(hidden_states)`
(and linear_k, linear_v), split_heads, apply_attention, `self.linear_o(outputs)`. The course's encoder blocks build
`MultiHeadedAttention(embed_dim//num_heads, num_heads, sequence_length)`, so head_size is the input width over the
heads, D // H.

Left out: the nn.Linear biases (zero here: the contract has none). Added for the contract only:
scaled_dot_product_attention returns (output, weights) and takes a `scale` parameter (never read); there the module is
built for the given queries: head_size = Q.shape[-1], num_heads = Q.shape[-3] (1 without that axis) and
sequence_length = Q.shape[-2], the course's documented (batch_size, num_heads, sequence_length, head_size) layout. In
multi_head_attention head_size = X.shape[-1] // num_heads (the course's embed_dim // num_heads), sequence_length =
X.shape[-2] (the module is built for the input's length; the course's model fixes 1 + 256), and the student's Linear
layers linear_q, linear_k, linear_v, linear_o are W_Q, W_K, W_V and W_O (set as parameters, not loaded with a shape
check); the contract's mask is passed as forward's mask.
"""

import math

import numpy as np


def _repeat(tensor, sizes):  # torch.Tensor.repeat
    if len(sizes) < tensor.ndim:
        raise RuntimeError("Number of dimensions of repeat dims can not be smaller than number of dimensions of tensor")
    return np.tile(tensor, sizes)


def _softmax_last(x):  # F.softmax(x, dim=-1): an all -inf row gives NaN
    e = np.exp(x - np.max(x, axis=-1, keepdims=True))
    return e / np.sum(e, axis=-1, keepdims=True)


def _get_attention_weights(queries, keys, mask, head_size, num_heads, sequence_length):
    S = (queries @ np.swapaxes(keys, -1, -2)) / math.sqrt(head_size)
    if mask is not None:
        mask = 1 - np.asarray(mask).astype(np.int32)
        mask = _repeat(np.expand_dims(np.expand_dims(mask, 1), 1), (1, num_heads, sequence_length, 1))
        S = np.where(mask.astype(bool), -np.inf, S)  # masked_fill (out of place) broadcasts mask and scores
    return _softmax_last(S)


def scaled_dot_product_attention(Q, K, V, mask=None, scale=None):
    head_size, num_heads, sequence_length = Q.shape[-1], (Q.shape[-3] if Q.ndim >= 3 else 1), Q.shape[-2]
    attention_weights = _get_attention_weights(Q, K, mask, head_size, num_heads, sequence_length)
    return attention_weights @ V, attention_weights


def multi_head_attention(X, W_Q, W_K, W_V, W_O, num_heads, mask=None):
    head_size = X.shape[-1] // num_heads  # MultiHeadedAttention(embed_dim//num_heads, num_heads, sequence_length)
    sequence_length = X.shape[-2]

    def split_heads(tensor):
        bs, seq_len = tensor.shape[:2]
        hidden_size = tensor.shape[2]
        tensor = tensor.reshape(bs, seq_len, num_heads, hidden_size // num_heads)
        return np.swapaxes(tensor, 1, 2)

    def merge_heads(tensor):
        tensor = np.swapaxes(tensor, 1, 2)
        bs, seq_len = tensor.shape[0], tensor.shape[1]
        return tensor.reshape(bs, seq_len, num_heads * tensor.shape[3])

    queries = split_heads(X @ W_Q)
    keys = split_heads(X @ W_K)
    values = split_heads(X @ W_V)
    attention_weights = _get_attention_weights(queries, keys, mask, head_size, num_heads, sequence_length)
    outputs = merge_heads(attention_weights @ values)  # apply_attention
    return outputs @ W_O
