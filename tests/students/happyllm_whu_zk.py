"""Port of whu-zk/Happy-LLM-testCode, day9/day9_test4_Attention.py (commit cfb6f4f): Attention (with its
apply_rotary_emb and repeat_kv), and day2/day2_test1_attention.py (commit 6717df6): scaled_dot_product_attention, a
learner's own day-by-day code for Datawhale's Happy-LLM (an open online book and course; chapter 2 is attention,
chapter 5 builds a LLaMA-2 model with RoPE and grouped-query attention).

Ports scaled_dot_product_attention (day 2) and multi_head_attention (day 9's Attention, with the student's
precompute_freqs_cis of day8/day8_test1_precompute_freqs_cis.py, commit 25dca91). The day-9 layer computes its scores
itself: it does not call the day-2 function.

Conventions kept: day 2, scaled_dot_product_attention(q, k, v, mask=None): `d_k = q.size(-1)`, `scores =
torch.matmul(q, k.transpose(-2, -1)) / math.sqrt(d_k)` (no scale argument), `if mask is not None: scores =
scores.masked_fill(mask == 0, -1e9)` (True = may attend; a FINITE fill: a fully masked row becomes uniform; out of
place, so mask and scores broadcast), `attn_weights = F.softmax(scores, dim=-1)`, returns `(output, attn_weights)`.
Day 9, Attention(args): `self.head_dim = args.dim // args.n_heads`, bias-free `nn.Linear(args.dim, args.n_heads *
self.head_dim)` for wq, wk and wv (n_kv_heads heads for the keys and values) and `nn.Linear(args.n_heads *
self.head_dim, args.dim)` for wo; forward(x, freqs_cis, mask): `batch, seq_len, _ = x.shape` (3-D only),
`xq.view(batch, seq_len, self.n_heads, self.head_dim)` (likewise xk and xv with n_kv_heads: explicit sizes, so the
projections must be n_heads * (dim // n_heads) wide), `xq = apply_rotary_emb(xq, freqs_cis)` and `xk =
apply_rotary_emb(xk, freqs_cis)` (RoPE on every head's queries and keys: `torch.view_as_complex(x.float().reshape(
*x.shape[:-1], -1, 2))` pairs coordinates (2i, 2i+1), `freqs_cis.view(1, x.shape[1], 1, x_complex.shape[-1])`,
`torch.view_as_real(x_complex * freqs_cis).flatten(3)`, `.type_as(x)`; in float32), repeat_kv, `.transpose(1, 2)`,
`scores = torch.matmul(xq, keys.transpose(2, 3)) / math.sqrt(self.head_dim)`, `if mask is not None: scores = scores
+ mask` (an ADDITIVE mask, "加上因果掩码": a boolean mask adds 1 to the allowed scores and 0 to the others; a (B, N,
N) mask gets no head axis against the (B, H, N, N) scores), `F.softmax(scores.float(), dim=-1).type_as(xq)`,
`output.transpose(1, 2).contiguous().view(batch, seq_len, -1)` and `self.wo(output)`. Day 8,
precompute_freqs_cis(dim, end, theta=10000.0): `freqs = 1.0 / (theta ** (torch.arange(0, dim, 2)[: (dim // 2)].float()
/ dim))`, `t = torch.arange(end)`, `torch.polar(torch.ones_like(freqs), torch.outer(t, freqs).float())`.

Left out: nothing else runs (the layer has no dropout). Added for the contract only: scaled_dot_product_attention
takes a `scale` parameter (never read); multi_head_attention is Attention(args) with args.dim = X.shape[-1] and
args.n_heads = args.n_kv_heads = num_heads (the contract's W_K and W_V hold num_heads heads, so repeat_kv repeats
once), its wq, wk, wv and wo are W_Q, W_K, W_V and W_O (x @ W), run on X with freqs_cis =
precompute_freqs_cis(dim // n_heads, N) (the positions 0..N-1 of the N tokens, as the course's model passes them) and
the contract's mask.
"""

import math

import numpy as np


def _softmax_last(Z):  # F.softmax(scores, dim=-1)
    E = np.exp(Z - np.max(Z, axis=-1, keepdims=True))
    return E / np.sum(E, axis=-1, keepdims=True)


def scaled_dot_product_attention(Q, K, V, mask=None, scale=None):
    d_k = Q.shape[-1]
    scores = np.matmul(Q, np.swapaxes(K, -2, -1)) / math.sqrt(d_k)
    if mask is not None:
        scores = np.where(np.asarray(mask) == 0, -1e9, scores)  # masked_fill (out of place)
    attn_weights = _softmax_last(scores)
    output = np.matmul(attn_weights, V)
    return output, attn_weights


def _precompute_freqs_cis(dim, end, theta=10000.0):  # day8_test1_precompute_freqs_cis.py
    freqs = (1.0 / (theta ** (np.arange(0, dim, 2)[: (dim // 2)].astype(np.float32) / dim))).astype(np.float32)
    t = np.arange(end)
    freqs = np.outer(t, freqs).astype(np.float32)
    return (np.cos(freqs) + 1j * np.sin(freqs)).astype(np.complex64)  # torch.polar(ones, freqs)


def _apply_rotary_emb(x, freqs_cis):
    pairs = x.astype(np.float32).reshape(*x.shape[:-1], -1, 2)
    x_complex = (pairs[..., 0] + 1j * pairs[..., 1]).astype(np.complex64)  # torch.view_as_complex
    freqs_cis = freqs_cis.reshape(1, x.shape[1], 1, x_complex.shape[-1])
    x_rotated = x_complex * freqs_cis
    out = np.stack([x_rotated.real, x_rotated.imag], axis=-1)  # torch.view_as_real
    out = out.reshape(*out.shape[:3], -1)  # .flatten(3)
    return out.astype(x.dtype)


def _repeat_kv(x, n_rep):
    if n_rep == 1:
        return x
    batch, seq_len, n_kv_heads, head_dim = x.shape
    x = np.broadcast_to(x[:, :, :, None, :], (batch, seq_len, n_kv_heads, n_rep, head_dim))
    return x.reshape(batch, seq_len, n_kv_heads * n_rep, head_dim)


def _softmax_float32(Z):  # F.softmax(scores.float(), dim=-1)
    Z = Z.astype(np.float32)
    E = np.exp(Z - np.max(Z, axis=-1, keepdims=True))
    return E / np.sum(E, axis=-1, keepdims=True)


def multi_head_attention(X, W_Q, W_K, W_V, W_O, num_heads, mask=None):
    dim = X.shape[-1]
    n_heads = n_kv_heads = num_heads
    n_rep = n_heads // n_kv_heads
    head_dim = dim // n_heads

    batch, seq_len, _ = X.shape
    xq, xk, xv = X @ W_Q, X @ W_K, X @ W_V
    xq = xq.reshape(batch, seq_len, n_heads, head_dim)
    xk = xk.reshape(batch, seq_len, n_kv_heads, head_dim)
    xv = xv.reshape(batch, seq_len, n_kv_heads, head_dim)

    freqs_cis = _precompute_freqs_cis(head_dim, seq_len)
    xq = _apply_rotary_emb(xq, freqs_cis)
    xk = _apply_rotary_emb(xk, freqs_cis)

    keys = _repeat_kv(xk, n_rep)
    values = _repeat_kv(xv, n_rep)

    xq = np.swapaxes(xq, 1, 2)
    keys = np.swapaxes(keys, 1, 2)
    values = np.swapaxes(values, 1, 2)

    scores = np.matmul(xq, np.swapaxes(keys, 2, 3)) / math.sqrt(head_dim)
    if mask is not None:
        scores = scores + mask  # 加上因果掩码
    scores = _softmax_float32(scores).astype(xq.dtype)
    output = np.matmul(scores, values)

    output = np.swapaxes(output, 1, 2).reshape(batch, seq_len, -1)
    return output @ W_O
