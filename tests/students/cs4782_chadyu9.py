"""Port of chadyu9/cs-4782, A2/submission.py (commit 5a125e6): MultiHeadAttention.__init__, compute_attention and
forward, a student's solution of Cornell University CS 4782 (Introduction to Deep Learning), assignment 2 (word
embeddings, an LSTM and a transformer encoder for sentiment classification), spring 2025.

Ports multi_head_attention (the student's MultiHeadAttention; compute_attention is a method of it that only forward
calls, so it is ported inside it, not as scaled_dot_product_attention).

Conventions kept: the course's constructor `MultiHeadAttention(d_model, num_heads)` asserts `d_model % num_heads ==
0, "d_model must be divisible by num_heads"` and sets `self.d_k = d_model // num_heads`; the student's layers are
`self.W_q = nn.Linear(d_model, d_model)` (and W_k, W_v, W_o alike); the course's `split_heads` reads `batch_size,
seq_length, d_model = x.size()` (3-D input only) and `x.view(batch_size, seq_length, self.num_heads,
self.d_k).permute(0, 2, 1, 3)` (every head of the queries, keys AND values is d_model // num_heads wide: it raises
unless a projection is num_heads * (D // num_heads) wide); the student's compute_attention is `F.softmax(Q @
torch.transpose(K, -2, -1) / math.sqrt(self.d_k), dim=-1) @ V` (scale 1 / sqrt(D // num_heads)); the course's
`combine_heads` is `x.permute(0, 2, 1, 3).contiguous().view(batch_size, seq_length, self.d_model)`; the student's
forward is `self.split_heads(self.W_q(x))` (and k, v), `self.compute_attention(Q, K, V)`, `self.combine_heads(...)`,
`self.W_o(attention)`. forward takes no mask (the encoder of the assignment attends over every token): none is ever
applied.

Left out: the Linear layers' biases (the contract's projections have none). Added for the contract only: d_model is
X.shape[-1] (EncoderLayer builds `MultiHeadAttention(d_model, num_heads)` with the embeddings' width), the layers
W_q, W_k, W_v and W_o are the contract's W_Q, W_K, W_V and W_O (applied as X @ W), and a `mask` parameter (never
read) so the contract's calls reach the student's code.
"""

import math

import numpy as np


def _softmax_last(Z):  # F.softmax(..., dim=-1)
    E = np.exp(Z - np.max(Z, axis=-1, keepdims=True))
    return E / np.sum(E, axis=-1, keepdims=True)


def multi_head_attention(X, W_Q, W_K, W_V, W_O, num_heads, mask=None):
    d_model = X.shape[-1]
    assert d_model % num_heads == 0, "d_model must be divisible by num_heads"
    d_k = d_model // num_heads

    def split_heads(x):
        batch_size, seq_length, _d_model = x.shape
        return np.transpose(x.reshape(batch_size, seq_length, num_heads, d_k), (0, 2, 1, 3))

    def compute_attention(Q, K, V):
        return _softmax_last(Q @ np.swapaxes(K, -2, -1) / math.sqrt(d_k)) @ V

    def combine_heads(x):
        batch_size, _, seq_length, _d_k = x.shape
        return np.transpose(x, (0, 2, 1, 3)).reshape(batch_size, seq_length, d_model)

    Q, K, V = split_heads(X @ W_Q), split_heads(X @ W_K), split_heads(X @ W_V)
    attention = compute_attention(Q, K, V)
    attention = combine_heads(attention)
    return attention @ W_O
