"""Port of YuMiao329/deep-learning-codes, C5_W4_A1_Transformer_Subclass_v1.ipynb (commit 1910487): the graded cell
UNQ_C3 scaled_dot_product_attention, a student's solution of the DeepLearning.AI Deep Learning Specialization on
Coursera, course 5 (Sequence Models), week 4, assignment 1 (Transformer Network, TensorFlow), in the course's 2021
version. The notebook's unit test printed "All tests passed" (its k is a square 4 x 4 matrix).

Ports: scaled_dot_product_attention (the other graded cells build Keras layers around tf.keras.layers.
MultiHeadAttention, a framework's attention; create_look_ahead_mask and create_padding_mask are the course's given
code, which in this version mark with 1 the keys that may NOT be attended: `mask = 1 -
tf.linalg.band_part(tf.ones((size, size)), -1, 0)`, and the notebook says "Multiply it by -1e9").

Conventions kept: `def scaled_dot_product_attention(q, k, v, mask)` (no default for mask, no scale argument);
`matmul_qk = tf.matmul(q,np.transpose(k))` (np.transpose with no axes reverses EVERY axis: only 2-D keys are
transposed right; with leading axes the product raises, as tf.matmul would, unless the reversed shapes happen to
fit); `dk = tf.cast(tf.shape(k)[-1], tf.float32)` and `matmul_qk / tf.math.sqrt(dk)`; `if mask is not None:
scaled_attention_logits += (mask * -1e9)` (True / 1 = masked: the course's polarity of the time, the opposite of the
contract's; a finite penalty ADDED to the scores, so a fully masked row keeps the softmax of its own scores; `+=` on a
tf tensor builds a new one, so the mask and the scores broadcast together);
`tf.keras.activations.softmax(scaled_attention_logits,axis=-1)` (stable); `output = tf.matmul(attention_weights,v)`;
`return output, attention_weights`.

Left out: the student's `print(attention_weights)` (a debugging print, no effect on the values) and TensorFlow's
dtypes (the course feeds float32; TF would refuse to divide float64 scores by the float32 sqrt(dk): the port computes
everything in the inputs' dtype). Added for the contract only: the parameters are named Q, K, V (the student's q, k,
v) and a `scale` parameter (never read) follows the student's mask, so that the contract's calls reach the student's
code; numpy arrays are returned in place of tf tensors.
"""

import numpy as np


def _softmax_last(x):  # tf.keras.activations.softmax(x, axis=-1): exp(x - max) / sum
    e = np.exp(x - np.max(x, axis=-1, keepdims=True))
    return e / np.sum(e, axis=-1, keepdims=True)


def scaled_dot_product_attention(Q, K, V, mask, scale=None):
    q, k, v = Q, K, V
    matmul_qk = np.matmul(q, np.transpose(k))  # tf.matmul(q,np.transpose(k)): every axis reversed
    dk = float(np.shape(k)[-1])
    scaled_attention_logits = matmul_qk / np.sqrt(dk)
    if mask is not None:
        scaled_attention_logits = scaled_attention_logits + (mask * -1e9)  # += on a tf tensor: a new tensor
    attention_weights = _softmax_last(scaled_attention_logits)
    output = np.matmul(attention_weights, v)
    return output, attention_weights
