"""Port of vyvy3n/cs336-hw1, cs336_basics/model/softmax.py, scaled_attention.py, mhsa.py and RoPe.py (Stanford
CS336 assignment 1, a student's solution).

Conventions kept: `softmax(x, dim)` has no default dim and no temperature, subtracts the max (an all
-inf slice gives NaN); attention is an einsum over 'batch_size ... seq_len_q d_k' (a batch axis is
required: 2-D inputs raise) divided by sqrt(Q.shape[-1]), masked_fill(~mask, -inf), the student's softmax
on dim=-1; multi-head self-attention unpacks `batch_size, seq_len, d_model = x.shape`, rearranges
'(num_heads d_k)' (head widths inferred from the projections), always ANDs its own causal tril mask
with the constructor's mask (forward has no mask argument), merges '(num_heads d_v)'; RoPE computes
`freqs = theta / (10000.0 ** (2 * k / d_k))` (theta multiplies, the base is hard-coded to 10000) for
positions 0..max_seq_len-1 in float32 and indexes the tables with token_positions. Added for the
contract only: (out, weights) is returned, `base` is the student's theta, the weights are the contract's
(x @ W), MHA's always-on RoPE (not part of the contract's multi_head_attention) is dropped.
"""

import numpy as np

MAX_SEQ_LEN = 2048  # the student's constructor argument


def softmax(Z, axis, temperature=1.0):
    x_shifted = Z - np.max(Z, axis=axis, keepdims=True)
    exp_x = np.exp(x_shifted)
    return exp_x / np.sum(exp_x, axis=axis, keepdims=True)


def scaled_dot_product_attention(Q, K, V, mask=None, scale=None):
    QtK = np.einsum("b...qd,b...kd->b...qk", Q, K) / np.sqrt(Q.shape[-1])
    if mask is not None:
        QtK = np.where(~mask, -np.inf, QtK)
    scores = softmax(QtK, axis=-1)
    return np.einsum("b...qk,b...kv->b...qv", scores, V), scores


def multi_head_attention(X, W_Q, W_K, W_V, W_O, num_heads, mask=None):
    batch_size, seq_len, d_model = X.shape  # noqa: RUF059 - the student's unpacking (it states the shape assumed)

    def heads(M):  # 'batch_size seq_len (num_heads d) -> batch_size num_heads seq_len d'
        return M.reshape(batch_size, seq_len, num_heads, -1).transpose(0, 2, 1, 3)

    Q, K, V = heads(X @ W_Q), heads(X @ W_K), heads(X @ W_V)
    final_mask = np.tril(np.ones((seq_len, seq_len))).astype(bool)
    out, _ = scaled_dot_product_attention(Q, K, V, final_mask)
    return out.transpose(0, 2, 1, 3).reshape(batch_size, seq_len, -1) @ W_O


def rope(x, positions, base=10000.0):
    d_k = x.shape[-1]
    k_indices = np.arange(0, d_k // 2, dtype=np.float32)
    freqs = base / (10000.0 ** (2 * k_indices / d_k))
    angles = np.outer(np.arange(MAX_SEQ_LEN, dtype=np.float32), freqs)
    cos, sin = np.cos(angles)[positions], np.sin(angles)[positions]
    x_even, x_odd = x[..., 0::2], x[..., 1::2]
    out = np.empty_like(x)
    out[..., 0::2] = x_even * cos - x_odd * sin
    out[..., 1::2] = x_even * sin + x_odd * cos
    return out
