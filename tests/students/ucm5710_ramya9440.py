"""Port of Ramya9440/Machine-Learning-Homework_5, Untitled17.ipynb (commit 9fbd248): softmax and
scaled_dot_product_attention (the notebook's first cell), a student's solution of the University of Central Missouri
CS5710 (Machine Learning), fall 2025, home assignment 5, part B question 1 (scaled dot-product attention in NumPy).
The later cells (question 2, a Transformer encoder block) build on torch's nn.MultiheadAttention, a framework's
attention: nothing of them is ported.

Ports: softmax, scaled_dot_product_attention.

Conventions kept: `def softmax(x, axis=-1)` (no temperature) computes `x_shifted = x - np.max(x, axis=axis,
keepdims=True)`, `exp_x = np.exp(x_shifted)` and `exp_x / np.sum(exp_x, axis=axis, keepdims=True)` (an all -inf slice
gives NaN). `def scaled_dot_product_attention(Q, K, V, mask=None)` (no scale argument; its docstring: "Q, K, V: numpy
arrays of shape (batch_size, seq_len, d_k)", "mask: ... with 0 for valid and 1 (or True) for masked positions")
computes `d_k = K.shape[-1]`, `scores = np.matmul(Q, np.transpose(K, (0, 2, 1))) / np.sqrt(d_k)` (a transpose with
exactly three axes: 2-D or 4-D keys raise), `if mask is not None: scores = scores + (mask * -1e9)` (True = masked,
the opposite of the contract; a finite penalty ADDED to the scores, so a fully masked row keeps the softmax of its own
scores), `attention_weights = softmax(scores, axis=-1)` (the student's softmax), `context =
np.matmul(attention_weights, V)` and `return attention_weights, context` (the weights FIRST, the output second).

Left out: the notebook's shape check cell. Added for the contract only: the softmax takes a `temperature` parameter
(never read), and scaled_dot_product_attention a `scale` parameter (never read), so that the contract's calls reach
the student's code.
"""

import numpy as np


def softmax(Z, axis=-1, temperature=1.0):
    x = Z
    x_shifted = x - np.max(x, axis=axis, keepdims=True)  # subtract max for numerical stability
    exp_x = np.exp(x_shifted)
    return exp_x / np.sum(exp_x, axis=axis, keepdims=True)


def scaled_dot_product_attention(Q, K, V, mask=None, scale=None):
    d_k = K.shape[-1]
    scores = np.matmul(Q, np.transpose(K, (0, 2, 1))) / np.sqrt(d_k)  # exactly 3-D keys
    if mask is not None:
        scores = scores + (mask * -1e9)  # add large negative value to masked positions
    attention_weights = softmax(scores, axis=-1)
    context = np.matmul(attention_weights, V)
    return attention_weights, context
