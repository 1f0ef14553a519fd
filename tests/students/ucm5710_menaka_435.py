"""Port of Menaka-435/Assignment5_Machine_Learning, simple_transformer_encoder.py (commit 63c48c7): softmax and
scaled_dot_product_attention, a student's solution of the University of Central Missouri CS5710 (Machine Learning),
fall 2025, home assignment 5, part B question 1 (scaled dot-product attention in NumPy; the student's two files are
named the other way round: scaled_dot_product_attention.py holds the question 2 encoder block, built on torch's
nn.MultiheadAttention, a framework's attention, of which nothing is ported).

Ports: softmax, scaled_dot_product_attention.

Conventions kept: `def softmax(x)` (no axis, no temperature) returns `exp_x / np.sum(exp_x, axis=-1, keepdims=True)`
with `exp_x = np.exp(x - np.max(x, axis=-1, keepdims=True))` (always the last axis; an all -inf slice gives NaN).
`def scaled_dot_product_attention(Q, K, V)` (no mask, no scale argument; its docstring says "Q, K, V are numpy arrays
of shape (seq_len, d_k)") computes `scores = np.matmul(Q, K.T)` (numpy's .T reverses EVERY axis: right for 2-D keys
only; with leading axes the product raises or mixes the batch), `d_k = Q.shape[-1]`, `scaled_scores = scores /
np.sqrt(d_k)`, `attention_weights = softmax(scaled_scores)`, `context_vector = np.matmul(attention_weights, V)` and
`return attention_weights, context_vector` (the weights FIRST, the output second).

Left out: the example run at the end of the file. Added for the contract only: the softmax takes `axis` and
`temperature` parameters (never read), and scaled_dot_product_attention a `mask` and a `scale` parameter (never read),
so that the contract's calls reach the student's code.
"""

import numpy as np


def softmax(Z, axis=-1, temperature=1.0):
    x = Z
    exp_x = np.exp(x - np.max(x, axis=-1, keepdims=True))
    return exp_x / np.sum(exp_x, axis=-1, keepdims=True)


def scaled_dot_product_attention(Q, K, V, mask=None, scale=None):
    scores = np.matmul(Q, K.T)  # .T reverses every axis
    d_k = Q.shape[-1]
    scaled_scores = scores / np.sqrt(d_k)
    attention_weights = softmax(scaled_scores)
    context_vector = np.matmul(attention_weights, V)
    return attention_weights, context_vector
