"""Port of boxcounter/d2l-exercises, chapter-11_attention_mechanisms_and_transformers/04_vitransformer/vitransformer.py
(commit c1d09b4): masked_softmax, DotProductAttention and MultiHeadAttention (the same code as in the chapter's
02_transformer_without_kv_cache/transformer.py and 03_transformer_with_kv_cache/transformer.py), a reader's own rewrite
of Dive into Deep Learning (d2l.ai), chapter 11 (attention mechanisms and transformers), with a shape assertion at
every step. Ports scaled_dot_product_attention (DotProductAttention.forward) and multi_head_attention
(MultiHeadAttention.forward).

Conventions kept: DotProductAttention.forward asserts `assert_dimension('queries', queries, 3)` (and keys, values: 3-D
only), `assert_same_shape('keys', keys, 'values', values)` (values as wide as the keys), then computes
`torch.bmm(queries, keys.transpose(1, 2)) / math.sqrt(num_hidden_units)` (d_k; no scale argument),
`masked_softmax(scores, valid_lens)`, `assert_shape('values', values, (batch_size, num_keys, num_hidden_units))` and
returns `(context, weights)`. Its only mask is d2l's `valid_lens` (valid keys per sequence, 1-D, or per query row,
2-D): forward asserts it is 1-D or 2-D, that a 1-D one has the keys' batch size and that with a 2-D one `queries` and
`keys` have the same shape and valid_lens the queries' (batch, num_queries); masked_softmax asserts 3-D scores,
repeats valid_lens to (batch, num_queries, num_keys), builds `mask = torch.arange(0, num_keys).repeat(batch_size,
num_queries, 1); mask = mask >= valid_lens` and `attention_scores.masked_fill(mask, -torch.inf)` then
`torch.softmax(attention_scores, dim=-1)` (a row with no valid key is all -inf: NaN). The contract's boolean mask is
passed where the student's code takes valid_lens (its only mask): an entry True counts as 1 valid key, False as 0.
MultiHeadAttention: `nn.LazyLinear(num_hidden_units, bias=False)` for W_q, W_k, W_v AND W_o; forward asserts 3-D
inputs, that a valid_lens is 1-D or 2-D with the values' batch size, `assert_shape('v', v, (values.size(0),
values.size(1), hidden_size))` (the values' projection as wide as num_hidden_units), splits with `t.reshape(batch_size,
seq_len, self._num_heads, hidden_size_per_head).permute(0, 2, 1, 3)` into (batch * heads, seq, hidden //
num_heads), `valid_lens.repeat_interleave(num_heads, dim=0)`, its DotProductAttention, merges back with a permute,
`self._W_o(...)`, and asserts `assert_shape('context', context, (queries.size(0), queries.size(1), hidden_size))` (the
output as wide as num_hidden_units).

Left out: dropout (evaluation). Added for the contract only: scaled_dot_product_attention's `scale` parameter (never
read) so that the contract's calls reach the student's code; num_hidden_units is W_Q's width H*d_k (the width every
LazyLinear was built with), W_q, W_k, W_v, W_o are W_Q, W_K, W_V, W_O (self-attention on X); multi_head_attention
returns the context (the student's forward returns (context, weights) and its encoder blocks unpack it).
"""

import math

import numpy as np


def _check(condition):  # the student's assert_* helpers
    if not condition:
        raise AssertionError


def _softmax_last(x):  # torch.softmax(x, dim=-1): an all -inf row gives NaN
    with np.errstate(invalid="ignore"):
        e = np.exp(x - np.max(x, axis=-1, keepdims=True))
        return e / np.sum(e, axis=-1, keepdims=True)


def _masked_softmax(attention_scores, valid_lens):
    _check(attention_scores.ndim == 3)
    if valid_lens is None:
        return _softmax_last(attention_scores)
    _check(valid_lens.ndim in (1, 2))
    _check(attention_scores.shape[0] == valid_lens.shape[0])
    batch_size, num_queries, num_keys = attention_scores.shape
    if valid_lens.ndim == 1:
        valid_lens = np.tile(valid_lens.reshape(-1, 1, 1), (1, num_queries, num_keys))
    else:
        _check(valid_lens.shape == (batch_size, num_queries))
        valid_lens = np.tile(valid_lens.reshape(batch_size, num_queries, 1), (1, 1, num_keys))
    _check(valid_lens.shape == (batch_size, num_queries, num_keys))
    mask = np.tile(np.arange(0, num_keys), (batch_size, num_queries, 1))
    mask = mask >= valid_lens  # True for the padding elements
    attention_scores = np.where(mask, -np.inf, attention_scores)
    return _softmax_last(attention_scores)


def scaled_dot_product_attention(Q, K, V, mask=None, scale=None):
    queries, keys, values = Q, K, V
    valid_lens = None if mask is None else np.asarray(mask)
    _check(queries.ndim == 3 and keys.ndim == 3 and values.ndim == 3)
    _check(keys.shape == values.shape)
    _check(queries.shape[2] == keys.shape[2])
    if valid_lens is not None:
        _check(valid_lens.ndim in (1, 2))
        if valid_lens.ndim == 1:
            _check(valid_lens.shape[0] == keys.shape[0])
        else:
            _check(queries.shape == keys.shape)
            _check(valid_lens.shape[:2] == queries.shape[:2])
    batch_size, num_queries, num_hidden_units = queries.shape  # noqa: RUF059
    num_keys = keys.shape[1]
    scores = queries @ np.swapaxes(keys, 1, 2) / math.sqrt(num_hidden_units)
    weights = _masked_softmax(scores, valid_lens)
    _check(values.shape == (batch_size, num_keys, num_hidden_units))
    context = weights @ values
    return context, weights


def multi_head_attention(X, W_Q, W_K, W_V, W_O, num_heads, mask=None):
    queries = keys = values = X
    hidden_size = W_Q.shape[-1]  # num_hidden_units: the out width of every LazyLinear
    valid_lens = None if mask is None else np.asarray(mask)
    _check(queries.ndim == 3 and keys.ndim == 3 and values.ndim == 3)
    if valid_lens is not None:
        _check(valid_lens.ndim in (1, 2))
        _check(values.shape[0] == valid_lens.shape[0])
    q, k, v = queries @ W_Q, keys @ W_K, values @ W_V
    _check(q.shape == (queries.shape[0], queries.shape[1], hidden_size))
    _check(k.shape == (keys.shape[0], keys.shape[1], hidden_size))
    _check(v.shape == (values.shape[0], values.shape[1], hidden_size))
    hidden_size_per_head = hidden_size // num_heads

    def split(t):
        batch_size, seq_len, num_hidden_units = t.shape
        _check(num_hidden_units == hidden_size)
        t = np.transpose(t.reshape(batch_size, seq_len, num_heads, hidden_size_per_head), (0, 2, 1, 3))
        return t.reshape(batch_size * num_heads, seq_len, hidden_size_per_head)

    _check(k.shape == v.shape)
    q, k, v = split(q), split(k), split(v)
    if valid_lens is not None:
        valid_lens = np.repeat(valid_lens, num_heads, axis=0)  # repeat_interleave(num_heads, dim=0)
    context, _weights = scaled_dot_product_attention(q, k, v, valid_lens)
    _check(context.shape == (queries.shape[0] * num_heads, queries.shape[1], hidden_size_per_head))
    extended_batch_size, seq_len, per_head = context.shape
    _check(extended_batch_size % num_heads == 0)
    outputs = context.reshape(extended_batch_size // num_heads, num_heads, seq_len, per_head)
    outputs = np.transpose(outputs, (0, 2, 1, 3)).reshape(extended_batch_size // num_heads, seq_len, -1)
    context = outputs @ W_O
    _check(context.shape == (queries.shape[0], queries.shape[1], hidden_size))
    return context
