"""Port of mintpancake/cse256-pa2-sp24, PA2_code/transformer.py (commit 2ec8fe0): Head and MultiHeadAttention, a
student's solution of UC San Diego CSE 256 (Statistical Natural Language Processing), programming assignment 2
(transformer encoder and decoder).

Conventions kept: MultiHeadAttention builds n_head `Head(n_embd, head_size, block_size, dropout, masked)`, each with
key, query AND value nn.Linear(n_embd, head_size, bias=False) (the values' heads are head_size wide too), and
`self.proj = nn.Linear(head_size * n_head, n_embd)`; Head.forward reads `B, T, C = x.shape` (3-D input only),
computes `wei = q @ k.transpose(-2, -1) * k.shape[-1] ** -0.5`, with `self.masked` (the decoder)
`wei.masked_fill(self.tril[:T, :T] == 0, float("-inf"))`, F.softmax(dim=-1), `out = wei @ v`; the heads are
concatenated on the last axis and projected. The course's attention has no mask argument: the encoder's blocks are
built with masked=False, the decoder's with masked=True. Left out: the projection's bias, dropout (off at
evaluation), the attention maps kept for plotting. Added for the contract only: head h's layers are columns [h *
head_size, (h + 1) * head_size) of W_Q, W_K and W_V with head_size = W_Q.shape[-1] // num_heads (the constructor's
argument), W_O is proj, and a `mask`: given one, the decoder's causal heads run (the mask's entries are never read),
without one the encoder's.
"""

import numpy as np


def multi_head_attention(X, W_Q, W_K, W_V, W_O, num_heads, mask=None):
    head_size = W_Q.shape[-1] // num_heads
    masked = mask is not None

    def head(h):
        cols = slice(h * head_size, (h + 1) * head_size)
        _B, T, _C = X.shape
        k = X @ W_K[:, cols]
        q = X @ W_Q[:, cols]
        wei = q @ np.swapaxes(k, -2, -1) * k.shape[-1] ** -0.5
        if masked:
            tril = np.tril(np.ones((T, T)))
            wei = np.where(tril == 0, -np.inf, wei)
        E = np.exp(wei - np.max(wei, axis=-1, keepdims=True))
        wei = E / np.sum(E, axis=-1, keepdims=True)
        v = X @ W_V[:, cols]
        return wei @ v

    out = np.concatenate([head(h) for h in range(num_heads)], axis=-1)
    return out @ W_O
