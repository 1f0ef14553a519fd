"""Port of xliu205/CSCI-1470, hw4/code/transformer_funcs.py (commit df0c259): Self_Attention and Atten_Head.call, a
student's solution of Brown University CSCI 1470 (Deep Learning), homework 4 (sequence-to-sequence machine translation
with a Transformer, TensorFlow version, fall 2021; Multi_Headed, the CS 2470 part, is left as the stencil's `return
None`). Ported: qkv_project (Atten_Head's projections) and scaled_dot_product_attention (Self_Attention, the
student's renaming of the stencil's Attention_Matrix that also applies the weights to the values).

Conventions kept: Atten_Head.call projects with `tf.tensordot(inputs_for_keys, self.wk, axes=[[2], [0]])` (and wv,
wq likewise: the input's axis 2 is contracted, so only a 3-D (batch, window, embedding) input works: a 2-D input has
no axis 2, and in a 4-D one axis 2 is the window, not the embedding), then calls `Self_Attention(K, V, Q,
self.use_mask)`. Self_Attention(K, V, Q, use_mask=False) reads `window_size_queries = Q.get_shape()[1]` and
`window_size_keys = K.get_shape()[1]`, builds the course's given mask `np.transpose(np.tril(np.ones((
window_size_queries,window_size_keys))*np.NINF,-1),(1,0))` (the -inf strict lower triangle of a (queries, keys) array,
transposed to (keys, queries)), `tf.reshape(mask,[-1,window_size_queries,window_size_keys])` (back to (queries,
keys) by a reshape, not a transpose: the usual causal mask when there are as many queries as keys, a scrambled
pattern otherwise, e.g. with fully masked rows for 5 queries and 2 keys) tiled `[tf.shape(input=K)[0],1,1]`,
then `atten_weights = tf.matmul(Q, tf.transpose(K, [0, 2, 1])) / np.sqrt(K.shape[2])` (a 3-D transpose: any other
rank raises), `if use_mask: atten_weights += atten_mask`, `tf.nn.softmax(atten_weights)` (last axis; a fully -inf row
is NaN) and returns `tf.matmul(atten_weights, V)`. The course's attention has no mask argument: `use_mask` (True for
the decoder's self-attention) switches on the given causal mask. Left out: the `@av.att_mat_func` decorator (it
only records the returned matrix for a visualisation); TensorFlow's float32 (the port computes in float64). Added for
the contract only: qkv_project(X, W_Q, W_K, W_V) returns (Q, K, V) of the three tensordots; scaled_dot_product_attention
returns (out, weights), the weights being the softmax Self_Attention computes, and takes a `scale` parameter (never
read) so that the contract's calls reach the student's code; a `mask`: given one, use_mask is True (the course's
causal mask, whose entries never come from the mask given), without one it is False.
"""

import numpy as np


def qkv_project(X, W_Q, W_K, W_V):
    K = np.tensordot(X, W_K, axes=[[2], [0]])
    V = np.tensordot(X, W_V, axes=[[2], [0]])
    Q = np.tensordot(X, W_Q, axes=[[2], [0]])
    return Q, K, V


def _softmax_last(x):  # tf.nn.softmax (axis=-1): a fully -inf row gives -inf - (-inf) = NaN
    e = np.exp(x - np.max(x, axis=-1, keepdims=True))
    return e / np.sum(e, axis=-1, keepdims=True)


def _self_attention(K, V, Q, use_mask=False):  # Self_Attention, returning the weights too
    window_size_queries = Q.shape[1]
    window_size_keys = K.shape[1]
    mask = np.transpose(np.tril(np.ones((window_size_queries, window_size_keys)) * -np.inf, -1), (1, 0))
    atten_mask = np.tile(mask.reshape(-1, window_size_queries, window_size_keys), (K.shape[0], 1, 1))
    atten_weights = Q @ np.transpose(K, (0, 2, 1)) / np.sqrt(K.shape[2])  # tf.transpose(K, [0, 2, 1]): 3-D only
    if use_mask:
        atten_weights = atten_weights + atten_mask  # atten_weights += atten_mask
    atten_weights = _softmax_last(atten_weights)
    attention = atten_weights @ V
    return attention, atten_weights


def scaled_dot_product_attention(Q, K, V, mask=None, scale=None):
    return _self_attention(K, V, Q, use_mask=mask is not None)
