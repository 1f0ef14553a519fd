"""Port of reuben-r/ECE-239AS, model.py (commit 3f51aba): SingleHeadAttention and MultiHeadAttention, a student
team's solution of UCLA ECE 239AS (spring 2024), project 3 "Language modelling and Transformers" (a MiniGPT trained on
TinyStories, filled into the course's starter model.py; the attention classes were committed in 0a40953 by a
teammate). Ports multi_head_attention.

Conventions kept: MultiHeadAttention(input_dim, num_heads) sets `head_dim = input_dim // num_heads`, builds
`SingleHeadAttention(input_dim, head_dim, head_dim, dropout)` for each head (the queries', keys' AND values' heads are
all input_dim // num_heads wide) and `self.out = nn.Linear(input_dim, input_dim, bias=True)`; forward concatenates the
heads' outputs, `torch.cat(head_outputs, dim=-1)`, and applies out. SingleHeadAttention builds its causal mask as
`torch.triu(torch.full((max_len, max_len), 1e-9), diagonal=0)` (1e-9 on and above the diagonal, 0 below; max_len =
512); forward reads `batch_size, seq_length, token_dim = x.shape` (3-D input only), runs `cmask[cmask == 1] = -1e9`
(no entry equals 1: the mask keeps its 1e-9 entries), computes `torch.matmul(Q, K.transpose(-2, -1)) /
math.sqrt(self.output_key_query_dim)` and `softmax(attn + cmask[:seq_length, :seq_length], dim=-1)` (adding 1e-9 to a
score changes nothing: no key is ever masked, the future ones included), then `torch.matmul(attn_weights, V)`. The
layer has no mask argument.

Left out: dropout (off at evaluation), out's bias (the contract has none), the device move `cmask.to(x.device)`.
Added for the contract only: head h's query, key and value layers are columns [h * head_dim, (h + 1) * head_dim) of
W_Q, W_K and W_V, input_dim is X.shape[-1] (the constructor's argument), W_O is out, and a `mask` parameter (never
read: the layer's forward takes only x).
"""

import math

import numpy as np

MAX_LEN = 512  # SingleHeadAttention(..., max_len=512)


def _softmax(z, axis):  # torch.nn.functional.softmax
    e = np.exp(z - np.max(z, axis=axis, keepdims=True))
    return e / np.sum(e, axis=axis, keepdims=True)


def multi_head_attention(X, W_Q, W_K, W_V, W_O, num_heads, mask=None):
    input_dim = X.shape[-1]
    head_dim = input_dim // num_heads
    causal_mask = np.triu(np.full((MAX_LEN, MAX_LEN), 1e-9), k=0)

    def head(h):  # SingleHeadAttention(input_dim, head_dim, head_dim, dropout).forward
        cols = slice(h * head_dim, (h + 1) * head_dim)
        _batch_size, seq_length, _token_dim = X.shape  # batch_size, seq_length, token_dim = x.shape
        cmask = causal_mask
        cmask[cmask == 1] = -1e9  # no entry equals 1
        Q, K, V = X @ W_Q[:, cols], X @ W_K[:, cols], X @ W_V[:, cols]
        attn = Q @ np.swapaxes(K, -2, -1) / math.sqrt(head_dim)
        attn_weights = _softmax(attn + cmask[:seq_length, :seq_length], axis=-1)
        return attn_weights @ V

    concat = np.concatenate([head(h) for h in range(num_heads)], axis=-1)
    return concat @ W_O
