"""Port of koleckar/Transformer-Tagger, tagger_transformer.py (commit 9564d87): Model.SelfAttention.call, a student's
solution of Charles University's NPFL114 Deep Learning (Prague, 2022), assignment tagger_transformer (a Pre-LN
Transformer encoder for Czech part-of-speech tagging, TensorFlow 2 / Keras 2).

Ports multi_head_attention (the course has no separate attention function: SelfAttention.call does it all).

Conventions kept: W_Q, W_K, W_V and W_O of shape (dim, dim); `shape = (tf.shape(inputs)[0], tf.shape(inputs)[1],
self.heads, self.dim // self.heads)` (the input read as (B, N, D); explicit sizes: it raises unless every projection is
heads * (dim // heads) wide), `Q = tf.reshape(tf.linalg.matmul(inputs, self.W_Q), shape=shape)` (K and V alike) and
`tf.transpose(Q, perm=(0, 2, 1, 3))`; `self_attention_weights = tf.linalg.matmul(Q, K, transpose_b=True) /
tf.sqrt(float(self.dim // self.heads))`; the padding mask is applied by moving the batch axis next to the keys,
`tf.transpose(self_attention_weights, perm=(1, 2, 0, 3))` to (H, N_q, B, N_k), then
`tf.keras.layers.Softmax()(self_attention_weights, mask=mask)`, which (Keras 2) ADDS `(1.0 - tf.cast(mask,
inputs.dtype)) * -1e9` to the scores (a finite shift: in a fully masked row it cancels out, so the row keeps weights
over all its keys; the (B, N) mask broadcasts from the right against (B, N_k), so mask[b, k] masks key k of sequence
b for every query; a contract (N_q, N_k) mask meets the batch axis with its rows and raises unless B equals N_q or one
of them is 1) and takes the softmax over the last axis; no mask: `mask=None` applies none); then `tf.transpose(...,
perm=(2, 0, 1, 3))` back, `tf.transpose(tf.linalg.matmul(self_attention_weights, V), perm=(0, 2, 1, 3))`,
`tf.reshape(output, shape=[tf.shape(inputs)[0], tf.shape(inputs)[1], self.dim])` and `tf.linalg.matmul(output,
self.W_O)`.

Left out: nothing of the attention layer (the encoder around it is not part of the contract); float32 arithmetic
(in float32 a fully masked row's shifted scores round to -1e9 and the row is uniform; in float64 it is the softmax of
its own scores: either way not zeros). Added for the contract only: dim is X.shape[-1] (the constructor's argument,
args.we_dim) and heads is num_heads; W_Q, W_K, W_V and W_O are the layer's weights; the contract's `mask` is passed as
the layer's `mask` argument.
"""

import numpy as np


def _keras_softmax(inputs, mask=None):  # tf.keras.layers.Softmax()(inputs, mask=mask), Keras 2, axis=-1
    if mask is not None:
        adder = (1.0 - np.asarray(mask).astype(inputs.dtype)) * -1e9  # _large_compatible_negative
        inputs = inputs + adder
    E = np.exp(inputs - np.max(inputs, axis=-1, keepdims=True))
    return E / np.sum(E, axis=-1, keepdims=True)


def multi_head_attention(X, W_Q, W_K, W_V, W_O, num_heads, mask=None):
    inputs, dim, heads = X, X.shape[-1], num_heads
    shape = (inputs.shape[0], inputs.shape[1], heads, dim // heads)
    Q = (inputs @ W_Q).reshape(shape)
    K = (inputs @ W_K).reshape(shape)
    V = (inputs @ W_V).reshape(shape)
    Q = np.transpose(Q, (0, 2, 1, 3))
    K = np.transpose(K, (0, 2, 1, 3))
    V = np.transpose(V, (0, 2, 1, 3))

    self_attention_weights = np.matmul(Q, np.swapaxes(K, -1, -2)) / np.sqrt(np.float32(dim // heads))

    self_attention_weights = np.transpose(self_attention_weights, (1, 2, 0, 3))
    self_attention_weights = _keras_softmax(self_attention_weights, mask=mask)
    self_attention_weights = np.transpose(self_attention_weights, (2, 0, 1, 3))

    output = np.transpose(np.matmul(self_attention_weights, V), (0, 2, 1, 3))
    output = output.reshape(inputs.shape[0], inputs.shape[1], dim)
    return output @ W_O
