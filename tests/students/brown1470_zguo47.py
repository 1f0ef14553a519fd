"""Port of zguo47/Brown-Deep-Learning-hw5-imcap-zguo47, hw5/code/transformer.py (commit 35ec9b2): AttentionMatrix.call
and AttentionHead.call, a student's solution of Brown University CSCI 1470 (Deep Learning), homework 5 (image
captioning, TensorFlow version, fall 2022; MultiHeadedAttention, the CS 2470 part, is left as the stencil's `return
None`). Ported: scaled_dot_product_attention (AttentionMatrix and the attention half of AttentionHead).

Conventions kept: AttentionMatrix.call takes `K, Q = inputs`, reads `window_size_queries = Q.get_shape()[1]` and
`window_size_keys = K.get_shape()[1]` (sizes read as if the input were (batch, window, embedding)), builds the
course's given mask `mask_vals = np.triu(np.ones((window_size_queries, window_size_keys)) * np.NINF, k=1)` (additive:
-inf where key j > query i, top-left aligned), reshaped to `[-1, window_size_queries, window_size_keys]` and tiled
`[tf.shape(input=K)[0], 1, 1]`, then `score = tf.matmul(Q, K, transpose_b=True)/math.sqrt(window_size_keys)` (scaled by
K.shape[1]: the number of keys for 3-D input, d_k for 2-D, the heads for 4-D), `if self.use_mask == True: score +=
atten_mask` (a new tensor: TensorFlow's += broadcasts the (K.shape[0], Q.shape[1], K.shape[1]) mask against the
scores, and raises when they do not broadcast) and `dist = tf.nn.softmax(score)` (last axis). AttentionHead.call
projects with `tf.tensordot(inputs, W, axes=1)` (the contract's qkv_project, left to the reference), then `layer =
self.attn_mtx((K,Q))` and `val = tf.matmul(layer, V)`. The course's attention has no mask argument: `use_mask` (True
for the decoder's self-attention) switches on the given causal mask. Left out: TensorFlow's float32 (the port
computes in float64). Added for the contract only: (out, weights) is returned, the weights being AttentionMatrix's
output; a `scale` parameter (never read) so that the contract's calls reach the student's code; a `mask`: given one,
use_mask is True (the course's causal mask, whose entries never come from the mask given), without one it is False.
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
    score = Q @ np.swapaxes(K, -1, -2) / math.sqrt(window_size_keys)  # tf.matmul(Q, K, transpose_b=True)
    if use_mask:
        score = score + atten_mask  # score += atten_mask (broadcasts, or raises)
    return _softmax_last(score)


def scaled_dot_product_attention(Q, K, V, mask=None, scale=None):
    layer = _attention_matrix(K, Q, use_mask=mask is not None)
    val = layer @ V
    return val, layer
