"""Port of hanghae-plus-AI/AI-1-jw3215, Chapter1/Chapter1-2_과제_A.ipynb (commit 659db95; the same class in
Chapter1-2_과제_B.ipynb): the cell "[과제] Multi-head Attention", a learner's solution (2024) of the Hanghae99 Plus AI
bootcamp (항해 플러스 AI, cohort 1), week 2 assignment "Multi-head Attention으로 감정 분석 모델 구현하기" (extend the
course's single-head SelfAttention of the "Transformer 실습" notebook, an IMDb sentiment classifier, to multi-head
attention). Ports multi_head_attention.

Conventions kept: MultiHeadAttention(input_dim, d_model, n_heads) raises `ValueError("input_dim must be divisible by
n_heads")` when `input_dim % n_heads != 0`, and builds `self.wq`, `self.wk`, `self.wv = nn.Linear(input_dim, d_model)`
and `self.dense = nn.Linear(input_dim, d_model)`. split_into_heads(tensor, n_heads) raises ValueError unless the tensor
is 3-D (`len(tensor.shape) is not 3`), reads `b, s, d = tensor.shape`, `d_prime = d // n_heads` (each tensor's own
width) and returns `tensor.reshape(b, s, n_heads, d_prime).transpose(1, 2)`. forward(x, mask) splits q, k and v,
computes `score = q @ k.transpose(-1, -2)` and `score = score / sqrt(self.d_model)` (the full projection width, not the
head's), then, given a mask, `score = score + (mask.unsqueeze(-2) * -1e9)` (the course's padding mask `(x == pad)[:,
None, :]`, True = padding: the penalty goes on the True entries; a finite penalty added, so a row whose keys are all
penalised keeps its softmax; unsqueeze(-2) is meant to turn the course's (B, 1, S) mask into (B, 1, 1, S): a contract
(N, N) mask becomes (N, 1, N) and a (B, N, N) one (B, N, 1, N), whose query axis (before the inserted 1) meets the (B,
H, N, N) scores' head axis), `nn.Softmax(dim=-1)`, `result = score @ v`, `result.transpose(1, 2)`,
`result.reshape(x.shape)` (the heads merged back into the INPUT's shape: raises unless H*d_v = D) and
`self.dense(result)`.

Left out: the Linear layers' biases (zero here: the contract has none); the notebook's alternative "[참고]" class built
from SelfAttention heads (a later cell, not the one trained). Added for the contract only: input_dim is X.shape[-1],
d_model is W_Q.shape[-1] (the width of wq's output, H*d_k), wq, wk and wv are W_Q, W_K and W_V, dense is W_O, and the
contract's `mask` is the forward's mask.
"""

from math import sqrt

import numpy as np


def _softmax(z, axis):  # nn.Softmax(dim=-1)
    e = np.exp(z - np.max(z, axis=axis, keepdims=True))
    return e / np.sum(e, axis=axis, keepdims=True)


def _split_into_heads(tensor, n_heads):
    if len(tensor.shape) != 3:  # `is not 3`
        raise ValueError("Input tensor must have 3 dimensions (batch_size, sequence_length, hidden_dim)")
    b, s, d = tensor.shape
    d_prime = d // n_heads
    return np.swapaxes(tensor.reshape(b, s, n_heads, d_prime), 1, 2)


def multi_head_attention(X, W_Q, W_K, W_V, W_O, num_heads, mask=None):
    input_dim, d_model, n_heads = X.shape[-1], W_Q.shape[-1], num_heads
    if input_dim % n_heads != 0:
        raise ValueError("input_dim must be divisible by n_heads")
    x = X
    q = _split_into_heads(x @ W_Q, n_heads)
    k = _split_into_heads(x @ W_K, n_heads)
    v = _split_into_heads(x @ W_V, n_heads)
    score = q @ np.swapaxes(k, -1, -2)
    score = score / sqrt(d_model)
    if mask is not None:
        score = score + (np.expand_dims(np.asarray(mask), -2) * -1e9)
    score = _softmax(score, axis=-1)
    result = score @ v
    result = np.swapaxes(result, 1, 2)
    result = result.reshape(x.shape)
    return result @ W_O  # self.dense
