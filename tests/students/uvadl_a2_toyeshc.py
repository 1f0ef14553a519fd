"""Port of ToyeshC/uvadlc_practicals_2024, assignment2/part2/gpt.py (CausalSelfAttention.apply_rotary_emb and
forward): a student's solution of the University of Amsterdam Deep Learning course (UvA DL 1, 2024) assignment 2,
part 2 (a GPT with rotary embeddings).

Conventions kept: forward reads `B, T, C = x.size()` (3-D input only), views the fused projection c_attn(x) as
(B, T, 3, n_head, C // n_head), transposes it to (B, T, n_head, 3, C // n_head) and then takes q, k, v =
qkv.chunk(3, dim=2): chunks of the HEAD axis, not of the q/k/v axis (torch.chunk: pieces of ceil(n_head / 3) heads,
so unpacking fails unless there are three pieces, and each piece mixes queries, keys and values), each viewed as
(B, n_head, T, C // n_head); scores divided by sqrt(C // n_head) (the model width over the heads), the causal
buffer `tril(ones(block_size, block_size))` applied with masked_fill(mask == 0, -inf) always (forward has no mask
argument), softmax on the last axis, heads merged with view(B, T, C) and c_proj. apply_rotary_emb uses positions
arange(T) (token t at position t) and the template's float32 inv_freq = 1 / 10000 ** (arange(0, dim, 2) / dim)
(base 10000), lays cos/sin out in halves (`cat((freqs, freqs))`) but builds the rotated copy from interleaved
coordinates with the sign flipped: `xq * cos - cat((-xq[..., 1::2], xq[..., ::2])) * sin` (coordinate j < d/2 is
combined with x[2j+1], j >= d/2 with x[2(j - d/2)]: a clockwise rotation when d = 2, no rotation otherwise); the
(1, 1, T, dim) tables broadcast against x, so a 2-D or 3-D x gains leading axes. Dropout is the identity
(evaluation); use_flash_attn is False (the default); block_size is 128 (cfg.py). The student's softmax is
F.softmax (the reference's stands in for it). Added for the contract only: c_attn's weight is the contract's W_Q,
W_K, W_V side by side (no bias) and c_proj's is W_O; multi-head attention runs with abs_emb (no RoPE: the
contract's multi-head attention has none); rope(x, positions, base) applies the student's rotation to x with
T = x.shape[-2] (positions and base are not read).
"""

import math

import numpy as np

BLOCK_SIZE = 128  # cfg.py --block_size default


def _chunk(a, chunks, axis):
    """torch.chunk: pieces of ceil(n / chunks) along axis (fewer pieces when n is small)."""
    n = a.shape[axis]
    size = -(-n // chunks)
    return [np.take(a, range(i, min(i + size, n)), axis=axis) for i in range(0, n, size)]


def _inv_freq(dim):
    return np.float32(1.0) / (np.float32(10000) ** (np.arange(0, dim, 2).astype(np.float32) / np.float32(dim)))


def apply_rotary_emb(xq, xk, T):
    seq_pos = np.arange(T, dtype=xq.dtype)[:, None]
    freqs = seq_pos * _inv_freq(xq.shape[-1]).astype(xq.dtype)
    pos_emb = np.concatenate((freqs, freqs), axis=-1)[None, None]
    pos_sin, pos_cos = np.sin(pos_emb), np.cos(pos_emb)
    xq_rot = (xq * pos_cos) - (np.concatenate((-xq[..., 1::2], xq[..., ::2]), axis=-1) * pos_sin)
    xk_rot = (xk * pos_cos) - (np.concatenate((-xk[..., 1::2], xk[..., ::2]), axis=-1) * pos_sin)
    return xq_rot, xk_rot


def multi_head_attention(X, W_Q, W_K, W_V, W_O, num_heads, mask=None):
    B, T, C = X.shape
    n_head = num_heads
    qkv = X @ np.concatenate([W_Q, W_K, W_V], axis=1)
    qkv = qkv.reshape(B, T, 3, n_head, C // n_head).swapaxes(2, 3)
    q, k, v = _chunk(qkv, 3, axis=2)
    q = np.ascontiguousarray(q).reshape(B, n_head, T, C // n_head)
    k = np.ascontiguousarray(k).reshape(B, n_head, T, C // n_head)
    v = np.ascontiguousarray(v).reshape(B, n_head, T, C // n_head)
    causal = np.tril(np.ones((BLOCK_SIZE, BLOCK_SIZE))).reshape(1, 1, BLOCK_SIZE, BLOCK_SIZE)
    att = (q @ np.swapaxes(k, -2, -1)) / math.sqrt(C // n_head)
    att = np.where(causal[:, :, :T, :T] == 0, -np.inf, att)
    att = softmax(att, axis=-1)  # noqa: F821 - the submission's softmax (the reference's stands in for F.softmax)
    y = att @ v
    y = np.ascontiguousarray(y.swapaxes(1, 2)).reshape(B, T, C)
    return y @ W_O


def rope(x, positions, base=10000.0):
    x = np.asarray(x, dtype=float)
    xq_rot, _ = apply_rotary_emb(x, x, x.shape[-2])
    return xq_rot
