"""Port of itamar3113/deep_ex3, hw3/transformer.py (commit 1442653): sliding_window_attention, a student's solution
of the Technion's CS 236781 Deep Learning on Computational Accelerators, homework 3 (part 3: a transformer encoder with
Longformer-style sliding-window attention, spring 2024).

Ports scaled_dot_product_attention (the student's sliding_window_attention; the course's MultiHeadAttention, which
calls it, is given code and stays the reference's).

Conventions kept: `seq_len = q.shape[-2]`, `embed_dim = q.shape[-1]`, `batch_size = q.shape[0]`; a 3-D q, k, v are
reshaped to `(batch_size, heads_dim, seq_len, embed_dim)` with heads_dim = 1, any other to `(batch_size, -1, seq_len,
embed_dim)` (seq_len and embed_dim are the QUERIES' count and width: a reshape of k or v raises unless n_k == n_q
and d_v == d_k, and a 2-D q cannot be viewed so); `pre_norm_attention = torch.tensor([float("-inf")]).repeat(
batch_size, heads_dim, seq_len, seq_len)` filled on the window `(c >= max(0, r - window_size // 2)) & (c <=
min(r + window_size // 2, seq_len - 1))` by `(q[:, :, row_idxs, :] * k[:, :, col_idxs, :]).sum(-1)`. The mask is the
course's padding mask ([Batch, SeqLen], 1 = token): `cols_padding = padding_mask.reshape(batch_size, 1, 1,
seq_len)`, `rows_padding = padding_mask.reshape(batch_size, 1, seq_len, 1)`, `full_padding = torch.min(cols_padding,
rows_padding) * torch.ones((1, heads_dim, 1, 1))` and `torch.where(full_padding != 1, float("-inf"), ...)` (a key
or query whose entry is not 1 is masked: reshape needs batch_size * seq_len entries). Then `torch.softmax(
pre_norm_attention / (embed_dim ** 0.5), dim=-1)` (q's width; no scale argument), `torch.nan_to_num(attention, 0)`
(a fully masked row gives 0), `values = torch.matmul(attention, v)`, and back: `attention.reshape(batch_size,
seq_len, seq_len)` / `values.reshape(batch_size, seq_len, embed_dim)` for 3-D inputs, else
`attention.reshape(*origin_shape[:-2], seq_len, seq_len)` and `values.reshape(*origin_shape)` (q's shape: raises
unless d_v == d_k); returns (values, attention).

Left out: nothing (no dropout here). Added for the contract only: the contract's `mask` is passed as padding_mask
(a boolean True compares equal to 1), window_size is the student's hyperparameter from hw3/answers.py
(part3_transformer_encoder_hyperparams: `window_size = 32`), and a `scale` parameter (never read) so the contract's
calls reach the student's code.
"""

import numpy as np

WINDOW_SIZE = 32  # hw3/answers.py: window_size = 32


def _softmax_last(x):  # torch.softmax(dim=-1): an all -inf row gives NaN
    with np.errstate(invalid="ignore"):
        e = np.exp(x - np.max(x, axis=-1, keepdims=True))
        return e / np.sum(e, axis=-1, keepdims=True)


def scaled_dot_product_attention(Q, K, V, mask=None, scale=None):
    q, k, v, window_size, padding_mask = Q, K, V, WINDOW_SIZE, mask
    assert window_size % 2 == 0, "window size must be an even number"
    seq_len = q.shape[-2]
    embed_dim = q.shape[-1]
    batch_size = q.shape[0]

    no_heads_dim = False
    if len(q.shape) == 3:
        heads_dim = 1
        q = q.reshape(batch_size, heads_dim, seq_len, embed_dim)
        k = k.reshape(batch_size, heads_dim, seq_len, embed_dim)
        v = v.reshape(batch_size, heads_dim, seq_len, embed_dim)
        no_heads_dim = True
    else:
        origin_shape = q.shape
        q = q.reshape(batch_size, -1, seq_len, embed_dim)
        k = k.reshape(batch_size, -1, seq_len, embed_dim)
        v = v.reshape(batch_size, -1, seq_len, embed_dim)
        heads_dim = q.shape[1]

    pre_norm_attention = np.full((batch_size, heads_dim, seq_len, seq_len), -np.inf)

    r = np.arange(seq_len)[:, None]
    c = np.arange(seq_len)[None, :]
    window = (c >= np.maximum(0, r - window_size // 2)) & (c <= np.minimum(r + window_size // 2, seq_len - 1))
    r_flat = np.broadcast_to(r, (seq_len, seq_len)).flatten()
    c_flat = np.broadcast_to(c, (seq_len, seq_len)).flatten()
    row_idxs = r_flat[window.flatten()]
    col_idxs = c_flat[window.flatten()]

    pre_norm_attention[:, :, row_idxs, col_idxs] = (q[:, :, row_idxs, :] * k[:, :, col_idxs, :]).sum(-1)
    if padding_mask is not None:
        padding_mask = np.asarray(padding_mask)
        cols_padding = padding_mask.reshape(batch_size, 1, 1, seq_len)
        rows_padding = padding_mask.reshape(batch_size, 1, seq_len, 1)
        full_padding = np.minimum(cols_padding, rows_padding) * np.ones((1, heads_dim, 1, 1))
        pre_norm_attention = np.where(full_padding != 1, -np.inf, pre_norm_attention)
    attention = _softmax_last(pre_norm_attention / (embed_dim ** 0.5))
    attention = np.nan_to_num(attention, nan=0.0)
    values = attention @ v

    if no_heads_dim:
        attention = attention.reshape(batch_size, seq_len, seq_len)
        values = values.reshape(batch_size, seq_len, embed_dim)
    else:
        dest_shape = [*origin_shape[:-2], seq_len, seq_len]
        attention = attention.reshape(*dest_shape)
        values = values.reshape(*origin_shape)
    return values, attention
