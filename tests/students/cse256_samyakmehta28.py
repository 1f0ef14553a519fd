"""Port of samyakmehta28/CSE256_PA2, PA2/transformer.py (commit 412a074): Head and MultiHeadAttention (type_pos_emb
'absolute'), a student's solution of UC San Diego CSE 256 (Statistical Natural Language Processing), programming
assignment 2 (transformer encoder and decoder).

Conventions kept: MultiHeadAttention builds num_heads `Head(head_size, type_pos_emb, mask, num_heads, i)`, each with
key, query AND value nn.Linear(n_embd, head_size, bias=False) (the values' heads are head_size wide too), and
`self.project = nn.Linear(head_size * num_heads, n_embd)`; Head.forward reads `B,T,C = x.shape` (3-D input only),
computes `attention_map = (q @ k.transpose(-2,-1)) * k.shape[-1]**-0.5`, with `self.mask` (the decoder, the
default) `attention_map.masked_fill(self.tril[:T, :T] == 0, float('-inf'))`, F.softmax(dim=-1), `out =
attention_map @ v`; the heads are concatenated on the last axis and projected. The course's attention has no mask
argument: the encoder's blocks are built with mask=False, the decoder's with mask=True. Left out: the projection's
bias, dropout (off at evaluation), the ALiBi branch (type_pos_emb 'AliBi' only; 'absolute' is the default). Added for
the contract only: head h's layers are columns [h * head_size, (h + 1) * head_size) of W_Q, W_K and W_V with
head_size = W_Q.shape[-1] // num_heads (the constructor's argument), W_O is project, and a `mask`: given one, the
decoder's causal heads run (the mask's entries are never read), without one the encoder's.
"""

import numpy as np


def multi_head_attention(X, W_Q, W_K, W_V, W_O, num_heads, mask=None):
    head_size = W_Q.shape[-1] // num_heads
    masked = mask is not None

    def head(i):
        cols = slice(i * head_size, (i + 1) * head_size)
        _B, T, _C = X.shape
        k = X @ W_K[:, cols]
        q = X @ W_Q[:, cols]
        attention_map = (q @ np.swapaxes(k, -2, -1)) * k.shape[-1] ** -0.5
        if masked:
            tril = np.tril(np.ones((T, T)))
            attention_map = np.where(tril == 0, -np.inf, attention_map)
        E = np.exp(attention_map - np.max(attention_map, axis=-1, keepdims=True))
        attention_map = E / np.sum(E, axis=-1, keepdims=True)
        v = X @ W_V[:, cols]
        return attention_map @ v

    res = np.concatenate([head(i) for i in range(num_heads)], axis=-1)
    return res @ W_O
