"""Port of bstars/Better-Annotated-Transformer, layers.py (commit 36b55f2): AttentionHead and MultiHeadAttention, a
reader's own re-implementation of The Annotated Transformer (Harvard NLP, nlp.seas.harvard.edu/annotated-transformer;
the README: "A much more clear, modulized version of transformer based on" it), written with one module per head
instead of the post's batched MultiHeadedAttention.

Ports multi_head_attention (the student's attention lives inside AttentionHead, with its projections, so there is no
separate scaled dot-product function to port).

Conventions kept: AttentionHead(q_dim, k_dim, v_dim, embed_dim) has `self.minf = -1e9` and three Linear layers
`nn.Linear(q_dim, embed_dim)`, `nn.Linear(k_dim, embed_dim)`, `nn.Linear(v_dim, embed_dim)` (the values' width is
the queries'); forward computes `E = torch.bmm(Q, torch.transpose(K, 1, 2)) / np.sqrt(self.embed_dim)` (bmm: 3-D
(batch, T, d) only, with equal batch sizes; transpose(K, 1, 2) is not the last two axes on another rank), then `if
mask is not None: E = mask * E + (1. - mask) * self.minf` (True/1 = may attend, masked scores -1e9: a fully masked
row is uniform; the student's masks are always `.int()`, and with a torch BOOL mask `1. - mask` raises "Subtraction,
the `-` operator, with a bool tensor is not supported"), `A = torch.softmax(E, dim=-1)`, `torch.bmm(A, V)`.
MultiHeadAttention(q_dim, k_dim, v_dim, embed_dim, num_heads) sets `head_dim = embed_dim // num_heads` (no
divisibility check), builds num_heads `AttentionHead(q_dim, k_dim, v_dim, head_dim)` (so each head scales by
1/sqrt(head_dim)), and forward runs `torch.cat([head(q, k, v, mask) for head in self.heads], dim=-1)` then
`self.linear = nn.Linear(head_dim * num_heads, embed_dim)`. The EncoderLayer builds it as
`MultiHeadAttention(model_dim, model_dim, model_dim, model_dim, num_heads)`.

Left out: the Linear layers' biases (zero here: the contract has none), `.to(device)`. Added for the contract only:
model_dim (q_dim = k_dim = v_dim = embed_dim, as the EncoderLayer builds it) is X.shape[-1]; head h's three layers are
columns [h * head_dim, (h + 1) * head_dim) of W_Q, W_K and W_V, and self.linear is W_O; self-attention passes X as
q, k and v.
"""

import numpy as np


def _bmm(a, b):  # torch.bmm: two 3-D tensors with the same batch size, no broadcasting
    if a.ndim != 3 or b.ndim != 3 or a.shape[0] != b.shape[0] or a.shape[2] != b.shape[1]:
        raise RuntimeError(f"bmm: expected 3-D tensors with matching sizes, got {a.shape} and {b.shape}")
    return a @ b


def _transpose_1_2(t):  # torch.transpose(K, 1, 2)
    if t.ndim < 3:
        raise IndexError("Dimension out of range (expected to be in range of [-2, 1], but got 2)")
    return np.swapaxes(t, 1, 2)


def _softmax_last(E):  # torch.softmax(E, dim=-1)
    e = np.exp(E - np.max(E, axis=-1, keepdims=True))
    return e / np.sum(e, axis=-1, keepdims=True)


def _attention_head(q, k, v, W_q, W_k, W_v, embed_dim, mask=None):
    minf = -1e9
    Q = q @ W_q  # self.q_linear(q)
    K = k @ W_k
    V = v @ W_v
    E = _bmm(Q, _transpose_1_2(K)) / np.sqrt(embed_dim)
    if mask is not None:
        mask = np.asarray(mask)
        if mask.dtype == bool:  # torch: `1. - mask` on a bool tensor raises
            raise RuntimeError("Subtraction, the `-` operator, with a bool tensor is not supported. If you are trying "
                               "to invert a mask, use the `~` or `logical_not()` operator instead.")
        E = mask * E + (1.0 - mask) * minf
    A = _softmax_last(E)
    return _bmm(A, V)


def multi_head_attention(X, W_Q, W_K, W_V, W_O, num_heads, mask=None):
    embed_dim = X.shape[-1]  # MultiHeadAttention(model_dim, model_dim, model_dim, model_dim, num_heads)
    head_dim = embed_dim // num_heads
    ys = []
    for h in range(num_heads):  # AttentionHead(q_dim, k_dim, v_dim, head_dim)
        cols = slice(h * head_dim, (h + 1) * head_dim)
        ys.append(_attention_head(X, X, X, W_Q[:, cols], W_K[:, cols], W_V[:, cols], head_dim, mask))
    ys = np.concatenate(ys, axis=-1)
    return ys @ W_O  # self.linear
