"""Port of HUQiancheng/I2DL-homework, exercise_11/exercise_code/network/attention.py and
exercise_11/exercise_code/network/multi_head_attention.py (commit af329e3): ScaledDotAttention.forward and
MultiHeadAttention.forward, a student's solution of TUM IN2346 Introduction to Deep Learning (I2DL), exercise 11
(transformers).

Conventions kept: ScaledDotAttention divides `torch.matmul(q, k.transpose(-2, -1))` by `torch.sqrt(torch.tensor(
self.d_k, dtype=torch.float32))` (the constructor's d_k; there is no scale argument), then `if mask is not None:
scores = scores.masked_fill(mask == 0, float('-inf'))` (True = may attend), nn.Softmax(dim=-1) (an all -inf row is
NaN), dropout, `torch.matmul(scores, v)`. MultiHeadAttention.forward reads `batch_size, sequence_length_queries, _ =
q.size()` (3-D input only), splits each projection with `x.view(batch_size, -1, self.n_heads, d).transpose(1, 2)`
(d = d_k for q and k, d_v for v), gives the mask its head axis with `mask = mask.unsqueeze(1)` (right for a (batch,
N, N) mask; a shared (N, N) mask becomes (N, 1, N)), calls its ScaledDotAttention(d_k, dropout), merges with
`x.transpose(1, 2).contiguous().view(batch_size, -1, self.n_heads * self.d_v)` and applies the projection layer.
Left out: dropout (the identity: p = 0 by default, or evaluation). Added for the contract only: (out, weights) is
returned, the weights being the scores the student saves in SCORE_SAVER; a `scale` parameter (never read) so that
the contract's calls reach the student's code; ScaledDotAttention's d_k is Q.shape[-1] (the width it is built with);
the course's MultiHeadAttention(d_model, d_k, d_v, n_heads) gets d_k = W_Q.shape[-1] // num_heads and d_v =
W_V.shape[-1] // num_heads, and its bias-free nn.Linear layers weights_q, weights_k, weights_v and project are W_Q,
W_K, W_V and W_O (self-attention: q = k = v = X).
"""

import numpy as np


def _softmax_last(x):  # nn.Softmax(dim=-1): an all -inf row gives -inf - (-inf) = NaN
    e = np.exp(x - np.max(x, axis=-1, keepdims=True))
    return e / np.sum(e, axis=-1, keepdims=True)


def _scaled_dot_attention(d_k, q, k, v, mask=None):
    scores = np.matmul(q, np.swapaxes(k, -2, -1)) / np.sqrt(np.float32(d_k))
    if mask is not None:
        scores = np.where(np.asarray(mask) == 0, -np.inf, scores)
    scores = _softmax_last(scores)
    outputs = np.matmul(scores, v)
    return outputs, scores


def scaled_dot_product_attention(Q, K, V, mask=None, scale=None):
    return _scaled_dot_attention(Q.shape[-1], Q, K, V, mask=mask)


def multi_head_attention(X, W_Q, W_K, W_V, W_O, num_heads, mask=None):
    n_heads = num_heads
    d_k, d_v = W_Q.shape[-1] // num_heads, W_V.shape[-1] // num_heads
    q = k = v = X
    batch_size, sequence_length_queries, _ = q.shape  # noqa: RUF059 - the student's unpacking (it states the shape assumed)
    _, sequence_length_keys, _ = k.shape  # noqa: RUF059 - the student's unpacking (it states the shape assumed)

    def shape(x, d):
        return x.reshape(batch_size, -1, n_heads, d).swapaxes(1, 2)

    def unshape(x):
        return x.swapaxes(1, 2).reshape(batch_size, -1, n_heads * d_v)

    q = shape(q @ W_Q, d_k)
    k = shape(k @ W_K, d_k)
    v = shape(v @ W_V, d_v)
    if mask is not None:
        mask = np.expand_dims(mask, 1)  # mask.unsqueeze(1)
    x, _scores = _scaled_dot_attention(d_k, q, k, v, mask=mask)
    x = unshape(x)
    return x @ W_O
