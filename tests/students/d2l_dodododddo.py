"""Port of dodododddo/dive-into-deep-learning, dl_ch10/model.py (commit 5c630ae): AttentionLayer, a reader's own
multi-head self-attention written for chapter 10 ("注意力机制", attention mechanisms) of Dive into Deep Learning
(zh.d2l.ai; the chapter's NOTE.md quotes the same forward). Ports multi_head_attention.

Conventions kept: the constructor sets `self.dim = config.hidden_size`, `self.m_head = config.num_heads`, `assert
self.dim % self.m_head == 0` and `nn.Linear(config.hidden_size, config.hidden_size)` for W_q, W_k and W_v (the input
width is hidden_size); `_split_m_head` reads `batch_size, seq_len, _ = W.shape` (3-D only) and returns
`W.view(batch_size, seq_len, self.m_head, -1).permute(0, 2, 1, 3)` (each head's width comes from the projection);
forward computes `weight = torch.matmul(q, k.permute(0, 1, 3, 2)) / math.sqrt(self.dim / self.m_head)` (scaled by the
INPUT width over the number of heads), `if attention_mask is not None: weight += attention_mask` (an additive mask,
added in place: a boolean mask adds 1 where True, 0 elsewhere, and it must broadcast to the (B, H, N, N) scores' own
shape), `torch.softmax(weight, dim=-1)`, `v = torch.matmul(weight, v)` and `v.transpose(1, 2).contiguous().view(
batch_size, seq_len, num_heads * head_dims)`, which it RETURNS: the layer has no output projection (no W_o at all).

Left out: dropout (evaluation), head_mask (None), the Linear biases (the contract has none), the file's RoPE
(RoPE(q, k, freq_cis) with a precomputed table of the integer positions 0..end-1 for (batch, seq, head, dim) queries
and keys: it takes no positions, so the contract's rope stays the reference's). Added for the contract only: the
layer's config.hidden_size is X.shape[-1] (the constructor's argument), W_q, W_k, W_v are W_Q, W_K, W_V
(self-attention on X), the contract's mask is the attention_mask, and W_O is accepted but, as in the student's layer,
never used.
"""

import math

import numpy as np


def multi_head_attention(X, W_Q, W_K, W_V, W_O, num_heads, mask=None):
    dim, m_head = X.shape[-1], num_heads  # config.hidden_size, config.num_heads
    if dim % m_head != 0:  # AttentionLayer.__init__: assert self.dim % self.m_head == 0
        raise AssertionError

    def split_m_head(W):
        batch_size, seq_len, _ = W.shape
        return np.transpose(W.reshape(batch_size, seq_len, m_head, -1), (0, 2, 1, 3))

    q, k, v = split_m_head(X @ W_Q), split_m_head(X @ W_K), split_m_head(X @ W_V)
    weight = q @ np.transpose(k, (0, 1, 3, 2)) / math.sqrt(dim / m_head)
    if mask is not None:
        weight += mask  # in place: the mask must broadcast to weight's own shape
    weight = np.exp(weight - np.max(weight, axis=-1, keepdims=True))
    weight = weight / np.sum(weight, axis=-1, keepdims=True)
    v = weight @ v
    batch_size, num_heads, seq_len, head_dims = v.shape
    v = np.swapaxes(v, 1, 2).reshape(batch_size, seq_len, num_heads * head_dims)
    return v
