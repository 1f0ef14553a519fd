"""Port of MatriXcel/transformer-lm, transformer_lm/modeling_attention.py (commit 319118e):
MultiHeadSelfAttention.forward, a student's solution of UMass Lowell COMP 4420/5420 Natural Language Processing
(spring 2022), homework 4 (transformer language model; the course's starter file by Vladislav Lialin and Namrata
Shivagunde). Commit 319118e (2022-03-03) holds the student's own attention; commit aee0f37 (2022-03-05) replaced it
with the course's solution (the same lines and comments as the next homework's starter code), so the student's own
version is the one ported.

Conventions kept: forward reads `bs, seq, _ = x.shape` (3-D input only); splits each projection with
`k.transpose(1, 2).reshape((bs, self.num_heads, self.head_size, seq)).transpose(2, 3).reshape((bs * self.num_heads,
seq, self.head_size))` (likewise q and v; head_size = hidden // num_heads from the constructor, so the values' heads
are as wide as the queries'); `scores = batch_combined_q @ batch_combined_k.transpose(1,2)`; with `self.causal`,
`casual_mask = (torch.triu(scores, diagonal=1) != 0)` and `scores = scores.masked_fill(casual_mask, -torch.inf)` (the
mask is built from the scores' values: a future score exactly 0 is not masked); `torch.nn.Softmax(dim=2)` of `scores /
self.scale` (scale = head_size ** 0.5); `attention = probs @ batch_combined_v`; then `attention =
attention.transpose(1, 0).reshape(attention.shape[0]//self.num_heads, attention.shape[1], self.num_heads *
self.head_size)` (the shapes read before the transpose: (batch * heads, seq, head) becomes (seq, batch * heads, head)
and is reshaped to (batch, seq, hidden), which mixes the sequences of a batch when batch > 1) and `att =
self.mix(attention)`. The course's class has no mask argument, only the constructor's `causal` flag. Left out:
dropout (p = 0 by default), the Linear layers' biases, return_attention. Added for the contract only: the course's
MultiHeadSelfAttention(input_size, hidden, num_heads, causal) gets input_size = D, hidden = W_Q.shape[-1]; its k, q,
v and mix layers are W_K, W_Q, W_V and W_O; given a mask, the causal module runs (the mask's entries are never read),
without one the non-causal module.
"""

import numpy as np


def _softmax(x, axis):  # torch.nn.Softmax(dim=axis)
    e = np.exp(x - np.max(x, axis=axis, keepdims=True))
    return e / np.sum(e, axis=axis, keepdims=True)


def multi_head_attention(X, W_Q, W_K, W_V, W_O, num_heads, mask=None):
    hidden = W_Q.shape[-1]
    if hidden % num_heads:
        raise ValueError(f"hidden should be divisible by num_heads, but got hidden={hidden} and num_heads={num_heads}")
    head_size = hidden // num_heads
    scale = head_size ** 0.5
    causal = mask is not None
    x = X
    bs, seq, _ = x.shape
    k = x @ W_K
    q = x @ W_Q
    v = x @ W_V

    def combine(m):
        m = np.swapaxes(m, 1, 2).reshape((bs, num_heads, head_size, seq))
        return np.swapaxes(m, 2, 3).reshape((bs * num_heads, seq, head_size))

    batch_combined_k = combine(k)
    batch_combined_q = combine(q)
    batch_combined_v = combine(v)
    scores = batch_combined_q @ np.swapaxes(batch_combined_k, 1, 2)
    if causal:
        casual_mask = np.triu(scores, k=1) != 0  # torch.triu of each (seq, seq) matrix
        scores = np.where(casual_mask, -np.inf, scores)
    probs = _softmax(scores / scale, axis=2)
    attention = probs @ batch_combined_v
    attention = np.swapaxes(attention, 1, 0).reshape(
        attention.shape[0] // num_heads, attention.shape[1], num_heads * head_size)
    return attention @ W_O
