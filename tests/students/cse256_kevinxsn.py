"""Port of Kevinxsn/cse256, CSE256_PA2_WI26/PA2_code/transformer.py (commit bc9d634): MultiHeadAttention, a student's
solution of UC San Diego CSE 256 (Statistical Natural Language Processing), programming assignment 2 (transformer
encoder and decoder).

Conventions kept: the constructor asserts `d_model % n_heads == 0` and sets `self.d_k = d_model // n_heads` (query,
key and value are nn.Linear(d_model, d_model): every head, the values' too, is the model width over the heads);
forward takes `batch_size = query.size(0)` and views each projection as `(batch_size, -1, self.h, self.d_k)` then
transpose(1, 2) (the first axis is the batch: a 2-D input becomes one-token sequences), `torch.matmul(Q,
K.transpose(-2, -1)) / math.sqrt(self.d_k)`, with a mask `mask = mask.unsqueeze(1)` (a (batch, s, s) mask gets its
head axis; a shared (s, s) mask becomes (s, 1, s)) and `scores.masked_fill(mask == 0, float('-inf'))` (out of
place: mask and scores are broadcast together), F.softmax(dim=-1) (an all -inf row is NaN), `torch.matmul(attention,
V).transpose(1, 2).contiguous().view(batch_size, -1, self.h*self.d_k)` and the fc layer. Left out: the Linear layers'
biases and the encoder layer's residual, feed-forward and layer norms (the block's, not attention). Added for the
contract only: the projections are W_Q, W_K, W_V and W_O (fc), self-attention (query = key = value = X), d_model is
X.shape[-1] (the constructor's argument).
"""

import math

import numpy as np


def multi_head_attention(X, W_Q, W_K, W_V, W_O, num_heads, mask=None):
    d_model = X.shape[-1]
    assert d_model % num_heads == 0
    d_k, h = d_model // num_heads, num_heads
    query = key = value = X
    batch_size = query.shape[0]
    Q = (query @ W_Q).reshape(batch_size, -1, h, d_k).swapaxes(1, 2)
    K = (key @ W_K).reshape(batch_size, -1, h, d_k).swapaxes(1, 2)
    V = (value @ W_V).reshape(batch_size, -1, h, d_k).swapaxes(1, 2)
    scores = np.matmul(Q, np.swapaxes(K, -2, -1)) / math.sqrt(d_k)
    if mask is not None:
        mask = np.expand_dims(mask, 1)  # mask.unsqueeze(1)
        scores = np.where(mask == 0, -np.inf, scores)
    E = np.exp(scores - np.max(scores, axis=-1, keepdims=True))
    attention = E / np.sum(E, axis=-1, keepdims=True)
    output = np.matmul(attention, V).swapaxes(1, 2).reshape(batch_size, -1, h * d_k)
    return output @ W_O
