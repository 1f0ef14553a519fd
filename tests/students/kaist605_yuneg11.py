"""Port of yuneg11-archive/KAIST-AI605-Transformer, lib/nn/activation.py (commit 73a6ef1, "Implement transformer", 19
November 2021; the same class is the "Attention" cell of transformer.ipynb at commit 7868255): MultiheadAttention, a
student's solution of KAIST's AI605 Deep Learning for NLP (fall 2021), assignment 3 "Transformer" (part 2: after going
through The Annotated Transformer, build Transformer models for toy tasks, copying digits and the like, whose code, data
and training the students write; this student wrote a PyTorch-compatible Transformer of their own, with a
MultiheadAttention class in the place of torch.nn.MultiheadAttention, batch_first=True, that its encoder and decoder
layers call as `self.self_attn(src, src, src, attn_mask=src_mask, key_padding_mask=src_key_padding_mask)[0]`).

Ports multi_head_attention (MultiheadAttention.forward).

Conventions kept: MultiheadAttention(embed_dim, num_heads, dropout=0.) sets `self.head_dim = embed_dim // num_heads`,
`self.head_dim_scale = math.sqrt(self.head_dim)`, asserts `self.head_dim * num_heads == self.embed_dim`, and holds
`in_proj_weight` of shape (3 * embed_dim, embed_dim), `in_proj_bias` and `out_proj = nn.Linear(embed_dim, embed_dim)`
(PyTorch's own parametrisation); forward(query, key, value, key_padding_mask=None, attn_mask=None) reads `batch_size,
tgt_len, _ = query.shape` (3-D only), cuts `w_q, w_k, w_v = self.in_proj_weight.chunk(3)`, projects `F.linear(
query.transpose(0, 1), w_q, b_q).reshape(-1, batch_size * self.num_heads, self.head_dim).transpose(0, 1)` (and so for
key and value: every head head_dim wide), turns a boolean attn_mask into an additive one, `torch.zeros_like(attn_mask,
dtype=torch.float).masked_fill_(attn_mask, float("-inf"))` (torch.nn.MultiheadAttention's polarity: True = masked),
computes `torch.bmm(query, key.transpose(-2, -1)) / self.head_dim_scale`, adds the mask in place, `attn += attn_mask`
(against the (batch * heads, tgt_len, src_len) scores), `F.softmax(attn, dim=-1)` (an all -inf row is NaN),
`torch.bmm(attn, value)`, merges with `attn.transpose(0, 1).reshape(tgt_len, batch_size, self.embed_dim)` (the input's
width), applies out_proj and transposes back to (batch, tgt_len, embed_dim); it returns `(attn, None)`.

Left out: dropout (0 at evaluation), the biases (initialised to 0; the contract has none), the key_padding_mask path
(the contract has no padding mask), float32 arithmetic. Added for the contract only: multi_head_attention(X, W_Q, W_K,
W_V, W_O, num_heads, mask) is MultiheadAttention(embed_dim = X.shape[-1], num_heads).forward(X, X, X, attn_mask=mask)[0]
(the encoder layer's self-attention call, the contract's mask passed as attn_mask as the encoder passes src_mask) with
W_Q.T, W_K.T and W_V.T copied into the three (embed_dim, embed_dim) chunks of in_proj_weight and W_O.T into out_proj's
weight (x @ W for F.linear's x @ weight.T: a weight that is not (D, D) raises, as the copy does).
"""

import math

import numpy as np


def _softmax(x, axis):  # F.softmax: an all -inf slice is -inf - (-inf) = NaN
    E = np.exp(x - np.max(x, axis=axis, keepdims=True))
    return E / np.sum(E, axis=axis, keepdims=True)


def _copied(W, shape):  # W.T copied into a parameter (or a chunk of one) of shape `shape`
    W = np.asarray(W)
    if W.T.shape != shape:
        raise RuntimeError(f"The size of tensor a {shape} must match the size of tensor b {W.T.shape}")
    return W.T


def multi_head_attention(X, W_Q, W_K, W_V, W_O, num_heads, mask=None):
    embed_dim = X.shape[-1]
    head_dim = embed_dim // num_heads
    head_dim_scale = math.sqrt(head_dim)
    assert head_dim * num_heads == embed_dim, "embed_dim must be divisible by num_heads"
    in_proj_weight = np.concatenate([_copied(W, (embed_dim, embed_dim)) for W in (W_Q, W_K, W_V)])
    out_proj_weight = _copied(W_O, (embed_dim, embed_dim))

    query = key = value = np.asarray(X)
    attn_mask = None if mask is None else np.asarray(mask)
    key_padding_mask = None

    batch_size, tgt_len, _ = query.shape
    _, _src_len, _ = key.shape  # src_len: read by the key_padding_mask path only

    w_q, w_k, w_v = np.split(in_proj_weight, 3)  # in_proj_weight.chunk(3)
    query = np.swapaxes((np.swapaxes(query, 0, 1) @ w_q.T).reshape(-1, batch_size * num_heads, head_dim), 0, 1)
    key = np.swapaxes((np.swapaxes(key, 0, 1) @ w_k.T).reshape(-1, batch_size * num_heads, head_dim), 0, 1)
    value = np.swapaxes((np.swapaxes(value, 0, 1) @ w_v.T).reshape(-1, batch_size * num_heads, head_dim), 0, 1)

    if key_padding_mask is not None:  # never taken: the contract has no padding mask
        raise NotImplementedError

    if attn_mask is not None and attn_mask.dtype == bool:
        attn_mask = np.where(attn_mask, -np.inf, 0.0)  # zeros_like(...).masked_fill_(attn_mask, float("-inf"))

    attn = query @ np.swapaxes(key, -2, -1) / head_dim_scale
    if attn_mask is not None:
        attn += attn_mask  # in place: the mask must broadcast to the (batch * heads, tgt_len, src_len) scores
    attn = _softmax(attn, axis=-1)
    attn = attn @ value
    attn = np.swapaxes(attn, 0, 1).reshape(tgt_len, batch_size, embed_dim)
    attn = np.swapaxes(attn @ out_proj_weight.T, 1, 0)
    return attn
