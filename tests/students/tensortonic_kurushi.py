"""Port of KUrushi/TensorTonic-Solutions, softmax-function/softmax-function.py (commit ed1cb01) and the "Cracking
Inference" study plan's study-plans/cracking-inference/inference-scaled-dot-product-attention (commit 5711162; the
same code at beb6d32), inference-multi-head-attention (commit a05ab45) and inference-rotary-position-embeddings (commit
083e50a), a learner's solutions (2026) of problems of TensorTonic (tensortonic.com), an online platform of graded
machine-learning coding problems whose solutions the site syncs to the learner's GitHub repository, one folder per
problem.

Ports softmax (softmax-function: `softmax(x)` "Works for 1D or 2D NumPy arrays. For 2D, compute row-wise softmax"),
scaled_dot_product_attention (inference-scaled-dot-product-attention: `scaled_dot_product_attention(query, key, value,
mask=None)`, "batched scaled dot-product attention for self- and cross-attention with optional masks"),
multi_head_attention (inference-multi-head-attention: `multi_head_attention(hidden_states, w_q, w_k, w_v, w_o,
num_heads, causal=False)`, "Split into h heads, run scaled dot-product attention per head with an optional causal mask,
concatenate the heads, and apply an output projection") and rope (inference-rotary-position-embeddings:
`apply_rotary_position_embeddings(query, key, positions, base=10000.0)`, "Apply rotary position embeddings to query and
key tensors at supplied absolute decoding positions").

Conventions kept: softmax(x) takes no axis and no temperature: `x = np.array(x)`, `x_max = np.max(x, axis=-1,
keepdims=True)`, `np.exp(x) / np.sum(np.exp(x), axis=-1, keepdims=True)` (always the last axis; an all -inf slice is
-inf - (-inf) = NaN). scaled_dot_product_attention: `d_k = query.size(-1)`, `torch.matmul(query, key.transpose(-2,
-1)) / (d_k ** 0.5)`, `scores.masked_fill(mask, float("-inf"))` (the problem's masks are True where a key is hidden:
True = masked; out of place), `torch.softmax(scores, dim=-1)` (an all -inf row is NaN), `torch.matmul(attention_weight,
value)`; no scale argument. multi_head_attention: `batch_size, seq_len, d_model = hidden_states.shape` (3-D only),
`d_head = d_model // num_heads` (the input's width), `torch.matmul(hidden_states, w_q)` (likewise k and v),
`Q.view(batch_size, seq_len, num_heads, d_head).transpose(1, 2)` (likewise K and V: heads of D // H columns for the
queries, keys AND values), `/ (d_head ** 0.5)`, `if causal:` `torch.triu(torch.ones((seq_len, seq_len), dtype=bool),
diagonal=1)` filled with -inf, `torch.softmax(scores, dim=-1)`, `context.transpose(1, 2).contiguous().view(batch_size,
seq_len, d_model)` (merged into the input's width), `torch.matmul(context, w_o)`. apply_rotary_position_embeddings:
`theta = 1.0 / (base ** (dim_indices / head_dim))` with `dim_indices = torch.arange(0, head_dim, 2)`, `m_theta =
torch.outer(positions.to(dtype), theta)` repeated twice with `torch.repeat_interleave(m_theta, repeats=2, dim=-1)`, the
tables viewed as `(1, 1, seq_len, head_dim)` when `query.ndim == 4` and `query.shape[2] == seq_len` (as `(1, seq_len, 1,
head_dim)` when only `query.shape[1] == seq_len`, else ValueError), as `(1, seq_len, head_dim)` when `query.ndim == 3`
(ValueError unless `query.shape[1] == seq_len`), and `raise ValueError(f"Unsupported query dimension: ...")` for any
other rank (2-D or 5-D inputs raise); `rotate_adjacent(x)` = `torch.stack((-x2, x1),
dim=-1).flatten(start_dim=-2)` with `x1 = x[..., 0::2]`, `x2 = x[..., 1::2]`; `query * cos + rotate_adjacent(query) *
sin` (likewise key): interleaved pairs, counter-clockwise, real positions (right for 3-D and 4-D inputs).

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
    x = np.array(Z)
    x_max = np.max(x, axis=-1, keepdims=True)
    x = x - x_max
    return np.exp(x) / np.sum(np.exp(x), axis=-1, keepdims=True)


def scaled_dot_product_attention(Q, K, V, mask=None, scale=None):
    query, key, value = Q, K, V
    d_k = query.shape[-1]
    scores = np.matmul(query, np.swapaxes(key, -2, -1)) / (d_k ** 0.5)
    if mask is not None:
        scores = _masked_fill(scores, mask, float("-inf"))
    attention_weight = _torch_softmax(scores, axis=-1)
    return np.matmul(attention_weight, value), attention_weight


def _multi_head_attention(hidden_states, w_q, w_k, w_v, w_o, num_heads, causal=False):
    batch_size, seq_len, d_model = hidden_states.shape
    d_head = d_model // num_heads

    Q = np.matmul(hidden_states, w_q)
    K = np.matmul(hidden_states, w_k)
    V = np.matmul(hidden_states, w_v)

    Q = np.swapaxes(Q.reshape(batch_size, seq_len, num_heads, d_head), 1, 2)
    K = np.swapaxes(K.reshape(batch_size, seq_len, num_heads, d_head), 1, 2)
    V = np.swapaxes(V.reshape(batch_size, seq_len, num_heads, d_head), 1, 2)

    scores = np.matmul(Q, np.swapaxes(K, -2, -1)) / (d_head ** 0.5)

    if causal:
        mask = np.triu(np.ones((seq_len, seq_len), dtype=bool), k=1)
        scores = _masked_fill(scores, mask, float("-inf"))

    attention_weights = _torch_softmax(scores, axis=-1)
    context = np.matmul(attention_weights, V)

    context = np.swapaxes(context, 1, 2).reshape(batch_size, seq_len, d_model)

    return np.matmul(context, w_o)


def multi_head_attention(X, W_Q, W_K, W_V, W_O, num_heads, mask=None):
    return _multi_head_attention(X, W_Q, W_K, W_V, W_O, num_heads, causal=mask is not None)


def _rotate_adjacent(x):
    x1 = x[..., 0::2]
    x2 = x[..., 1::2]
    rx = np.stack((-x2, x1), axis=-1)
    return rx.reshape(*rx.shape[:-2], -1)  # flatten(start_dim=-2)


def _apply_rotary_position_embeddings(query, key, positions, base=10000.0):
    head_dim = query.shape[-1]
    seq_len = positions.shape[0]
    dtype = query.dtype

    dim_indices = np.arange(0, head_dim, 2, dtype=dtype)
    theta = 1.0 / (base ** (dim_indices / head_dim))

    m_theta = np.outer(positions.astype(dtype), theta)
    m_theta = np.repeat(m_theta, 2, axis=-1)

    cos = np.cos(m_theta)
    sin = np.sin(m_theta)

    if query.ndim == 4:
        if query.shape[2] == seq_len:
            cos = cos.reshape(1, 1, seq_len, head_dim)
            sin = sin.reshape(1, 1, seq_len, head_dim)
        elif query.shape[1] == seq_len:
            cos = cos.reshape(1, seq_len, 1, head_dim)
            sin = sin.reshape(1, seq_len, 1, head_dim)
        else:
            raise ValueError(f"seq_len ({seq_len}) does not match query dimension 1 or 2: {query.shape}")
    elif query.ndim == 3:
        if query.shape[1] != seq_len:
            raise ValueError(f"seq_len ({seq_len}) does not match query dimension 1: {query.shape}")
        cos = cos.reshape(1, seq_len, head_dim)
        sin = sin.reshape(1, seq_len, head_dim)
    else:
        raise ValueError(f"Unsupported query dimension: {query.ndim}")

    query_rot = (query * cos) + (_rotate_adjacent(query) * sin)
    key_rot = (key * cos) + (_rotate_adjacent(key) * sin)

    return query_rot, key_rot


def rope(x, positions, base=10000.0):
    x = np.asarray(x)
    return _apply_rotary_position_embeddings(x, x, np.asarray(positions), base)[0]
