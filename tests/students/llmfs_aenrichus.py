"""Port of aenrichus/llm_from_scratch, llama3/rope.py and llama3/trainable_attention.py (commit e0421c5):
precompute_rope_params, apply_rope and GroupedQueryAttention, a student's own conversion of the GPT-2 model of
Sebastian Raschka's "Build a Large Language Model (From Scratch)" (the student's chapter 3 trainable_attention.py) into
Llama 3.2, the book's follow-up exercise, with RoPE and grouped-query attention written by the student.

Ports rope and multi_head_attention.

Conventions kept: precompute_rope_params(head_dim, theta_base=500_000, context_length=4096) asserts `head_dim % 2 ==
0`, computes in float32 `inv_freq = 1.0 / (theta_base ** (i / head_dim))` for `i = torch.arange(0, head_dim,
2).float()`, the angles `torch.outer(positions, inv_freq)` for the integer positions `torch.arange(context_length)`,
duplicates them `torch.cat([angles, angles], dim=-1)` (although its docstring speaks of the pairs (0,1), (2,3), ...)
and returns their cos and sin (context_length, head_dim). apply_rope(x, cos, sin) unpacks `batch, num_heads, seq_len,
head_dim = x.shape` (4-D input only), cuts the tables to the first seq_len positions `cos[:seq_len, :]`, and returns
`x * cos + rotated * sin` with `rotated = torch.cat((-x2, x1), dim=-1)` of the halves `x1 = x[..., :head_dim // 2]`,
`x2 = x[..., head_dim // 2:]` (the GPT-NeoX rotate_half layout: coordinate i is paired with i + d/2), cast back
`.to(x.dtype)`. GroupedQueryAttention(cfg) sets `self.head_dim = self.emb_dim // self.n_heads` (every head D // H
wide, D = the model width) and `self.n_rep = self.n_heads // self.n_kv_heads`; forward(x, cos, sin) reads `b,
num_tokens, _ = x.shape` (3-D input only), views the queries `(b, num_tokens, self.n_heads, self.head_dim)` and the keys
and values `(b, num_tokens, self.n_kv_heads, self.head_dim)`, `.transpose(1, 2)`, rotates the queries and keys with
apply_rope (the model's tables: `precompute_rope_params(head_dim, theta_base=cfg["rope_base"],
context_length=cfg["context_length"])`, LLAMA32_CONFIG rope_base 500_000 and context_length 8192), repeats the keys
and values `repeat_interleave(self.n_rep, dim=1)`, scores `torch.matmul(query, key.transpose(2, 3)) / (self.head_dim
** 0.5)`, builds its own causal mask `torch.triu(torch.ones(num_tokens, num_tokens), diagonal=1).bool()` with
`attn_scores.masked_fill_(mask, -torch.inf)` (always causal: forward has no mask argument), `torch.softmax(attn_scores,
dim=-1)`, `context.transpose(1, 2).contiguous().view(b, num_tokens, self.emb_dim)` and out_proj. Left out: the bfloat16
dtype of the model (the attention module itself runs in its input's dtype). Added for the contract only: rope(x,
positions, base) builds the tables with theta_base = base and the default context_length and calls apply_rope on x as
given (the positions are never read); multi_head_attention builds GroupedQueryAttention with emb_dim = X.shape[-1],
n_heads = n_kv_heads = num_heads (plain multi-head attention: n_rep = 1), W_query, W_key, W_value and out_proj = W_Q,
W_K, W_V and W_O, the tables of LLAMA32_CONFIG, and a `mask` parameter that is never read.
"""

import numpy as np

ROPE_BASE, CONTEXT_LENGTH = 500_000, 8192  # LLAMA32_CONFIG


def _precompute_rope_params(head_dim, theta_base=500_000, context_length=4096):
    assert head_dim % 2 == 0, "Head dimension must be even for RoPE"
    i = np.arange(0, head_dim, 2).astype(np.float32)
    inv_freq = (1.0 / (theta_base ** (i / head_dim))).astype(np.float32)
    positions = np.arange(context_length).astype(np.float32)
    angles = np.outer(positions, inv_freq).astype(np.float32)
    angles = np.concatenate([angles, angles], axis=-1)
    return np.cos(angles), np.sin(angles)


def _apply_rope(x, cos, sin):
    _batch, _num_heads, seq_len, head_dim = x.shape
    cos = cos[:seq_len, :][None, None]
    sin = sin[:seq_len, :][None, None]
    x1 = x[..., :head_dim // 2]
    x2 = x[..., head_dim // 2:]
    rotated = np.concatenate((-x2, x1), axis=-1)
    roped = x * cos + rotated * sin
    return roped.astype(x.dtype)


def rope(x, positions, base=10000.0):
    x = np.asarray(x)
    cos, sin = _precompute_rope_params(x.shape[-1], theta_base=base)
    return _apply_rope(x, cos, sin)


def multi_head_attention(X, W_Q, W_K, W_V, W_O, num_heads, mask=None):
    emb_dim = X.shape[-1]
    n_heads = n_kv_heads = num_heads
    head_dim = emb_dim // n_heads
    n_rep = n_heads // n_kv_heads
    cos, sin = _precompute_rope_params(head_dim=head_dim, theta_base=ROPE_BASE, context_length=CONTEXT_LENGTH)

    b, num_tokens, _ = X.shape
    query = np.swapaxes((X @ W_Q).reshape(b, num_tokens, n_heads, head_dim), 1, 2)
    key = np.swapaxes((X @ W_K).reshape(b, num_tokens, n_kv_heads, head_dim), 1, 2)
    value = np.swapaxes((X @ W_V).reshape(b, num_tokens, n_kv_heads, head_dim), 1, 2)

    query = _apply_rope(query, cos, sin)
    key = _apply_rope(key, cos, sin)
    key = np.repeat(key, n_rep, axis=1)
    value = np.repeat(value, n_rep, axis=1)

    attn_scores = np.matmul(query, np.swapaxes(key, 2, 3)) / (head_dim ** 0.5)
    causal = np.triu(np.ones((num_tokens, num_tokens)), k=1).astype(bool)
    attn_scores = np.where(causal, -np.inf, attn_scores)  # masked_fill_
    E = np.exp(attn_scores - np.max(attn_scores, axis=-1, keepdims=True))
    attn_weights = E / np.sum(E, axis=-1, keepdims=True)

    context = np.matmul(attn_weights, value)
    context = np.swapaxes(context, 1, 2).reshape(b, num_tokens, emb_dim)
    return context @ W_O
