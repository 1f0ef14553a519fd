"""Port of martinkim0/cs182_hw3_student, transformer_attention.py (commit 298744f): AttentionQKV.forward,
MultiHeadProjection._split_heads and _combine_heads, a student's solution of UC Berkeley CS 182/282A (Deep Neural
Networks), homework 3 (language modeling and summarization with a Transformer), spring 2022.

Conventions kept: AttentionQKV.forward writes the product with torch.einsum for two ranks only: `if
len(queries.size()) > 3:` the subscripts "nhqd,nhdk->nhqk" with `keys.permute(0, 1, 3, 2)` (exactly 4-D), else
"nqd,ndk->nqk" with `keys.permute(0, 2, 1)` (exactly 3-D): a 2-D or a 5-D input raises; the scores go through the
course's `self.apply_mask(sim, mask=mask)` (transformer_utils.ApplyAttentionMask, given with the homework: `if mask
is None: return similarity`; otherwise `assert len(similarity.shape) in (3, 4)` and `assert len(mask.shape) == 3`,
then for 4-D scores `assert similarity[:, 0].shape == mask.shape` and `mask.unsqueeze(dim=1)`, for 3-D scores `assert
similarity.shape == mask.shape`, and `bias = -1e9 * th.logical_not(mask).float()` ADDED to the scores: True = may
attend, masked scores finite), then `weights = F.softmax(masked_sim / math.sqrt(keys.shape[-1]), dim=-1)` (the
scale after the mask) and the output with einsum "nhqk,nhkv->nhqv" or "nqk,nkv->nqv" by the rank of the scores;
there is no scale argument. _split_heads: `n, l, d = tensor.size()`, `torch.reshape(tensor, (n, l, self.n_heads,
int(d/self.n_heads)))` (the projection's own width), `.permute(0, 2, 1, 3)`; _combine_heads: `n, h, l, d =
tensor.size()`, `.permute(0, 2, 1, 3)`, `torch.reshape(tensor, (n, l, d*h))`. The course's MultiHeadProjection runs
attention_map (the AttentionQKV above) on the split heads with the mask as given; its constructor, built by the
course's MultiHeadAttention(n_heads, input_shapes) with the input widths (qa_channels, ma_channels), asserts `size %
self.n_heads == 0` for both. Left out: weight_norm and the xavier initialisation of the course's bias-free Linear
layers (a reparametrisation: the layers are the given matrices here). Added for the contract only:
scaled_dot_product_attention returns (output, weights) like forward and takes a `scale` parameter (never read);
multi_head_attention builds the course's MultiHeadAttention with input_shapes = (D, D), D = X.shape[-1]
(self-attention: query and memory antecedents are both X), its query_layer, key_layer, value_layer and output_layer
are W_Q, W_K, W_V and W_O.
"""

import math

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


def _softmax_last(Z):  # F.softmax(..., dim=-1)
    E = np.exp(Z - np.max(Z, axis=-1, keepdims=True))
    return E / np.sum(E, axis=-1, keepdims=True)


def scaled_dot_product_attention(Q, K, V, mask=None, scale=None):
    if len(Q.shape) > 3:
        sum_exp = "nhqd,nhdk->nhqk"
        keys_ = K.transpose(0, 1, 3, 2)  # keys.permute(0, 1, 3, 2)
    else:
        sum_exp = "nqd,ndk->nqk"
        keys_ = K.transpose(0, 2, 1)  # keys.permute(0, 2, 1)
    sim = np.einsum(sum_exp, Q, keys_)
    masked_sim = _apply_mask(sim, mask=mask)
    weights = _softmax_last(masked_sim / math.sqrt(K.shape[-1]))
    if len(masked_sim.shape) > 3:
        sum_exp = "nhqk,nhkv->nhqv"
    else:
        sum_exp = "nqk,nkv->nqv"
    output = np.einsum(sum_exp, weights, V)
    return output, weights


def _split_heads(tensor, n_heads):
    assert len(tensor.shape) == 3
    n, l, d = tensor.shape  # noqa: E741
    tensor = tensor.reshape(n, l, n_heads, int(d / n_heads))
    return tensor.transpose(0, 2, 1, 3)  # permute(0, 2, 1, 3)


def _combine_heads(tensor, n_heads):
    assert len(tensor.shape) == 4
    n, h, l, d = tensor.shape  # noqa: E741
    tensor = tensor.transpose(0, 2, 1, 3)  # permute(0, 2, 1, 3)
    return tensor.reshape(n, l, d * h)


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
