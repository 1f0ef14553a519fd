"""Port of Sihifu/i2dl, exercise_11/exercise_code/network/attention.py and
exercise_11/exercise_code/network/multi_head_attention.py (commit c26de86): ScaledDotAttention.forward and
MultiHeadAttention.forward, a student's solution of TUM IN2346 Introduction to Deep Learning (I2DL), exercise 11
(transformers).

Conventions kept: ScaledDotAttention computes `q@torch.transpose(k,-1,-2)/k.shape[-1]**0.5` (the keys' own width;
there is no scale argument), then `if mask is not None: intermediate_result.masked_fill_(~mask,-torch.inf)` (True =
may attend; in place, so the mask must broadcast to the scores' own shape), torch.nn.Softmax(dim=-1) (an all -inf
row is NaN), dropout, `scores@v`. MultiHeadAttention.forward reads `batch_size, sequence_length_queries, _ =
q.size()` (3-D input only), splits each projection with `torch.reshape(q_out, (batch_size, sequence_length_queries,
self.n_heads, -1))` and `torch.transpose(q_out, -2, -3)` (the heads' widths come from the projections), gives the mask
its head axis with `mask = mask.unsqueeze(1)` (right for a (batch, N, N) mask; a shared (N, N) mask becomes (N, 1,
N)), calls its ScaledDotAttention(d_model) (whose d_k is never read), transposes back and merges with
`torch.reshape(attention, (-1, sequence_length_queries, self.n_heads*self.d_v))`, then the projection layer. Left out:
dropout (the identity: p = 0 by default, or evaluation). Added for the contract only: (out, weights) is returned, the
weights being the scores the student saves in SCORE_SAVER; a `scale` parameter (never read) so that the contract's
calls reach the student's code; the course's MultiHeadAttention(d_model, d_k, d_v, n_heads) gets d_v =
W_V.shape[-1] // num_heads, and its bias-free nn.Linear layers weights_q, weights_k, weights_v and project are W_Q,
W_K, W_V and W_O (self-attention: q = k = v = X).
"""

import numpy as np


def _softmax_last(x):  # torch.nn.Softmax(dim=-1): an all -inf row gives -inf - (-inf) = NaN
    e = np.exp(x - np.max(x, axis=-1, keepdims=True))
    return e / np.sum(e, axis=-1, keepdims=True)


def scaled_dot_product_attention(Q, K, V, mask=None, scale=None):
    q, k, v = Q, K, V
    intermediate_result = q @ np.swapaxes(k, -1, -2) / k.shape[-1] ** 0.5
    if mask is not None:  # masked_fill_ (in place): the mask must broadcast to the scores' own shape
        mask = np.asarray(mask)
        if np.broadcast_shapes(mask.shape, intermediate_result.shape) != intermediate_result.shape:
            raise RuntimeError(f"output with shape {list(intermediate_result.shape)} doesn't match the broadcast shape")
        intermediate_result = np.where(~mask, -np.inf, intermediate_result)
    scores = _softmax_last(intermediate_result)
    outputs = scores @ v
    return outputs, scores


def multi_head_attention(X, W_Q, W_K, W_V, W_O, num_heads, mask=None):
    n_heads, d_v = num_heads, W_V.shape[-1] // num_heads
    q = k = v = X
    batch_size, sequence_length_queries, _ = q.shape
    _, sequence_length_keys, _ = k.shape
    q_out = (q @ W_Q).reshape(batch_size, sequence_length_queries, n_heads, -1)
    q_out = np.swapaxes(q_out, -2, -3)
    k_out = (k @ W_K).reshape(batch_size, sequence_length_keys, n_heads, -1)
    k_out = np.swapaxes(k_out, -2, -3)
    v_out = (v @ W_V).reshape(batch_size, sequence_length_keys, n_heads, -1)
    v_out = np.swapaxes(v_out, -2, -3)
    if mask is not None:
        mask = np.expand_dims(mask, 1)  # mask.unsqueeze(1)
    attention, _scores = scaled_dot_product_attention(q_out, k_out, v_out, mask)
    attention = np.swapaxes(attention, -2, -3)
    attention = attention.reshape(-1, sequence_length_queries, n_heads * d_v)
    return attention @ W_O
