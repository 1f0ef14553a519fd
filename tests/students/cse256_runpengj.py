"""Port of RunpengJ/UCSD_CSE256, CSE256_PA2_FA24/PA2_code/attention.py (commit 0fde815): MultiHeadAttention, a
student's solution of UC San Diego CSE 256 (Statistical Natural Language Processing), programming assignment 2
(transformer encoder and decoder).

Conventions kept: `self.head_dim = self.d_model // num_heads` (query, key and value are nn.Linear(d_model, d_model):
every head, the values' too, is the model width over the heads); forward takes `batch_size = key.size(0)`,
`seq_length = key.size(1)`, `seq_length_query = query.size(1)` (3-D input only), views each projection as
(batch_size, length, num_heads, head_dim) and transposes it to (batch, heads, length, head_dim), `torch.matmul(query,
k_t) / math.sqrt(self.head_dim)`, with a mask `scaled_scores.masked_fill(mask == 0, float("-inf"))` (the mask meets
the (batch, heads, q, k) scores as it is), F.softmax(dim=-1) (an all -inf row is NaN), `attention.transpose(1,
2).contiguous()`, `concat = attention.view(batch_size, seq_length, self.d_model)` (merged into the model width) and
the out layer. Left out: the out layer's bias. Added for the contract only: the projections are W_Q, W_K, W_V and W_O
(out), self-attention (query = key = value = X), d_model is X.shape[-1] (the constructor's argument).
"""

import math

import numpy as np


def multi_head_attention(X, W_Q, W_K, W_V, W_O, num_heads, mask=None):
    d_model = X.shape[-1]
    head_dim = d_model // num_heads
    query = key = value = X
    batch_size = key.shape[0]
    seq_length = key.shape[1]
    seq_length_query = query.shape[1]
    query = (query @ W_Q).reshape(batch_size, seq_length_query, num_heads, head_dim).swapaxes(1, 2)
    key = (key @ W_K).reshape(batch_size, seq_length, num_heads, head_dim).swapaxes(1, 2)
    value = (value @ W_V).reshape(batch_size, seq_length, num_heads, head_dim).swapaxes(1, 2)
    k_t = np.swapaxes(key, -1, -2)
    scaled_scores = np.matmul(query, k_t) / math.sqrt(head_dim)
    if mask is not None:
        scaled_scores = np.where(mask == 0, -np.inf, scaled_scores)
    E = np.exp(scaled_scores - np.max(scaled_scores, axis=-1, keepdims=True))
    attention_weights = E / np.sum(E, axis=-1, keepdims=True)
    attention = np.matmul(attention_weights, value)
    attention = attention.swapaxes(1, 2)
    concat = attention.reshape(batch_size, seq_length, d_model)
    return concat @ W_O
