"""Port of awong0811/239p3, model.py (commit 3e7b37b): SingleHeadAttention and MultiHeadAttention, a student's
solution of UCLA ECE 239AS (spring 2024), project 3 "Language modelling and Transformers" (a MiniGPT trained on
TinyStories, filled into the course's starter model.py). Ports multi_head_attention.

Conventions kept: MultiHeadAttention(input_dim, num_heads) sets `head_dim = int(self.input_dim/num_heads)`, builds
`SingleHeadAttention(input_dim=self.input_dim, output_key_query_dim=head_dim, output_value_dim=head_dim)` for each
head (the queries', keys' AND values' heads are all input_dim / num_heads wide) and `self.out =
nn.Linear(self.input_dim, self.input_dim, bias=True)`; forward concatenates the heads' outputs, `torch.cat(values,
dim=-1)`, and applies out. SingleHeadAttention builds its causal mask as `torch.triu(torch.ones((max_len, max_len)),
diagonal=1)` (max_len = 512); forward computes `torch.matmul(Q, K.transpose(-2, -1))/math.sqrt(
self.output_key_query_dim)` (any leading axes), slices `self.causal_mask[0:out.size(-2), 0:out.size(-1)]`, fills
`out.masked_fill_(M == 1, -1e10)` (every future key, in every call: the layer is always causal and has no mask
argument; -1e10, not -inf, but the diagonal is never masked), then `nn.functional.softmax(out, dim=-1)` and
`torch.matmul(out, V)`.

Left out: dropout (off at evaluation), out's bias (the contract has none). Added for the contract only: head h's
query, key and value layers are columns [h * head_dim, (h + 1) * head_dim) of W_Q, W_K and W_V, input_dim is
X.shape[-1] (the constructor's argument), W_O is out, and a `mask` parameter (never read: the layer's forward takes
only x and masks the future keys whatever the mask).
"""

import math

import numpy as np

MAX_LEN = 512  # SingleHeadAttention(..., max_len=512)


def _softmax(z, axis):  # nn.functional.softmax
    e = np.exp(z - np.max(z, axis=axis, keepdims=True))
    return e / np.sum(e, axis=axis, keepdims=True)


def multi_head_attention(X, W_Q, W_K, W_V, W_O, num_heads, mask=None):
    input_dim = X.shape[-1]
    head_dim = int(input_dim / num_heads)
    causal_mask = np.triu(np.ones((MAX_LEN, MAX_LEN)), k=1)

    def head(h):  # SingleHeadAttention(input_dim, head_dim, head_dim).forward
        cols = slice(h * head_dim, (h + 1) * head_dim)
        Q, K, V = X @ W_Q[:, cols], X @ W_K[:, cols], X @ W_V[:, cols]
        out = Q @ np.swapaxes(K, -2, -1) / math.sqrt(head_dim)
        M = causal_mask[0:out.shape[-2], 0:out.shape[-1]]
        out = np.where(M == 1, -1e10, out)  # masked_fill_ on its own scores
        out = _softmax(out, axis=-1)
        return out @ V

    values = np.concatenate([head(h) for h in range(num_heads)], axis=-1)
    return values @ W_O
