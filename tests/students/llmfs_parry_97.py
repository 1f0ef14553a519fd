"""Port of Parry-97/llm-from-scratch, tokenizer/multi_head_attention.py (commit 967b5ab): MultiHeadAttention, a
student's multi-head attention written while working through Sebastian Raschka's "Build a Large Language Model (From
Scratch)", chapter 3 (the same class is later moved, unchanged, to src/llm_from_scratch/attention/).

Ports multi_head_attention only.

Conventions kept: the constructor `MultiHeadAttention(d_in, d_out, context_length, dropout, num_heads, qkv_bias=False)`
asserts `d_in % num_heads == 0, "d_in must be divisible by num_heads"` (the INPUT width d_in, where the book checks
d_out), sets `self.head_dim = d_out // num_heads`, builds `W_query`, `W_key` AND `W_value` as `nn.Linear(d_in, d_out)`
(queries, keys and values all d_out wide), `self.out_proj = nn.Linear(d_out, d_out, bias=qkv_bias)` and the buffer
`torch.triu(torch.ones(context_length, context_length), diagonal=1)`. forward(x) reads `b, num_tokens, d_in = x.shape`
(3-D input only), views keys, values and queries as `(b, num_tokens, self.num_heads, self.head_dim)` (a value width
other than d_out cannot be viewed so), `.transpose(1, 2)`, `attn_scores = queries @ keys.transpose(2, 3)`, `mask_bool
= self.mask.bool()[:num_tokens, :num_tokens]`, `attn_scores.masked_fill_(mask_bool, -torch.inf)` (always causal:
forward has no mask argument), `torch.softmax(attn_scores / keys.shape[-1] ** 0.5, dim=-1)`, `(attn_weights @
values).transpose(1, 2)`, `.contiguous().view(b, num_tokens, self.d_out)` and out_proj. Left out: dropout (off at
evaluation) and the Linear layers' biases. Added for the contract only: d_in = X.shape[-1], d_out = W_Q.shape[1] (the
width of the projections), context_length = 1024 (the student's GPT_CONFIG_124M), W_query, W_key, W_value and out_proj
are W_Q, W_K, W_V and W_O, and a `mask` parameter that is never read.
"""

import numpy as np

CONTEXT_LENGTH = 1024  # GPT_CONFIG_124M["context_length"]


def multi_head_attention(X, W_Q, W_K, W_V, W_O, num_heads, mask=None):
    d_in, d_out = X.shape[-1], W_Q.shape[1]
    assert d_in % num_heads == 0, "d_in must be divisible by num_heads"
    head_dim = d_out // num_heads
    causal = np.triu(np.ones((CONTEXT_LENGTH, CONTEXT_LENGTH)), k=1)

    b, num_tokens, d_in = X.shape
    keys = X @ W_K
    queries = X @ W_Q
    values = X @ W_V
    keys = keys.reshape(b, num_tokens, num_heads, head_dim)
    values = values.reshape(b, num_tokens, num_heads, head_dim)
    queries = queries.reshape(b, num_tokens, num_heads, head_dim)
    keys, queries, values = (np.swapaxes(t, 1, 2) for t in (keys, queries, values))

    attn_scores = queries @ np.swapaxes(keys, 2, 3)
    mask_bool = causal.astype(bool)[:num_tokens, :num_tokens]
    attn_scores = np.where(mask_bool, -np.inf, attn_scores)  # masked_fill_
    scaled = attn_scores / keys.shape[-1] ** 0.5
    E = np.exp(scaled - np.max(scaled, axis=-1, keepdims=True))
    attn_weights = E / np.sum(E, axis=-1, keepdims=True)

    context_vec = np.swapaxes(attn_weights @ values, 1, 2)
    context_vec = context_vec.reshape(b, num_tokens, d_out)
    return context_vec @ W_O
