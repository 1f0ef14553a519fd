"""Port of Chenkehan21/My-dive-into-deep-learning, codes/Attention/attention_scoring_functions.py and
codes/Attention/multi_head_attention.py (commit df3ca57), with sequence_mask from codes/Modern_RNNs/seq2seq.py: a
reader's own code for Dive into Deep Learning (d2l.ai), chapter "Attention Mechanisms" (attention scoring functions,
multi-head attention). Ports scaled_dot_product_attention (DotProductAttention.forward with masked_softmax) and
multi_head_attention (MultiHeadAttention.forward with the student's transpose_qkv / transpose_output).

Conventions kept: DotProductAttention.forward computes `torch.bmm(queries, keys.transpose(1, 2)) /
math.sqrt(queries.shape[-1])` (bmm: 3-D tensors only, no scale argument), `masked_softmax(scores, valid_lens)` and
`torch.bmm(self.dropout(self.attention_weights), values)`. Its only mask is d2l's `valid_lens` (the number of valid
keys of each sequence or query row): masked_softmax keeps a 1-D valid_len as `torch.repeat_interleave(valid_len,
shape[1])`, flattens any other with `valid_len.reshape(-1)`, and sequence_mask writes
`mask = torch.arange(max_len)[None, :] >= valid_len[:, None]; x[mask] = mask_value` (mask_value = -1e6) into
`scores.reshape(-1, shape[-1])` (boolean indexing: the mask must have exactly the flattened scores' shape, else torch
raises IndexError), then `torch.softmax`.
The contract's boolean mask is passed where the student's code takes valid_lens (its only mask), so an entry True
counts as 1 valid key and False as 0. MultiHeadAttention.forward: `transpose_qkv(self.w_q(queries), self.num_heads)`
with the student's own `x.reshape(x.shape[0] * num_heads, x.shape[1], -1)` (no permute: the (B, N, H*d) projection is
reshaped straight into B*H "heads" of N rows), `valid_lens = torch.repeat_interleave(valid_lens, self.num_heads,
dim=0)`, its DotProductAttention, `transpose_output(output, self.num_heads)` = `x.reshape(-1, x.shape[1], x.shape[2] *
num_heads)` (again no permute), then `self.w_o(output)`.

Left out: dropout (evaluation), the nn.Linear biases (the contract has none). Added for the contract only:
scaled_dot_product_attention returns (out, weights), the weights being the attention_weights the student saves; a
`scale` parameter (never read) so that the contract's calls reach the student's code; self-attention (queries = keys
= values = X) with w_q, w_k, w_v, w_o = W_Q, W_K, W_V, W_O.
"""

import math

import numpy as np


def _bmm(a, b):  # torch.bmm: two 3-D tensors with the same batch
    if a.ndim != 3 or b.ndim != 3:
        raise RuntimeError("batch1 and batch2 must be 3D tensors")
    if a.shape[0] != b.shape[0] or a.shape[2] != b.shape[1]:
        raise RuntimeError(f"bmm: shapes {a.shape} and {b.shape} cannot be multiplied")
    return a @ b


def _softmax_last(x):  # torch.softmax(x, dim=-1)
    e = np.exp(x - np.max(x, axis=-1, keepdims=True))
    return e / np.sum(e, axis=-1, keepdims=True)


def _sequence_mask(x, valid_len, mask_value=0):  # Modern_RNNs/seq2seq.py
    max_len = x.shape[1]
    mask = np.arange(max_len)[None, :] >= valid_len[:, None]
    if mask.shape != x.shape:  # x[mask] = ...: torch's boolean index must match the indexed shape
        raise IndexError(f"The shape of the mask {list(mask.shape)} does not match the shape of the indexed tensor "
                         f"{list(x.shape)}")
    x = x.copy()
    x[mask] = mask_value
    return x


def _masked_softmax(scores, valid_len):
    if valid_len is None:
        return _softmax_last(scores)
    valid_len = np.asarray(valid_len)
    shape = scores.shape
    if valid_len.ndim == 1:
        valid_len = np.repeat(valid_len, shape[1])  # torch.repeat_interleave(valid_len, shape[1])
    else:
        valid_len = valid_len.reshape(-1)
    scores = _sequence_mask(scores.reshape(-1, shape[-1]), valid_len, mask_value=-1e6)
    return _softmax_last(scores.reshape(shape))


def scaled_dot_product_attention(Q, K, V, mask=None, scale=None):
    queries, keys, values, valid_lens = Q, K, V, mask
    scores = _bmm(queries, np.swapaxes(keys, 1, 2)) / math.sqrt(queries.shape[-1])
    attention_weights = _masked_softmax(scores, valid_lens)
    res = _bmm(attention_weights, values)
    return res, attention_weights


def _transpose_qkv(x, num_heads):
    return x.reshape(x.shape[0] * num_heads, x.shape[1], -1)


def _transpose_output(x, num_heads):
    return x.reshape(-1, x.shape[1], x.shape[2] * num_heads)


def multi_head_attention(X, W_Q, W_K, W_V, W_O, num_heads, mask=None):
    queries = _transpose_qkv(X @ W_Q, num_heads)
    keys = _transpose_qkv(X @ W_K, num_heads)
    values = _transpose_qkv(X @ W_V, num_heads)
    valid_lens = mask
    if valid_lens is not None:
        valid_lens = np.repeat(np.asarray(valid_lens), num_heads, axis=0)  # repeat_interleave(..., dim=0)
    output, _ = scaled_dot_product_attention(queries, keys, values, valid_lens)
    output = _transpose_output(output, num_heads)
    return output @ W_O
