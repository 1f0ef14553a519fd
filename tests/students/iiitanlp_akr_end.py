"""Port of AKR-END/ANLP_A1, code/encoder.py (commit 510857b): apply_rope and MultiHeadAttention, a student's solution of
IIIT Hyderabad's Advanced NLP (ANLP), assignment 1 of Monsoon 2025 (a Finnish-English Transformer from scratch, with
RoPE or a relative position bias; torch's attention and transformer modules are not allowed).

Ports multi_head_attention and rope (the student has no separate scaled dot-product attention: it is inline in
MultiHeadAttention.forward).

Conventions kept: apply_rope(q, k) takes `half = Dh // 2`, `theta = 10000 ** (-2 * sinusoid / Dh)` (the base fixed at
10000), `pos = torch.arange(T)` with T = q.size(-2) (positions 0..N-1 always), views sin and cos as
`[None,None,:,:]` (1, 1, N, d/2: an input of fewer than 4 axes comes back with leading axes of length 1 added) and
rotates HALVES, `torch.cat([x1 * cos - x2 * sin, x1 * sin + x2 * cos], dim=-1)` with `x1, x2 = x[..., :half], x[...,
half:]` (the GPT-NeoX layout). MultiHeadAttention(d_model, num_heads, rope=False, rel_bias=False): `assert d_model %
num_heads == 0`, `self.d_head = d_model // num_heads`; forward(x_q, x_kv, mask=None, is_causal=False) unpacks `B, Tq,
_ = x_q.size()` (3-D only), views `(B, Tq, self.num_heads, self.d_head)` (queries, keys and values alike), `att =
torch.matmul(q, k.transpose(-2, -1)) / math.sqrt(self.d_head)`, then `if mask is not None: att = att + mask` (the
course code's masks are ADDITIVE: a boolean mask adds 1 where True and 0 where False, nothing is blocked),
F.softmax(att, dim=-1), `y.transpose(1, 2).contiguous().view(B, Tq, self.d_model)` and `self.out(y)`.

Left out: dropout (p = 0 by default), the Linear layers' biases (zero), the rope and rel_bias options (off by default in
MultiHeadAttention; the relative bias is a randomly initialised nn.Embedding), the is_causal branch (the encoder's
self-attention calls it with is_causal=False; the decoder's builds its own mask). Added for the contract only:
rope(x, positions, base) returns the first output
of apply_rope(x, x) (the positions and the base are never read); multi_head_attention builds the module with d_model =
X.shape[-1], its q_proj, k_proj, v_proj and out being W_Q, W_K, W_V and W_O (self-attention: x_q = x_kv = X) and passes
the contract's mask as the mask argument.
"""

import math

import numpy as np


def _apply_rope(q, k):
    Dh = q.shape[-1]
    half = Dh // 2
    sinusoid = np.arange(half, dtype=float)
    theta = 10000 ** (-2 * sinusoid / Dh)
    T = q.shape[-2]
    pos = np.arange(T, dtype=float)[:, None]
    angles = pos * theta[None, :]
    sin = np.sin(angles)[None, None, :, :]
    cos = np.cos(angles)[None, None, :, :]

    def rotate(x):
        x1, x2 = x[..., :half], x[..., half:]
        return np.concatenate([x1 * cos - x2 * sin, x1 * sin + x2 * cos], axis=-1)

    return rotate(q), rotate(k)


def rope(x, positions, base=10000.0):
    x = np.asarray(x)
    x_rot, _ = _apply_rope(x, x)
    return x_rot


def _softmax_last(x):  # F.softmax(att, dim=-1)
    e = np.exp(x - np.max(x, axis=-1, keepdims=True))
    return e / np.sum(e, axis=-1, keepdims=True)


def multi_head_attention(X, W_Q, W_K, W_V, W_O, num_heads, mask=None):
    d_model = X.shape[-1]
    assert d_model % num_heads == 0
    d_head = d_model // num_heads
    B, Tq, _ = X.shape
    _, Tk, _ = X.shape
    q = np.swapaxes((X @ W_Q).reshape(B, Tq, num_heads, d_head), 1, 2)
    k = np.swapaxes((X @ W_K).reshape(B, Tk, num_heads, d_head), 1, 2)
    v = np.swapaxes((X @ W_V).reshape(B, Tk, num_heads, d_head), 1, 2)
    att = q @ np.swapaxes(k, -2, -1) / math.sqrt(d_head)
    if mask is not None:
        att = att + mask
    att = _softmax_last(att)
    y = att @ v
    y = np.swapaxes(y, 1, 2).reshape(B, Tq, d_model)
    return y @ W_O
