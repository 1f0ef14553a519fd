"""Port of tajinderpalsingh61/TensorTonic-Solutions,
study-plans/cracking-inference/inference-scaled-dot-product-attention/inference-scaled-dot-product-attention.py
(commit c1f82a4) of the "Cracking Inference" study plan, with its inference-multi-head-attention (commit 33d17a6) and
inference-rotary-position-embeddings (commit 35defa9), a learner's solutions (2026) of problems of
TensorTonic (tensortonic.com), an online platform of graded machine-learning coding problems whose solutions the site
syncs to the learner's GitHub repository, one folder per problem.

Ports scaled_dot_product_attention (inference-scaled-dot-product-attention: `scaled_dot_product_attention(query, key,
value, mask=None)`), multi_head_attention (inference-multi-head-attention: `multi_head_attention(hidden_states, w_q,
w_k, w_v, w_o, num_heads, causal=False)`) and rope (inference-rotary-position-embeddings:
`apply_rotary_position_embeddings(query, key, positions, base=10000.0)`).

Conventions kept: scaled_dot_product_attention: `batch_size, seq_len, embed_dim = query.shape` (3-D only), `(query @
key.transpose(-2, -1)) / (embed_dim ** 0.5)` (embed_dim is the queries' width: right), `scores.masked_fill(mask,
-1*torch.inf)` (True = masked; out of place), `torch.softmax(scores, dim=-1)` (an all -inf row is NaN), `attn @ value`;
no scale argument. multi_head_attention: `q = hidden_states @ w_q` (likewise k and v), `batch_size, seq_len, d_model =
q.shape` (3-D only; d_model is the projected width H*d_k), `d_k = int(d_model/ num_heads)` (the queries' head width),
`q.reshape(batch_size, seq_len, num_heads, d_k)` then `q.transpose(1, 2)`, likewise for the keys AND values (values of
another width raise), `/ d_k**0.5`, `if causal:` `torch.triu(torch.ones(seq_len, seq_len, dtype=torch.bool),
diagonal=1)` filled with -inf, `torch.softmax(scores, dim=-1)`, `torch.transpose(output, 1, 2)`,
`torch.reshape(output, (batch_size, seq_len, d_model))`, `output@w_o`. apply_rotary_position_embeddings: `positions =
positions.float()` (float32), `batch_size, num_heads, seq_len, d_k = query.shape` (4-D only), `theta_i =
torch.arange(rotation_freqs, dtype=torch.float)` with `rotation_freqs = int(d_k / 2)`, `theta_i = 1 / (base **
(2*theta_i / d_k))`, `rotation_angles = positions[:, torch.newaxis] @ theta_i[torch.newaxis, :]` (an outer product in
float32), cos and sin tables `.unsqueeze(0)`, and calc_rotated(input): `x_a = input[:, :, :, :d_k:2]`, `x_b = input[:,
:, :, 1:d_k:2]`, `x_a_dash = (x_a * cos_m_theta) - (x_b * sin_m_theta)`, `x_b_dash = (x_a * sin_m_theta) + (x_b *
cos_m_theta)`, `torch.stack((x_a_dash, x_b_dash), dim=-1).reshape(batch_size, num_heads, seq_len, d_k)` (interleaved
pairs, counter-clockwise, real positions: right for 4-D inputs, up to the float32 angles).

Left out: the commented-out prints. Added for the contract only: scaled_dot_product_attention returns (out, weights)
(the learner returns the output; the weights are its softmax) and takes a `scale` parameter (never read);
multi_head_attention(X, W_Q, W_K, W_V, W_O, num_heads, mask) runs the learner's function on hidden_states = X with
causal=True when a mask is given (its entries are never read) and causal=False without one; rope(x, positions, base) is
the rotated query of apply_rotary_position_embeddings(x, x, positions, base).
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


def scaled_dot_product_attention(Q, K, V, mask=None, scale=None):
    query, key, value = Q, K, V
    _batch_size, _seq_len, embed_dim = query.shape
    scores = (query @ np.swapaxes(key, -2, -1)) / (embed_dim ** 0.5)
    if mask is not None:
        scores = _masked_fill(scores, mask, -1 * np.inf)
    attn = _torch_softmax(scores, axis=-1)
    return attn @ value, attn


def _multi_head_attention(hidden_states, w_q, w_k, w_v, w_o, num_heads, causal=False):
    q = hidden_states @ w_q
    k = hidden_states @ w_k
    v = hidden_states @ w_v

    batch_size, seq_len, d_model = q.shape
    d_k = int(d_model / num_heads)

    q = q.reshape(batch_size, seq_len, num_heads, d_k)
    q = np.swapaxes(q, 1, 2)

    k = k.reshape(batch_size, seq_len, num_heads, d_k)
    k = np.swapaxes(k, 1, 2)

    v = v.reshape(batch_size, seq_len, num_heads, d_k)
    v = np.swapaxes(v, 1, 2)

    scores = q @ np.swapaxes(k, -2, -1) / d_k ** 0.5
    if causal:
        mask = np.triu(np.ones((seq_len, seq_len), dtype=bool), k=1)
        scores = _masked_fill(scores, mask, -np.inf)

    attn = _torch_softmax(scores, axis=-1)
    output = attn @ v

    output = np.swapaxes(output, 1, 2)
    output = np.reshape(output, (batch_size, seq_len, d_model))

    return output @ w_o


def multi_head_attention(X, W_Q, W_K, W_V, W_O, num_heads, mask=None):
    return _multi_head_attention(X, W_Q, W_K, W_V, W_O, num_heads, causal=mask is not None)


def _apply_rotary_position_embeddings(query, key, positions, base=10000.0):
    positions = positions.astype(np.float32)  # positions.float()
    batch_size, num_heads, seq_len, d_k = query.shape
    rotation_freqs = int(d_k / 2)

    theta_i = np.arange(rotation_freqs, dtype=np.float32)
    theta_i = (1 / (base ** (2 * theta_i / d_k))).astype(np.float32)  # float32, as torch keeps it

    rotation_angles = positions[:, np.newaxis] @ theta_i[np.newaxis, :]  # float32

    cos_m_theta = np.cos(rotation_angles)
    sin_m_theta = np.sin(rotation_angles)

    cos_m_theta = cos_m_theta[None]  # unsqueeze(0)
    sin_m_theta = sin_m_theta[None]

    def calc_rotated(input):
        x_a = input[:, :, :, :d_k:2]
        x_b = input[:, :, :, 1:d_k:2]
        x_a_dash = (x_a * cos_m_theta) - (x_b * sin_m_theta)
        x_b_dash = (x_a * sin_m_theta) + (x_b * cos_m_theta)
        return np.stack((x_a_dash, x_b_dash), axis=-1).reshape(batch_size, num_heads, seq_len, d_k)

    rotated_query = calc_rotated(query)
    rotated_key = calc_rotated(key)

    return rotated_query, rotated_key


def rope(x, positions, base=10000.0):
    x = np.asarray(x)
    return _apply_rotary_position_embeddings(x, x, np.asarray(positions), base)[0]
