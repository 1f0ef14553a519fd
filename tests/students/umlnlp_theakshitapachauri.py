"""Port of theakshitapachauri/hw4_transformer_lm, transformer_lm/modeling_attention.py (commit 78c0e8c):
MultiHeadSelfAttention.forward, a student's solution of UMass Lowell COMP 4420/5420 Natural Language Processing
(spring 2022), homework 4 (transformer language model; the course's starter file by Vladislav Lialin and Namrata
Shivagunde).

Conventions kept: forward reads `bs, seq, _ = x.shape` (3-D input only); splits each projection with
`torch.cat(self.q(x).split(self.head_size, dim=-1), dim=0)` (likewise k and v: head h of sequence b at index h * bs +
b; head_size = hidden // num_heads from the constructor, so the values are cut into chunks as wide as the queries'
heads: other value widths give a different number of chunks, or a shorter last one that torch.cat refuses); `scores
= q @ k.transpose(-2, -1) / self.scale` (scale = head_size ** 0.5); with `self.causal`, `scores +=
torch.triu(torch.ones(scores.size(1), scores.size(1), device=scores.device) * float('-inf'), diagonal=1)` (-inf
above the diagonal, 0 elsewhere); `probs = self.dropout(F.softmax(scores, dim=-1))`; `att =
self.mix(torch.cat((probs @ v).split(bs, dim=0), dim=-1))`. The course's class has no mask argument, only the
constructor's `causal` flag. Left out: dropout (p = 0 by default), the Linear layers' biases, return_attention. Added
for the contract only: the course's MultiHeadSelfAttention(input_size, hidden, num_heads, causal) gets input_size =
D, hidden = W_Q.shape[-1]; its k, q, v and mix layers are W_K, W_Q, W_V and W_O; given a mask, the causal module runs
(the mask's entries are never read), without one the non-causal module.
"""

import numpy as np


def _split(t, split_size, axis):  # torch.Tensor.split(split_size, dim): chunks of split_size, the last one shorter
    n = t.shape[axis]
    return [np.take(t, np.arange(i, min(i + split_size, n)), axis=axis) for i in range(0, n, split_size)]


def _cat(tensors, axis):  # torch.cat: every other axis must match
    shapes = {tuple(s for i, s in enumerate(t.shape) if i != axis % t.ndim) for t in tensors}
    if len(shapes) != 1:
        raise RuntimeError("Sizes of tensors must match except in dimension")
    return np.concatenate(tensors, axis=axis)


def _softmax_last(x):  # F.softmax(x, dim=-1)
    e = np.exp(x - np.max(x, axis=-1, keepdims=True))
    return e / np.sum(e, axis=-1, keepdims=True)


def multi_head_attention(X, W_Q, W_K, W_V, W_O, num_heads, mask=None):
    hidden = W_Q.shape[-1]
    if hidden % num_heads:
        raise ValueError(f"hidden should be divisible by num_heads, but got hidden={hidden} and num_heads={num_heads}")
    head_size = hidden // num_heads
    scale = head_size ** 0.5
    causal = mask is not None
    x = X
    bs, _seq, _ = x.shape
    q = _cat(_split(x @ W_Q, head_size, -1), 0)
    k = _cat(_split(x @ W_K, head_size, -1), 0)
    v = _cat(_split(x @ W_V, head_size, -1), 0)
    scores = q @ np.swapaxes(k, -2, -1) / scale
    if causal:
        scores += np.triu(np.ones((scores.shape[1], scores.shape[1])) * float("-inf"), k=1)
    probs = _softmax_last(scores)
    att = _cat(_split(probs @ v, bs, 0), -1)
    return att @ W_O
