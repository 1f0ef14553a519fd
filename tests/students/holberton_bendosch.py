"""Port of BenDosch/holbertonschool-machine_learning, supervised_learning/0x11-attention/5-sdp_attention.py (commit
b2d6db8, "inital transfer from colab document") and 6-multihead_attention.py (commit 65c3aad): sdp_attention and
MultiHeadAttention, a student's solution (January 2022, commits at UTC-7: a US cohort of Holberton School) of Holberton
School's machine learning curriculum, project 0x11 "Attention" (TensorFlow 2 / Keras): task 5 asks for `sdp_attention(Q,
K, V, mask=None)` returning `output, weights`, whose mask "can be broadcast into (..., seq_len_q, seq_len_v)" and, when
given, is multiplied by -1e9 and added to the scaled scores (the TensorFlow tutorial's convention: 1 = masked); task 6
for a Keras layer `MultiHeadAttention(dm, h)` with `depth`, four `Dense(dm)` layers `Wq`, `Wk`, `Wv` and `linear`, and
`call(Q, K, V, mask)` on (batch, seq_len, d) inputs returning `output, weights`.

Ports scaled_dot_product_attention (sdp_attention) and multi_head_attention (MultiHeadAttention, which calls the
student's sdp_attention).

Conventions kept: sdp_attention computes `tf.matmul(a=Q, b=K, transpose_b=True)` (any leading axes) and divides by
`tf.math.sqrt(dk)` with `dk = tf.cast(K.shape[-1], dtype=tf.float32)` (there is no scale argument); it tests the mask
with `if mask:` (the truth value of a mask of more than one entry is ambiguous and raises ValueError, as a tensor's
does; a one-entry mask is read as its value), and then adds `mask * -1e9` (the penalty lands where the mask is 1,
i.e. on the keys a contract mask ALLOWS; a finite penalty, so a row whose keys all get it, or none, keeps the softmax
of its own scores); `tf.nn.softmax(step_2)` (last axis) and `tf.matmul(a=step_4, b=V)`. MultiHeadAttention.__init__
sets `self.depth = int(dm / h)` and `Dense(dm)` layers Wq, Wk, Wv and linear; call unpacks `batch_size, seq_len_q, dq
= Q.shape` (likewise K and V: 3-D inputs only), projects Q, K and V with Wq, Wk and Wv, reshapes each projection
straight to `(batch_size, self.h, seq_len_q, self.depth)` (no transpose: the heads take consecutive blocks of the
flattened (seq_len, dm) rows, mixing tokens and heads), calls `sdp_attention(Q, K, V, mask)`, reshapes the output
(batch_size, h, seq_len, depth) straight to `(batch_size, seq_len_q, self.dm)` and applies linear.

Left out: the Dense layers' biases (zero here: the contract has none); TensorFlow's dtypes (the course feeds float32;
the port computes in the inputs' dtype, and the contract's boolean mask is used as 0/1 numbers, as numpy does); the
weights returned by MultiHeadAttention. Added for the contract only: scaled_dot_product_attention is sdp_attention
with a `scale` parameter (never read) and returns its (output, weights); in multi_head_attention dm is X.shape[-1]
(the model's dimensionality: the course's encoder blocks build `MultiHeadAttention(dm, h)` for inputs dm wide) and h
is num_heads; W_Q, W_K, W_V and W_O are the kernels of Wq, Wk, Wv and linear, given to the layers as Keras's
set_weights would (each Dense is built on the width it is called on, the input's for Wq, Wk and Wv and dm for linear,
and raises unless the kernel is (that width, dm): every weight must be (D, D)); self-attention passes X as Q, K and V.
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
    step_1 = np.matmul(Q, np.swapaxes(K, -1, -2))  # tf.matmul(a=Q, b=K, transpose_b=True)
    dk = float(np.shape(K)[-1])
    step_2 = step_1 / np.sqrt(dk)
    if mask:  # None is falsy; an array of two or more entries raises ValueError
        step_2 = step_2 + (mask * -1e9)  # += on a tf tensor: a new tensor
    step_4 = _softmax_last(step_2)  # Weights
    step_5 = np.matmul(step_4, V)  # Output
    return step_5, step_4


def scaled_dot_product_attention(Q, K, V, mask=None, scale=None):
    return sdp_attention(Q, K, V, mask)


def multi_head_attention(X, W_Q, W_K, W_V, W_O, num_heads, mask=None):
    dm, h = X.shape[-1], num_heads
    depth = int(dm / h)
    Q = K = V = X
    batch_size, seq_len_q, _dq = Q.shape
    _, _seq_len_k, _dk = K.shape
    _, _seq_len_v, _dv = V.shape
    Q = _dense(Q, W_Q, dm)
    K = _dense(K, W_K, dm)
    V = _dense(V, W_V, dm)
    Q = np.reshape(Q, (batch_size, h, seq_len_q, depth))
    K = np.reshape(K, (batch_size, h, seq_len_q, depth))
    V = np.reshape(V, (batch_size, h, seq_len_q, depth))
    output, _weights = sdp_attention(Q, K, V, mask)
    return _dense(np.reshape(output, (batch_size, seq_len_q, dm)), W_O, dm)
