"""Port of vasudeva4040/Homework5, Homework05.ipynb (commit 859d8ab): softmax and scaled_dot_product_attention (the
notebook's cell Q1), a student's solution of the University of Central Missouri CS5710 (Machine Learning), fall 2025,
homework 5, part B question 1 (scaled dot-product attention in NumPy). Cell Q2 (a Transformer encoder block) builds
on torch's nn.MultiheadAttention, a framework's attention: nothing of it is ported.

Ports: softmax, scaled_dot_product_attention.

Conventions kept: `def softmax(x, axis=-1)` (no temperature) computes `x = x - np.max(x, axis=axis, keepdims=True)`
(a new array: the input is not written), `exp_x = np.exp(x)` and `exp_x / np.sum(exp_x, axis=axis, keepdims=True)`
(an all -inf slice gives NaN). `def scaled_dot_product_attention(Q, K, V)` (no mask, no scale argument) computes `d_k
= Q.shape[-1]`, `scores = np.matmul(Q, np.swapaxes(K, -1, -2)) / np.sqrt(d_k)` (any leading axes), `attention_weights
= softmax(scores, axis=-1)` (the student's softmax), `context = np.matmul(attention_weights, V)` and `return
attention_weights, context` (the weights FIRST, the output second).

Left out: the example run under `if __name__ == "__main__"`. Added for the contract only: the softmax takes a
`temperature` parameter (never read), and scaled_dot_product_attention a `mask` and a `scale` parameter (never read),
so that the contract's calls reach the student's code.
"""

import numpy as np


def softmax(Z, axis=-1, temperature=1.0):
    x = Z
    x = x - np.max(x, axis=axis, keepdims=True)
    exp_x = np.exp(x)
    return exp_x / np.sum(exp_x, axis=axis, keepdims=True)


def scaled_dot_product_attention(Q, K, V, mask=None, scale=None):
    d_k = Q.shape[-1]
    scores = np.matmul(Q, np.swapaxes(K, -1, -2)) / np.sqrt(d_k)  # (batch, seq_q, seq_k)
    attention_weights = softmax(scores, axis=-1)  # convert scores to attention weights
    context = np.matmul(attention_weights, V)  # weighted sum over values: (batch, seq_q, d_v)
    return attention_weights, context
