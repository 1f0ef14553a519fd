"""Port of Athe-kunal/cse234-w25-PA, pa1/transformer.py (commit cce843d): single_head_attention, with the student's
SoftmaxOp.compute of pa1/auto_diff.py (same commit), a student's solution of UC San Diego CSE 234 (Data Systems for
Machine Learning, winter 2025), programming assignment 1: an automatic-differentiation library (torch tensors as
values) and, with it, a single transformer layer that classifies MNIST rows. The course's transformer.py has only the
stub `transformer(...)`: single_head_attention and its signature are the student's.

Ports softmax (SoftmaxOp.compute) and multi_head_attention (single_head_attention). The contract's
scaled_dot_product_attention stays the reference's, which calls the ported softmax.

Conventions kept: SoftmaxOp.compute is `max_elems, _ = torch.max(input_values[0], dim=node.dim, keepdim=True)`,
`x_shifted = input_values[0] - max_elems`, `x_exp = torch.exp(x_shifted)`, `x_exp / torch.sum(x_exp, dim=node.dim,
keepdim=True)` (the op's `dim`, default -1; no temperature; an all -inf slice gives -inf - (-inf) = NaN).
single_head_attention(X, WQ, WK, WV, Wo, model_dim) is `Q = ad.matmul(X, WQ)`, `K = ad.transpose(ad.matmul(X, WK),
-1, -2)` (the student's TransposeOp: `input_values[0].transpose(dim1, dim0)`, the last two axes), `QK =
ad.softmax(ad.div_by_const(ad.matmul(Q, K), model_dim**0.5))`, `attn = ad.matmul(QK, ad.matmul(X, WV))`, `attn_out =
ad.matmul(attn, Wo)` (MatMulOp: `input_values[0].matmul(input_values[1])`, which broadcasts leading axes): one head
over the whole projection width, scaled by 1/sqrt(model_dim), no mask. transformer() calls it with the model_dim that
train_model passes, the width of W_Q = (input_dim, model_dim).

Left out: the rest of the transformer layer (layer norm, feed-forward, mean over the tokens). Added for the contract
only: multi_head_attention(X, W_Q, W_K, W_V, W_O, num_heads, mask=None) takes model_dim = W_Q.shape[1] and never reads
num_heads or mask; softmax takes the contract's `axis` as the op's dim and a `temperature` parameter (never read).
"""

import numpy as np


def softmax(Z, axis=-1, temperature=1.0):
    x = np.asarray(Z)
    max_elems = np.max(x, axis=axis, keepdims=True)
    x_shifted = x - max_elems
    x_exp = np.exp(x_shifted)
    return x_exp / np.sum(x_exp, axis=axis, keepdims=True)


def multi_head_attention(X, W_Q, W_K, W_V, W_O, num_heads, mask=None):
    model_dim = W_Q.shape[1]  # train_model: W_Q is (input_dim, model_dim)
    Q = X @ W_Q
    K = np.swapaxes(X @ W_K, -1, -2)  # ad.transpose(..., -1, -2)
    QK = softmax((Q @ K) / model_dim**0.5)  # ad.div_by_const(..., model_dim**0.5)
    attn = QK @ (X @ W_V)
    return attn @ W_O
