"""Port of Kirscher/ensae-dl-course, session_4/problem.ipynb (commit bcbb6a1): Head (the masked one) and
MultiHeadAttention, a student's solution (March 2024) of session 4 ("Build a mini GPT from scratch") of ENSAE Paris's
third-year Deep Learning course (Olivier Koch; the student's fork of the course's repository oakfr/ensae-dl-course:
session_4/problem.ipynb asks for the self-attention by hand, then a Head, a masked Head, a MultiHeadAttention, a
FeedForward and a Block, each checked against fixed torch.allclose values, before the mini GPT of gpt-problem.py).

Ports multi_head_attention (MultiHeadAttention.forward over its Heads).

Conventions kept: the notebook's globals (cells marked "do not modify": `batch_size = 3`, `block_size = 2`, `n_embd =
3`, later `num_heads = 3`, `head_size = 2`, `n_embd = 6`); the second Head class (the one MultiHeadAttention builds,
defined after the unmasked one) has K, Q and V layers `nn.Linear(n_embd, head_size, bias=False)` (the values' heads are
head_size wide, like the queries') and the buffer `torch.tril(torch.ones(block_size, block_size))` (2 x 2: block_size is
the notebook's 2); Head.forward(x) reads `B, T, C = x.shape` (3-D input only), computes `dot_product = Q @
K.transpose(-2, -1) * C**-0.5` (scaled by the input's width C, not by head_size: the course's first sanity values, in
the version the student solved, were computed that way), `dot_product.masked_fill(self.tril == 0, float('-inf'))` (the
WHOLE 2 x 2 buffer, never cut to the sequence: always causal, no mask argument; out of place, so mask and scores
broadcast: it raises unless there are exactly 2 tokens, and 1 token grows to 2 rows that the product with V then
refuses), `F.softmax(dot_product, dim=-1)`, `out = S @ V`; MultiHeadAttention(num_heads, head_size) holds
`[Head(head_size) for _ in range(num_heads)]` and builds `self.linear = nn.Linear(num_heads * head_size, n_embd,
bias=False)`, but its forward only returns `torch.cat([h(x) for h in self.heads], dim=-1)`: self.linear is never
applied (the notebook's sanity check of this cell prints False). The student's gpt-problem.ipynb copies the same
classes.

Left out: the unmasked Head of the previous cell, the FeedForward and Block classes, the "self-attention by hand" cells.
Added for the contract only: head_size is W_Q.shape[-1] // num_heads (the constructor's argument), n_embd is
X.shape[-1], head h's K, Q and V layers are columns [h * head_size, (h + 1) * head_size) of W_K, W_Q and W_V, and the
contract's W_O (self.linear) and `mask` are never read.
"""

import numpy as np

BLOCK_SIZE = 2  # the notebook's `block_size = 2 # T` (a "do not modify" cell): the size of each Head's tril buffer


def _softmax(x, axis):  # F.softmax
    e = np.exp(x - np.max(x, axis=axis, keepdims=True))
    return e / np.sum(e, axis=axis, keepdims=True)


def multi_head_attention(X, W_Q, W_K, W_V, W_O, num_heads, mask=None):
    head_size = W_Q.shape[-1] // num_heads
    tril = np.tril(np.ones((BLOCK_SIZE, BLOCK_SIZE)))  # register_buffer('tril', ...)

    def head(h):
        cols = slice(h * head_size, (h + 1) * head_size)
        _B, _T, C = X.shape  # B, T, C = x.shape
        K = X @ W_K[:, cols]
        Q = X @ W_Q[:, cols]
        V = X @ W_V[:, cols]
        dot_product = Q @ np.swapaxes(K, -2, -1) * C ** -0.5
        dot_product = np.where(tril == 0, -np.inf, dot_product)  # masked_fill, out of place: both broadcast
        S = _softmax(dot_product, axis=-1)
        return S @ V

    return np.concatenate([head(h) for h in range(num_heads)], axis=-1)  # self.linear is never applied
