"""Port of kwkwkwkak/NYCU-DeepLearningCourse, Lab3/models/Transformer/modules/layers.py (commit 5c66b85):
MultiHeadAttention (__init__ and forward), a student's solution of National Yang Ming Chiao Tung University (NYCU,
Taiwan) Deep Learning and Practice (DLP), spring 2025, lab 3 (MaskGIT for image inpainting: the students write the
bidirectional transformer's multi-head attention, "TODO1").

Ports multi_head_attention only (the lab has no other contract function).

Conventions kept: __init__(dim=768, num_heads=16, attn_drop=0.1) sets one fused `self.generate_qkv = nn.Linear(dim, 3
* dim)`, `self.dim = dim`, `self.sqrt_d_k = math.sqrt(dim // num_heads)` (the input's width D over the heads) and
`self.output_linear = nn.Linear(dim, dim)`. forward(x) has no mask argument: `batch_size, num_toks = x.shape[0],
x.shape[1]` (the input is read as (B, N, D)), `qkv = torch.reshape(qkv, (batch_size, num_toks, self.num_heads,
-1)).swapaxes(1, 2)` (head h takes the fused columns [h*c, (h+1)*c), c = the fused width / H, i.e. a contiguous block
of [q | k | v] that lies mostly inside the queries' columns when H > 1), then `q, k, v = torch.chunk(qkv, 3, -1)`
(each head's block cut into thirds: q, k and v are three neighbouring pieces of it, not the head's columns of W_Q,
W_K and W_V; torch.chunk takes pieces of ceil(c / 3) columns, so a block that does not give three pieces raises at
the unpacking and uneven widths leave v narrower), `QK_T = q.matmul(k.transpose(2, 3)) / self.sqrt_d_k`,
`nn.functional.softmax(QK_T, dim=-1)`, dropout, `SQK_T.matmul(v).swapaxes(1, 2).reshape(batch_size, num_toks,
self.dim)` (merged into the input's width D) and `self.output_linear(result_weights)`.

Left out: dropout (off at evaluation), the Linear layers' biases (zero here: the contract has none). Added for the
contract only: `dim` is X.shape[-1] (the constructor's argument), generate_qkv holds the fused [W_Q | W_K | W_V] (x @
W, not loaded with a shape check) and output_linear is W_O; the contract's mask is accepted and never read.
"""

import math

import numpy as np


def _softmax_last(x):  # nn.functional.softmax(dim=-1)
    e = np.exp(x - np.max(x, axis=-1, keepdims=True))
    return e / np.sum(e, axis=-1, keepdims=True)


def _chunk(t, chunks, dim):  # torch.chunk: pieces of ceil(size / chunks), as many as fit (possibly fewer)
    size = t.shape[dim]
    step = -(-size // chunks)
    return tuple(np.take(t, np.arange(i, min(i + step, size)), axis=dim) for i in range(0, size, step))


def multi_head_attention(X, W_Q, W_K, W_V, W_O, num_heads, mask=None):
    dim = X.shape[-1]  # MultiHeadAttention(dim, num_heads)
    sqrt_d_k = math.sqrt(dim // num_heads)
    x = X
    batch_size, num_toks = x.shape[0], x.shape[1]
    qkv = x @ np.concatenate([W_Q, W_K, W_V], axis=1)  # self.generate_qkv(x)
    qkv = np.swapaxes(np.reshape(qkv, (batch_size, num_toks, num_heads, -1)), 1, 2)
    q, k, v = _chunk(qkv, 3, -1)
    QK_T = np.matmul(q, np.swapaxes(k, 2, 3)) / sqrt_d_k
    SQK_T = _softmax_last(QK_T)
    result_weights = np.swapaxes(np.matmul(SQK_T, v), 1, 2).reshape(batch_size, num_toks, dim)
    return result_weights @ W_O  # self.output_linear
