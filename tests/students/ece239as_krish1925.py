"""Port of krish1925/GPT-2, model.py (commit fb16ea1): SingleHeadAttention and MultiHeadAttention, a student's
solution of UCLA ECE 239AS (spring 2024), project 3 "Language modelling and Transformers" (a MiniGPT trained on
TinyStories, filled into the course's starter model.py). Ports multi_head_attention.

Conventions kept: MultiHeadAttention(input_dim, num_heads) sets `self.output_key_query_dim = input_dim // num_heads`
and `self.output_value_dim = input_dim // num_heads`, builds `SingleHeadAttention(input_dim,
self.output_key_query_dim, self.output_value_dim, dropout)` for each head (the queries', keys' AND values' heads are
all input_dim // num_heads wide) and `self.out = nn.Linear(input_dim, input_dim, bias=True)`; forward concatenates the
heads' outputs, `torch.cat(head_concat, dim=-1)`, and applies out. SingleHeadAttention builds its causal mask as
`torch.triu(torch.full((max_len, max_len), float('-inf')))` (-inf on and above the diagonal, 0 below; max_len = 512);
forward reads `_, num_tokens, _ = x.shape` (3-D input only), slices `self.causal_mask[:num_tokens, :num_tokens]`,
computes `torch.bmm(q, k.transpose(1, 2)) / (self.output_key_query_dim**0.5)` (bmm: 3-D only) and
`scores.masked_fill(causal_mask==1, float('-inf'))` (the mask holds -inf and 0, never 1: no score is masked, the
future ones included), `nn.functional.softmax(masked_scores, dim=-1)` and `torch.bmm(attn, v)`. The layer has no mask
argument.

Left out: dropout (`nn.Dropout()`, p = 0.5, and the layer's own; off at evaluation), out's bias (the contract has
none). Added for the contract only: head h's query and key layers are columns [h * output_key_query_dim, (h + 1) *
output_key_query_dim) of W_Q and W_K and its value layer columns [h * output_value_dim, (h + 1) * output_value_dim) of
W_V, input_dim is X.shape[-1] (the constructor's argument), W_O is out, and a `mask` parameter (never read: the layer's
forward takes only x).
"""

import numpy as np

MAX_LEN = 512  # SingleHeadAttention(..., max_len=512)


def _softmax(z, axis):  # nn.functional.softmax
    e = np.exp(z - np.max(z, axis=axis, keepdims=True))
    return e / np.sum(e, axis=axis, keepdims=True)


def multi_head_attention(X, W_Q, W_K, W_V, W_O, num_heads, mask=None):
    input_dim = X.shape[-1]
    output_key_query_dim = input_dim // num_heads
    output_value_dim = input_dim // num_heads
    causal_mask = np.triu(np.full((MAX_LEN, MAX_LEN), -np.inf))  # diagonal=0

    def head(h):  # SingleHeadAttention(input_dim, output_key_query_dim, output_value_dim, dropout).forward
        qk = slice(h * output_key_query_dim, (h + 1) * output_key_query_dim)
        vc = slice(h * output_value_dim, (h + 1) * output_value_dim)
        _, num_tokens, _ = X.shape
        q, k, v = X @ W_Q[:, qk], X @ W_K[:, qk], X @ W_V[:, vc]
        mask_slice = causal_mask[:num_tokens, :num_tokens]
        scores = np.matmul(q, np.swapaxes(k, 1, 2)) / (output_key_query_dim ** 0.5)  # torch.bmm
        masked_scores = np.where(mask_slice == 1, -np.inf, scores)  # no entry equals 1
        attn = _softmax(masked_scores, axis=-1)
        return np.matmul(attn, v)  # torch.bmm

    multi_head_out = np.concatenate([head(h) for h in range(num_heads)], axis=-1)
    return multi_head_out @ W_O
