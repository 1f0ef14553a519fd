"""Port of WANG-CR/IFT6135_H2023_Programming, transformer_solution.py (commit 766ea2b): MultiHeadedAttention
(get_attention_weights, apply_attention, split_heads, merge_heads and forward), a student's solution of Université de
Montréal / Mila IFT6135 Representation Learning, winter 2023, assignment 2 (practical): a Transformer encoder whose
attention takes the course's padding mask, a `torch.LongTensor` of shape `(batch_size, sequence_length)` (1 = token,
0 = padding).

Ports scaled_dot_product_attention (get_attention_weights, then `score@values` as in apply_attention) and
multi_head_attention (forward with the student's split_heads, apply_attention and its merge).

Conventions kept: get_attention_weights(queries, keys, mask=None) computes `score =
1/math.sqrt(self.head_size)*(queries@keys.transpose(-2,-1))` (the constructor's head_size; there is no scale argument),
then `if mask is not None: mask = mask[:, None, None, :]` and `mask = mask.repeat(1, self.num_heads, mask.shape[-1],
1)` (the mask read as a (B, N_k) key-padding mask: row b of the mask masks the keys of sequence b for every query, and
the query axis is the KEYS' length repeated; torch's repeat raises when the mask has more axes than the four sizes),
`score = score.masked_fill(mask==0, -float('inf'))` (out of place: mask and scores broadcast together), then
`torch.nn.functional.softmax(score, dim=-1)` (an all -inf row is NaN). apply_attention: `hiddens = score@values`, `B =
hiddens.shape[0]`, `L = hiddens.shape[2]`, `hiddens.transpose(1,2).reshape(B, L, -1)`; split_heads:
`tensor.reshape(batch_size, sequence_length, self.num_heads, -1)` with batch_size, sequence_length = tensor.shape[0],
tensor.shape[1], then `.transpose(1, 2)`; forward: `self.split_heads(self.WQ(hidden_states))` (and WK, WV), the
student's apply_attention, then `self.WH(hiddens)`. The course's encoder blocks build `MultiHeadedAttention(
embed_dim//num_heads, num_heads, sequence_length)`, so head_size is the input width over the heads, D // H.

Left out: the nn.Linear biases (zero here: the contract has none). Added for the contract only:
scaled_dot_product_attention returns (output, weights) and takes a `scale` parameter (never read); there the module
is built for the given queries: head_size = Q.shape[-1] and num_heads = Q.shape[-3] (1 without that axis), the
course's documented (batch_size, num_heads, sequence_length, head_size) layout. In multi_head_attention head_size =
X.shape[-1] // num_heads (the course's embed_dim // num_heads) and the student's Linear layers WQ, WK, WV, WH are W_Q,
W_K, W_V and W_O (set as parameters, not loaded with a shape check); the contract's mask is passed as forward's mask.
"""

import math

import numpy as np


def _repeat(tensor, sizes):  # torch.Tensor.repeat
    if len(sizes) < tensor.ndim:
        raise RuntimeError("Number of dimensions of repeat dims can not be smaller than number of dimensions of tensor")
    return np.tile(tensor, sizes)


def _softmax_last(x):  # torch.nn.functional.softmax(x, dim=-1): an all -inf row gives NaN
    e = np.exp(x - np.max(x, axis=-1, keepdims=True))
    return e / np.sum(e, axis=-1, keepdims=True)


def _get_attention_weights(queries, keys, mask, head_size, num_heads):
    score = 1 / math.sqrt(head_size) * (queries @ np.swapaxes(keys, -2, -1))
    if mask is not None:
        mask = np.asarray(mask)
        mask = mask[:, None, None, :]
        mask = _repeat(mask, (1, num_heads, mask.shape[-1], 1))
        score = np.where(mask == 0, -np.inf, score)  # masked_fill (out of place) broadcasts mask and scores
    return _softmax_last(score)


def scaled_dot_product_attention(Q, K, V, mask=None, scale=None):
    head_size, num_heads = Q.shape[-1], (Q.shape[-3] if Q.ndim >= 3 else 1)
    score = _get_attention_weights(Q, K, mask, head_size, num_heads)
    return score @ V, score


def multi_head_attention(X, W_Q, W_K, W_V, W_O, num_heads, mask=None):
    head_size = X.shape[-1] // num_heads  # MultiHeadedAttention(embed_dim//num_heads, num_heads, sequence_length)

    def split_heads(tensor):
        batch_size = tensor.shape[0]
        sequence_length = tensor.shape[1]
        output = tensor.reshape(batch_size, sequence_length, num_heads, -1)
        return np.swapaxes(output, 1, 2)

    queries = split_heads(X @ W_Q)
    keys = split_heads(X @ W_K)
    values = split_heads(X @ W_V)
    score = _get_attention_weights(queries, keys, mask, head_size, num_heads)  # apply_attention
    hiddens = score @ values
    B = hiddens.shape[0]
    L = hiddens.shape[2]
    hiddens = np.swapaxes(hiddens, 1, 2).reshape(B, L, -1)
    return hiddens @ W_O
