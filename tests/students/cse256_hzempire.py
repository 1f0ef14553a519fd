"""Port of HZEmpire/CSE256_PA2_code, transformer.py (commit 042e433): Attention, a student's solution of UC San Diego
CSE 256 (Statistical Natural Language Processing), programming assignment 2 (transformer encoder and decoder).

Conventions kept: the constructor asserts `embed_size % head_num == 0` and sets `self.head_dim = embed_size //
head_num` (q, k and v are nn.Linear(embed_size, embed_size): every head is as wide as the model width over the
heads, the values' too); forward reads `N, seq_len, num_features = x.shape` (3-D input only), reshapes each
projection to (N, seq_len, head_num, head_dim) and permutes it to (N, H, seq_len, head_dim), scores `torch.matmul(q,
k.permute(0, 1, 3, 2)) / np.sqrt(self.head_dim)`, then `mask = mask.unsqueeze(1)` (a (batch, seq_len, seq_len) mask
gets its head axis; a shared (seq_len, seq_len) mask becomes (seq_len, 1, seq_len)) and `score.masked_fill(mask == 0,
float('-inf'))`, F.softmax(dim=-1) (an all -inf row is NaN), `torch.matmul(weight, v).permute(0, 2, 1,
3).reshape(N, seq_len, self.embed_size)` and the fc layer. Left out: the fc layer's bias and the encoder's residual,
feed-forward and layer norm (the block's, not attention). Added for the contract only: the projections are W_Q, W_K,
W_V and W_O (fc), embed_size is X.shape[-1] (the constructor's argument), num_heads is head_num.
"""

import numpy as np


def multi_head_attention(X, W_Q, W_K, W_V, W_O, num_heads, mask=None):
    embed_size, head_num = X.shape[-1], num_heads
    assert embed_size % head_num == 0
    head_dim = embed_size // head_num
    N, seq_len, _num_features = X.shape
    q = (X @ W_Q).reshape(N, seq_len, head_num, head_dim).transpose(0, 2, 1, 3)
    k = (X @ W_K).reshape(N, seq_len, head_num, head_dim).transpose(0, 2, 1, 3)
    v = (X @ W_V).reshape(N, seq_len, head_num, head_dim).transpose(0, 2, 1, 3)
    score = np.matmul(q, k.transpose(0, 1, 3, 2)) / np.sqrt(head_dim)
    if mask is not None:
        mask = np.expand_dims(mask, 1)  # mask.unsqueeze(1)
        score = np.where(mask == 0, -np.inf, score)
    E = np.exp(score - np.max(score, axis=-1, keepdims=True))
    weight = E / np.sum(E, axis=-1, keepdims=True)
    out = np.matmul(weight, v).transpose(0, 2, 1, 3).reshape(N, seq_len, embed_size)
    return out @ W_O
