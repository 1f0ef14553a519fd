"""Port of Akhil0702/HW_5, Q1.py (commit 1d1b880): softmax and scaled_dot_product_attention, a student's solution of
the University of Central Missouri CS5710 (Machine Learning), fall 2025, home assignment 5, part B question 1
(scaled dot-product attention in NumPy). Question 2 (Q2.py, a Transformer encoder block) builds on torch's
nn.MultiheadAttention, a framework's attention: nothing of it is ported.

Ports: softmax, scaled_dot_product_attention.

Conventions kept: `def softmax(x, axis=-1)` (no temperature) computes `x_max = np.max(x, axis=axis, keepdims=True)`,
`e_x = np.exp(x - x_max)` and `e_x / np.sum(e_x, axis=axis, keepdims=True)` (an all -inf slice gives -inf - (-inf) =
NaN). `def scaled_dot_product_attention(Q, K, V)` (no mask, no scale argument; its docstring says Q is (seq_len_q,
d_k)) computes `scores = np.matmul(Q, K.T)` (numpy's .T reverses EVERY axis: right for 2-D keys only; with leading
axes the product raises or mixes the batch), `d_k = K.shape[-1]`, `scores = scores / np.sqrt(d_k)`, `attn_weights =
softmax(scores, axis=-1)` (the student's softmax), `context = np.matmul(attn_weights, V)` and `return attn_weights,
context` (the weights FIRST, the output second).

Left out: the `__main__` test. Added for the contract only: the softmax takes a `temperature` parameter (never read),
and scaled_dot_product_attention a `mask` and a `scale` parameter (never read), so that the contract's calls reach the
student's code.
"""

import numpy as np


def softmax(Z, axis=-1, temperature=1.0):
    x = Z
    x_max = np.max(x, axis=axis, keepdims=True)  # subtract max for numerical stability
    e_x = np.exp(x - x_max)
    return e_x / np.sum(e_x, axis=axis, keepdims=True)


def scaled_dot_product_attention(Q, K, V, mask=None, scale=None):
    scores = np.matmul(Q, K.T)  # .T reverses every axis
    d_k = K.shape[-1]
    scores = scores / np.sqrt(d_k)
    attn_weights = softmax(scores, axis=-1)
    context = np.matmul(attn_weights, V)
    return attn_weights, context
