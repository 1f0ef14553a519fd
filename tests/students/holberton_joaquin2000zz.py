"""Port of Joaquin2000zz/holbertonschool-machine_learning, supervised_learning/0x11-attention/5-sdp_attention.py (commit
5d046ac) and 6-multihead_attention.py (commit bc2ce69): sdp_attention and MultiHeadAttention, a student's solution
(January 2023, Holberton School Uruguay: commits at UTC-3) of Holberton School's machine learning curriculum, project
0x11 "Attention" (TensorFlow 2 / Keras): task 5 asks for `sdp_attention(Q, K, V, mask=None)` returning `output,
weights`, whose mask "can be broadcast into (..., seq_len_q, seq_len_v)" and, when given, is multiplied by -1e9 and
added to the scaled scores (the TensorFlow tutorial's convention: 1 = masked); task 6 for a Keras layer
`MultiHeadAttention(dm, h)` with `depth`, four `Dense(dm)` layers `Wq`, `Wk`, `Wv` and `linear`, and `call(Q, K, V,
mask)` on (batch, seq_len, d) inputs returning `output, weights`.

Ports scaled_dot_product_attention (sdp_attention) and multi_head_attention (MultiHeadAttention, which calls the
student's sdp_attention).

Conventions kept: sdp_attention reads `dk = Q.shape[-1]`, computes `tf.matmul(Q, K, transpose_b=True)` (any leading
axes) and divides by `tf.sqrt(tf.cast(dk, dtype=tf.float32))` (there is no scale argument); given a mask, `mask *=
tf.cast(-1e9, dtype=tf.float32)` (on a tf tensor a new tensor: the caller's mask is left alone) and `scaled += mask`
(the penalty lands where the mask is 1, i.e. on the keys a contract mask ALLOWS; a finite penalty, so a row whose
keys all get it, or none, keeps the softmax of its own scores); `tf.nn.softmax(scaled, axis=-1)` and
`tf.matmul(weights, V)`. MultiHeadAttention.__init__ sets `self.depth = dm // h` and `Dense(dm)` layers Wq, Wk, Wv and
linear; call reads `batch = tf.shape(Q)[0]`, projects Q, K and V with Wq, Wk and Wv, splits each with reshape_tensor,
`tf.reshape(x, shape=(batch, -1, self.h, self.depth))` and `tf.transpose(x, perm=[0, 2, 1, 3])` (a 4-D transpose: the
input must be (batch, seq_len, d)), calls `sdp_attention(Q, K, V, mask)` (the mask passed as given: a (batch, N, N)
mask meets the (batch, h, N, N) scores without a head axis), transposes back, `tf.reshape(outputs, (batch, -1,
self.dm))` and returns `self.linear(outputs)`.

Left out: the Dense layers' biases (zero here: the contract has none); TensorFlow's dtypes (the course feeds float32;
the port computes in the inputs' dtype, and the contract's boolean mask is used as 0/1 numbers, as numpy does); the
weights returned by MultiHeadAttention. Added for the contract only: scaled_dot_product_attention is sdp_attention
with a `scale` parameter (never read) and returns its (outputs, weights); in multi_head_attention dm is X.shape[-1]
(the model's dimensionality: the course's encoder blocks build `MultiHeadAttention(dm, h)` for inputs dm wide) and h
is num_heads; W_Q, W_K, W_V and W_O are the kernels of Wq, Wk, Wv and linear, given to the layers as Keras's
set_weights would (each Dense is built on the width it is called on, the input's for Wq, Wk and Wv and dm for linear,
and raises unless the kernel is (that width, dm): every weight must be (D, D)); self-attention passes X as Q, K and V.
"""

import numpy as np


def _softmax_last(x):  # tf.nn.softmax(x, axis=-1): exp(x - max) / sum
    e = np.exp(x - np.max(x, axis=-1, keepdims=True))
    return e / np.sum(e, axis=-1, keepdims=True)


def _dense(x, kernel, units):  # a Dense(units) layer whose kernel was set with set_weights (bias zero)
    kernel = np.asarray(kernel)
    if kernel.shape != (x.shape[-1], units):
        raise ValueError(f"Layer dense weight shape {(x.shape[-1], units)} is not compatible with provided weight "
                         f"shape {kernel.shape}.")
    return x @ kernel


def sdp_attention(Q, K, V, mask=None):
    dk = np.shape(Q)[-1]
    QKT = np.matmul(Q, np.swapaxes(K, -1, -2))  # tf.matmul(Q, K, transpose_b=True)
    scaling_factor = np.sqrt(float(dk))
    scaled = QKT / scaling_factor
    if mask is not None:
        mask = mask * -1e9  # mask *= ...: on a tf tensor a new tensor
        scaled = scaled + mask
    weights = _softmax_last(scaled)
    outputs = np.matmul(weights, V)
    return outputs, weights


def scaled_dot_product_attention(Q, K, V, mask=None, scale=None):
    return sdp_attention(Q, K, V, mask)


def multi_head_attention(X, W_Q, W_K, W_V, W_O, num_heads, mask=None):
    dm, h = X.shape[-1], num_heads
    depth = dm // h

    def reshape_tensor(x, batch):
        x = np.reshape(x, (batch, -1, h, depth))
        return np.transpose(x, (0, 2, 1, 3))

    Q = K = V = X
    batch = np.shape(Q)[0]
    Q = _dense(Q, W_Q, dm)
    K = _dense(K, W_K, dm)
    V = _dense(V, W_V, dm)
    Q = reshape_tensor(Q, batch)
    K = reshape_tensor(K, batch)
    V = reshape_tensor(V, batch)
    outputs, _weights = sdp_attention(Q, K, V, mask)
    outputs = np.transpose(outputs, (0, 2, 1, 3))
    outputs = np.reshape(outputs, (batch, -1, dm))
    return _dense(outputs, W_O, dm)
