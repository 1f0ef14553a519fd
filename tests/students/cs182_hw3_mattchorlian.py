"""Port of mattchorlian/assignment3, transformer_attention.py (commit 2425d7b): AttentionQKV.forward,
MultiHeadProjection._split_heads and _combine_heads, a student's solution of UC Berkeley CS 182/282A (Deep Neural
Networks), homework 3 (language modeling and summarization with a Transformer), the PyTorch version of spring 2021.

Conventions kept: AttentionQKV.forward computes `similarity = (queries / th.sqrt(key_dim)) @ keys.transpose(-1, -2)`
with `key_dim = th.tensor(keys.shape[-1], dtype=th.float32)` (the queries scaled before the product), passes it
through the course's `self.apply_mask(similarity, mask=mask)` (transformer_utils.ApplyAttentionMask, given with the
homework: `if mask is None: return similarity`; otherwise `assert len(similarity.shape) in (3, 4)` and `assert
len(mask.shape) == 3`, then for 4-D scores `assert similarity[:, 0].shape == mask.shape` and `mask.unsqueeze(dim=1)`,
for 3-D scores `assert similarity.shape == mask.shape`, and `bias = -1e9 * th.logical_not(mask).float()` ADDED to
the scores: True = may attend, masked scores finite), then `weights = F.softmax(masked_similarity, dim = -1)` and
`output = weights @ values`; it has no scale argument. _split_heads asserts a 3-D input, `new_feature_size =
feature_size // self.n_heads` of the projection's own width, `th.reshape(tensor, (batch_size, tensorlen,
self.n_heads, new_feature_size))` and `.permute(0,2,1,3)`; _combine_heads `.permute(0,2,1,3)` and
`th.reshape(tensor, (batch_size, tensorlen, feature_size * self.n_heads))`. The course's MultiHeadProjection runs
attention_map (the AttentionQKV above) on the split heads with the mask as given; its constructor, built by the
course's MultiHeadAttention(n_heads, input_shapes) with the input widths (qa_channels, ma_channels), asserts `size %
self.n_heads == 0` for both. Left out: weight_norm and the xavier initialisation of the course's bias-free Linear
layers (a reparametrisation: the layers are the given matrices here). Added for the contract only:
scaled_dot_product_attention returns (output, weights) like forward and takes a `scale` parameter (never read);
multi_head_attention builds the course's MultiHeadAttention with input_shapes = (D, D), D = X.shape[-1]
(self-attention: query and memory antecedents are both X), its query_layer, key_layer, value_layer and output_layer
are W_Q, W_K, W_V and W_O.
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


def _softmax_last(Z):  # F.softmax(..., dim = -1)
    E = np.exp(Z - np.max(Z, axis=-1, keepdims=True))
    return E / np.sum(E, axis=-1, keepdims=True)


def scaled_dot_product_attention(Q, K, V, mask=None, scale=None):
    key_dim = np.float32(K.shape[-1])
    similarity = (Q / np.sqrt(key_dim)) @ np.swapaxes(K, -1, -2)
    masked_similarity = _apply_mask(similarity, mask=mask)
    weights = _softmax_last(masked_similarity)
    output = weights @ V
    return output, weights


def _split_heads(tensor, n_heads):
    assert len(tensor.shape) == 3
    batch_size, tensorlen = tensor.shape[0], tensor.shape[1]
    feature_size = tensor.shape[2]
    new_feature_size = feature_size // n_heads
    tensor = tensor.reshape(batch_size, tensorlen, n_heads, new_feature_size)
    return tensor.transpose(0, 2, 1, 3)  # permute(0,2,1,3)


def _combine_heads(tensor, n_heads):
    assert len(tensor.shape) == 4
    tensor = tensor.transpose(0, 2, 1, 3)  # permute(0,2,1,3)
    batch_size, tensorlen = tensor.shape[0], tensor.shape[1]
    feature_size = tensor.shape[-1]
    new_feature_size = feature_size * n_heads
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
