"""Port of paarthjindal/anlp_ass1, encoder.py (commit efee630): MultiHeadAttention.scaled_dot_product_attention,
RotaryPositionalEmbedding and RoPEMultiHeadAttention, a student's solution of IIIT Hyderabad's Advanced NLP (ANLP),
assignment 1 of Monsoon 2025 (a Finnish-English Transformer from scratch, with RoPE or a relative position bias;
torch's attention and transformer modules are not allowed).

Ports scaled_dot_product_attention, multi_head_attention and rope.

Conventions kept: MultiHeadAttention.scaled_dot_product_attention(Q, K, V, mask=None, pos_bias=None) unpacks
`batch_size, num_heads, seq_len_q, d_k = Q.size()` (4-D only), truncates Q, K and V to the smaller width when the
queries' and keys' widths differ, computes `torch.matmul(Q, K.transpose(-2, -1)) / math.sqrt(d_k)`, `scores =
scores.masked_fill(mask == 0, -1e9)` (True = may attend, a finite fill: a fully masked row becomes uniform),
F.softmax(scores, dim=-1), returns (context, attention_weights); it has no scale argument.
RotaryPositionalEmbedding(d_model): `inv_freq = 1.0 / (10000 ** (torch.arange(0, d_model, 2).float() / d_model))` (the
base fixed at 10000); forward(x) takes `position = torch.arange(seq_len)` (positions 0..N-1 always) and returns (sin,
cos) of shape (N, d/2); apply_rotary_pos_emb_single(x, sin, cos) unpacks `batch_size, num_heads, seq_len, d_k =
x.shape` (4-D only), expands the tables to (B, H, N, d/2), duplicates them with `torch.cat([sin, sin], dim=-1)` and
returns `(x * cos) + (rotate_half(x) * sin)` with `rotate_half` splitting the last axis in HALVES (`torch.cat((-x2,
x1), dim=-1)`): the GPT-NeoX layout. RoPEMultiHeadAttention (EncoderLayer's default, pos_encoding_type="rope"): the
constructor's `assert d_model % num_heads == 0`, `self.d_k = d_model // num_heads` and `RotaryPositionalEmbedding(
self.d_k, ...)`; forward unpacks `batch_size, seq_len, d_model = query.size()` (3-D only), raises if `d_model !=
self.num_heads * self.d_k`, views `(batch_size, seq_len, self.num_heads, self.d_k)` (queries, keys and values alike),
takes `sin_q, cos_q = self.rope(query_for_rope)` with `query_for_rope = query[:, :Q.size(2), :]` (its axis 1 holds
the tokens), rotates Q and K with apply_rotary_pos_emb_single, calls the attention above with the mask as given,
merges with `.view(batch_size, seq_len, d_model)` and applies W_o.

Left out: dropout (evaluation), W_o's bias (zero), the pos_bias path (None here). Added for the contract only: a
`scale` parameter (never read) so the contract's calls reach the student's code; rope(x, positions, base) builds
RotaryPositionalEmbedding(d = x.shape[-1]), hands its forward the token count N = x.shape[-2] (as the attention hands
it a (B, N, D) query) and applies apply_rotary_pos_emb_single to x (the positions and the base are never read);
multi_head_attention builds the module with d_model = X.shape[-1], its W_q, W_k, W_v and W_o being W_Q, W_K, W_V and
W_O (self-attention: query = key = value = X).
"""

import math

import numpy as np


def _softmax_last(x):  # F.softmax(scores, dim=-1)
    e = np.exp(x - np.max(x, axis=-1, keepdims=True))
    return e / np.sum(e, axis=-1, keepdims=True)


def scaled_dot_product_attention(Q, K, V, mask=None, scale=None):
    _batch_size, _num_heads, _seq_len_q, d_k = Q.shape
    d_k_key = K.shape[3]
    if d_k != d_k_key:
        min_d_k = min(d_k, d_k_key)
        Q, K, V = Q[:, :, :, :min_d_k], K[:, :, :, :min_d_k], V[:, :, :, :min_d_k]
        d_k = min_d_k
    scores = Q @ np.swapaxes(K, -2, -1) / math.sqrt(d_k)
    if mask is not None:
        scores = np.where(np.asarray(mask) == 0, -1e9, scores)  # scores.masked_fill(mask == 0, -1e9)
    attention_weights = _softmax_last(scores)
    context = attention_weights @ V
    return context, attention_weights


def _rope_forward(seq_len, d_model):  # RotaryPositionalEmbedding(d_model).forward(x), seq_len = x.size(1)
    inv_freq = 1.0 / (10000 ** (np.arange(0, d_model, 2, dtype=float) / d_model))
    position = np.arange(seq_len, dtype=float)[:, None]
    sinusoid_inp = position * inv_freq[None, :]
    return np.sin(sinusoid_inp), np.cos(sinusoid_inp)


def _rotate_half(x):
    half = x.shape[-1] // 2
    return np.concatenate((-x[..., half:], x[..., :half]), axis=-1)


def _apply_rotary_pos_emb_single(x, sin, cos):
    batch_size, num_heads, _seq_len, _d_k = x.shape
    sin = np.broadcast_to(sin[None, None], (batch_size, num_heads, *sin.shape))  # expand(B, H, -1, -1)
    cos = np.broadcast_to(cos[None, None], (batch_size, num_heads, *cos.shape))
    sin = np.concatenate([sin, sin], axis=-1)
    cos = np.concatenate([cos, cos], axis=-1)
    return (x * cos) + (_rotate_half(x) * sin)


def rope(x, positions, base=10000.0):
    x = np.asarray(x)
    sin, cos = _rope_forward(x.shape[-2], x.shape[-1])
    return _apply_rotary_pos_emb_single(x, sin, cos)


def multi_head_attention(X, W_Q, W_K, W_V, W_O, num_heads, mask=None):
    assert X.shape[-1] % num_heads == 0  # the constructor, with d_model = X.shape[-1]
    d_k = X.shape[-1] // num_heads
    batch_size, seq_len, d_model = X.shape
    key_seq_len = X.shape[1]
    expected_features = num_heads * d_k
    if d_model != expected_features:
        raise RuntimeError(f"d_model ({d_model}) != num_heads * d_k ({expected_features})")
    Q = np.swapaxes((X @ W_Q).reshape(batch_size, seq_len, num_heads, d_k), 1, 2)
    K = np.swapaxes((X @ W_K).reshape(batch_size, key_seq_len, num_heads, d_k), 1, 2)
    V = np.swapaxes((X @ W_V).reshape(batch_size, key_seq_len, num_heads, d_k), 1, 2)
    query_for_rope = X[:, :Q.shape[2], :]
    key_for_rope = X[:, :K.shape[2], :]
    sin_q, cos_q = _rope_forward(query_for_rope.shape[1], d_k)
    sin_k, cos_k = _rope_forward(key_for_rope.shape[1], d_k)
    Q = _apply_rotary_pos_emb_single(Q, sin_q, cos_q)
    K = _apply_rotary_pos_emb_single(K, sin_k, cos_k)
    context, _ = scaled_dot_product_attention(Q, K, V, mask)
    context = np.swapaxes(context, 1, 2).reshape(batch_size, seq_len, d_model)
    return context @ W_O
