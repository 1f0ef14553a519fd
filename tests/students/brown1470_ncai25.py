"""Port of ncai25/dl-image-caption, code/transformer.py (commit bf0208f): AttentionMatrix.call and AttentionHead.call,
a student's solution of Brown University CSCI 1470 (Deep Learning), the image-captioning homework (TensorFlow version,
spring 2024; MultiHeadedAttention, the CS 2470 part, is left as the stencil's `return None`). Ported:
scaled_dot_product_attention (AttentionMatrix and the attention half of AttentionHead).

Conventions kept: AttentionMatrix.call takes `K, Q = inputs`, reads `window_size_queries = Q.get_shape()[1]` and
`window_size_keys = K.get_shape()[1]` (sizes read as if the input were (batch, window, embedding)), builds the
course's given mask `mask_vals = np.triu(np.ones((window_size_queries, window_size_keys)) * np.NINF, k=1)` (additive:
-inf where key j > query i, top-left aligned), reshaped to `[-1, window_size_queries, window_size_keys]` and tiled
`[tf.shape(input=K)[0], 1, 1]`, then `atten_weights = tf.matmul(Q, K, transpose_b=True) /
math.sqrt(K.get_shape()[2])` (axis 2: d_k for 3-D input, the number of keys for 4-D input; a 2-D input has no axis 2
and raises), `if self.use_mask == True: atten_weights += atten_mask` (a new tensor: TensorFlow's += broadcasts the
(K.shape[0], Q.shape[1], K.shape[1]) mask against the scores, and raises when they do not broadcast) and
`tf.nn.softmax(atten_weights)` (last axis). AttentionHead.call projects with `tf.tensordot(inputs, W, axes=1)` (the
contract's qkv_project, left to the reference), then `atten_mtx = self.attn_mtx((K, Q))` and `result = atten_mtx @
V`. The course's attention has no mask argument: `use_mask` (True for the decoder's self-attention) switches on the
given causal mask. Left out: TensorFlow's float32 (the port computes in float64). Added for the contract only: (out,
weights) is returned, the weights being AttentionMatrix's output; a `scale` parameter (never read) so that the
contract's calls reach the student's code; a `mask`: given one, use_mask is True (the course's causal mask, whose
entries never come from the mask given), without one it is False.
"""

import math

import numpy as np


def _softmax_last(x):  # tf.nn.softmax (axis=-1)
    e = np.exp(x - np.max(x, axis=-1, keepdims=True))
    return e / np.sum(e, axis=-1, keepdims=True)


def _attention_matrix(K, Q, use_mask):  # AttentionMatrix(use_mask=use_mask).call((K, Q))
    window_size_queries = Q.shape[1]
    window_size_keys = K.shape[1]
    mask_vals = np.triu(np.ones((window_size_queries, window_size_keys)) * -np.inf, k=1)
    atten_mask = np.tile(mask_vals.reshape(-1, window_size_queries, window_size_keys), (K.shape[0], 1, 1))
    atten_weights = Q @ np.swapaxes(K, -1, -2) / math.sqrt(K.shape[2])  # K.get_shape()[2]: IndexError on 2-D
    if use_mask:
        atten_weights = atten_weights + atten_mask  # atten_weights += atten_mask (broadcasts, or raises)
    return _softmax_last(atten_weights)


def scaled_dot_product_attention(Q, K, V, mask=None, scale=None):
    atten_mtx = _attention_matrix(K, Q, use_mask=mask is not None)
    result = atten_mtx @ V
    return result, atten_mtx
