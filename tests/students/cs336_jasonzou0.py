"""Port of jasonzou0/cs336-ass1, cs336_basics/model.py: RoPE, softmax, scaled_dot_product_attention and
multihead_self_attention (Stanford CS336 assignment 1, a student's solution).

Conventions kept: RoPE unpacks `batch, seq_len, d_k = x.shape` (exactly one leading axis), precomputes
float32 cos/sin tables for positions 0..max_seq_len-1 and indexes them with token_positions
(`cos_full[token_positions]`, integer positions only), even/odd pairs; `softmax(x, dim)` has no default
dim and no temperature and subtracts the max (an all -inf slice gives NaN); attention is
einsum('...qd,...kd->...qk') / d_k ** 0.5 (d_k = Q.shape[-1]), masked_fill(mask.logical_not(), -inf),
the student's softmax on dim=-1; multi-head self-attention unpacks `batch_size, seq_len, d_in =
in_features.shape`, uses d_head = d_model // num_heads for q, k and v (d_model is the model width),
always attends with its own causal mask (triu(diagonal=1).logical_not(), no mask argument) and
flattens the heads. Added for the contract only: (out, weights) is returned, `base` is the student's
theta, d_model is X.shape[-1], the weights are the contract's (x @ W instead of x @ W.T).
"""

import numpy as np

MAX_SEQ_LEN = 2048  # the student's constructor argument


def rope(x, positions, base=10000.0):
    batch, seq_len, d_k = x.shape  # noqa: RUF059 - the student's unpacking (it states the shape assumed)  # noqa: RUF059 - the student's unpacking (it states the shape assumed)
    base_freqs = 1.0 / (base ** (np.arange(0, d_k, 2, dtype=np.float32) / d_k))
    t = np.arange(MAX_SEQ_LEN, dtype=np.float32)
    freqs = np.einsum("i,j->ij", t, base_freqs.astype(np.float32))
    assert np.max(positions) < MAX_SEQ_LEN, f"Position {np.max(positions)} exceeds maximum {MAX_SEQ_LEN}"
    cos, sin = np.cos(freqs)[positions], np.sin(freqs)[positions]
    x1, x2 = x[..., ::2], x[..., 1::2]
    x_rotated = np.zeros_like(x)
    x_rotated[..., ::2] = x1 * cos - x2 * sin
    x_rotated[..., 1::2] = x1 * sin + x2 * cos
    return x_rotated


def softmax(Z, axis, temperature=1.0):
    x_max = np.max(Z, axis=axis, keepdims=True)
    e_x = np.exp(Z - x_max)
    return e_x / np.sum(e_x, axis=axis, keepdims=True)


def scaled_dot_product_attention(Q, K, V, mask=None, scale=None):
    d_k = Q.shape[-1]
    scores = np.einsum("...qd,...kd->...qk", Q, K)
    scores = scores / (d_k ** 0.5)
    if mask is not None:
        scores = np.where(np.logical_not(mask), -np.inf, scores)
    attn_weights = softmax(scores, axis=-1)
    return np.einsum("...qk,...kd->...qd", attn_weights, V), attn_weights


def multi_head_attention(X, W_Q, W_K, W_V, W_O, num_heads, mask=None):
    batch_size, seq_len, d_in = X.shape  # noqa: RUF059 - the student's unpacking (it states the shape assumed)
    d_model = X.shape[-1]
    d_head = d_model // num_heads
    Q = (X @ W_Q).reshape(batch_size, seq_len, num_heads, d_head).transpose(0, 2, 1, 3)
    K = (X @ W_K).reshape(batch_size, seq_len, num_heads, d_head).transpose(0, 2, 1, 3)
    V = (X @ W_V).reshape(batch_size, seq_len, num_heads, d_head).transpose(0, 2, 1, 3)
    causal = np.logical_not(np.triu(np.ones((seq_len, seq_len), dtype=bool), k=1))
    causal = np.broadcast_to(causal[None, None], (batch_size, num_heads, seq_len, seq_len))
    attn_output, _ = scaled_dot_product_attention(Q, K, V, mask=causal)
    attn_output = attn_output.transpose(0, 2, 1, 3)
    return attn_output.reshape(*attn_output.shape[:-2], -1) @ W_O
