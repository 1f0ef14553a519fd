"""Port of Toubat/cse234-w25-PA, pa1/transformer.py (commit 6e8066c): linear and single_head_attention, with the
student's SoftmaxOp.compute of pa1/auto_diff.py (commit 1b13460), a student's solution of UC San Diego CSE 234 (Data
Systems for Machine Learning, winter 2025), programming assignment 1: an automatic-differentiation library (torch
tensors as values) and, with it, a single transformer layer that classifies MNIST rows. The course's transformer.py
has only the stub `transformer(...)`: linear, single_head_attention and their signatures are the student's.

Ports softmax (SoftmaxOp.compute) and multi_head_attention (single_head_attention with the student's linear). The
contract's scaled_dot_product_attention stays the reference's, which calls the ported softmax.

Conventions kept: SoftmaxOp.compute is `softmax_pytorch(x, dim=dim)` (`from torch.nn.functional import softmax as
softmax_pytorch`; the op's `dim`, default -1; no temperature; NaN on an all -inf slice). linear(batch_size, in_dim,
hidden_dim, out_dim, X, W, b=None) is `W = ad.unsqueeze(W, 0)`, `W = ad.broadcast(W, input_shape=[1, hidden_dim,
out_dim], target_shape=[batch_size, hidden_dim, out_dim])` (the course's BroadcastOp: `input_values[0].expand(
target_shape)`, which raises unless W's rows number hidden_dim and its columns out_dim) and `ad.matmul(X, W)`.
single_head_attention(X, W_q, W_k, W_v, W_o, batch_size, seq_length, model_dim) calls `linear(batch_size, seq_length,
seq_length, model_dim, X, W_q)` (and W_k, W_v): the projections are expanded to (batch_size, seq_length, model_dim),
the number of tokens standing for the input width (both 28 for MNIST rows): it raises unless X's width D equals its
number of tokens N, and unless W_V is as wide as W_Q; then `ad.matmul(Q, ad.transpose(K, 1, 2)) / sqrt(model_dim)`
(math.sqrt; axes 1 and 2 of a 3-D input), `ad.softmax(out, dim=2)`, `ad.matmul(out, V)`, and `linear(batch_size,
seq_length, model_dim, model_dim, out, W_o)`: W_o expanded to (batch_size, model_dim, model_dim), which raises unless
W_O is (model_dim, model_dim). One head over the whole projection width, no mask.

Left out: the rest of transformer() (layer norms with residuals, feed-forward, mean over the tokens). Added for the
contract only: multi_head_attention(X, W_Q, W_K, W_V, W_O, num_heads, mask=None) reads batch_size and seq_length (the
values train_model passes) from a (batch_size, seq_length, D) X, takes model_dim = W_Q.shape[1] (train_model's W_Q is
(input_dim, model_dim)) and never reads num_heads or mask; softmax takes the contract's `axis` as the op's dim and a
`temperature` parameter (never read).
"""

from math import sqrt

import numpy as np


def softmax(Z, axis=-1, temperature=1.0):  # torch.nn.functional.softmax(x, dim=dim)
    x = np.asarray(Z)
    e = np.exp(x - np.max(x, axis=axis, keepdims=True))
    return e / np.sum(e, axis=axis, keepdims=True)


def _linear(batch_size, in_dim, hidden_dim, out_dim, X, W, b=None):
    W = W[None]  # ad.unsqueeze(W, 0): (1, hidden_dim, out_dim)
    W = np.broadcast_to(W, (batch_size, hidden_dim, out_dim))  # ad.broadcast: torch's expand
    if b is None:
        return X @ W
    b = np.broadcast_to(b[None, None], (batch_size, in_dim, out_dim))
    return X @ W + b


def multi_head_attention(X, W_Q, W_K, W_V, W_O, num_heads, mask=None):
    batch_size, seq_length, _ = X.shape  # the sizes train_model passes
    model_dim = W_Q.shape[1]
    Q = _linear(batch_size, seq_length, seq_length, model_dim, X, W_Q)
    K = _linear(batch_size, seq_length, seq_length, model_dim, X, W_K)
    V = _linear(batch_size, seq_length, seq_length, model_dim, X, W_V)
    out = (Q @ np.swapaxes(K, 1, 2)) / sqrt(model_dim)  # ad.transpose(K, 1, 2)
    out = softmax(out, axis=2)
    out = out @ V
    return _linear(batch_size, seq_length, model_dim, model_dim, out, W_O)
