"""Port of seanlin2000/cs182_hw3, transformer_attention.py (commit 287332c): AttentionQKV.forward,
MultiHeadProjection._split_heads and _combine_heads, a student's solution of UC Berkeley CS 182/282A (Deep Neural
Networks), homework 3 (language modeling and summarization with a Transformer), spring 2021.

Conventions kept: AttentionQKV.forward computes the scores and the output with explicit loops of th.mm (2-D
products only) for two ranks: `if len(queries.size())== 3:` a loop over the batch into `th.zeros(batch_size,
queries.shape[1], keys.shape[1])`, else (any other rank, read as 4-D) `heads = queries.shape[1]` and a loop over
batch and heads into `th.zeros(batch_size, heads, queries.shape[2], keys.shape[2])`: a 2-D input raises (no
queries.shape[2]), a 5-D one too (th.mm of 3-D slices); the buffers are th.zeros' default float32, so the scores,
weights and output are float32; `similarity = (1/th.sqrt(key_dim)) * similarity` with `key_dim =
th.tensor(keys.shape[-1], dtype=th.float32)`; the scores go through the course's `self.apply_mask(similarity,
mask=mask)` (transformer_utils.ApplyAttentionMask, given with the homework: `if mask is None: return similarity`;
otherwise `assert len(similarity.shape) in (3, 4)` and `assert len(mask.shape) == 3`, then for 4-D scores `assert
similarity[:, 0].shape == mask.shape` and `mask.unsqueeze(dim=1)`, for 3-D scores `assert similarity.shape ==
mask.shape`, and `bias = -1e9 * th.logical_not(mask).float()` ADDED to the scores: True = may attend, masked scores
finite; in float32 a fully masked row's scores all round to -1e9), `weights = F.softmax(masked_similarity,
dim=last_dim)` with `last_dim = len(masked_similarity.size()) - 1`, and the output loop `th.mm(weights[batch, ...],
values[batch, ...])` into `th.zeros(..., values.shape[-1])`; there is no scale argument. _split_heads:
`new_feature_size = feature_size // self.n_heads` (the projection's own width), `th.reshape(tensor, (batch_size,
tensorlen, self.n_heads, new_feature_size))`, `.permute(0, 2, 1, 3)`; _combine_heads: `.permute(0, 2, 1, 3)`,
`th.reshape(tensor, (batch_size, tensorlen, self.n_heads * feature_size))`. The course's MultiHeadProjection runs
attention_map (the AttentionQKV above) on the split heads with the mask as given; its constructor, built by the
course's MultiHeadAttention(n_heads, input_shapes) with the input widths (qa_channels, ma_channels), asserts `size %
self.n_heads == 0` for both. Left out: the `.to(device)` moves, weight_norm and the xavier initialisation of the
course's bias-free Linear layers (a reparametrisation: the layers are the given matrices here). Added for the
contract only: the float32 weights meet the values in float32 (th.mm refuses to mix float32 and float64, and the
course's tensors are all float32); scaled_dot_product_attention returns (output, weights) like forward and takes a
`scale` parameter (never read); multi_head_attention builds the course's MultiHeadAttention with input_shapes = (D,
D), D = X.shape[-1] (self-attention: query and memory antecedents are both X), its query_layer, key_layer,
value_layer and output_layer are W_Q, W_K, W_V and W_O.
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


def _softmax(Z, dim):  # F.softmax(Z, dim=dim)
    E = np.exp(Z - np.max(Z, axis=dim, keepdims=True))
    return E / np.sum(E, axis=dim, keepdims=True)


def _mm(a, b):  # th.mm: 2-D matrices only
    if a.ndim != 2 or b.ndim != 2:
        raise RuntimeError("self must be a matrix")
    return a @ b


def scaled_dot_product_attention(Q, K, V, mask=None, scale=None):
    key_dim = np.float32(K.shape[-1])
    batch_size = Q.shape[0]
    if len(Q.shape) == 3:
        similarity = np.zeros((batch_size, Q.shape[1], K.shape[1]), dtype=np.float32)
        for batch in range(batch_size):
            similarity[batch, :, :] = _mm(Q[batch, :, :], K[batch, :, :].T)
    else:
        heads = Q.shape[1]
        similarity = np.zeros((batch_size, heads, Q.shape[2], K.shape[2]), dtype=np.float32)
        for batch in range(batch_size):
            for head in range(heads):
                similarity[batch, head, :, :] = _mm(Q[batch, head, :, :], K[batch, head, :, :].T)
    similarity = (np.float32(1) / np.sqrt(key_dim)) * similarity
    masked_similarity = _apply_mask(similarity, mask=mask)
    last_dim = len(masked_similarity.shape) - 1
    weights = _softmax(masked_similarity, last_dim)
    values = V.astype(np.float32)
    if len(Q.shape) == 3:
        output = np.zeros((batch_size, Q.shape[1], V.shape[2]), dtype=np.float32)
        for batch in range(batch_size):
            output[batch, :, :] = _mm(weights[batch, :, :], values[batch, :, :])
    else:
        heads = Q.shape[1]
        output = np.zeros((batch_size, heads, Q.shape[2], V.shape[3]), dtype=np.float32)
        for batch in range(batch_size):
            for head in range(heads):
                output[batch, head, :, :] = _mm(weights[batch, head, :, :], values[batch, head, :, :])
    return output, weights


def _split_heads(tensor, n_heads):
    assert len(tensor.shape) == 3
    batch_size, tensorlen = tensor.shape[0], tensor.shape[1]
    feature_size = tensor.shape[2]
    new_feature_size = feature_size // n_heads
    tensor = tensor.reshape(batch_size, tensorlen, n_heads, new_feature_size)
    return tensor.transpose(0, 2, 1, 3)  # permute(0, 2, 1, 3)


def _combine_heads(tensor, n_heads):
    assert len(tensor.shape) == 4
    tensor = tensor.transpose(0, 2, 1, 3)  # permute(0, 2, 1, 3)
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
