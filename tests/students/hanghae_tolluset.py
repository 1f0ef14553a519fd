"""Port of hanghae-plus-AI/AI-1-tolluset, week2/2-A.ipynb (commit b46cdbd; the same class in week2/2-B.ipynb): the class
MultiHeadAttention, a learner's solution (2024) of the Hanghae99 Plus AI bootcamp (항해 플러스 AI, cohort 1), week 2
assignment "Multi-head Attention으로 감정 분석 모델 구현하기" (extend the course's single-head SelfAttention of the
"Transformer 실습" notebook, an IMDb sentiment classifier, to multi-head attention). Ports multi_head_attention.

Conventions kept: MultiHeadAttention(input_dim, d_model, n_heads) asserts `d_model % n_heads == 0`, sets `self.depth =
d_model // n_heads` (one head width for the queries, keys AND values) and builds `self.wq`, `self.wk`, `self.wv =
nn.Linear(input_dim, d_model)` and `self.dense = nn.Linear(d_model, d_model)`. split_heads(x) reads `batch_size,
seq_len, _ = x.size()` (3-D only) and returns `x.view(batch_size, seq_len, self.n_heads, self.depth).transpose(1, 2)`.
forward(x, mask) reads `batch_size = x.size(0)`, splits wq(x), wk(x) and wv(x), computes `score = torch.matmul(q,
k.transpose(-1, -2)) / sqrt(self.depth)`, then, given a mask, `mask = mask.unsqueeze(1)` and `score = score + (mask *
-1e9)` (the course's padding mask `(x == pad)[:, None, :]`, True = padding: the penalty goes on the True entries; a
finite penalty added, so a row whose keys are all penalised keeps its softmax; unsqueeze(1) is meant to turn the
course's (B, 1, S) mask into (B, 1, 1, S): a contract (N, N) mask becomes (N, 1, N), whose first axis meets the scores'
head axis), `nn.Softmax(dim=-1)`, `result = torch.matmul(score, v)`, `result.transpose(1,
2).contiguous().view(batch_size, -1, self.d_model)` and `self.dense(result)`.

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
    assert d_model % n_heads == 0, "d_model must be divisible by num_heads"
    depth = d_model // n_heads

    def split_heads(x):
        batch_size, seq_len, _ = x.shape
        return np.swapaxes(_torch_view(x, (batch_size, seq_len, n_heads, depth)), 1, 2)

    x = X
    batch_size = x.shape[0]
    q, k, v = split_heads(x @ W_Q), split_heads(x @ W_K), split_heads(x @ W_V)
    score = (q @ np.swapaxes(k, -1, -2)) / sqrt(depth)
    if mask is not None:
        mask = np.expand_dims(np.asarray(mask), 1)
        score = score + (mask * -1e9)
    score = _softmax(score, axis=-1)
    result = score @ v
    result = _torch_view(np.swapaxes(result, 1, 2), (batch_size, -1, d_model))
    return result @ W_O  # self.dense
