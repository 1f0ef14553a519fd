"""Port of elenalmg/ensae-dl-course, session_4/tp4-loumagne-elena.ipynb (commit 3d03aff): Head (the masked one) and
MultiHeadAttention, a student's solution (March 2024) of session 4 ("Build a mini GPT from scratch") of ENSAE Paris's
third-year Deep Learning course (Olivier Koch; the course's repository is oakfr/ensae-dl-course, which the students
fork: session_4/problem.ipynb asks for the self-attention by hand, then a Head, a masked Head, a MultiHeadAttention, a
FeedForward and a Block, each checked against fixed torch.allclose values, before the mini GPT of gpt-problem.py).

Ports multi_head_attention (MultiHeadAttention.forward over its Heads).

Conventions kept: the notebook's globals (cells marked "do not modify": `batch_size = 3`, `block_size = 2`, `n_embd =
3`, later `num_heads = 3`, `head_size = 2`, `n_embd = 6`); the second Head class (the one MultiHeadAttention builds,
defined after the unmasked one) has key, query and `values` layers `nn.Linear(n_embd, head_size, bias=False)` (the
values' heads are head_size wide, like the queries') and the buffer `torch.tril(torch.ones(block_size, block_size))`
(2 x 2: block_size is the notebook's 2); Head.forward(x) reads `B, T, C = x.shape` (3-D input only), computes `wei =
(Q @ K.transpose(-2,-1))*C**-0.5` (scaled by the input's width C, not by head_size: the course's first sanity values, in
the commit the student forked, were computed that way), `wei.masked_fill(self.tril[:T,:T] == 0, float('-inf'))` (always
causal: no mask argument; with more than 2 tokens the cut stays 2 x 2 and raises against the scores), `F.softmax(wei,
dim=-1)`, `out = wei @ V`; MultiHeadAttention(num_heads, head_size) holds `[Head(head_size) for i in
range(num_heads)]` and `self.lm = nn.Linear(n_embd, n_embd)`, and its forward concatenates the heads on the last axis
and applies self.lm.

Left out: the Linear's bias (self.lm's; zero here: the contract has none), the unmasked Head of the previous cell, the
FeedForward and Block classes, the "self-attention by hand" cells. Added for the contract only: head_size is
W_Q.shape[-1] // num_heads (the constructor's argument), n_embd is X.shape[-1], head h's key, query and value layers are
columns [h * head_size, (h + 1) * head_size) of W_K, W_Q and W_V, self.lm is W_O (x @ W_O for the Linear's x @
weight.T), and the contract's `mask` is never read.
"""

import numpy as np

BLOCK_SIZE = 2  # the notebook's `block_size = 2 # T (N)` (a "do not modify" cell): the size of each Head's tril buffer


def _softmax(x, axis):  # F.softmax
    e = np.exp(x - np.max(x, axis=axis, keepdims=True))
    return e / np.sum(e, axis=axis, keepdims=True)


def multi_head_attention(X, W_Q, W_K, W_V, W_O, num_heads, mask=None):
    head_size = W_Q.shape[-1] // num_heads
    tril = np.tril(np.ones((BLOCK_SIZE, BLOCK_SIZE)))  # register_buffer('tril', ...)

    def head(h):
        cols = slice(h * head_size, (h + 1) * head_size)
        _B, T, C = X.shape
        K = X @ W_K[:, cols]
        Q = X @ W_Q[:, cols]
        V = X @ W_V[:, cols]
        wei = (Q @ np.swapaxes(K, -2, -1)) * C ** -0.5
        wei = np.where(tril[:T, :T] == 0, -np.inf, wei)  # masked_fill, out of place: mask and scores broadcast
        wei = _softmax(wei, axis=-1)
        return wei @ V

    out = np.concatenate([head(h) for h in range(num_heads)], axis=-1)
    return out @ W_O  # self.lm
