"""Port of Almogbs/Deep-Learning-HW3, hw3/transformer.py (commit 21ecd97): sliding_window_attention, a student's
solution of the Technion's CS 236781 Deep Learning on Computational Accelerators, homework 3 (part 3: a transformer
encoder with Longformer-style sliding-window attention, 2023).

Ports scaled_dot_product_attention (the student's sliding_window_attention; the course's MultiHeadAttention, which
calls it, is given code and stays the reference's).

Conventions kept: `seq_len = q.shape[-2]`, `embed_dim = q.shape[-1]`, `batch_size = q.shape[0]`, `num_heads =
q.shape[1]`, `minus_inf = -9e15`; `if len(q.shape) > 3:` k and q (not v) are reshaped to `(batch_size * num_heads,
seq_len, embed_dim)` (seq_len is the QUERIES' count: it raises unless n_k == n_q), `else: num_heads = 1` (a 2-D
q then raises at `q[:, rows_idx, :]`); `b = torch.full((batch_size * num_heads, seq_len, seq_len), minus_inf)` filled
in a loop over the window (`start = max(0, i - w)`, `end = min(seq_len, i + w + 1)`, w = window_size // 2) by
`b[:, rows_idx, cols_idx] = (q[:, rows_idx, :] * k[:, cols_idx, :]).sum(-1)` (a key past seq_len is never scored,
so `attention @ v` raises unless n_k == n_q). The mask is the course's padding mask ([Batch, SeqLen], 0 = padding):
`padding_mask.reshape((batch_size,seq_len,1)).repeat((num_heads,1,seq_len))` (the batch tiled num_heads times,
while the scores' first axis is batch-major, b * num_heads + h), `b.masked_fill_(padding_mask == 0, minus_inf)` (the
queries' rows) and `b.masked_fill_(padding_mask.transpose(-1,-2) == 0, minus_inf)` (the keys; in place: the mask must
broadcast to the scores' own shape); then `nn.functional.softmax(b / math.sqrt(embed_dim), dim=-1)` (q's width;
no scale argument; -9e15 is finite, so a fully masked row is uniform), `if num_heads > 1: attention =
attention.reshape((batch_size, num_heads, seq_len, seq_len))` (with one head the (batch, N, N) weights meet a 4-D v
and broadcast), `values = torch.matmul(attention, v)`; returns (values, attention).

Left out: nothing (no dropout here). Added for the contract only: the contract's `mask` is passed as padding_mask
(as given, not inverted: 0/False = padding), window_size is the student's hyperparameter from hw3/answers.py
(part3_transformer_encoder_hyperparams: `window_size = 20`), and a `scale` parameter (never read) so the contract's
calls reach the student's code.
"""

import math

import numpy as np

WINDOW_SIZE = 20  # hw3/answers.py: window_size = 20


def _softmax_last(x):  # nn.functional.softmax(dim=-1)
    e = np.exp(x - np.max(x, axis=-1, keepdims=True))
    return e / np.sum(e, axis=-1, keepdims=True)


def _masked_fill_(b, m, value):  # in place: the mask must broadcast to b's own shape
    if np.broadcast_shapes(m.shape, b.shape) != b.shape:
        raise RuntimeError(f"output with shape {list(b.shape)} doesn't match the broadcast shape")
    return np.where(m, value, b)


def scaled_dot_product_attention(Q, K, V, mask=None, scale=None):
    q, k, v, window_size, padding_mask = Q, K, V, WINDOW_SIZE, mask
    assert window_size % 2 == 0, "window size must be an even number"
    seq_len = q.shape[-2]
    embed_dim = q.shape[-1]
    batch_size = q.shape[0]
    num_heads = q.shape[1]
    minus_inf = -9e15

    if len(q.shape) > 3:
        k = k.reshape((batch_size * num_heads, seq_len, embed_dim))
        q = q.reshape((batch_size * num_heads, seq_len, embed_dim))
    else:
        num_heads = 1

    b = np.full((batch_size * num_heads, seq_len, seq_len), minus_inf)

    w = window_size // 2
    rows_idx = []
    cols_idx = []
    for i in range(seq_len):
        start = max(0, i - w)
        end = min(seq_len, i + w + 1)
        rows_idx.extend([i] * (end - start))
        cols_idx.extend(range(start, end))

    b[:, rows_idx, cols_idx] = (q[:, rows_idx, :] * k[:, cols_idx, :]).sum(-1)

    if padding_mask is not None:
        padding_mask = np.tile(np.asarray(padding_mask).reshape((batch_size, seq_len, 1)), (num_heads, 1, seq_len))
        b = _masked_fill_(b, padding_mask == 0, minus_inf)
        b = _masked_fill_(b, np.swapaxes(padding_mask, -1, -2) == 0, minus_inf)

    attention = _softmax_last(b / math.sqrt(embed_dim))

    if num_heads > 1:
        attention = attention.reshape((batch_size, num_heads, seq_len, seq_len))

    values = attention @ v
    return values, attention
