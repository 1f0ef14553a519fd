"""Port of himankunaw/transformer-network, C5_W4_A1_Transformer_Subclass_v1.ipynb (commit d543000): the graded cell
UNQ_C3 scaled_dot_product_attention, a student's solution of the DeepLearning.AI Deep Learning Specialization on
Coursera, course 5 (Sequence Models), week 4, assignment 1 (Transformer Network, TensorFlow). The notebook's unit
test printed "All tests passed".

Ports: scaled_dot_product_attention (the other graded cells build Keras layers around tf.keras.layers.
MultiHeadAttention, a framework's attention; create_look_ahead_mask and create_padding_mask are the course's given
code, whose masks are 1 where a token may attend: `tf.linalg.band_part(tf.ones((1, sequence_length,
sequence_length)), -1, 0)`).

Conventions kept: `def scaled_dot_product_attention(q, k, v, mask)` (no default for mask, no scale argument);
`matmul_qk = tf.matmul(q,np.swapaxes(k,-1,-2))` (any leading axes); `dk = q.shape[-1]` and
`matmul_qk/np.sqrt(dk)` (the queries' width, d_k); `if mask is not None: scaled_attention_logits +=
(1.-mask)*(-1e9)` (1 = may attend, as the notebook says; a finite penalty ADDED to the scores, so a fully masked row
keeps the softmax of its own scores; `+=` on a tf tensor builds a new one, so the mask and the scores broadcast
together); `tf.nn.softmax(scaled_attention_logits)` (default axis=-1, stable); `output =
tf.matmul(attention_weights,v)`; `return output, attention_weights`.

Left out: nothing of the function (the student's np.sqrt keeps float64 inputs in float64 under TF too). Added for
the contract only: the parameters are named Q, K, V (the student's q, k, v) and a `scale` parameter (never read)
follows the student's mask, so that the contract's calls reach the student's code; numpy arrays are returned in place
of tf tensors.
"""

import numpy as np


def _softmax_last(x):  # tf.nn.softmax(x): axis=-1, exp(x - max) / sum
    e = np.exp(x - np.max(x, axis=-1, keepdims=True))
    return e / np.sum(e, axis=-1, keepdims=True)


def scaled_dot_product_attention(Q, K, V, mask, scale=None):
    q, k, v = Q, K, V
    matmul_qk = np.matmul(q, np.swapaxes(k, -1, -2))  # tf.matmul(q,np.swapaxes(k,-1,-2))
    dk = q.shape[-1]
    scaled_attention_logits = matmul_qk / np.sqrt(dk)
    if mask is not None:
        scaled_attention_logits = scaled_attention_logits + (1. - mask) * (-1e9)  # += on a tf tensor: a new tensor
    attention_weights = _softmax_last(scaled_attention_logits)
    output = np.matmul(attention_weights, v)
    return output, attention_weights
