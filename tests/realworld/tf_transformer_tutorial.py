"""Port of tensorflow/docs, site/en/tutorials/text/transformer.ipynb: scaled_dot_product_attention,
create_look_ahead_mask, MultiHeadAttention.split_heads/call.

Conventions kept: the mask marks what is HIDDEN (1 = masked) and is added as `logits += mask * -1e9`;
the look-ahead mask is `1 - band_part(ones, -1, 0)` (float, top-left); dk = tf.shape(k)[-1];
MultiHeadAttention uses depth = d_model // num_heads and `reshape(batch_size, -1, num_heads, depth)`.
"""

import numpy as np


def causal_mask(n_q, n_k=None):
    n_k = n_q if n_k is None else n_k
    return 1 - np.tril(np.ones((n_q, n_k)))


def scaled_dot_product_attention(Q, K, V, mask=None, scale=None):
    matmul_qk = Q @ np.swapaxes(K, -1, -2)
    dk = float(K.shape[-1])
    scaled_attention_logits = matmul_qk / np.sqrt(dk)
    if mask is not None:
        scaled_attention_logits = scaled_attention_logits + (mask * -1e9)
    e = np.exp(scaled_attention_logits - scaled_attention_logits.max(axis=-1, keepdims=True))
    attention_weights = e / e.sum(axis=-1, keepdims=True)
    return attention_weights @ V, attention_weights


def multi_head_attention(X, W_Q, W_K, W_V, W_O, num_heads, mask=None):
    batch_size, depth = X.shape[0], X.shape[-1] // num_heads

    def split_heads(x):
        return np.transpose(x.reshape(batch_size, -1, num_heads, depth), (0, 2, 1, 3))

    q, k, v = split_heads(X @ W_Q), split_heads(X @ W_K), split_heads(X @ W_V)
    attention, _ = scaled_dot_product_attention(q, k, v, mask)
    attention = np.transpose(attention, (0, 2, 1, 3)).reshape(batch_size, -1, num_heads * depth)
    return attention @ W_O
