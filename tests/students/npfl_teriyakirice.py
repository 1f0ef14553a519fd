"""Port of TeriyakiRice/DeepLearning2021, tagger_transformer.py (commit 29e2f1c): Network.SelfAttention.call (with
its helper matrixOperation), a student team's solution of Charles University's NPFL114 Deep Learning (Prague, 2021),
assignment tagger_transformer (a Transformer encoder for Czech part-of-speech tagging, TensorFlow).

Ports multi_head_attention (the course has no separate attention function: SelfAttention.call does it all).

Conventions kept: the constructor builds W_Q, W_K, W_V and W_O of shape [dim, dim]; matrixOperation computes `M =
inputs @ W_M`, `tf.reshape(M, [batch_size, max_sentence_len, self.heads, self.dim // self.heads])` with `batch_size =
tf.shape(inputs)[0]` and `max_sentence_len = tf.shape(inputs)[1]` (the input read as (B, N, D); explicit sizes: it
raises unless every projection is heads * (dim // heads) wide) and `tf.transpose(M, [0, 2, 1, 3])`; call computes
`weights = tf.matmul(Q, K, transpose_b=True) / tf.sqrt(tf.cast(self.dim // self.heads, tf.float32))`, then reads its
`mask` as the course's (batch_size, max_sentence_len) padding mask (True = valid word): `m = tf.cast(mask, tf.int32)`
(no mask: tf.cast(None) raises), `m = tf.einsum('bi,bj->bij', m, m)` (the outer product of row b with itself: query i
and key j of sequence b both valid; a mask that is not 2-D raises), `tf.expand_dims(m, 1)`, `tf.tile(m, [1,
self.heads, 1, 1])`, `n = tf.cast(1 - m, tf.float32) * (-1e9)` and `tf.nn.softmax(weights * m + n)` (masked scores
become exactly -1e9, finite: a fully masked row is uniform; the (N_mask, H, N, N) mask broadcasts against the (B, H, N,
N) scores, which raises unless B equals N_mask or one of them is 1); then `weights @ V`, `tf.transpose(attention, [0,
2, 1, 3])`, `tf.reshape(attention, [batch_size, max_sentence_len, self.dim])` and `attention @ self.W_O`.

Left out: nothing of the attention layer (the course's encoder around it: positional embeddings, dropout, layer norm,
FFN, is not part of the contract). Added for the contract only: dim is X.shape[-1] (the constructor's argument,
args.we_dim, the input width) and heads is num_heads; W_Q, W_K, W_V and W_O are the layer's weights; the contract's
`mask` is passed as the layer's `mask` argument.
"""

import numpy as np


def multi_head_attention(X, W_Q, W_K, W_V, W_O, num_heads, mask=None):
    inputs, dim, heads = X, X.shape[-1], num_heads

    def matrix_operation(batch_size, max_sentence_len, W_M):  # matrixOperation
        M = inputs @ W_M
        M = M.reshape(batch_size, max_sentence_len, heads, dim // heads)
        return np.transpose(M, (0, 2, 1, 3))

    batch_size = inputs.shape[0]  # tf.shape(inputs)[0]
    max_sentence_len = inputs.shape[1]  # tf.shape(inputs)[1]
    Q = matrix_operation(batch_size, max_sentence_len, W_Q)
    K = matrix_operation(batch_size, max_sentence_len, W_K)
    V = matrix_operation(batch_size, max_sentence_len, W_V)

    weights = np.matmul(Q, np.swapaxes(K, -1, -2)) / np.sqrt(np.float32(dim // heads))

    if mask is None:  # tf.cast(None, tf.int32)
        raise ValueError("Attempt to convert a value (None) with an unsupported type (<class 'NoneType'>) to a Tensor.")
    m = np.asarray(mask).astype(np.int32)
    m = np.einsum("bi,bj->bij", m, m)  # raises unless the mask is 2-D
    m = np.expand_dims(m, 1)
    m = np.tile(m, [1, heads, 1, 1])

    n = (1 - m).astype(np.float32) * (-1e9)
    m = m.astype(np.float32)

    Z = weights * m + n  # broadcasts the mask's first axis against the batch
    E = np.exp(Z - np.max(Z, axis=-1, keepdims=True))  # tf.nn.softmax (last axis)
    weights = E / np.sum(E, axis=-1, keepdims=True)

    attention = weights @ V
    attention = np.transpose(attention, (0, 2, 1, 3))
    attention = attention.reshape(batch_size, max_sentence_len, dim)
    return attention @ W_O
