"""Port of stablegradients/10-623, hw1/handout/mingpt/model.py (commit b9b481d): RotaryPositionalEmbeddings and
GroupedQueryAttention, a student's solution of CMU 10-423/10-623 (Generative AI), homework 1 (RoPE and grouped-query
attention added to minGPT).

Conventions kept: RotaryPositionalEmbeddings(d, base) builds its cache in the input's dtype with `self._theta_i =
self.base ** (-2 * torch.arange(0, self.d//2) / self.d)`, `self._theta_left_right = torch.cat([self._theta_i,
self._theta_i], dim=0)` and `positions = torch.arange(1, self.N_max+1)` (token t of a sequence at position t + 1,
counting from 1 as the writeup's formula does; the positions are never an argument), then forward takes
`cos_C[:num_tokens]`, `sin_C[:num_tokens]` and returns `Y * cos + torch.cat([-1 * Y[..., self.d//2:], Y[...,
:self.d//2]], dim=-1) * sin` (coordinate i paired with i + d/2: the GPT-NeoX "rotate_half" layout); it reads only
`*_, N, d = Y.shape`, so any leading axes work. GroupedQueryAttention.forward reads `B, T, _ = x.size()`, splits q, k
and v with einops `rearrange(q, 'b t (h d) -> b h t d', h=...)` (exactly one batch axis; each head's width is its
projection's width over the heads), expands k and v to the query heads only when g > 1, and calls
`F.scaled_dot_product_attention(q, k, v, attn_mask=None, is_causal=True)` (scale 1/sqrt(q.size(-1)); always causal:
forward has no mask argument), then `rearrange(y, 'b h t d -> b t (h d)')` and out_proj. Left out: dropout (off at
evaluation), the Linear layers' biases, the memory bookkeeping. Added for the contract only: the contract's
multi-head attention is the student's GroupedQueryAttention with n_kv_head = n_query_head = num_heads (g = 1; the
course's Block would run the starter code's CausalSelfAttention then, which the student did not write); q_proj,
k_proj, v_proj and out_proj are W_Q, W_K, W_V and W_O; the contract's mask is never read; rope(x, positions, base)
applies a fresh RotaryPositionalEmbeddings(d=x.shape[-1], base=base) to x (positions are not read).
"""

import math

import numpy as np


def _rearrange_heads(M, h):  # einops 'b t (h d) -> b h t d'
    if M.ndim != 3:
        raise ValueError(f"Wrong shape: expected 3 dims. Received {M.ndim}-dim tensor.")
    b, t, width = M.shape
    if width % h:
        raise ValueError(f"Shape mismatch, can't divide axis of length {width} in chunks of {h}")
    return M.reshape(b, t, h, width // h).transpose(0, 2, 1, 3)


def multi_head_attention(X, W_Q, W_K, W_V, W_O, num_heads, mask=None):
    n_query_head = n_kv_head = num_heads
    g = n_query_head // n_kv_head
    B, T, _ = X.shape  # noqa: RUF059
    q = X @ W_Q
    k = X @ W_K
    v = X @ W_V
    q = _rearrange_heads(q, n_query_head)
    k = _rearrange_heads(k, n_kv_head)
    v = _rearrange_heads(v, n_kv_head)
    assert g == 1  # the expansion of k and v to the query heads runs only when g > 1
    # F.scaled_dot_product_attention(q, k, v, attn_mask=None, is_causal=True)
    L, S = q.shape[-2], k.shape[-2]
    att = (q @ np.swapaxes(k, -2, -1)) * (1.0 / math.sqrt(q.shape[-1]))
    att = np.where(np.tril(np.ones((L, S), dtype=bool)), att, -np.inf)
    E = np.exp(att - np.max(att, axis=-1, keepdims=True))
    att = E / np.sum(E, axis=-1, keepdims=True)
    y = att @ v
    b, h, t, d = y.shape
    y = y.transpose(0, 2, 1, 3).reshape(b, t, h * d)  # 'b h t d -> b t (h d)'
    return y @ W_O


def rope(x, positions, base=10000.0):
    Y = np.asarray(x)
    dim = Y.shape[-1]  # RotaryPositionalEmbeddings(d=x.shape[-1], base=base)
    *_, N, d = Y.shape  # noqa: RUF059
    theta_i = base ** (-2 * np.arange(0, dim // 2, dtype=Y.dtype) / dim)
    theta_left_right = np.concatenate([theta_i, theta_i], axis=0)
    pos = np.arange(1, N + 1, dtype=Y.dtype)
    C = np.outer(pos, theta_left_right)
    cos_C, sin_C = np.cos(C), np.sin(C)
    num_tokens = Y.shape[-2]
    cos = cos_C[:num_tokens, :]
    sin = sin_C[:num_tokens, :]
    Y_1 = Y
    Y_2 = np.concatenate([-1 * Y[..., dim // 2:], Y[..., :dim // 2]], axis=-1)
    return Y_1 * cos + Y_2 * sin
