"""Port of TriSi51/TensorTonic-Solutions,
study-plans/cracking-inference/inference-scaled-dot-product-attention/inference-scaled-dot-product-attention.py
(commit fbeb942) of the "Cracking Inference" study plan, with its inference-multi-head-attention (commit 4c5ae50) and
inference-rotary-position-embeddings (commit 7d07645), a learner's solutions (2026) of problems of
TensorTonic (tensortonic.com), an online platform of graded machine-learning coding problems whose solutions the site
syncs to the learner's GitHub repository, one folder per problem.

Ports scaled_dot_product_attention (inference-scaled-dot-product-attention: `scaled_dot_product_attention(query, key,
value, mask=None)`), multi_head_attention (inference-multi-head-attention: `multi_head_attention(hidden_states, w_q,
w_k, w_v, w_o, num_heads, causal=False)`) and rope (inference-rotary-position-embeddings:
`apply_rotary_position_embeddings(query, key, positions, base=10000.0)`).

Conventions kept: scaled_dot_product_attention: `dk = query.shape[-1]`, `torch.matmul(query, key.transpose(-2,-1))`,
`scores / (dk ** 0.5)`, `scores.masked_fill_(mask, float("-inf"))` (True = masked; in place, so the mask must broadcast
to the scores' shape), `torch.softmax(scores, dim = -1)` (an all -inf row is NaN), `torch.matmul(scores, value)`; no
scale argument. multi_head_attention: `d_model = w_q.shape[-1]`, `b, s, _ = hidden_states.shape` (3-D only), `dk =
d_model// num_heads` (the queries' head width), `query.reshape(b, s, num_heads, dk).transpose(1,2)` and likewise for the
keys AND values (values of another width raise), `/ (dk ** 0.5)`, `if causal:` `torch.triu(torch.ones(s,s, dtype=
torch.bool), diagonal = 1)` filled in place with -inf, `torch.softmax(scores, dim = -1)`,
`attention_scores.transpose(1,2).reshape(b, s,d_model)`, `@ w_o`. apply_rotary_position_embeddings: `if query.shape !=
key.shape: raise ValueError`, `if query.ndim != 4: raise ValueError("query and key must have shape (batch, heads, seq,
dk)")` (4-D only), `if base <= 0` and `if D % 2 != 0` raise, `B, H, S, D = query.shape`, `theta = base ** (-2.0 * i
/D)` with `i = torch.arange(0, D // 2, dtype = torch.float64)`, `pos = positions.to(dtype = torch.float64)[None, None,
:, None]`, `angle = pos * theta`, and rotate(x): `out[...,0::2] = x_even * cos - x_odd * sin`, `out[...,1::2] = x_even *
sin + x_odd * cos` into `torch.empty_like(x)` (interleaved pairs, counter-clockwise, real positions: right for 4-D
inputs).

Left out: nothing. Added for the contract only: scaled_dot_product_attention returns (out, weights) (the learner returns
the output; the weights are its softmax) and takes a `scale` parameter (never read); multi_head_attention(X, W_Q, W_K,
W_V, W_O, num_heads, mask) runs the learner's function on hidden_states = X with causal=True when a mask is given (its
entries are never read) and causal=False without one; rope(x, positions, base) is the rotated query of
apply_rotary_position_embeddings(x, x, positions, base).
"""

import numpy as np


def _torch_softmax(x, axis):  # torch.softmax: an all -inf slice is -inf - (-inf) = NaN
    e = np.exp(x - np.max(x, axis=axis, keepdims=True))
    return e / np.sum(e, axis=axis, keepdims=True)


def _masked_fill_(x, mask, value):  # Tensor.masked_fill_ (in place): a boolean mask that broadcasts to x's shape
    mask = np.asarray(mask)
    if mask.dtype != bool:
        raise RuntimeError("masked_fill_ only supports boolean masks")
    return np.where(np.broadcast_to(mask, x.shape), value, x)


def scaled_dot_product_attention(Q, K, V, mask=None, scale=None):
    query, key, value = Q, K, V
    dk = query.shape[-1]
    key_t = np.swapaxes(key, -2, -1)

    scores = np.matmul(query, key_t)
    scores = scores / (dk ** 0.5)
    if mask is not None:
        scores = _masked_fill_(scores, mask, float("-inf"))

    scores = _torch_softmax(scores, axis=-1)
    attention_scores = np.matmul(scores, value)
    return attention_scores, scores


def _multi_head_attention(hidden_states, w_q, w_k, w_v, w_o, num_heads, causal=False):
    d_model = w_q.shape[-1]
    b, s, _ = hidden_states.shape
    dk = d_model // num_heads

    query = hidden_states @ w_q
    key = hidden_states @ w_k
    value = hidden_states @ w_v

    query = np.swapaxes(query.reshape(b, s, num_heads, dk), 1, 2)
    key = np.swapaxes(key.reshape(b, s, num_heads, dk), 1, 2)
    value = np.swapaxes(value.reshape(b, s, num_heads, dk), 1, 2)
    key_t = np.swapaxes(key, -1, -2)
    scores = np.matmul(query, key_t)
    scores = scores / (dk ** 0.5)

    if causal:
        masks = np.triu(np.ones((s, s), dtype=bool), k=1)
        scores = _masked_fill_(scores, masks, float("-inf"))

    scores = _torch_softmax(scores, axis=-1)
    attention_scores = scores @ value

    attention_scores = np.swapaxes(attention_scores, 1, 2).reshape(b, s, d_model)
    return attention_scores @ w_o


def multi_head_attention(X, W_Q, W_K, W_V, W_O, num_heads, mask=None):
    return _multi_head_attention(X, W_Q, W_K, W_V, W_O, num_heads, causal=mask is not None)


def _apply_rotary_position_embeddings(query, key, positions, base=10000.0):
    if query.shape != key.shape:
        raise ValueError("query and key must have identical shapes")
    if query.ndim != 4:
        raise ValueError("query and key must have shape (batch, heads, seq, dk)")
    if base <= 0:
        raise ValueError("base must be positive")

    _B, _H, _S, D = query.shape

    if D % 2 != 0:
        raise ValueError("dk must be even")

    i = np.arange(0, D // 2, dtype=np.float64)
    theta = base ** (-2.0 * i / D)

    pos = positions.astype(np.float64)[None, None, :, None]  # (S,) -> (1, 1, S, 1)
    angle = pos * theta

    cos = np.cos(angle)
    sin = np.sin(angle)

    def rotate(x):
        x_even = x[..., 0::2]
        x_odd = x[..., 1::2]
        rotated_even = x_even * cos - x_odd * sin
        rotated_odd = x_even * sin + x_odd * cos
        out = np.empty_like(x)
        out[..., 0::2] = rotated_even
        out[..., 1::2] = rotated_odd
        return out

    return rotate(query), rotate(key)


def rope(x, positions, base=10000.0):
    x = np.asarray(x)
    return _apply_rotary_position_embeddings(x, x, np.asarray(positions), base)[0]
