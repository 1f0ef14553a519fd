"""Port of Jenishhd/cse234-w25-PA, pa1/transformer.py (commit e752d09): the attention of transformer(), with the
student's SoftmaxOp.compute of pa1/auto_diff.py (same commit), a student's solution of UC San Diego CSE 234 (Data
Systems for Machine Learning, winter 2025), programming assignment 1: an automatic-differentiation library (torch
tensors as values) and, with it, a single transformer layer that classifies MNIST rows. The course's transformer.py
has only the stub `transformer(...)`: the attention in it is the student's.

Ports softmax (SoftmaxOp.compute) and multi_head_attention (the attention lines of transformer()). The contract's
scaled_dot_product_attention stays the reference's, which calls the ported softmax.

Conventions kept: SoftmaxOp.compute is `torch.softmax(x, dim=dimension)` with `dimension = node.attrs["dim"]` (default
-1; no temperature; torch gives NaN on an all -inf slice). transformer(X, nodes, model_dim, seq_length, eps,
batch_size, num_classes) begins `Q = ad.matmul(X, w_q)`, `K = ad.matmul(X, w_k)`, `V = ad.matmul(X, w_v)`, `K_t =
ad.transpose(K, 1, 2)` (the student's TransposeOp: `in_tensor.transpose(dim0, dim1)`: axes 1 and 2, a 3-D input; a 2-D
one raises), `scores = ad.matmul(Q, K_t)`, `scale = model_dim ** 0.5`, `scaled_scores = ad.div_by_const(scores,
scale)`, `attn_weights = ad.softmax(scaled_scores, dim=-1)`, `context = ad.matmul(attn_weights, V)`, `attn_output =
ad.matmul(context, w_o)` (MatMulOp: `input_values[0] @ input_values[1]`): one head over the whole projection width,
scaled by 1/sqrt(model_dim), no mask. train_model passes model_dim = 128, the width of W_Q = (input_dim, model_dim).

Left out: the rest of transformer() (the sum over the tokens divided by seq_length, the feed-forward layers).
Added for the contract only: multi_head_attention(X, W_Q, W_K, W_V, W_O, num_heads, mask=None) takes model_dim =
W_Q.shape[1] and never reads num_heads or mask, and returns attn_output; softmax takes the contract's `axis` as the op's
dim and a `temperature` parameter (never read).
"""

import numpy as np


def softmax(Z, axis=-1, temperature=1.0):  # torch.softmax(x, dim=dimension)
    x = np.asarray(Z)
    e = np.exp(x - np.max(x, axis=axis, keepdims=True))
    return e / np.sum(e, axis=axis, keepdims=True)


def multi_head_attention(X, W_Q, W_K, W_V, W_O, num_heads, mask=None):
    model_dim = W_Q.shape[1]  # train_model: W_Q is (input_dim, model_dim)
    Q = X @ W_Q
    K = X @ W_K
    V = X @ W_V
    K_t = np.swapaxes(K, 1, 2)  # ad.transpose(K, 1, 2)
    scores = Q @ K_t
    scale = model_dim**0.5
    scaled_scores = scores / scale
    attn_weights = softmax(scaled_scores, axis=-1)
    context = attn_weights @ V
    return context @ W_O
