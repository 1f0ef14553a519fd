"""Port of GenBravo/DLAI-C5-Sequence-Models, C5_W4_A1_Transformer_Subclass_v1.ipynb (commit fb1b73b): the graded
cell UNQ_C3 scaled_dot_product_attention, a student's solution of the DeepLearning.AI Deep Learning Specialization on
Coursera, course 5 (Sequence Models), week 4, assignment 1 (Transformer Network, TensorFlow). The notebook's unit
test printed "All tests passed" (its k is a square 4 x 4 matrix).

Ports: scaled_dot_product_attention (the other graded cells build Keras layers around tf.keras.layers.
MultiHeadAttention, a framework's attention; create_look_ahead_mask and create_padding_mask are the course's given
code).

Conventions kept: `def scaled_dot_product_attention(q, k, v, mask)` (no default for mask, no scale argument);
`matmul_qk = tf.matmul(q,k.T)` (the course passes numpy arrays, whose `.T` reverses EVERY axis: only 2-D keys are
transposed right; with leading axes the product raises, as tf.matmul would, unless the reversed shapes happen to fit);
`dk =  float(k.shape[0])` and `scaled_attention_logits = matmul_qk / tf.sqrt(dk)` (1/sqrt of the keys' FIRST axis:
the number of keys for 2-D keys, not their width); `if mask is not None: scaled_attention_logits += (1. - mask) *
-1.0e9` (the course's convention, 1 = may attend; a finite penalty ADDED to the scores: a fully masked row keeps the
softmax of its own scores; `+=` on a tf tensor builds a new one, so the mask and the scores broadcast together);
`tf.keras.activations.softmax(scaled_attention_logits, axis=-1)` (subtracts the max: stable);
`output = tf.matmul(attention_weights, v)`; `return output, attention_weights`.

Left out: TensorFlow's dtypes (the course feeds float32; the student's float dk is a float32 tensor, which TF would
refuse to divide float64 scores by: the port computes everything in the inputs' dtype). Added for the contract only:
the parameters are named Q, K, V (the student's q, k, v) and a `scale` parameter (never read) follows the student's
mask, so that the contract's calls reach the student's code; numpy arrays are returned in place of tf tensors.
"""

import numpy as np


def _softmax_last(x):  # tf.keras.activations.softmax(x, axis=-1): exp(x - max) / sum
    e = np.exp(x - np.max(x, axis=-1, keepdims=True))
    return e / np.sum(e, axis=-1, keepdims=True)


def scaled_dot_product_attention(Q, K, V, mask, scale=None):
    q, k, v = Q, K, V
    matmul_qk = np.matmul(q, k.T)  # tf.matmul(q,k.T): .T reverses every axis
    dk = float(k.shape[0])
    scaled_attention_logits = matmul_qk / np.sqrt(dk)
    if mask is not None:
        scaled_attention_logits = scaled_attention_logits + (1. - mask) * -1.0e9  # += on a tf tensor: a new tensor
    attention_weights = _softmax_last(scaled_attention_logits)
    output = np.matmul(attention_weights, v)
    return output, attention_weights
