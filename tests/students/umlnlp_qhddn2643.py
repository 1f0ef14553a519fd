"""Port of qhddn2643/NLP_class, hw4_transformer_lm/transformer_lm/modeling_attention.py (commit 04f55eb):
MultiHeadSelfAttention.forward, a student's solution of UMass Lowell COMP 4420/5420 Natural Language Processing,
homework 4 (transformer language model; the course's starter file by Vladislav Lialin and Namrata Shivagunde).

Conventions kept: forward reads `bs, seq, _ = x.shape` (3-D input only); splits each projection with
`self.k(x).view(bs, seq, self.num_heads, self.head_size).transpose(1,2)` (likewise q and v; head_size = hidden //
num_heads from the constructor, so the values must be exactly as wide as the queries or the view raises); `scores = q
@ k.transpose(-2, -1) / self.scale` (scale = head_size ** 0.5); with `self.causal`, `casual_mask =
torch.triu(torch.ones(1, seq, seq, device=scores.device), diagonal=1)` and `scores = scores.masked_fill(casual_mask==1,
float("-inf"))`; `probs = self.dropout(F.softmax(scores, dim=-1))`, `attention = probs @ v`, `att =
attention.transpose(1, 2).contiguous().view(bs, seq, self.num_heads * self.head_size)` and `att = self.mix(att)`. The
course's class has no mask argument, only the constructor's `causal` flag (the student's TransformerEncoderLayer,
outside this port, never passes it). Left out: dropout (p = 0 by default), the Linear layers' biases,
return_attention. Added for the contract only: the course's MultiHeadSelfAttention(input_size, hidden, num_heads,
causal) gets input_size = D, hidden = W_Q.shape[-1]; its k, q, v and mix layers are W_K, W_Q, W_V and W_O; given a
mask, the causal module runs (the mask's entries are never read), without one the non-causal module.
"""

import numpy as np


def _view(t, shape):  # torch.Tensor.view: the element count must match
    try:
        return t.reshape(shape)
    except ValueError as e:
        raise RuntimeError(f"shape '{list(shape)}' is invalid for input of size {t.size}") from e


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
    bs, seq, _ = x.shape
    k = np.swapaxes(_view(x @ W_K, (bs, seq, num_heads, head_size)), 1, 2)
    q = np.swapaxes(_view(x @ W_Q, (bs, seq, num_heads, head_size)), 1, 2)
    v = np.swapaxes(_view(x @ W_V, (bs, seq, num_heads, head_size)), 1, 2)
    scores = q @ np.swapaxes(k, -2, -1) / scale
    if causal:
        casual_mask = np.triu(np.ones((1, seq, seq)), k=1)
        scores = np.where(casual_mask == 1, -np.inf, scores)
    probs = _softmax_last(scores)
    attention = probs @ v
    att = _view(np.swapaxes(attention, 1, 2), (bs, seq, num_heads * head_size))
    return att @ W_O
