"""Port of yaof20/cse256-pa2, model.py (commit 0f77e53): Head and MultiHeadAttention, a student's solution of UC San
Diego CSE 256 (Statistical Natural Language Processing), programming assignment 2 (transformer encoder and decoder).

Conventions kept: MultiHeadAttention builds `Head(d_model, d_model // head_num, block_size, ...)` for each head (the
queries', keys' AND values' heads are all d_model // head_num wide) and `self.proj = nn.Linear(d_model, d_model)`;
Head.forward reads `B, T, C = x.shape` (3-D input only), computes `wei = k @ q.transpose(-2, -1) * C ** -0.5` (keys
times queries: row i holds key i against every query; scaled by the input width C), and with `self.is_causal` (the
decoder) `wei.masked_fill(self.tril == 0, float('-inf'))` with the whole (block_size, block_size) buffer
`torch.tril(torch.ones(block_size, block_size))`, never cut to T (out-of-place masked_fill broadcasts the mask and
the scores: it raises unless T equals block_size, and T = 1 grows to block_size rows that the product with v then
refuses), F.softmax(wei, dim=-1), `out = wei @ v`; the heads are concatenated on the last axis and projected. The
course's attention has no mask argument: the encoder's heads are built with is_causal=False, the decoder's with
True. Left out: the Linear layers' biases, dropout (off at evaluation). Added for the contract only: head h's
layers are columns [h * head_size, (h + 1) * head_size) of W_Q, W_K and W_V with head_size = d_model // num_heads,
d_model is X.shape[-1] (the constructor's argument), W_O is proj, block_size = 32 (the course's main.py), and a
`mask`: given one, the causal (decoder) heads run (the mask's entries are never read), without one the encoder's.
"""

import numpy as np

BLOCK_SIZE = 32  # main.py: block_size = 32


def multi_head_attention(X, W_Q, W_K, W_V, W_O, num_heads, mask=None):
    d_model = X.shape[-1]
    head_size = d_model // num_heads
    is_causal = mask is not None
    tril = np.tril(np.ones((BLOCK_SIZE, BLOCK_SIZE)))

    def head(h):
        cols = slice(h * head_size, (h + 1) * head_size)
        _B, _T, C = X.shape
        k = X @ W_K[:, cols]
        q = X @ W_Q[:, cols]
        v = X @ W_V[:, cols]
        wei = k @ np.swapaxes(q, -2, -1) * C ** -0.5
        if is_causal:
            wei = np.where(tril == 0, -np.inf, wei)  # masked_fill broadcasts mask and scores
        E = np.exp(wei - np.max(wei, axis=-1, keepdims=True))
        attn_map = E / np.sum(E, axis=-1, keepdims=True)
        return attn_map @ v

    out = np.concatenate([head(h) for h in range(num_heads)], axis=-1)
    return out @ W_O
