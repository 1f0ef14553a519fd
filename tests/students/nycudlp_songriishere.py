"""Port of songriishere/DLP-2024-summer-NYCU, Lab5/models/Transformer/modules/layers.py (commit 5b2f204):
MultiHeadAttention (__init__ and forward), a student's solution of National Yang Ming Chiao Tung University (NYCU,
Taiwan) Deep Learning and Practice (DLP), summer 2024, lab 5 (MaskGIT for image inpainting: the students write the
bidirectional transformer's multi-head attention, "TODO1").

Ports multi_head_attention only (the lab has no other contract function).

Conventions kept: __init__(dim=768, num_heads=16, attn_drop=0.1) sets `self.head_d = dim // self.num_heads` (the
input's width D over the heads, for queries, keys AND values), `self.scale = self.head_d ** -0.5`, one fused
`self.transfer_qkv = nn.Linear(self.dim , self.num_heads * self.head_d * 3 , bias = False)` and `self.projection =
nn.Linear(self.dim, self.dim)`. forward(x) has no mask argument: `batch_size, num, dimension = x.shape` (3-D input
only), `qkv.view(batch_size, num, 3, self.num_heads, self.head_d)` and `q, k, v = qkv.permute(2, 0, 3, 1, 4)` (the
fused columns read as [q | k | v], each H heads of head_d: right when d_k = d_v = D // H),
`attention_scores = (q @ k.transpose(-2, -1)) * self.scale`, `attention_scores.softmax(dim=-1)`, dropout, then the
merge `context_layer = (attention_probs @ v).permute(1, 2, 0, 3)` (the (B, H, N, d) head outputs become (H, N, B, d):
heads first, batch last) and `context_layer.reshape(batch_size, num, dimension)` (read back as (B, N, D) in that
order: for one sequence row n holds pieces of other tokens' outputs, the (H, N, d) heads reshaped straight to (N,
H*d); with B > 1 the sequences are interleaved as well), `self.projection(context_layer)`.

Left out: dropout (off at evaluation), the projection's bias (zero here: the contract has none). Added for the
contract only: the model width `dim` is X.shape[-1] (the constructor's argument), transfer_qkv holds the fused
[W_Q | W_K | W_V] (x @ W, not loaded with a shape check: a fused width other than 3 * H * (D // H) raises at the
view, as the view would) and projection is W_O; the contract's mask is accepted and never read.
"""

import numpy as np


def _softmax_last(x):  # Tensor.softmax(dim=-1)
    e = np.exp(x - np.max(x, axis=-1, keepdims=True))
    return e / np.sum(e, axis=-1, keepdims=True)


def multi_head_attention(X, W_Q, W_K, W_V, W_O, num_heads, mask=None):
    dim = X.shape[-1]  # MultiHeadAttention(dim, num_heads)
    head_d = dim // num_heads
    scale = head_d ** -0.5
    x = X
    batch_size, num, dimension = x.shape
    qkv = x @ np.concatenate([W_Q, W_K, W_V], axis=1)  # self.transfer_qkv(x)
    qkv = qkv.reshape(batch_size, num, 3, num_heads, head_d)  # .view(...)
    q, k, v = np.transpose(qkv, (2, 0, 3, 1, 4))
    attention_scores = (q @ np.swapaxes(k, -2, -1)) * scale
    attention_probs = _softmax_last(attention_scores)
    context_layer = np.transpose(attention_probs @ v, (1, 2, 0, 3))  # .permute(1, 2, 0, 3): (H, N, B, d)
    context_layer = context_layer.reshape(batch_size, num, dimension)
    return context_layer @ W_O  # self.projection
