"""Port of TheFOOL18/ANLP_Transformer, utils.py and decoder.py (commit 2f5605a): scaled_dot_product_attention,
apply_rope and the decoder's MultiHeadAttention, a student's solution of IIIT Hyderabad's Advanced NLP (ANLP),
assignment 1 of Monsoon 2025 (a Finnish-English Transformer from scratch, with RoPE or a relative position bias;
torch's attention and transformer modules are not allowed).

Ports scaled_dot_product_attention, multi_head_attention and rope.

Conventions kept: utils.scaled_dot_product_attention(q, k, v, mask=None, bias=None) computes `d_k = q.size(-1)`,
`scores = torch.matmul(q, k.transpose(-2, -1)) / math.sqrt(d_k)`, adds `bias.unsqueeze(0)` when given, then
`scores.masked_fill_(mask == 0, -1e9)` (True = may attend; in place, so the mask must broadcast to the scores' own
shape; a finite fill: a fully masked row becomes uniform), torch.softmax(scores, dim=-1), returns (output,
attn_weights); it has no scale argument. apply_rope(q, k) rotates in the GPT-NeoX layout: `rotate_half` splits the
last axis in HALVES (`torch.cat((-x2, x1), dim=-1)`), the tables are `position = torch.arange(seq_len)` (seq_len =
q.shape[-2]: positions 0..N-1 always), `div_term = torch.exp(torch.arange(0, dim, 2) * -(math.log(10000.0) / dim))`
(the base fixed at 10000), `cos_pos.unsqueeze(0).unsqueeze(0)` (viewed as (1, 1, N, d/2), so an input of fewer than
4 axes comes back with leading axes of length 1 added) and `torch.cat([cos_pos, cos_pos], dim=-1)`, `q * q_cos +
rotate_half(q) * q_sin`; an odd width is returned unrotated. decoder.py MultiHeadAttention(d_model, num_heads,
max_len=512, pos_encoding): `assert d_model % num_heads == 0`, `self.d_k = d_model // num_heads`; forward reads `B, Lq,
_ = q.size()` (3-D only), views `(B, Lq, self.num_heads, self.d_k)` (queries, keys and values alike), adds the relative
position bias, calls the utils attention with the mask as given and merges with `.view(B, Lq, self.d_model)` before
o_proj.

Left out: dropout (none in this path), the projections' biases (zero). The port takes the decoder's attention with
pos_encoding="rel_bias" (the student's second configuration, trained alongside RoPE) at its construction: the
RelativePositionBias table is `nn.Parameter(torch.zeros(2 * max_len - 1, num_heads))`, so its bias (looked up at the
clamped offsets q - k + max_len - 1) is zero. Added for the contract only: a `scale` parameter (never read) so the
contract's calls reach the student's code; rope(x, positions, base) returns the first output of apply_rope(x, x) (the
positions and the base are never read); multi_head_attention builds the module with d_model = X.shape[-1], its
q_proj, k_proj, v_proj and o_proj being W_Q, W_K, W_V and W_O (self-attention: q = k = v = X).
"""

import math

import numpy as np

MAX_LEN = 512


def _softmax_last(x):  # torch.softmax(scores, dim=-1)
    e = np.exp(x - np.max(x, axis=-1, keepdims=True))
    return e / np.sum(e, axis=-1, keepdims=True)


def scaled_dot_product_attention(Q, K, V, mask=None, scale=None, bias=None):
    d_k = Q.shape[-1]
    scores = Q @ np.swapaxes(K, -2, -1) / math.sqrt(d_k)
    if bias is not None:
        scores = scores + bias[None]  # bias.unsqueeze(0)
    if mask is not None:  # masked_fill_ (in place): the mask must broadcast to the scores' own shape
        mask = np.asarray(mask)
        if np.broadcast_shapes(mask.shape, scores.shape) != scores.shape:
            raise RuntimeError(f"output with shape {list(scores.shape)} doesn't match the broadcast shape")
        scores = np.where(mask == 0, -1e9, scores)
    attn_weights = _softmax_last(scores)
    output = attn_weights @ V
    return output, attn_weights


def _rotate_half(x):
    half = x.shape[-1] // 2
    return np.concatenate((-x[..., half:], x[..., :half]), axis=-1)


def _create_rope_embeddings(seq_len, dim):
    position = np.arange(seq_len, dtype=float)[:, None]
    div_term = np.exp(np.arange(0, dim, 2, dtype=float) * -(math.log(10000.0) / dim))
    pos_enc = position * div_term
    cos_pos = np.cos(pos_enc)[None, None]  # (1, 1, seq_len, dim//2)
    sin_pos = np.sin(pos_enc)[None, None]
    return np.concatenate([cos_pos, cos_pos], axis=-1), np.concatenate([sin_pos, sin_pos], axis=-1)


def _apply_rope(q, k):
    q_seq_len, k_seq_len, dim = q.shape[-2], k.shape[-2], q.shape[-1]
    if dim % 2 != 0:
        return q, k
    q_cos, q_sin = _create_rope_embeddings(q_seq_len, dim)
    k_cos, k_sin = _create_rope_embeddings(k_seq_len, dim)
    return q * q_cos + _rotate_half(q) * q_sin, k * k_cos + _rotate_half(k) * k_sin


def rope(x, positions, base=10000.0):
    x = np.asarray(x)
    x_rot, _ = _apply_rope(x, x)
    return x_rot


def _relative_bias(num_heads, q_len, k_len):  # relative_position_bias(num_heads, max_len) at construction
    bias_table = np.zeros((2 * MAX_LEN - 1, num_heads))
    relative_coords = np.arange(q_len)[:, None] - np.arange(k_len)[None, :] + MAX_LEN - 1
    relative_coords = np.clip(relative_coords, 0, 2 * MAX_LEN - 2)
    return np.transpose(bias_table[relative_coords], (2, 0, 1))  # (num_heads, q_len, k_len)


def multi_head_attention(X, W_Q, W_K, W_V, W_O, num_heads, mask=None):
    d_model = X.shape[-1]
    assert d_model % num_heads == 0
    d_k = d_model // num_heads
    B, Lq, _ = X.shape
    B, Lk, _ = X.shape
    q = np.swapaxes((X @ W_Q).reshape(B, Lq, num_heads, d_k), 1, 2)
    k = np.swapaxes((X @ W_K).reshape(B, Lk, num_heads, d_k), 1, 2)
    v = np.swapaxes((X @ W_V).reshape(B, Lk, num_heads, d_k), 1, 2)
    bias = _relative_bias(num_heads, Lq, Lk)
    x, _ = scaled_dot_product_attention(q, k, v, mask=mask, bias=bias)
    x = np.swapaxes(x, 1, 2).reshape(B, Lq, d_model)
    return x @ W_O
