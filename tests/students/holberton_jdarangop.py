"""Port of jdarangop/holbertonschool-machine_learning, supervised_learning/0x11-attention/5-sdp_attention.py (commit
ea6925d, "Fix scale denominator") and 6-multihead_attention.py (commit 5eb6eeb): sdp_attention and MultiHeadAttention, a
student's solution (September 2020, Holberton School Colombia: commits at UTC-5) of Holberton School's machine learning
curriculum, project 0x11 "Attention" (TensorFlow 2 / Keras): task 5 asks for `sdp_attention(Q, K, V, mask=None)`
returning `output, weights`, whose mask "can be broadcast into (..., seq_len_q, seq_len_v)" and, when given, is
multiplied by -1e9 and added to the scaled scores (the TensorFlow tutorial's convention: 1 = masked); task 6 for a Keras
layer `MultiHeadAttention(dm, h)` with `depth`, four `Dense(dm)` layers `Wq`, `Wk`, `Wv` and `linear`, and `call(Q, K,
V, mask)` on (batch, seq_len, d) inputs returning `output, weights`.

Ports scaled_dot_product_attention (sdp_attention) and multi_head_attention (MultiHeadAttention, which calls the
student's sdp_attention).

Conventions kept: sdp_attention computes `tf.linalg.matmul(Q, K, transpose_b=True)` (any leading axes), divides by
`tf.math.sqrt(dk)` with `dk = tf.cast(tf.shape(Q)[-1], tf.float32)` (there is no scale argument), given a mask adds
`mask * -1e9` (the penalty lands where the mask is 1, i.e. on the keys a contract mask ALLOWS; a finite penalty, so a
row whose keys all get it, or none, keeps the softmax of its own scores), `tf.nn.softmax(scale)` (last axis) and
`tf.linalg.matmul(softmax, V)`. MultiHeadAttention.__init__ sets `self.depth = int(dm / h)` and `Dense(units=dm)`
layers Wq, Wk, Wv and linear; call reads `batch = tf.shape(Q)[0]`, projects the queries, the keys AND the values
with the query layer (`q = self.Wq(Q)`, `k = self.Wq(K)`, `v = self.Wq(V)`: Wk and Wv are never used), splits each
with `tf.reshape(x, (batch, -1, self.h, self.depth))` and `tf.transpose(x, perm=[0, 2, 1, 3])` (a 4-D transpose: the
input must be (batch, seq_len, d)), calls `sdp_attention(q, k, v, mask)` (the mask passed as given: a (batch, N, N)
mask meets the (batch, h, N, N) scores without a head axis), transposes back to `out` (batch, seq_len, h, depth),
computes `concat = tf.reshape(out, (batch, -1, self.dm))` and `output = self.linear(concat)`, and returns `out,
weights`: the heads' outputs, neither merged nor projected (output is never used).

Left out: the Dense layers' biases (zero here: the contract has none); TensorFlow's dtypes (the course feeds float32;
the port computes in the inputs' dtype, and the contract's boolean mask is used as 0/1 numbers, as numpy does); the
weights returned by MultiHeadAttention. Added for the contract only: scaled_dot_product_attention is sdp_attention
with a `scale` parameter (never read) and returns its (output, softmax); in multi_head_attention dm is X.shape[-1]
(the model's dimensionality: the course's encoder blocks build `MultiHeadAttention(dm, h)` for inputs dm wide) and h
is num_heads; W_Q and W_O are the kernels of Wq and linear, given to the layers as Keras's set_weights would (each
Dense is built on the width it is called on, the input's for Wq and dm for linear, and raises unless the kernel is
(that width, dm): W_Q and W_O must be (D, D)); W_K and W_V would be the kernels of Wk and Wv, which call never uses;
self-attention passes X as Q, K and V.
"""

import numpy as np


def _softmax_last(x):  # tf.nn.softmax(x): exp(x - max) / sum over the last axis
    e = np.exp(x - np.max(x, axis=-1, keepdims=True))
    return e / np.sum(e, axis=-1, keepdims=True)


def _dense(x, kernel, units):  # a Dense(units) layer whose kernel was set with set_weights (bias zero)
    kernel = np.asarray(kernel)
    if kernel.shape != (x.shape[-1], units):
        raise ValueError(f"Layer dense weight shape {(x.shape[-1], units)} is not compatible with provided weight "
                         f"shape {kernel.shape}.")
    return x @ kernel


def sdp_attention(Q, K, V, mask=None):
    matmul = np.matmul(Q, np.swapaxes(K, -1, -2))  # tf.linalg.matmul(Q, K, transpose_b=True)
    dk = float(np.shape(Q)[-1])
    scale = matmul / np.sqrt(dk)
    if mask is not None:
        scale = scale + (mask * -1e9)  # += on a tf tensor: a new tensor
    softmax = _softmax_last(scale)
    output = np.matmul(softmax, V)
    return output, softmax


def scaled_dot_product_attention(Q, K, V, mask=None, scale=None):
    return sdp_attention(Q, K, V, mask)


def multi_head_attention(X, W_Q, W_K, W_V, W_O, num_heads, mask=None):
    dm, h = X.shape[-1], num_heads
    depth = int(dm / h)
    Q = K = V = X
    batch = np.shape(Q)[0]

    q = _dense(Q, W_Q, dm)  # self.Wq(Q)
    q = np.reshape(q, (batch, -1, h, depth))
    q = np.transpose(q, (0, 2, 1, 3))

    k = _dense(K, W_Q, dm)  # self.Wq(K)
    k = np.reshape(k, (batch, -1, h, depth))
    k = np.transpose(k, (0, 2, 1, 3))

    v = _dense(V, W_Q, dm)  # self.Wq(V)
    v = np.reshape(v, (batch, -1, h, depth))
    v = np.transpose(v, (0, 2, 1, 3))

    out, _weights = sdp_attention(q, k, v, mask)
    out = np.transpose(out, (0, 2, 1, 3))
    concat = np.reshape(out, (batch, -1, dm))
    _output = _dense(concat, W_O, dm)  # self.linear(concat), never returned
    return out
