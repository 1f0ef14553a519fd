"""Port of Prabhav55221/601-771-HW1, question1/attention_layers.py (commit e2fac43): SingleHeadAttention and
MultiHeadAttention, a student's solution of Johns Hopkins CS 601.471/671/771 (Advanced Self-Supervised Statistical
NLP, Fall 2025), homework 1, question 1 (profiling self-attention: the students write their own self-attention layer).

Ports scaled_dot_product_attention (the core of SingleHeadAttention.forward) and multi_head_attention
(MultiHeadAttention.forward).

Conventions kept: SingleHeadAttention builds `self.sqrt_d_model = math.sqrt(d_model)` and square projections
`nn.Linear(d_model, d_model, bias=False)`, so its queries are d_model wide and the scale 1/sqrt(d_model) is
1/sqrt(Q.shape[-1]); forward computes `scores = torch.matmul(Q, K.transpose(-2, -1)) / self.sqrt_d_model`,
`F.softmax(scores, dim=-1)`, `torch.matmul(attention_weights, V)` and returns only the output: no mask, no scale
argument. MultiHeadAttention's constructor asserts `d_model % num_heads == 0` and sets `self.d_k = d_model //
num_heads` (d_model is the input width); forward reads `batch_size, seq_len, _ = x.size()` (3-D input only), views
each projection as `.view(batch_size, seq_len, self.num_heads, self.d_k).transpose(1, 2)` (queries, keys AND values
in heads of D // H columns), scales by `self.sqrt_d_k`, softmaxes the last axis, merges with
`.view(batch_size, seq_len, self.d_model)` and applies W_o: no mask.
Left out: nothing (the student's layers have no dropout and no bias). Added for the contract only: Q, K, V are given
to scaled_dot_product_attention (the single head's projections are qkv_project's), which returns (output,
attention_weights) and takes `mask` and `scale` parameters that are never read; multi_head_attention takes W_Q, W_K,
W_V, W_O as the layers' matrices (d_model = X.shape[-1]) and a `mask` that is never read.
"""

import math

import numpy as np


def _softmax_last(Z):  # F.softmax(..., dim=-1)
    E = np.exp(Z - np.max(Z, axis=-1, keepdims=True))
    return E / np.sum(E, axis=-1, keepdims=True)


def scaled_dot_product_attention(Q, K, V, mask=None, scale=None):
    sqrt_d_model = math.sqrt(Q.shape[-1])  # SingleHeadAttention(d_model): square W_q, so Q is d_model wide
    scores = np.matmul(Q, np.swapaxes(K, -2, -1)) / sqrt_d_model
    attention_weights = _softmax_last(scores)
    output = np.matmul(attention_weights, V)
    return output, attention_weights


def multi_head_attention(X, W_Q, W_K, W_V, W_O, num_heads, mask=None):
    d_model = X.shape[-1]  # MultiHeadAttention(d_model, num_heads)
    assert d_model % num_heads == 0
    d_k = d_model // num_heads
    sqrt_d_k = math.sqrt(d_k)

    batch_size, seq_len, _ = X.shape
    Q = np.swapaxes((X @ W_Q).reshape(batch_size, seq_len, num_heads, d_k), 1, 2)
    K = np.swapaxes((X @ W_K).reshape(batch_size, seq_len, num_heads, d_k), 1, 2)
    V = np.swapaxes((X @ W_V).reshape(batch_size, seq_len, num_heads, d_k), 1, 2)

    scores = np.matmul(Q, np.swapaxes(K, -2, -1)) / sqrt_d_k
    attention_weights = _softmax_last(scores)
    attention_output = np.matmul(attention_weights, V)

    attention_output = np.swapaxes(attention_output, 1, 2).reshape(batch_size, seq_len, d_model)
    return attention_output @ W_O
