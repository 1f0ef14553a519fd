"""Port of gvarun01/tranformer-scratch-anlp, utils.py and encoder.py (commit f5f7b71): scaled_dot_product_attention,
RoPE (with get_embeddings, _rotate_half and apply_rotary_pos_emb) and MultiHeadAttention, a student's solution of IIIT
Hyderabad's Advanced NLP (ANLP), assignment 1 of Monsoon 2025 (a Finnish-English Transformer from scratch, with RoPE
or a relative position bias; torch's attention and transformer modules are not allowed).

Ports scaled_dot_product_attention, multi_head_attention and rope.

Conventions kept: utils.scaled_dot_product_attention(Q, K, V, mask=None, relative_bias=None) unpacks `batch_size,
num_heads, seq_len, d_k = Q.shape` (4-D only), `scores = torch.matmul(Q, K.transpose(-2, -1))`, `scores = scores /
math.sqrt(d_k)`, `scores = safe_masked_fill(scores, mask == 0, -1e9)` (True = may attend, out-of-place masked_fill,
a finite fill: a fully masked row becomes uniform), F.softmax(scores, dim=-1), returns (output, attention_weights); it
has no scale argument. RoPE(d_model, max_seq_len=2048, base=10000.0) (`assert d_model % 2 == 0`) builds `freqs = 1.0 /
(self.base ** (torch.arange(0, self.d_model, 2) / self.d_model))` for positions 0..max_seq_len-1 and, in forward(x),
reads `seq_len = x.size(2)` and `sin_emb[:seq_len, :]`, views the tables as (1, 1, seq_len, d/2) and spreads them with
`repeat_interleave(2, dim=-1)` (pair i on coordinates 2i and 2i+1, the interleaved layout), then `x *
cos_interleaved + self._rotate_half(x) * sin_interleaved` with `x1, x2 = x.chunk(2, dim=-1)`, `torch.cat([-x2, x1])`
(the partner of a coordinate is its HALF-split partner): tables and partners in different layouts; the positions are
always 0..N-1. encoder.py MultiHeadAttention(d_model, num_heads, pos_encoding='rope') (config.json: "pos_encoding":
"rope"): `assert d_model % num_heads == 0`, `self.d_k = d_model // num_heads`, `self.rope = RoPE(self.d_k,
max_seq_len)`; `_split_heads` unpacks `batch_size, seq_len, d_model = x.shape` and views `(batch_size, seq_len,
self.num_heads, self.d_k)` (queries, keys and values alike), then `cos, sin = self.rope.get_embeddings(seq_len, ...)`
with `seq_len = Q.size(2)` and `apply_rotary_pos_emb(Q, cos, sin)` (likewise K: `x * cos + x_rotated * sin`, the
module-level _rotate_half also splits halves), the utils attention with the mask as given, `_combine_heads`
(`.view(batch_size, seq_len, self.d_model)`) and W_o.

Left out: dropout (evaluation), the relative_bias path (None with pos_encoding='rope'), the float16 branch of
safe_masked_fill (float64 here: the fill stays -1e9), torch's float32 tables (float64 here). Added for the contract
only: a `scale` parameter (never read) so the contract's calls reach the student's code; rope(x, positions, base)
runs RoPE(d = x.shape[-1], base=base).forward(x) (the positions are never read); multi_head_attention builds the
module with d_model = X.shape[-1], its bias-free W_q, W_k, W_v, W_o being W_Q, W_K, W_V, W_O (self-attention: Q = K = V
= X).
"""

import math

import numpy as np

MAX_SEQ_LEN = 2048


def _softmax_last(x):  # F.softmax(..., dim=-1)
    e = np.exp(x - np.max(x, axis=-1, keepdims=True))
    return e / np.sum(e, axis=-1, keepdims=True)


def scaled_dot_product_attention(Q, K, V, mask=None, scale=None):
    _batch_size, _num_heads, _seq_len, d_k = Q.shape
    scores = Q @ np.swapaxes(K, -2, -1)
    scores = scores / math.sqrt(d_k)
    if mask is not None:
        scores = np.where(np.asarray(mask) == 0, -1e9, scores)  # safe_masked_fill(scores, mask == 0, -1e9)
    attention_weights = _softmax_last(scores)
    output = attention_weights @ V
    return output, attention_weights


def _get_embeddings(d_model, seq_len, base=10000.0):  # RoPE(d_model, max_seq_len, base).get_embeddings(seq_len)
    assert d_model % 2 == 0, "d_model must be even for RoPE"
    if seq_len > MAX_SEQ_LEN:
        raise ValueError(f"Sequence length {seq_len} exceeds max_seq_len {MAX_SEQ_LEN}")
    positions = np.arange(0, MAX_SEQ_LEN, dtype=float)
    freqs = 1.0 / (base ** (np.arange(0, d_model, 2, dtype=float) / d_model))
    pos_freqs = positions[:, None] * freqs[None, :]
    sin_emb = np.sin(pos_freqs)[:seq_len, :][None, None]
    cos_emb = np.cos(pos_freqs)[:seq_len, :][None, None]
    return np.repeat(cos_emb, 2, axis=-1), np.repeat(sin_emb, 2, axis=-1)  # repeat_interleave(2, dim=-1)


def _rotate_half(x):  # x1, x2 = x.chunk(2, dim=-1); torch.cat([-x2, x1], dim=-1)
    half = x.shape[-1] // 2
    return np.concatenate([-x[..., half:], x[..., :half]], axis=-1)


def rope(x, positions, base=10000.0):
    x = np.asarray(x)
    seq_len = x.shape[2]  # RoPE.forward: seq_len = x.size(2)
    cos_interleaved, sin_interleaved = _get_embeddings(x.shape[-1], seq_len, base)
    return x * cos_interleaved + _rotate_half(x) * sin_interleaved


def _apply_rotary_pos_emb(x, cos, sin):
    seq_len = x.shape[2]
    if seq_len > cos.shape[2]:
        x = x[:, :, :cos.shape[2], :]
        seq_len = cos.shape[2]
    cos = cos[:, :, :seq_len, :]
    sin = sin[:, :, :seq_len, :]
    return x * cos + _rotate_half(x) * sin


def multi_head_attention(X, W_Q, W_K, W_V, W_O, num_heads, mask=None):
    d_model = X.shape[-1]
    d_k = d_model // num_heads
    assert d_model % num_heads == 0, "d_model must be divisible by num_heads"
    assert d_k % 2 == 0, "d_model must be even for RoPE"  # RoPE(self.d_k, max_seq_len) in the constructor

    def split_heads(x):
        batch_size, seq_len, _ = x.shape
        return np.swapaxes(x.reshape(batch_size, seq_len, num_heads, d_k), 1, 2)

    Q, K, V = split_heads(X @ W_Q), split_heads(X @ W_K), split_heads(X @ W_V)
    cos, sin = _get_embeddings(d_k, Q.shape[2])
    Q = _apply_rotary_pos_emb(Q, cos, sin)
    K = _apply_rotary_pos_emb(K, cos, sin)
    attention_output, _ = scaled_dot_product_attention(Q, K, V, mask)
    batch_size, _, seq_len, _ = attention_output.shape
    output = np.swapaxes(attention_output, 1, 2).reshape(batch_size, seq_len, d_model)
    return output @ W_O
