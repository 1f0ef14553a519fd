"""Port of WolferkGIT/Deep-Learning, modeling_attention.py (commit 5a78d0a): MultiHeadSelfAttention.forward, a student's
solution of UMass Lowell COMP 4420/5420 Natural Language Processing, homework 4 (transformer language model) in its
2023 edition (tasks 2.1-2.3; the course's starter file by Vladislav Lialin and Namrata Shivagunde).

Conventions kept: forward reads `bs, seq, _ = x.shape` (3-D input only); splits each projection with
`key.view(bs, -1, self.num_heads, self.head_size).transpose(1, 2)` (likewise query and value; head_size = hidden //
num_heads from the constructor, so a value width other than the queries' gives another token count, or a view that
cannot work); `scores = torch.matmul(q, k.transpose(2, 3)) / math.sqrt(self.head_size)`; with `self.causal`,
`upper_triangular = torch.triu(torch.ones(seq, seq), diagonal=1)`, `mask = upper_triangular.bool()`, `mask =
mask.expand_as(scores)` and `scores = scores.masked_fill_(mask == 0, -float("inf"))` (fills where the upper-triangle
mask is False: every query sees only the keys AFTER it, and the last query sees none, so its row is NaN after the
softmax); `probs = nn.Softmax(dim=-1)(scores)`, dropout, `att = torch.matmul(probs,v)` and `att = att.transpose(1,
2).contiguous().view(bs, -1, self.num_heads * self.head_size)`, returned as it is: self.mix (the output projection the
task asks for) is never applied. The course's class has no mask argument, only the constructor's `causal` flag (the
student's TransformerEncoderLayer, outside this port, never passes it). Left out: dropout (p = 0 by default), the
Linear layers' biases, return_attention. Added for the contract only: the course's MultiHeadSelfAttention(input_size,
hidden, num_heads, causal) gets input_size = D, hidden = W_Q.shape[-1]; its k, q and v layers are W_K, W_Q and W_V
(W_O is never read, as mix is not); given a mask, the causal module runs (the mask's entries are never read), without
one the non-causal module.
"""

import math

import numpy as np


def _view(t, shape):  # torch.Tensor.view: the element count must match
    try:
        return t.reshape(shape)
    except ValueError as e:
        raise RuntimeError(f"shape '{list(shape)}' is invalid for input of size {t.size}") from e


def _softmax_last(x):  # nn.Softmax(dim=-1): an all -inf row gives NaN
    e = np.exp(x - np.max(x, axis=-1, keepdims=True))
    return e / np.sum(e, axis=-1, keepdims=True)


def multi_head_attention(X, W_Q, W_K, W_V, W_O, num_heads, mask=None):
    hidden = W_Q.shape[-1]
    if hidden % num_heads:
        raise ValueError(f"hidden should be divisible by num_heads, but got hidden={hidden} and num_heads={num_heads}")
    head_size = hidden // num_heads
    causal = mask is not None
    x = X
    bs, seq, _ = x.shape
    key = x @ W_K
    query = x @ W_Q
    value = x @ W_V
    k = np.swapaxes(_view(key, (bs, -1, num_heads, head_size)), 1, 2)
    q = np.swapaxes(_view(query, (bs, -1, num_heads, head_size)), 1, 2)
    v = np.swapaxes(_view(value, (bs, -1, num_heads, head_size)), 1, 2)
    scores = np.matmul(q, np.swapaxes(k, 2, 3)) / math.sqrt(head_size)
    if causal:
        upper_triangular = np.triu(np.ones((seq, seq)), k=1)
        causal_mask = np.broadcast_to(upper_triangular.astype(bool), scores.shape)  # mask.expand_as(scores)
        scores = np.where(causal_mask == 0, -np.inf, scores)
    probs = _softmax_last(scores)
    att = np.matmul(probs, v)
    att = _view(np.swapaxes(att, 1, 2), (bs, -1, num_heads * head_size))
    return att
