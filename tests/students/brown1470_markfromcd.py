"""Port of markfromcd/Imcap, code/transformer.py (commit 10773d4): AttentionMatrix.call, AttentionHead.call and
MultiHeadedAttention, a student's solution of Brown University CSCI 1470/2470 (Deep Learning), the image-captioning
homework (TensorFlow version, 2023; MultiHeadedAttention is the CS 2470 part). Ported: scaled_dot_product_attention
(AttentionMatrix and the attention half of AttentionHead) and multi_head_attention (MultiHeadedAttention).

Conventions kept: AttentionMatrix.call takes `K, Q = inputs`, reads `window_size_queries = Q.get_shape()[1]` and
`window_size_keys = K.get_shape()[1]`, builds the course's given mask `np.triu(np.ones((window_size_queries,
window_size_keys)) * np.NINF, k=1)` (additive: -inf where key j > query i, top-left aligned), reshaped to `[-1,
window_size_queries, window_size_keys]` and tiled `[tf.shape(input=K)[0], 1, 1]`, then computes `weights =
tf.matmul(Q, tf.transpose(K, [0, 2, 1])) / np.sqrt(window_size_keys)` (a 3-D transpose: any other rank raises; the
scores are scaled by the NUMBER OF KEYS, not by d_k), `weights = weights + atten_mask if self.use_mask else weights`
and returns `tf.nn.softmax(weights)` (last axis). AttentionHead.call projects with `tf.tensordot(inputs, W, axes=1)`
(the contract's qkv_project, left to the reference), builds `matrix = AttentionMatrix(use_mask = self.use_mask)` and
returns `tf.matmul(matrix.call((K,Q)),V)`. MultiHeadedAttention.__init__ builds three heads `AttentionHead(emb_sz,
int(emb_sz/3), is_self_attention= use_mask)` (three heads whatever the model asks for, each int(emb_sz / 3) wide for
keys, queries AND values, emb_sz the input width) and `self.linear = tf.keras.layers.Dense(emb_sz)`; call runs
`output1 = self.head1.call(...)`, `output2 = self.head1.call(...)`, `output3 = self.head1.call(...)` (the FIRST head
three times: head2 and head3 are never used), `tf.concat([output1, output2, output3], axis = 2)` and the linear
layer. The course's attention has no mask argument: `use_mask` (True for the decoder's self-attention) switches on
the given causal mask. Left out: the Dense layer's bias (zero at initialisation); TensorFlow's float32 (the port
computes in float64). Added for the contract only: scaled_dot_product_attention returns (out, weights), the weights
being AttentionMatrix's output, and takes a `scale` parameter (never read) so that the contract's calls reach the
student's code; a `mask`: given one, use_mask is True (the course's causal mask, whose entries never come from the
mask given), without one it is False; in multi_head_attention emb_sz is X.shape[-1], head h's weights are columns
[h * int(emb_sz / 3), (h + 1) * int(emb_sz / 3)) of W_K, W_V and W_Q (num_heads is never read), and W_O is the
linear layer's kernel (Keras builds it (3 * int(emb_sz / 3), emb_sz): a W_O of another height cannot be it, and
the product raises).
"""

import numpy as np


def _softmax_last(x):  # tf.nn.softmax (axis=-1)
    e = np.exp(x - np.max(x, axis=-1, keepdims=True))
    return e / np.sum(e, axis=-1, keepdims=True)


def _attention_matrix(K, Q, use_mask):  # AttentionMatrix(use_mask=use_mask).call((K, Q))
    window_size_queries = Q.shape[1]
    window_size_keys = K.shape[1]
    mask_vals = np.triu(np.ones((window_size_queries, window_size_keys)) * -np.inf, k=1)
    atten_mask = np.tile(mask_vals.reshape(-1, window_size_queries, window_size_keys), (K.shape[0], 1, 1))
    weights = Q @ np.transpose(K, (0, 2, 1)) / np.sqrt(window_size_keys)  # tf.transpose(K, [0, 2, 1]): 3-D only
    weights = weights + atten_mask if use_mask else weights
    return _softmax_last(weights)


def scaled_dot_product_attention(Q, K, V, mask=None, scale=None):
    matrix = _attention_matrix(K, Q, use_mask=mask is not None)
    head = matrix @ V
    return head, matrix


def multi_head_attention(X, W_Q, W_K, W_V, W_O, num_heads, mask=None):
    emb_sz = X.shape[-1]
    size = int(emb_sz / 3)
    head1 = (W_K[:, :size], W_V[:, :size], W_Q[:, :size])  # AttentionHead(emb_sz, int(emb_sz/3), use_mask)

    def head_call(weights, inputs_for_keys, inputs_for_values, inputs_for_queries):  # AttentionHead.call
        weight_k, weight_v, weight_q = weights
        K = np.tensordot(inputs_for_keys, weight_k, axes=1)
        V = np.tensordot(inputs_for_values, weight_v, axes=1)
        Q = np.tensordot(inputs_for_queries, weight_q, axes=1)
        head, _ = scaled_dot_product_attention(Q, K, V, mask)
        return head

    output1 = head_call(head1, X, X, X)
    output2 = head_call(head1, X, X, X)  # self.head1 again
    output3 = head_call(head1, X, X, X)  # self.head1 again
    output = np.concatenate([output1, output2, output3], axis=2)
    return output @ W_O  # self.linear
