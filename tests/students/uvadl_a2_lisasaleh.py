"""Port of lisasaleh/uvadlc_practicals_2024, assignment2/part2/gpt.py (CausalSelfAttention.apply_rotary_emb and
forward): a student's solution of the University of Amsterdam Deep Learning course (UvA DL 1, 2024) assignment 2,
part 2 (a GPT with rotary embeddings).

Conventions kept: forward reads `B, T, C = x.size()` (3-D input only), splits the fused projection with
qkv.split(self.n_embd, dim=2) (pieces of the model width C) and views each as (B, T, n_head, C // n_head), divides
the scores by sqrt(q.size(-1)), always applies the causal buffer `tril(ones(block_size, block_size))` with
masked_fill(mask == 0, -1e9) (forward has no mask argument), softmax on the last axis, merges the heads with
view(B, T, C) and applies c_proj. apply_rotary_emb takes positions arange(T) (token t at position t) and the
template's float32 inv_freq = 1 / 10000 ** (arange(0, dim, 2) / dim) (base 10000), computes
`einsum("i,j->ij", seq_pos.squeeze(), inv_freq)` (squeeze() also drops the token axis when T = 1, and einsum then
fails), rotates the interleaved pairs (x[..., 2i], x[..., 2i+1]) counter-clockwise but writes the results as two
halves, `cat((even * cos - odd * sin, odd * cos + even * sin))` (all first coordinates, then all second ones,
instead of back in place); the (1, 1, T, dim // 2) tables broadcast against x, so a 2-D or 3-D x gains leading
axes. Dropout is the identity (evaluation); use_flash_attn is False (the default); block_size is 128 (cfg.py). The
student's softmax is F.softmax (the reference's stands in for it). Added for the contract only: c_attn's weight is
the contract's W_Q, W_K, W_V side by side (no bias) and c_proj's is W_O; multi-head attention runs with abs_emb (no
RoPE: the contract's multi-head attention has none); rope(x, positions, base) applies the student's rotation to x
with T = x.shape[-2] (positions and base are not read).
"""

import numpy as np

BLOCK_SIZE = 128  # cfg.py --block_size default


def _split(a, size, axis):
    """torch.split with an int: pieces of `size` along axis (the last one shorter)."""
    n = a.shape[axis]
    return [np.take(a, range(i, min(i + size, n)), axis=axis) for i in range(0, n, size)]


def _inv_freq(dim):
    return np.float32(1.0) / (np.float32(10000) ** (np.arange(0, dim, 2).astype(np.float32) / np.float32(dim)))


def apply_rotary_emb(xq, xk, T):
    inv_freq = _inv_freq(xq.shape[-1])
    seq_pos = np.arange(T, dtype=inv_freq.dtype)[:, None]
    freqs = np.einsum("i,j->ij", np.squeeze(seq_pos), inv_freq)
    pos_emb = np.concatenate((np.sin(freqs), np.cos(freqs)), axis=-1)[None, None]
    pos_sin = pos_emb[..., : pos_emb.shape[-1] // 2]
    pos_cos = pos_emb[..., pos_emb.shape[-1] // 2:]
    xq_even, xq_odd = xq[..., ::2], xq[..., 1::2]
    xk_even, xk_odd = xk[..., ::2], xk[..., 1::2]
    xq_rot = (xq_even * pos_cos) - (xq_odd * pos_sin)
    xq_rot = np.concatenate((xq_rot, xq_odd * pos_cos + xq_even * pos_sin), axis=-1)
    xk_rot = (xk_even * pos_cos) - (xk_odd * pos_sin)
    xk_rot = np.concatenate((xk_rot, xk_odd * pos_cos + xk_even * pos_sin), axis=-1)
    return xq_rot, xk_rot


def multi_head_attention(X, W_Q, W_K, W_V, W_O, num_heads, mask=None):
    B, T, C = X.shape
    n_head, n_embd = num_heads, C
    qkv = X @ np.concatenate([W_Q, W_K, W_V], axis=1)
    q, k, v = _split(qkv, n_embd, axis=2)
    q = q.reshape(B, T, n_head, C // n_head).swapaxes(1, 2)
    k = k.reshape(B, T, n_head, C // n_head).swapaxes(1, 2)
    v = v.reshape(B, T, n_head, C // n_head).swapaxes(1, 2)
    causal = np.tril(np.ones((BLOCK_SIZE, BLOCK_SIZE))).reshape(1, 1, BLOCK_SIZE, BLOCK_SIZE)
    att = (q @ np.swapaxes(k, -2, -1)) / (q.shape[-1] ** 0.5)
    att = np.where(causal[:, :, :T, :T] == 0, -1e9, att)
    att = softmax(att, axis=-1)  # noqa: F821 - the submission's softmax (the reference's stands in for F.softmax)
    y = att @ v
    y = np.ascontiguousarray(y.swapaxes(1, 2)).reshape(B, T, C)
    return y @ W_O


def rope(x, positions, base=10000.0):
    x = np.asarray(x, dtype=float)
    xq_rot, _ = apply_rotary_emb(x, x, x.shape[-2])
    return xq_rot
