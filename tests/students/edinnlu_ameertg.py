"""Port of ameertg/nlu_cw2, seq2seq/models/transformer_helper.py (commit a80aace): MultiHeadAttention.forward, a
student's solution of the University of Edinburgh's NLU+ (INFR11157, Natural Language Understanding, Generation and
Machine Translation), coursework 2 of 2020-21 (question 7: multi-head attention in the course's fairseq-style
Transformer for German-English translation).

Ports multi_head_attention (MultiHeadAttention.forward run as self-attention). The course's __init__ (given code) is
kept: `self.head_embed_size = embed_dim // num_attn_heads`, `assert self.head_embed_size * self.num_heads ==
self.embed_dim, "Embed dim must be divisible by num_heads!"`.

Conventions kept: the course's tensors are time-major: forward reads `tgt_time_steps, batch_size, embed_dim =
query.size()` (3-D input only, tokens FIRST, then the batch) and returns (T, B, E). It splits with `d_k =
self.head_embed_size` (every head D // num_heads wide) and `self.q_proj(query).view(query.size(0), query.size(1) *
self.num_heads, d_k)` (and k, v), `.transpose(0, 1)`, `torch.matmul(Q, K.transpose(1, 2)) / math.sqrt(d_k)`; with a
mask, `if attn_mask.dtype == torch.bool: dotted_attention.masked_fill_(attn_mask.unsqueeze(0), float('-inf'))` (True
= masked: the opposite polarity; in place, so the mask must broadcast to the scores' own shape) `else:
dotted_attention = dotted_attention + attn_mask`; then `attn_weights = F.softmax(dotted_attention, dim=1)` (axis 1 of
the (B*H, T, S) scores: over the QUERIES; a key that every query masks gives a NaN column) and `attn =
torch.matmul(attn_weights, V).view(query.size(0), query.size(1), self.embed_dim)` (the (B*H, T, d) head outputs
viewed straight as (T, B, E), without moving the heads back next to their width), then out_proj.

Left out: the key_padding_mask branch (the contract has no padding mask: None), the view of the returned weights
(contiguous: it cannot fail), the nn.Linear biases (zero here: the contract has none). Added for the contract only:
multi_head_attention builds the course's MultiHeadAttention(embed_dim = X.shape[-1], num_heads,
self_attention=True), calls forward(query=X, key=X, value=X, attn_mask=mask) with X as given (not transposed: the
student's code reads its first axis as the tokens), q_proj, k_proj, v_proj and out_proj are W_Q, W_K, W_V and W_O (x
@ W, not loaded with a shape check), and it returns only attn (the contract's multi_head_attention has no weights).
"""

import math

import numpy as np


def _softmax(x, axis):  # F.softmax: an all -inf slice gives -inf - (-inf) = NaN
    e = np.exp(x - np.max(x, axis=axis, keepdims=True))
    return e / np.sum(e, axis=axis, keepdims=True)


def multi_head_attention(X, W_Q, W_K, W_V, W_O, num_heads, mask=None):
    embed_dim_model = X.shape[-1]  # MultiHeadAttention(embed_dim, num_attn_heads, self_attention=True).__init__
    head_embed_size = embed_dim_model // num_heads
    assert head_embed_size * num_heads == embed_dim_model, "Embed dim must be divisible by num_heads!"
    query = key = value = X
    attn_mask = None if mask is None else np.asarray(mask)

    tgt_time_steps, batch_size, embed_dim = query.shape  # noqa: RUF059
    assert embed_dim_model == embed_dim
    d_k = head_embed_size
    Q = (query @ W_Q).reshape(query.shape[0], query.shape[1] * num_heads, d_k)
    K = (key @ W_K).reshape(key.shape[0], key.shape[1] * num_heads, d_k)
    V = (value @ W_V).reshape(value.shape[0], value.shape[1] * num_heads, d_k)
    Q = np.swapaxes(Q, 0, 1)
    K = np.swapaxes(K, 0, 1)
    V = np.swapaxes(V, 0, 1)
    dotted_attention = Q @ np.swapaxes(K, 1, 2) / math.sqrt(d_k)
    if attn_mask is not None:
        if attn_mask.dtype == bool:
            filled = attn_mask[None]  # attn_mask.unsqueeze(0), masked_fill_ (in place)
            if np.broadcast_shapes(filled.shape, dotted_attention.shape) != dotted_attention.shape:
                raise RuntimeError(f"output with shape {list(dotted_attention.shape)} doesn't match the broadcast "
                                   "shape")
            dotted_attention = np.where(filled, -np.inf, dotted_attention)
        else:
            dotted_attention = dotted_attention + attn_mask
    attn_weights = _softmax(dotted_attention, axis=1)
    attn = (attn_weights @ V).reshape(query.shape[0], query.shape[1], embed_dim_model)
    return attn @ W_O
