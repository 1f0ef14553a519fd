"""Port of RanoRaraku/npfl114, labs/11/tagger_transformer.py (commit 70fee37): Model.SelfAttention.call, a student's
solution of Charles University's NPFL114 Deep Learning (Prague, 2023), assignment tagger_transformer (a Pre-LN
Transformer encoder for Czech part-of-speech tagging, TensorFlow 2).

Ports multi_head_attention (the course has no separate attention function: SelfAttention.call does it all).

Conventions kept: the constructor sets `self.input_dim = dim`, `self.qk_dim = self.input_dim` and `self.v_dim =
self.input_dim` (W_Q, W_K: [input_dim, qk_dim], W_V: [input_dim, v_dim], W_O: [v_dim, input_dim]); call reads
`batch_size = tf.shape(inputs)[0]` and `max_sentence_len = tf.shape(inputs)[1]` (the input read as (B, N, D)) and
splits each projection with `tf.reshape(inputs @ self.W_Q, [batch_size, max_sentence_len, self.heads, -1])` (-1: each
head as wide as the projection allows) and `perm=[0, 2, 1, 3]`; `weights = tf.linalg.matmul(Q, K, transpose_b=True) /
tf.sqrt(self.qk_dim / self.heads)` (the scale from the MODEL width, 1/sqrt(D / H), not from the heads' width d_k;
wherever the merge below succeeds, D / H is d_v); the mask is read as the course's (batch_size, max_sentence_len)
padding mask, `mask = tf.expand_dims(tf.expand_dims(mask, axis=1), axis=1)` (mask[:, None, None, :]: row b masks the
keys of sequence b for every query; no mask: tf.expand_dims(None) raises), `tf.where(mask, weights, -1e9)` (finite
fill: a fully masked row is uniform; broadcast against the (B, H, N, N) scores), `tf.nn.softmax(weights, axis=-1)`;
then `tf.reshape(tf.transpose(weights @ V, perm=[0, 2, 1, 3]), [batch_size, max_sentence_len, self.v_dim])` (the
heads merged back into the input width D: it raises unless H*d_v = D) and `att @ self.W_O`.

Left out: nothing of the attention layer (the encoder around it is not part of the contract). Added for the contract
only: dim is X.shape[-1] (the constructor's argument, args.we_dim) and heads is num_heads; W_Q, W_K, W_V and W_O are
the layer's weights; the contract's `mask` is passed as the layer's `mask` argument.
"""

import numpy as np


def multi_head_attention(X, W_Q, W_K, W_V, W_O, num_heads, mask=None):
    inputs, heads = X, num_heads
    input_dim = X.shape[-1]
    qk_dim = input_dim
    v_dim = input_dim

    batch_size = inputs.shape[0]  # tf.shape(inputs)[0]
    max_sentence_len = inputs.shape[1]  # tf.shape(inputs)[1]

    Q = np.transpose((inputs @ W_Q).reshape(batch_size, max_sentence_len, heads, -1), (0, 2, 1, 3))
    K = np.transpose((inputs @ W_K).reshape(batch_size, max_sentence_len, heads, -1), (0, 2, 1, 3))
    V = np.transpose((inputs @ W_V).reshape(batch_size, max_sentence_len, heads, -1), (0, 2, 1, 3))

    weights = np.matmul(Q, np.swapaxes(K, -1, -2)) / np.sqrt(np.float32(qk_dim / heads))

    if mask is None:  # tf.expand_dims(None, axis=1)
        raise ValueError("Attempt to convert a value (None) with an unsupported type (<class 'NoneType'>) to a Tensor.")
    mask = np.expand_dims(np.expand_dims(mask, axis=1), axis=1)
    weights = np.where(mask, weights, -1e9)  # tf.where (v2) broadcasts
    E = np.exp(weights - np.max(weights, axis=-1, keepdims=True))
    weights = E / np.sum(E, axis=-1, keepdims=True)

    att = np.transpose(weights @ V, (0, 2, 1, 3)).reshape(batch_size, max_sentence_len, v_dim)
    return att @ W_O
