"""Port of Virum9520/GPT-style-Language-Model-Conversational-SFT, gpt.py (commit 22ed75a): MultiHeadAttention
(__init__ and forward), a student's solution of University of Michigan EECS 595 (Natural Language Processing), fall
2025, homework 3 ("GPT": a decoder language model with RoPE and SwiGLU; the course gives the rotary embedding,
rope.py).

Ports multi_head_attention (MultiHeadAttention.forward with the course's Rotary and apply_rotary_pos_emb, which the
student's forward calls as the starter tells it to).

Conventions kept: __init__(d_in, context_length, dropout, num_heads) sets `d_out = d_in`, `assert (d_out % num_heads
== 0)`, `self.head_dim = d_out // num_heads` (every head d_in // num_heads wide, for queries, keys AND values),
`self.scale = 1.0 / math.sqrt(self.head_dim)`, `self.rope = Rotary(head_dim=self.head_dim,
max_seq_len=context_length, ...)` and its own causal mask `torch.triu(torch.ones(context_length, context_length,
dtype=torch.bool), diagonal=1)` (True = masked). forward(embeds) has no mask argument: `b, num_tokens, d_in =
embeds.shape` (3-D input only), `queries.view(b, num_tokens, h, head_dim).transpose(1, 2)` for queries, keys and
values, `rope_cos, rope_sin = self.rope(queries)` and `queries, keys = apply_rotary_pos_emb(queries, keys, rope_cos,
rope_sin)` (the course's rope.py: positions 0..num_tokens-1, `inv_freq = 1.0 / (self.base ** (torch.arange(0, half)
/ half))` with base 10000, `emb = torch.repeat_interleave(freqs, 2, dim=-1)` (each angle twice, pair by pair) but
`_rotate_half` pairs coordinate i with i + head_dim/2: `torch.cat((-x2, x1), dim=-1)`; `assert head_dim % 2 == 0`;
more than context_length tokens raise), `torch.matmul(queries, keys.transpose(-2, -1))`, `if self.mask is not None:`
`attn_scores.masked_fill(self.mask[:num_tokens, :num_tokens], float('-inf'))` (always causal), then `attn_scores *
self.scale`, `torch.softmax(attn_scores, dim=-1)`, dropout, `attn_output.transpose(1, 2).contiguous().view(b,
num_tokens, h * head_dim)` (the input's width), `self.out_proj(attn_output)`.

Left out: dropout (off at evaluation), the nn.Linear biases (zero here: the contract has none; out_proj has
`bias=True`), the bf16 cache. Added for the contract only: multi_head_attention is MultiHeadAttention(d_in =
X.shape[-1], context_length = 1024 (the course's pretrain_gpt.py default), num_heads) run on X, with W_query, W_key,
W_value and out_proj replaced by W_Q, W_K, W_V and W_O (x @ W, not loaded with a shape check); the contract's mask is
never read; the rotary tables are computed in the input's float64 (the course's Rotary keeps fp32 and bf16 caches
only).
"""

import math

import numpy as np

CONTEXT_LENGTH = 1024  # pretrain_gpt.py: --context_length default 1024


def _rotary(head_dim, max_seq_len, seq_len, base=10000.0):  # rope.py Rotary(...)(x): (cos, sin) of (seq_len, head_dim)
    assert head_dim % 2 == 0, "RoPE requires even head_dim"
    half = head_dim // 2
    inv_freq = 1.0 / (base ** (np.arange(0, half, dtype=float) / half))
    t = np.arange(max_seq_len, dtype=float)
    freqs = t[:, None] * inv_freq[None, :]
    emb = np.repeat(freqs, 2, axis=-1)  # torch.repeat_interleave(freqs, 2, dim=-1)
    if seq_len > max_seq_len:
        raise RuntimeError(f"RoPE: requested positions [0:{seq_len}) exceed max_seq_len={max_seq_len}")
    return np.cos(emb)[:seq_len], np.sin(emb)[:seq_len]


def _rotate_half(x):
    d = x.shape[-1] // 2
    return np.concatenate((-x[..., d:], x[..., :d]), axis=-1)


def _apply_rotary_pos_emb(q, k, cos, sin):
    return (q * cos) + (_rotate_half(q) * sin), (k * cos) + (_rotate_half(k) * sin)


def _softmax_last(x):  # F.softmax(dim=-1)
    e = np.exp(x - np.max(x, axis=-1, keepdims=True))
    return e / np.sum(e, axis=-1, keepdims=True)


def multi_head_attention(X, W_Q, W_K, W_V, W_O, num_heads, mask=None):
    d_in = X.shape[-1]  # MultiHeadAttention(d_in, context_length, dropout, num_heads)
    d_out = d_in
    assert d_out % num_heads == 0, "d_out must be divisible by num_heads"
    head_dim = d_out // num_heads
    scale = 1.0 / math.sqrt(head_dim)
    causal = np.triu(np.ones((CONTEXT_LENGTH, CONTEXT_LENGTH), dtype=bool), k=1)

    embeds = X
    b, num_tokens, d_in = embeds.shape
    queries = embeds @ W_Q
    keys = embeds @ W_K
    values = embeds @ W_V
    h = num_heads
    queries = np.swapaxes(queries.reshape(b, num_tokens, h, head_dim), 1, 2)
    keys = np.swapaxes(keys.reshape(b, num_tokens, h, head_dim), 1, 2)
    values = np.swapaxes(values.reshape(b, num_tokens, h, head_dim), 1, 2)
    rope_cos, rope_sin = _rotary(head_dim, CONTEXT_LENGTH, queries.shape[-2])
    queries, keys = _apply_rotary_pos_emb(queries, keys, rope_cos, rope_sin)
    attn_scores = queries @ np.swapaxes(keys, -2, -1)
    causal_mask = causal[:num_tokens, :num_tokens]
    attn_scores = np.where(causal_mask, -np.inf, attn_scores)
    attn_scores = attn_scores * scale
    attn_weights = _softmax_last(attn_scores)
    attn_output = attn_weights @ values
    attn_output = np.swapaxes(attn_output, 1, 2).reshape(b, num_tokens, h * head_dim)
    return attn_output @ W_O
