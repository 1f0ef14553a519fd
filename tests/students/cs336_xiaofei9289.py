"""Port of xiaofei9289/CS336_Project, assignment1/cs336_basics/attention.py (scaled_dot_product_attention,
MultiHeadSelfAttention), assignment1/cs336_basics/layers.py (softmax) and assignment1/cs336_basics/rope.py
(RotaryPositionalEmbedding): a student's solution of Stanford CS336 assignment 1.

Conventions kept: `softmax(in_features, dim)` has no default dim and no temperature, subtracts the max along `dim`
(an all -inf slice gives -inf - (-inf) = NaN); attention checks that Q and K have the same width and that K and V
have as many rows, computes query @ key^T / sqrt(d_k) (any leading axes; there is no scale argument),
masked_fill(~mask, -inf), the student's softmax on -1, then @ value; multi-head self-attention keeps any leading
axes, splits q, k and v with head_dim = d_model // num_heads (reshape(*leading, seq_len, num_heads, head_dim)),
always attends with its own causal tril(seq_len, seq_len) mask (its forward has no mask argument) and merges the
heads with reshape(*leading, seq_len, d_model); RoPE precomputes float32 cos/sin tables of positions
0..max_seq_len-1 with theta ** (-(0, 2, 4, ...) / d_k), indexes them with `token_positions` (integer positions
only), unsqueezes them to the input's rank and rotates the interleaved pairs. Added for the contract only: (out,
weights) is returned; W_Q/W_K/W_V/W_O replace the student's Linear layers (d_model is X.shape[-1]); `base` names
the student's theta; MHA's RoPE branch (not in the contract) is dropped.
"""

import numpy as np

MAX_SEQ_LEN = 2048  # the RoPE table's length (the student's constructor argument)


def softmax(Z, axis, temperature=1.0):
    max_value = np.max(Z, axis=axis, keepdims=True)
    shifted_features = Z - max_value
    exp_features = np.exp(shifted_features)
    exp_sum = np.sum(exp_features, axis=axis, keepdims=True)
    return exp_features / exp_sum


def scaled_dot_product_attention(Q, K, V, mask=None, scale=None):
    if Q.shape[-1] != K.shape[-1]:
        raise ValueError(f"The last dimensions of query and key must match, but got {Q.shape[-1]} and {K.shape[-1]}")
    if K.shape[-2] != V.shape[-2]:
        raise ValueError(f"The sequence lengths of key and value must match, but got {K.shape[-2]} and {V.shape[-2]}")
    d_k = Q.shape[-1]
    attention_scores = Q @ np.swapaxes(K, -2, -1)
    attention_scores = attention_scores / np.sqrt(d_k)
    if mask is not None:
        mask = np.asarray(mask, dtype=bool)
        attention_scores = np.where(~mask, -np.inf, attention_scores)
    attention_weights = softmax(attention_scores, axis=-1)
    return attention_weights @ V, attention_weights


def multi_head_attention(X, W_Q, W_K, W_V, W_O, num_heads, mask=None):
    d_model = X.shape[-1]
    if d_model % num_heads != 0:
        raise ValueError(f"d_model={d_model} must be divisible by num_heads={num_heads}")
    head_dim = d_model // num_heads

    def split_heads(x):
        leading_shape, seq_len = x.shape[:-2], x.shape[-2]
        return np.swapaxes(x.reshape(*leading_shape, seq_len, num_heads, head_dim), -3, -2)

    def merge_heads(x):
        leading_shape, seq_len = x.shape[:-3], x.shape[-2]
        return np.swapaxes(x, -3, -2).reshape(*leading_shape, seq_len, d_model)

    seq_len = X.shape[-2]
    q, k, v = split_heads(X @ W_Q), split_heads(X @ W_K), split_heads(X @ W_V)
    causal_mask = np.tril(np.ones((seq_len, seq_len), dtype=bool))
    attention_output, _ = scaled_dot_product_attention(q, k, v, mask=causal_mask)
    return merge_heads(attention_output) @ W_O


def rope(x, positions, base=10000.0):
    d_k = x.shape[-1]
    if d_k % 2 != 0:
        raise ValueError(f"d_k must be even, but got d_k={d_k}")
    pair_indices = np.arange(0, d_k, 2, dtype=np.float32)
    inverse_frequencies = (base ** (-pair_indices / d_k)).astype(np.float32)
    angles = np.arange(MAX_SEQ_LEN, dtype=np.float32)[:, None] * inverse_frequencies[None, :]
    cos_cached, sin_cached = np.cos(angles), np.sin(angles)
    cos = cos_cached[positions].astype(x.dtype)
    sin = sin_cached[positions].astype(x.dtype)
    while cos.ndim < x.ndim:
        cos = np.expand_dims(cos, -3)
        sin = np.expand_dims(sin, -3)
    even, odd = x[..., 0::2], x[..., 1::2]
    rotated_even = even * cos - odd * sin
    rotated_odd = even * sin + odd * cos
    rotated = np.stack((rotated_even, rotated_odd), axis=-1)
    return rotated.reshape(*rotated.shape[:-2], d_k)
