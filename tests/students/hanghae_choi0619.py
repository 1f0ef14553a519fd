"""Port of hanghae-plus-AI/AI-1-Choi0619, "week 2/Chapter1-2_기본과제.ipynb" (commit 95ed3be; the same class in
Chapter1-2_심화과제.ipynb): the class MultiHeadAttention ("Step 2: Multi-head Attention 구현"), a learner's solution
(2024) of the Hanghae99 Plus AI bootcamp (항해 플러스 AI, cohort 1), week 2 assignment "Multi-head Attention으로 감정
분석 모델 구현하기" (extend the course's single-head SelfAttention of the "Transformer 실습" notebook, an IMDb sentiment
classifier, to multi-head attention). Ports multi_head_attention.

Conventions kept: MultiHeadAttention(d_model, n_heads) sets `self.d_k = d_model // n_heads` (one head width for the
queries, keys AND values) and builds `self.wq`, `self.wk`, `self.wv = nn.Linear(d_model, d_model)` and `self.wo =
nn.Linear(d_model, d_model)` (one width, the model's, for the input, the projections and the merged heads). forward(x,
mask=None) reads `batch_size = x.size(0)` (the first axis is the batch), views each projection as `.view(batch_size, -1,
self.n_heads, self.d_k).transpose(1, 2)` (the token axis inferred), computes `scores = torch.matmul(q, k.transpose(-2,
-1)) / math.sqrt(self.d_k)`, then, given a mask, `scores = scores.masked_fill(mask == 0, -1e9)` (0 = masked, the
contract's polarity; a finite fill, so a fully masked row becomes uniform; out of place, the mask broadcast to the
scores' shape: a 3-D mask meets the scores' head axis with its first axis), `nn.Softmax(dim=-1)`, `context =
torch.matmul(attention, v)`, `context.transpose(1, 2).contiguous().view(batch_size, -1, self.d_model)` and
`self.wo(context)`.

Left out: the Linear layers' biases (zero here: the contract has none); the student's TextClassifier never passes a
mask. Added for the contract only: d_model is X.shape[-1] (wq's input width, which the constructor's single d_model
gives), wq, wk and wv are W_Q, W_K and W_V, wo is W_O, and the contract's `mask` is the forward's mask.
"""

import math

import numpy as np


def _softmax(z, axis):  # nn.Softmax(dim=-1)
    e = np.exp(z - np.max(z, axis=axis, keepdims=True))
    return e / np.sum(e, axis=axis, keepdims=True)


def _torch_view(x, shape):  # Tensor.view: the same elements, in order, or a RuntimeError
    return x.reshape(shape)


def _masked_fill(x, where, value):  # Tensor.masked_fill: the mask broadcasts to x's shape, not the other way
    return np.where(np.broadcast_to(where, x.shape), value, x)


def multi_head_attention(X, W_Q, W_K, W_V, W_O, num_heads, mask=None):
    d_model, n_heads = X.shape[-1], num_heads
    d_k = d_model // n_heads
    x = X
    batch_size = x.shape[0]
    q, k, v = x @ W_Q, x @ W_K, x @ W_V
    q = np.swapaxes(_torch_view(q, (batch_size, -1, n_heads, d_k)), 1, 2)
    k = np.swapaxes(_torch_view(k, (batch_size, -1, n_heads, d_k)), 1, 2)
    v = np.swapaxes(_torch_view(v, (batch_size, -1, n_heads, d_k)), 1, 2)
    scores = q @ np.swapaxes(k, -2, -1) / math.sqrt(d_k)
    if mask is not None:
        scores = _masked_fill(scores, np.asarray(mask) == 0, -1e9)
    attention = _softmax(scores, axis=-1)
    context = attention @ v
    context = _torch_view(np.swapaxes(context, 1, 2), (batch_size, -1, d_model))
    return context @ W_O  # self.wo
