"""Port of wongsingfo/cse234-w25-PA, pa1/transformer.py (commit 497e1f3): linear and single_head_attention, with the
student's SoftmaxOp.compute of pa1/auto_diff.py (same commit), a student's solution of UC San Diego CSE 234 (Data
Systems for Machine Learning, winter 2025), programming assignment 1: an automatic-differentiation library (torch
tensors as values) and, with it, a single transformer layer that classifies MNIST rows. The course's transformer.py
has only the stub `transformer(...)`: the attention, its helpers and their signatures are the student's.

Ports softmax (SoftmaxOp.compute) and multi_head_attention (single_head_attention with the student's linear). The
contract's scaled_dot_product_attention stays the reference's, which calls the ported softmax.

Conventions kept: SoftmaxOp.compute is `x_max = x.max(dim=node.dim, keepdim=True)[0]`, `exp_x = torch.exp(x -
x_max)`, `exp_x / exp_x.sum(dim=node.dim, keepdim=True)` (the op's `dim`, default -1; no temperature; an all -inf slice
gives -inf - (-inf) = NaN). linear(X, W, b, batch_size, seq_length, in_dim, out_dim) is `W_ = ad.broadcast(W,
input_shape=(in_dim, out_dim), target_shape=(batch_size, in_dim, out_dim))` (the course's BroadcastOp:
`input_values[0].expand(target_shape)`) and `XW = ad.matmul(X, W_)` (the student's MatMulOp: `input_values[0] @
input_values[1]`). single_head_attention(X, WQ, WK, WV, WO, batch_size, seq_length, in_dim, hidden_dim, out_dim) is
`Q = linear(X, WQ, None, batch_size, seq_length, in_dim, hidden_dim)`, the same for K and for V (V too is expanded to
hidden_dim columns: raises unless W_V is as wide as W_Q), `QK = ad.matmul(Q, ad.transpose(K, 1, 2)) /
np.sqrt(hidden_dim)` (TransposeOp: `input_values[0].transpose(node.dim0, node.dim1)`: axes 1 and 2, a 3-D input),
`QK_softmax = ad.softmax(QK)`, `QKV = ad.matmul(QK_softmax, V)`, `O = linear(QKV, WO, None, batch_size, seq_length,
hidden_dim, out_dim)`: one head over the whole projection width, no mask.

Left out: the rest of the transformer layer (layer norms, feed-forward, mean over the tokens) and the node renaming.
Added for the contract only: multi_head_attention(X, W_Q, W_K, W_V, W_O, num_heads, mask=None) reads the sizes that
the course's train_model passes from a (batch_size, seq_length, in_dim) X, takes hidden_dim = W_Q.shape[1] (the
course's W_Q is (input_dim, model_dim)) and out_dim = W_O.shape[1], and never reads num_heads or mask; softmax takes
the contract's `axis` as the op's dim and a `temperature` parameter (never read).
"""

import numpy as np


def softmax(Z, axis=-1, temperature=1.0):
    x = np.asarray(Z)
    x_max = np.max(x, axis=axis, keepdims=True)  # x.max(dim=node.dim, keepdim=True)[0]
    exp_x = np.exp(x - x_max)
    return exp_x / np.sum(exp_x, axis=axis, keepdims=True)


def _linear(X, W, b, batch_size, seq_length, in_dim, out_dim):
    W_ = np.broadcast_to(W, (batch_size, in_dim, out_dim))  # ad.broadcast: torch's expand
    XW = X @ W_  # (batch_size, seq_length, out_dim)
    if b is not None:
        XW = XW + np.broadcast_to(b, (batch_size, seq_length, out_dim))
    return XW


def multi_head_attention(X, W_Q, W_K, W_V, W_O, num_heads, mask=None):
    batch_size, seq_length, in_dim = X.shape  # the sizes train_model passes
    hidden_dim, out_dim = W_Q.shape[1], W_O.shape[1]
    Q = _linear(X, W_Q, None, batch_size, seq_length, in_dim, hidden_dim)
    K = _linear(X, W_K, None, batch_size, seq_length, in_dim, hidden_dim)
    V = _linear(X, W_V, None, batch_size, seq_length, in_dim, hidden_dim)
    QK = (Q @ np.swapaxes(K, 1, 2)) / np.sqrt(hidden_dim)  # ad.transpose(K, 1, 2)
    QK_softmax = softmax(QK)
    QKV = QK_softmax @ V
    return _linear(QKV, W_O, None, batch_size, seq_length, hidden_dim, out_dim)
