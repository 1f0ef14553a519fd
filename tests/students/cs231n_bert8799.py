"""Port of Bert8799/cs231n-spring2025, assignment3/cs231n/transformer_layers.py, MultiHeadAttention (Stanford CS231n
spring 2025 assignment 3, a student's solution).

Conventions kept: `N, S, E = query.shape` (batch-first 3-D input only); head_dim = embed_dim // n_head
(the model width over the heads) for the query, key and value views (N, S, H, head_dim); scores
torch.matmul(Q, K.transpose(-2, -1)) / head_dim ** 0.5; masked_fill(attn_mask == 0, -inf) then
torch.softmax on -1 (an all -inf row is NaN); the heads are merged with view(N, S, E) (the input width)
before the projection. Added for the contract only: W_Q, W_K, W_V, W_O replace the Linear layers (no
biases, dropout off), self-attention (query = key = value = X).
"""

import numpy as np


def multi_head_attention(X, W_Q, W_K, W_V, W_O, num_heads, mask=None):
    N, S, E = X.shape
    head_dim = E // num_heads
    Q = (X @ W_Q).reshape(N, S, num_heads, head_dim).transpose(0, 2, 1, 3)
    K = (X @ W_K).reshape(N, S, num_heads, head_dim).transpose(0, 2, 1, 3)
    V = (X @ W_V).reshape(N, S, num_heads, head_dim).transpose(0, 2, 1, 3)
    attn_score = (Q @ np.swapaxes(K, -2, -1)) / (head_dim ** 0.5)
    if mask is not None:
        attn_score = np.where(mask == 0, -np.inf, attn_score)
    attn_weights = np.exp(attn_score - attn_score.max(axis=-1, keepdims=True))
    attn_weights = attn_weights / attn_weights.sum(axis=-1, keepdims=True)
    output = (attn_weights @ V).transpose(0, 2, 1, 3).reshape(N, S, E)
    return output @ W_O
