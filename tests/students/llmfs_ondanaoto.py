"""Port of ondanaoto/llm_from_scratch, gpt/attention/models.py (commit dda5a9e): MultiHeadAttention, a student's
multi-head attention written (with the student's own Japanese notes and argument order) while working through the
Japanese edition of Sebastian Raschka's "Build a Large Language Model (From Scratch)" (LLM自作入門), chapter 3.

Ports multi_head_attention only.

Conventions kept: the constructor `MultiHeadAttention(d_in, d_out, context_length, num_heads, dropout,
qkv_bias=False)` asserts `d_out % num_heads == 0`, sets `self.head_dim = d_out // num_heads`, builds `W_query`,
`W_key` AND `W_value` as `nn.Linear(d_in, self.d_out)` (queries, keys and values all d_out wide), the buffer
`torch.triu(torch.ones(context_length, context_length), diagonal=1)` and `self.out_proj = nn.Linear(d_out, d_out)`.
forward(x) reads `b, num_token, _ = x.shape` (3-D input only), computes each of queries, keys and values as
`self.W_...(x).view(b, num_token, self.num_heads, self.head_dim).transpose(1, 2)` (a value width other than d_out
cannot be viewed so), `attn_scores = queries @ keys.transpose(2, 3)`, `mask_bool = self.mask.bool()[:num_token,
:num_token]`, `attn_scores.masked_fill_(mask_bool, -torch.inf)` (always causal: forward has no mask argument),
`torch.softmax(attn_scores / keys.shape[-1] ** 0.5, dim=-1)`, `(attn_weights @ values).transpose(1, 2).contiguous()
.view(b, num_token, self.d_out)` and out_proj. Left out: dropout (off at evaluation) and the Linear layers' biases.
Added for the contract only: d_in = X.shape[-1], d_out = W_Q.shape[1] (the width of the projections), context_length
= 1024 (gpt/configs.py, the GPT-2 124M configuration), W_query, W_key, W_value and out_proj are W_Q, W_K, W_V and W_O,
and a `mask` parameter that is never read.
"""

import numpy as np

CONTEXT_LENGTH = 1024  # gpt/configs.py: "context_length": 1024


def multi_head_attention(X, W_Q, W_K, W_V, W_O, num_heads, mask=None):
    d_out = W_Q.shape[1]
    assert d_out % num_heads == 0, "d_outはnum_headsで割り切れる必要がある"
    head_dim = d_out // num_heads
    causal = np.triu(np.ones((CONTEXT_LENGTH, CONTEXT_LENGTH)), k=1)

    b, num_token, _ = X.shape

    def heads(W):
        return np.swapaxes((X @ W).reshape(b, num_token, num_heads, head_dim), 1, 2)

    queries, keys, values = heads(W_Q), heads(W_K), heads(W_V)

    attn_scores = queries @ np.swapaxes(keys, 2, 3)
    mask_bool = causal.astype(bool)[:num_token, :num_token]
    attn_scores = np.where(mask_bool, -np.inf, attn_scores)  # masked_fill_
    scaled = attn_scores / keys.shape[-1] ** 0.5
    E = np.exp(scaled - np.max(scaled, axis=-1, keepdims=True))
    attn_weights = E / np.sum(E, axis=-1, keepdims=True)

    context_vec = np.swapaxes(attn_weights @ values, 1, 2).reshape(b, num_token, d_out)
    return context_vec @ W_O
