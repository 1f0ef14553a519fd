"""Port of atharv2802/CSE256_PA2, transformer.py (commit 7a16f93): AttentionHead and MultiHeadAttention (alibi=False,
the default), a student's solution of UC San Diego CSE 256 (Statistical Natural Language Processing), programming
assignment 2 (transformer encoder and decoder).

Conventions kept: MultiHeadAttention builds n_head `AttentionHead(head_size, n_embd, block_size, decoder=...)`, each
with query, key AND value nn.Linear(n_embd, head_size) (the values' heads are head_size wide too), and
`self.projection_layer = nn.Linear(n_head * head_size, n_embd)`; AttentionHead.forward reads `batch, time, channels
= x.shape` (3-D input only), projects, and without ALiBi adds its own "positional encoding": `pos_enc =
torch.arange(time, dtype=torch.float32).unsqueeze(0).unsqueeze(-1)`, `query += pos_enc`, `key += pos_enc` (token n's
query and key get n added to every coordinate), then `mat_mul = query @ key.transpose(-2, -1)`, `mat_mul /=
channels**(0.5)` (the input width, not the head's), with `self.decoder` `mat_mul.masked_fill(self.tril[:time, :time]
== 0, float("-inf"))`, F.softmax(dim=-1), `res = mat_mul @ value`; the heads are concatenated on the last axis and
projected. The course's attention has no mask argument: the encoder's heads are built with decoder=False, the
language model's with decoder=True. Left out: the projection's bias, dropout (off at evaluation), the ALiBi/RoPE
branch (alibi=False is the default). Added for the contract only: head h's layers are columns [h * head_size, (h +
1) * head_size) of W_Q, W_K and W_V with head_size = W_Q.shape[-1] // num_heads (the constructor's argument), W_O is
projection_layer, and a `mask`: given one, the decoder's causal heads run (the mask's entries are never read),
without one the encoder's.
"""

import numpy as np


def multi_head_attention(X, W_Q, W_K, W_V, W_O, num_heads, mask=None):
    head_size = W_Q.shape[-1] // num_heads
    decoder = mask is not None

    def head(h):
        cols = slice(h * head_size, (h + 1) * head_size)
        _batch, time, channels = X.shape
        query = X @ W_Q[:, cols]
        key = X @ W_K[:, cols]
        value = X @ W_V[:, cols]
        pos_enc = np.arange(time, dtype=np.float32)[None, :, None]
        query = query + pos_enc
        key = key + pos_enc
        mat_mul = query @ np.swapaxes(key, -2, -1)
        mat_mul = mat_mul / channels ** 0.5
        if decoder:
            tril = np.tril(np.ones((time, time)))
            mat_mul = np.where(tril == 0, -np.inf, mat_mul)
        E = np.exp(mat_mul - np.max(mat_mul, axis=-1, keepdims=True))
        mat_mul = E / np.sum(E, axis=-1, keepdims=True)
        return mat_mul @ value

    res = np.concatenate([head(h) for h in range(num_heads)], axis=-1)
    return res @ W_O
