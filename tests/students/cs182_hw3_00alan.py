"""Port of 00alan/lstm-and-transformers-cs182, transformer_attention.py (commit d545adc): AttentionQKV.forward,
MultiHeadProjection._split_heads and _combine_heads, a student's solution of UC Berkeley CS 182/282A (Deep Neural
Networks), homework 3 (language modeling and summarization with a Transformer), the PyTorch version of spring 2021/22.

Conventions kept: AttentionQKV.forward computes `similarity = queries @ keys.transpose(dim0=-2, dim1=-1)` (unscaled),
passes it through the course's `self.apply_mask(similarity, mask=mask)` (transformer_utils.ApplyAttentionMask, given
with the homework: `if mask is None: return similarity`; otherwise `assert len(similarity.shape) in (3, 4)` and
`assert len(mask.shape) == 3`, then for 4-D scores `assert similarity[:, 0].shape == mask.shape` and
`mask.unsqueeze(dim=1)`, for 3-D scores `assert similarity.shape == mask.shape`, and `bias = -1e9 *
th.logical_not(mask).float()` ADDED to the scores: True = may attend, masked scores finite), then `weights =
th.softmax(masked_similarity / th.sqrt(key_dim), dim=-1)` with `key_dim = th.tensor(keys.shape[-1],
dtype=th.float32)` (the scale applied after the mask, so the fill becomes -1e9 / sqrt(d_k)) and `output = weights @
values`; it has no scale argument. _split_heads asserts a 3-D input, `new_feature_size = int(feature_size /
self.n_heads)` of the projection's own width, `tensor.view(batch_size, tensorlen, self.n_heads, new_feature_size)`
and `.transpose(1, 2)`; _combine_heads `.transpose(1, 2)` and `reshape(batch_size, tensorlen, self.n_heads *
feature_size)`. The course's MultiHeadProjection runs attention_map (the AttentionQKV above) on the split heads
with the mask as given; its constructor, built by the course's MultiHeadAttention(n_heads, input_shapes) with the
input widths (qa_channels, ma_channels), asserts `size % self.n_heads == 0` for both. Left out: weight_norm and the
xavier initialisation of the course's bias-free Linear layers (a reparametrisation: the layers are the given
matrices here). Added for the contract only: scaled_dot_product_attention returns (output, weights) like forward
and takes a `scale` parameter (never read); multi_head_attention builds the course's MultiHeadAttention with
input_shapes = (D, D), D = X.shape[-1] (self-attention: query and memory antecedents are both X), its query_layer,
key_layer, value_layer and output_layer are W_Q, W_K, W_V and W_O.
"""

import numpy as np


def _apply_mask(similarity, mask=None):  # transformer_utils.ApplyAttentionMask (the course's)
    if mask is None:
        return similarity
    assert len(similarity.shape) in (3, 4)
    assert len(mask.shape) == 3
    if len(mask.shape) != len(similarity.shape):
        assert similarity[:, 0].shape == mask.shape
        mask = mask[:, None]  # mask.unsqueeze(dim=1)
    else:
        assert similarity.shape == mask.shape
    bias = -1e9 * np.logical_not(mask).astype(np.float32)
    return similarity + bias


def _softmax_last(Z):  # th.softmax(..., dim=-1)
    E = np.exp(Z - np.max(Z, axis=-1, keepdims=True))
    return E / np.sum(E, axis=-1, keepdims=True)


def scaled_dot_product_attention(Q, K, V, mask=None, scale=None):
    key_dim = np.float32(K.shape[-1])
    similarity = Q @ np.swapaxes(K, -2, -1)
    masked_similarity = _apply_mask(similarity, mask=mask)
    weights = _softmax_last(masked_similarity / np.sqrt(key_dim))
    output = weights @ V
    return output, weights


def _split_heads(tensor, n_heads):
    assert len(tensor.shape) == 3
    batch_size, tensorlen = tensor.shape[0], tensor.shape[1]
    feature_size = tensor.shape[2]
    new_feature_size = int(feature_size / n_heads)
    tensor = tensor.reshape(batch_size, tensorlen, n_heads, new_feature_size)
    return np.swapaxes(tensor, 1, 2)


def _combine_heads(tensor, n_heads):
    assert len(tensor.shape) == 4
    tensor = np.swapaxes(tensor, 1, 2)
    batch_size, tensorlen = tensor.shape[0], tensor.shape[1]
    feature_size = tensor.shape[-1]
    new_feature_size = n_heads * feature_size
    return tensor.reshape(batch_size, tensorlen, new_feature_size)


def multi_head_attention(X, W_Q, W_K, W_V, W_O, num_heads, mask=None):
    qa_channels = ma_channels = X.shape[-1]  # MultiHeadAttention(n_heads, input_shapes=(D, D))
    for size in (qa_channels, ma_channels):  # MultiHeadProjection.__init__
        assert size % num_heads == 0, 'Shape of feature input must be divisible by n_heads'
    q, k, v = X @ W_Q, X @ W_K, X @ W_V
    queries_split = _split_heads(q, num_heads)
    keys_split = _split_heads(k, num_heads)
    values_split = _split_heads(v, num_heads)
    attention_output_split, _ = scaled_dot_product_attention(queries_split, keys_split, values_split, mask=mask)
    output = _combine_heads(attention_output_split, num_heads)
    return output @ W_O
