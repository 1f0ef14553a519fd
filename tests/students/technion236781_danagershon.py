"""Port of danagershon/DL_HW3, hw3/transformer.py (commit d053035): sliding_window_attention, a student's solution of
the Technion's CS 236781 Deep Learning on Computational Accelerators, homework 3 (part 3: a transformer encoder with
Longformer-style sliding-window attention, spring 2024).

Ports scaled_dot_product_attention (the student's sliding_window_attention; the course's MultiHeadAttention, which
calls it, is given code and stays the reference's).

Conventions kept: `seq_len = q.shape[-2]`, `embed_dim = q.shape[-1]`, `batch_size = q.shape[0]`, `num_heads =
q.shape[-3]` only `if(len(q.shape) == 4)`; the scores are `b = torch.ones([*dims, seq_len, seq_len]) *
(-float('inf'))` with dims = [batch_size] (+ [num_heads]): a (seq_len, seq_len) matrix of the QUERIES' count (a key
past seq_len is never scored, so `attention @ v` raises unless n_k == n_q; a 2-D q gets an extra leading axis of
length N), filled on the window `masked_ind = ones - triu(ones, diagonal=window_size//2+1) - tril(ones,
diagonal=-(window_size//2+1))` by `b[..., rows, cols] = (q[..., rows, :] * k[..., cols, :]).sum(dim=-1)`, then `b =
b / math.sqrt(embed_dim)` (q's width; there is no scale argument). The mask is the course's padding mask ([Batch,
SeqLen], 0 = padding): `padding_mask.unsqueeze(1)`, `padding_mask_2 = padding_mask.unsqueeze(1)` and
`padding_mask_2.repeat(*dims_rep, seq_len, 1)` with dims_rep = [1] (+ [num_heads]), `b[padding_mask_2 == 0] =
-float('inf')` (masks the KEYS), `padding_mask_3 = padding_mask.unsqueeze(-1).repeat(*dims_rep, 1, seq_len)`, `b[
padding_mask_3 == 0] = -float('inf')` (masks the QUERIES' rows too); torch's repeat raises with fewer repeats than
axes and boolean indexing needs the scores' own shape. `attention = torch.softmax(b, dim=-1)`, then only with a mask
`torch.nan_to_num(attention, 0)` (a fully masked row gives 0), `values = attention @ v`; returns (values, attention).

Left out: nothing (no dropout here). Added for the contract only: the contract's `mask` is passed as padding_mask
(as given, not inverted: 0/False = padding), window_size is the student's hyperparameter from hw3/answers.py
(part3_transformer_encoder_hyperparams: `hypers["window_size"] = 128`), and a `scale` parameter (never read) so the
contract's calls reach the student's code.
"""

import math

import numpy as np

WINDOW_SIZE = 128  # hw3/answers.py: hypers["window_size"] = 128


def _repeat(t, *reps):  # torch.Tensor.repeat: at least as many repeats as axes (np.tile would pad them)
    if len(reps) < t.ndim:
        raise RuntimeError("Number of dimensions of repeat dims can not be smaller than number of dimensions of tensor")
    return np.tile(t, reps)


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
    num_heads = None
    if len(q.shape) == 4:
        num_heads = q.shape[-3]

    dims = [batch_size]
    if num_heads is not None:
        dims += [num_heads]
    b = np.ones([*dims, seq_len, seq_len]) * (-np.inf)

    masked_ind = np.ones((seq_len, seq_len))
    masked_ind = (masked_ind - np.triu(masked_ind, k=window_size // 2 + 1)
                  - np.tril(masked_ind, k=-(window_size // 2 + 1)))
    rows, cols = np.where(masked_ind == 1)
    b[..., rows, cols] = (q[..., rows, :] * k[..., cols, :]).sum(axis=-1)
    b = b / math.sqrt(embed_dim)

    if padding_mask is not None:
        padding_mask = np.asarray(padding_mask)
        dims_rep = [1]
        if num_heads is not None:
            dims_rep += [num_heads]
        padding_mask = np.expand_dims(padding_mask, 1)
        padding_mask_2 = np.expand_dims(padding_mask, 1)
        padding_mask_2 = _repeat(padding_mask_2, *dims_rep, seq_len, 1)
        b[padding_mask_2 == 0] = -np.inf  # boolean indexing: the mask must have the scores' own shape
        padding_mask_3 = np.expand_dims(padding_mask, -1)
        padding_mask_3 = _repeat(padding_mask_3, *dims_rep, 1, seq_len)
        b[padding_mask_3 == 0] = -np.inf

    attention = _softmax_last(b)
    if padding_mask is not None:
        attention = np.nan_to_num(attention, nan=0.0)
    values = attention @ v
    return values, attention
