"""Port of meta-llama/llama, llama/model.py (commit 0504cf4): precompute_freqs_cis, apply_rotary_emb
and Attention.forward (with the additive mask of Transformer.forward).

Conventions kept: RoPE in complex arithmetic on interleaved pairs (view_as_complex of
reshape(..., -1, 2)) in single precision (torch.polar gives complex64, xq.float());
freqs = 1 / theta ** (arange(0, dim, 2)[: dim // 2] / dim); Attention uses
head_dim = dim // n_heads for q, k and v and `bsz, seqlen, _ = x.shape` (batch-first); the mask is
ADDITIVE (0 / -inf, `scores = scores + mask`), so a fully masked row is NaN.
"""

import numpy as np


def rope(x, positions, base=10000.0):
    dim = x.shape[-1]
    freqs = 1.0 / (base ** (np.arange(0, dim, 2)[: (dim // 2)].astype(np.float32) / dim))
    freqs = np.outer(np.asarray(positions, dtype=np.float32), freqs).astype(np.float32)
    freqs_cis = np.exp(1j * freqs).astype(np.complex64)
    pairs = x.astype(np.float32).reshape(*x.shape[:-1], -1, 2)
    x_ = (pairs[..., 0] + 1j * pairs[..., 1]).astype(np.complex64)
    out = x_ * freqs_cis
    return np.stack([out.real, out.imag], axis=-1).reshape(x.shape).astype(x.dtype)


def multi_head_attention(X, W_Q, W_K, W_V, W_O, num_heads, mask=None):
    bsz, seqlen, dim = X.shape
    head_dim = dim // num_heads
    xq, xk, xv = (np.swapaxes((X @ W).reshape(bsz, seqlen, num_heads, head_dim), 1, 2) for W in (W_Q, W_K, W_V))
    scores = xq @ np.swapaxes(xk, 2, 3) / np.sqrt(head_dim)
    if mask is not None:
        scores = scores + np.where(mask, 0.0, -np.inf)
    with np.errstate(invalid="ignore"):
        e = np.exp(scores - scores.max(axis=-1, keepdims=True))
        scores = e / e.sum(axis=-1, keepdims=True)
    output = np.swapaxes(scores @ xv, 1, 2).reshape(bsz, seqlen, -1)
    return output @ W_O
