"""Port of NikheshKumar/TensorTonic-Solutions, softmax-function/softmax-function.py (commit 73b75a6) and the "Cracking
Inference" study plan's study-plans/cracking-inference/inference-scaled-dot-product-attention (commit eb49a25),
inference-multi-head-attention (commit f167da0) and inference-rotary-position-embeddings (commit 44e7840), a learner's
solutions (2026) of problems of TensorTonic (tensortonic.com), an online platform of graded machine-learning coding
problems whose solutions the site syncs to the learner's GitHub repository, one folder per problem.

Ports softmax (softmax-function: `softmax(x)` "Works for 1D or 2D NumPy arrays. For 2D, compute row-wise softmax"),
scaled_dot_product_attention (inference-scaled-dot-product-attention: `scaled_dot_product_attention(query, key, value,
mask=None)`), multi_head_attention (inference-multi-head-attention: `multi_head_attention(hidden_states, w_q, w_k, w_v,
w_o, num_heads, causal=False)`) and rope (inference-rotary-position-embeddings: `apply_rotary_position_embeddings(query,
key, positions, base=10000.0)`).

Conventions kept: softmax(x) takes no axis and no temperature: `x = np.asarray(x, float)`, `m = np.max(x, axis=-1,
keepdims=True)`, `np.exp(x-m) / np.sum(np.exp(x-m), axis=-1, keepdims=True)` (always the last axis; an all -inf slice
is NaN). scaled_dot_product_attention: `B, S_q, d_k = query.shape` and `_, S_k, _ = key.shape` (3-D only), `query @
key.transpose(-2,-1) / (d_k**0.5)`, `scores.masked_fill(mask, float('-inf'))` (True = masked; out of place),
`torch.softmax(scores, dim=-1)` (an all -inf row is NaN), `weights @ value`; no scale argument. multi_head_attention:
`B, S_q, d_model = hidden_states.shape` (3-D only), `d_k = d_model // num_heads` (the input's width), `(hidden_states @
w_q).reshape(B, S_q, num_heads, d_k).transpose(1, 2)` (likewise k and v: heads of D // H columns for the queries, keys
AND values), `/ (d_k**0.5)`, `if causal is True:` `torch.triu(torch.ones(S_q, S_q, dtype=torch.bool), diagonal=1)`
filled with -inf, `torch.softmax(scores, dim=-1)`, `att.transpose(1,2).contiguous().reshape(B, S_q, d_model)` (merged
into the input's width), `concat_head @ w_o`. apply_rotary_position_embeddings: `i = torch.arange(0, d_k, 2)`, `theta =
base**(-i/d_k)` (float32: torch's true division of an integer tensor), `freqs = positions[..., None] * theta`, and
apply_rope on a clone of x: `x_even = x[...,0::2]`, `x_odd = x[...,1::2]`, the tables given leading axes of 1 `while
cos_freq.ndim < x.ndim`, `x_rotated[...,0::2] = x_even * cos_freq - x_odd * sin_freq`, `x_rotated[...,1::2] = x_even *
sin_freq + x_odd * cos_freq` (interleaved pairs, counter-clockwise, real positions: right).

Left out: devices. Added for the contract only: softmax(Z, axis=-1, temperature=1.0) is the learner's softmax(x) (axis
and temperature never read); scaled_dot_product_attention returns (out, weights) (the learner returns the output; the
weights are its softmax) and takes a `scale` parameter (never read); multi_head_attention(X, W_Q, W_K, W_V, W_O,
num_heads, mask) runs the learner's function on hidden_states = X with causal=True when a mask is given (its entries are
never read) and causal=False without one; rope(x, positions, base) is the rotated query of
apply_rotary_position_embeddings(x, x, positions, base).
"""

import numpy as np


def _torch_softmax(x, axis):  # torch.softmax: an all -inf slice is -inf - (-inf) = NaN
    e = np.exp(x - np.max(x, axis=axis, keepdims=True))
    return e / np.sum(e, axis=axis, keepdims=True)


def _masked_fill(x, mask, value):  # Tensor.masked_fill (out of place): a boolean mask, broadcast with x
    mask = np.asarray(mask)
    if mask.dtype != bool:
        raise RuntimeError("masked_fill_ only supports boolean masks")
    return np.where(mask, value, x)


def softmax(Z, axis=-1, temperature=1.0):
    x = np.asarray(Z, float)
    m = np.max(x, axis=-1, keepdims=True)
    num = np.exp(x - m)
    den = np.sum(np.exp(x - m), axis=-1, keepdims=True)
    return num / den


def scaled_dot_product_attention(Q, K, V, mask=None, scale=None):
    query, key, value = Q, K, V
    _B, _S_q, d_k = query.shape
    _, _S_k, _ = key.shape

    scores = query @ np.swapaxes(key, -2, -1) / (d_k ** 0.5)

    if mask is not None:
        scores = _masked_fill(scores, mask, float("-inf"))

    weights = _torch_softmax(scores, axis=-1)
    return weights @ value, weights


def _multi_head_attention(hidden_states, w_q, w_k, w_v, w_o, num_heads, causal=False):
    B, S_q, d_model = hidden_states.shape
    d_k = d_model // num_heads

    q = np.swapaxes((hidden_states @ w_q).reshape(B, S_q, num_heads, d_k), 1, 2)
    k = np.swapaxes((hidden_states @ w_k).reshape(B, S_q, num_heads, d_k), 1, 2)
    v = np.swapaxes((hidden_states @ w_v).reshape(B, S_q, num_heads, d_k), 1, 2)

    scores = q @ np.swapaxes(k, -2, -1) / (d_k ** 0.5)

    if causal is True:
        mask = np.triu(np.ones((S_q, S_q), dtype=bool), k=1)
        scores = _masked_fill(scores, mask, float("-inf"))

    weights = _torch_softmax(scores, axis=-1)
    att = weights @ v
    concat_head = np.swapaxes(att, 1, 2).reshape(B, S_q, d_model)
    return concat_head @ w_o


def multi_head_attention(X, W_Q, W_K, W_V, W_O, num_heads, mask=None):
    return _multi_head_attention(X, W_Q, W_K, W_V, W_O, num_heads, causal=mask is not None)


def _apply_rotary_position_embeddings(query, key, positions, base=10000.0):
    d_k = query.shape[-1]

    i = np.arange(0, d_k, 2)
    theta = (base ** (-i / d_k)).astype(np.float32)  # torch: an integer tensor's true division is float32
    freqs = positions[..., None] * theta
    if not np.issubdtype(positions.dtype, np.floating):
        freqs = freqs.astype(np.float32)  # torch: an integer tensor times a float32 one stays float32

    def apply_rope(x, cos_freq, sin_freq):
        x_rotated = np.array(x, copy=True)  # x.clone()
        x_even = x[..., 0::2]
        x_odd = x[..., 1::2]
        while cos_freq.ndim < x.ndim:
            cos_freq = cos_freq[None]
            sin_freq = sin_freq[None]
        x_rotated[..., 0::2] = x_even * cos_freq - x_odd * sin_freq
        x_rotated[..., 1::2] = x_even * sin_freq + x_odd * cos_freq
        return x_rotated

    cos_freq = np.cos(freqs)
    sin_freq = np.sin(freqs)

    q_rotated = apply_rope(query, cos_freq, sin_freq)
    k_rotated = apply_rope(key, cos_freq, sin_freq)
    return (q_rotated, k_rotated)


def rope(x, positions, base=10000.0):
    x = np.asarray(x)
    return _apply_rotary_position_embeddings(x, x, np.asarray(positions), base)[0]
