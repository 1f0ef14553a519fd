"""Port of udit4code/CS336-assignment1-basics, cs336_basics/TransformerImplementation/SoftmaxModule/Softmax.py (and
the ScaledDotProductAttentionModule, MultiHeadSelfAttentionModule and RoPEModule/Rope.py next to it): Stanford CS336
assignment 1, a student's solution.

Conventions kept: `softmax(x, dim)` has no default dim and no temperature, subtracts the max (an all
-inf slice gives NaN); attention is matmul(query, key.transpose(-2, -1)) / sqrt(query.shape[-1]),
masked_fill(~mask, -inf), the student's softmax on dim=-1; multi-head attention unpacks
`batch_size, seq_len, _ = x.shape`, views q, k and v as (batch, seq, heads, d_k) with
d_k = d_model // num_heads, always attends with its own causal tril(seq_len, seq_len) mask (its forward
has no mask argument) and views the merged heads as (batch, seq, d_model); RoPE checks that
token_positions are int32/int64 (TypeError otherwise) and in [0, max_seq_len), builds float32 cos/sin
tables of positions 0..max_seq_len-1 and indexes them. Added for the contract only: (out, weights) is
returned, `base` is the student's theta, the weights replace the Linear layers, MHA's RoPE is dropped.
"""

import numpy as np

MAX_SEQ_LEN = 4096  # the student's default


def softmax(Z, axis, temperature=1.0):
    max_vals = np.max(Z, axis=axis, keepdims=True)
    exp = np.exp(Z - max_vals)
    return exp / np.sum(exp, axis=axis, keepdims=True)


def scaled_dot_product_attention(Q, K, V, mask=None, scale=None):
    scores = Q @ np.swapaxes(K, -2, -1)
    scores = scores / np.sqrt(Q.shape[-1])
    if mask is not None:
        scores = np.where(~mask, -np.inf, scores)
    attention = softmax(scores, axis=-1)
    return attention @ V, attention


def multi_head_attention(X, W_Q, W_K, W_V, W_O, num_heads, mask=None):
    batch_size, seq_len, _ = X.shape
    d_model = X.shape[-1]
    d_k = d_model // num_heads
    query = (X @ W_Q).reshape(batch_size, seq_len, num_heads, d_k).transpose(0, 2, 1, 3)
    key = (X @ W_K).reshape(batch_size, seq_len, num_heads, d_k).transpose(0, 2, 1, 3)
    value = (X @ W_V).reshape(batch_size, seq_len, num_heads, d_k).transpose(0, 2, 1, 3)
    causal = np.tril(np.ones((seq_len, seq_len), dtype=bool))
    output, _ = scaled_dot_product_attention(query, key, value, causal)
    output = output.transpose(0, 2, 1, 3).reshape(batch_size, seq_len, d_model)
    return output @ W_O


def rope(x, positions, base=10000.0):
    d_k = x.shape[-1]
    positions = np.asarray(positions)
    if positions.dtype not in (np.int32, np.int64):
        raise TypeError(f"token_positions must have dtype int32 or int64, got {positions.dtype}")
    if positions.size and (positions.min() < 0 or positions.max() >= MAX_SEQ_LEN):
        raise ValueError(f"token_positions must lie in [0, {MAX_SEQ_LEN})")
    inv_freq = 1.0 / (base ** (np.arange(0, d_k, 2, dtype=np.float32) / d_k))
    angles = np.outer(np.arange(MAX_SEQ_LEN, dtype=np.float32), inv_freq.astype(np.float32))
    seq_cos, seq_sin = np.cos(angles)[positions], np.sin(angles)[positions]
    x_even, x_odd = x[..., 0::2], x[..., 1::2]
    out = np.empty_like(x)
    out[..., 0::2] = x_even * seq_cos - x_odd * seq_sin
    out[..., 1::2] = x_even * seq_sin + x_odd * seq_cos
    return out
