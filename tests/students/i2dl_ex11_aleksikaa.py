"""Port of AleksiKaa/i2dl, exercise_11/exercise_code/network/attention.py and
exercise_11/exercise_code/network/multi_head_attention.py (commit 3b2f897, "complete up to task 8"):
ScaledDotAttention.forward and MultiHeadAttention.forward, a student's solution of TUM IN2346 Introduction to Deep
Learning (I2DL), exercise 11 (transformers).

Conventions kept: ScaledDotAttention is built with `nn.Softmax(dim=1)`; forward sets `n_dims = len(k.shape)` and, `if
n_dims > 2`, replaces the softmax by nn.Softmax(dim=n_dims - 1) (so the softmax is over the last axis, the keys,
for inputs of any rank), computes `q @ torch.transpose(k, n_dims - 2, n_dims - 1)` divided by `torch.sqrt(
torch.tensor(self.d_k))` (the constructor's d_k; there is no scale argument), and `scores @ v`; its `mask` parameter
is never read (no masking at all). MultiHeadAttention.forward reads `batch_size, sequence_length_queries, _ =
q.size()` (3-D input only), reshapes each projection to `[*q_.shape[:-1], self.n_heads, self.d_k]` (d_v for the
values), `transpose(1, 2)`, calls `self.attention(q_, k_, v_)` without the mask (its own `mask` parameter is never
read either), transposes back, reshapes to `[*outputs.shape[:-2], self.n_heads * self.d_v]` and applies the
projection layer. Added for the contract only: (out, weights) is returned, the weights being the scores the student
saves in SCORE_SAVER; a `scale` parameter (never read) so that the contract's calls reach the student's code; one
ScaledDotAttention is built per call (the student's module keeps the softmax it last replaced; the contract's
functions keep no state), with d_k = Q.shape[-1] (the width it is built with); the course's MultiHeadAttention(d_model,
d_k, d_v, n_heads) gets d_k = W_Q.shape[-1] // num_heads and d_v = W_V.shape[-1] // num_heads, and its bias-free
nn.Linear layers weights_q, weights_k, weights_v and project are W_Q, W_K, W_V and W_O (self-attention: q = k = v =
X).
"""

import numpy as np


def _softmax(x, dim):  # nn.Softmax(dim)
    e = np.exp(x - np.max(x, axis=dim, keepdims=True))
    return e / np.sum(e, axis=dim, keepdims=True)


def _scaled_dot_attention(d_k, q, k, v, mask=None):
    softmax_dim = 1  # nn.Softmax(dim=1) from the constructor
    n_dims = len(k.shape)
    if n_dims > 2:
        softmax_dim = n_dims - 1
    denom = np.sqrt(np.float32(d_k))
    scores = q @ np.swapaxes(k, n_dims - 2, n_dims - 1)
    scores = _softmax(scores / denom, softmax_dim)
    outputs = scores @ v
    return outputs, scores


def scaled_dot_product_attention(Q, K, V, mask=None, scale=None):
    return _scaled_dot_attention(Q.shape[-1], Q, K, V, mask)


def multi_head_attention(X, W_Q, W_K, W_V, W_O, num_heads, mask=None):
    n_heads = num_heads
    d_k, d_v = W_Q.shape[-1] // num_heads, W_V.shape[-1] // num_heads
    q = k = v = X
    batch_size, sequence_length_queries, _ = q.shape  # noqa: RUF059 - the student's unpacking (it states the shape assumed)
    _, sequence_length_keys, _ = k.shape  # noqa: RUF059 - the student's unpacking (it states the shape assumed)
    q_ = q @ W_Q
    k_ = k @ W_K
    v_ = v @ W_V
    q_ = q_.reshape(*q_.shape[:-1], n_heads, d_k)
    k_ = k_.reshape(*k_.shape[:-1], n_heads, d_k)
    v_ = v_.reshape(*v_.shape[:-1], n_heads, d_v)
    q_ = q_.swapaxes(1, 2)
    k_ = k_.swapaxes(1, 2)
    v_ = v_.swapaxes(1, 2)
    outputs, _scores = _scaled_dot_attention(d_k, q_, k_, v_)
    outputs = outputs.swapaxes(1, 2)
    outputs = outputs.reshape(*outputs.shape[:-2], n_heads * d_v)
    return outputs @ W_O
