"""Port of hanghae-plus-AI/AI-1-jhtwiz, Chapter1-2_과제A.ipynb (commit 9255ca6; the same class in
Chapter1-2_과제B.ipynb): the class MultiHeadAttention, a learner's solution (2024) of the Hanghae99 Plus AI bootcamp
(항해 플러스 AI, cohort 1), week 2 assignment "Multi-head Attention으로 감정 분석 모델 구현하기" (extend the course's
single-head SelfAttention of the "Transformer 실습" notebook, an IMDb sentiment classifier, to multi-head attention).
Ports multi_head_attention.

Conventions kept: MultiHeadAttention(input_dim, d_model, n_heads) asserts `d_model % n_heads == 0`, sets `self.head_dim
= d_model // n_heads` (one head width for the queries, keys AND values) and builds `self.wq`, `self.wk`, `self.wv =
nn.Linear(input_dim, d_model)` and `self.dense = nn.Linear(d_model, d_model)`. forward(x, mask) reads `batch_size =
x.shape[0]` and `seq_length = x.shape[1]` (a batch first, the tokens second), views each projection as
`.view(batch_size, seq_length, self.n_heads, self.head_dim).transpose(1, 2)`, computes `score = torch.matmul(q,
k.transpose(-1, -2))` and `score = score / sqrt(self.head_dim)`, then, given a mask, `score = score + (mask * -1e9)` as
it comes ("mask 차원 추가는 TextClassifier에 적용했습니다": the student's TextClassifier passes the padding mask `(x ==
pad)[:, None, None, :]`, (B, 1, 1, S), True = padding: the penalty goes on the True entries; a finite penalty added, so
a row whose keys are all penalised keeps its softmax; a 3-D mask meets the scores' head axis with its first axis),
`nn.Softmax(dim=-1)`, `result = torch.matmul(score, v)`, `result.transpose(1, 2).contiguous().view(batch_size,
seq_length, self.d_model)` and `self.dense(result)`.

Left out: the Linear layers' biases (zero here: the contract has none). Added for the contract only: input_dim is
X.shape[-1], d_model is W_Q.shape[-1] (the width of wq's output, H*d_k), wq, wk and wv are W_Q, W_K and W_V, dense is
W_O, and the contract's `mask` is the forward's mask.
"""

from math import sqrt

import numpy as np


def _softmax(z, axis):  # nn.Softmax(dim=-1)
    e = np.exp(z - np.max(z, axis=axis, keepdims=True))
    return e / np.sum(e, axis=axis, keepdims=True)


def _torch_view(x, shape):  # Tensor.view: the same elements, in order, or a RuntimeError
    return x.reshape(shape)


def multi_head_attention(X, W_Q, W_K, W_V, W_O, num_heads, mask=None):
    d_model, n_heads = W_Q.shape[-1], num_heads
    assert d_model % n_heads == 0
    head_dim = d_model // n_heads
    x = X
    batch_size = x.shape[0]
    seq_length = x.shape[1]
    q, k, v = x @ W_Q, x @ W_K, x @ W_V
    q = np.swapaxes(_torch_view(q, (batch_size, seq_length, n_heads, head_dim)), 1, 2)
    k = np.swapaxes(_torch_view(k, (batch_size, seq_length, n_heads, head_dim)), 1, 2)
    v = np.swapaxes(_torch_view(v, (batch_size, seq_length, n_heads, head_dim)), 1, 2)
    score = q @ np.swapaxes(k, -1, -2)
    score = score / sqrt(head_dim)
    if mask is not None:
        score = score + (np.asarray(mask) * -1e9)
    score = _softmax(score, axis=-1)
    result = score @ v
    result = _torch_view(np.swapaxes(result, 1, 2), (batch_size, seq_length, d_model))
    return result @ W_O  # self.dense
