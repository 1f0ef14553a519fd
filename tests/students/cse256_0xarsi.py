"""Port of 0xArsi/cse256_hw2, src/transformer.py (commit 1273f0a): NHeadAttention, a student's solution of UC San
Diego CSE 256 (Statistical Natural Language Processing), programming assignment 2 (transformer encoder).

Conventions kept: `self.head_dim = n_embed // n_heads` (query, key and value are nn.Linear(n_embed, n_embed): every
head, the values' too, is the model width over the heads); forward takes `batch_size = x.size(0)` and views each
projection as `(batch_size, -1, self.num_heads, self.head_dim)` then transpose(1, 2) (the first axis is the batch:
a 2-D input becomes one-token sequences, more leading axes are merged into one sequence), `torch.matmul(query,
key.transpose(-2, -1)) / torch.sqrt(torch.tensor(self.head_dim))`, torch.softmax(dim=-1), `torch.matmul(attn,
value).transpose(1, 2).contiguous().view(batch_size, -1, self.n_embed)` (merged back into the input's width), and
returns `self.normalize(ctx)`: an nn.LayerNorm(n_embed, eps=1e-5) of the concatenated heads, with no output
projection. There is no mask (the encoder's attention has none). Left out: the Linear layers' biases, dropout (off at
evaluation); the LayerNorm's weight and bias are their initial 1 and 0. Added for the contract only: the projections
are W_Q, W_K and W_V, n_embed is X.shape[-1] (the constructor's argument); W_O and the mask are never read.
"""

import numpy as np


def multi_head_attention(X, W_Q, W_K, W_V, W_O, num_heads, mask=None):
    n_embed = X.shape[-1]
    head_dim = n_embed // num_heads
    batch_size = X.shape[0]

    def heads(M):  # .view(batch_size, -1, num_heads, head_dim).transpose(1, 2)
        return M.reshape(batch_size, -1, num_heads, head_dim).swapaxes(1, 2)

    query, key, value = heads(X @ W_Q), heads(X @ W_K), heads(X @ W_V)
    raw_scores = np.matmul(query, np.swapaxes(key, -2, -1)) / np.sqrt(head_dim)
    E = np.exp(raw_scores - np.max(raw_scores, axis=-1, keepdims=True))
    attn = E / np.sum(E, axis=-1, keepdims=True)
    ctx = np.matmul(attn, value).swapaxes(1, 2).reshape(batch_size, -1, n_embed)
    mean = ctx.mean(axis=-1, keepdims=True)  # nn.LayerNorm(n_embed, eps=1e-5)
    var = ctx.var(axis=-1, keepdims=True)
    return (ctx - mean) / np.sqrt(var + 1e-5)
