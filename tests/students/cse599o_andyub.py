"""Port of AndyUB/au25-cse599o-hw1, cse599o_basics/transformer.py: softmax, scaled_dot_product_attention,
MultiHeadSelfAttention and RoPE (UW CSE 599o autumn 2025 assignment 1, a CS336-style course: a student's solution).

Conventions kept: `softmax(x, dim=-1)` subtracts the max (an all -inf slice gives -inf - -inf = NaN),
no temperature; attention einsums "... seq_len_q d_k, ... seq_len_k d_k" (any leading axes), divides by
d_k ** 0.5 with d_k = query.size(-1) (there is no scale argument), masked_fill_(mask == 0, -inf) (True =
may attend) and the student's softmax on dim=-1; multi-head self-attention keeps any leading axes
(`*batch_dims, seq_len, d_model = x.shape`), reshapes the projections to (..., seq_len, num_heads,
d_head) with d_head = d_model // num_heads (the model width over the heads), always builds its own
causal tril mask (forward has no mask argument) and merges with view(*batch_dims, seq_len, d_model);
RoPE precomputes cos/sin of positions 0..max_seq_len-1 times 1 / theta ** ((2k - 2) / d_k), k = 1..d_k/2,
CUTS the tables to the first seq_len rows (`self.cos[:seq_len]`) and then indexes them with
token_positions (integer positions only, each below seq_len; a negative one wraps around). Added for the
contract only: (out, weights) is returned; the weight matrices replace the Linear layers (x @ W);
d_model is X.shape[-1]; the MHA runs with apply_rope=False, as the course's adapter for the contract's
(RoPE-free) multi-head attention calls it; `base` is the student's theta.
"""

import numpy as np

MAX_SEQ_LEN = 2048  # the constructor's default max_seq_len


def softmax(Z, axis=-1, temperature=1.0):
    x_max = np.max(Z, axis=axis, keepdims=True)
    x_exp = np.exp(Z - x_max)
    x_exp_sum = np.sum(x_exp, axis=axis, keepdims=True)
    return x_exp / x_exp_sum


def scaled_dot_product_attention(Q, K, V, mask=None, scale=None):
    d_k = Q.shape[-1]
    attention_scores = np.einsum("...qd,...kd->...qk", Q, K) / (d_k**0.5)
    if mask is not None:
        attention_scores = np.where(mask == 0, -np.inf, attention_scores)
    probs = softmax(attention_scores, axis=-1)
    return np.einsum("...qk,...kv->...qv", probs, V), probs


def multi_head_attention(X, W_Q, W_K, W_V, W_O, num_heads, mask=None):
    *batch_dims, seq_len, d_model = X.shape
    if d_model % num_heads != 0:
        raise ValueError("d_model must be divisible by num_heads")
    d_head = d_model // num_heads
    multihead_shape = (*batch_dims, seq_len, num_heads, d_head)
    q = np.swapaxes(np.reshape(X @ W_Q, multihead_shape), -2, -3)
    k = np.swapaxes(np.reshape(X @ W_K, multihead_shape), -2, -3)
    v = np.swapaxes(np.reshape(X @ W_V, multihead_shape), -2, -3)
    causal = np.tril(np.ones((seq_len, seq_len), dtype=bool), k=0)
    attn_output, _ = scaled_dot_product_attention(q, k, v, mask=causal)
    attn_output = np.swapaxes(attn_output, -2, -3).reshape(*batch_dims, seq_len, d_model)
    return attn_output @ W_O


def rope(x, positions, base=10000.0):
    *batch_dims, seq_len, d_k = x.shape  # noqa: RUF059 - the student's unpacking (it states the shape assumed)
    if d_k % 2 != 0:
        raise ValueError("d_k must be even for RoPE")
    if seq_len > MAX_SEQ_LEN:
        raise ValueError(f"Sequence length {seq_len} exceeds max_seq_len {MAX_SEQ_LEN}")
    k_range = np.arange(1, d_k // 2 + 1)
    exp_range = (2 * k_range - 2) / d_k
    inv_powers = 1.0 / (base**exp_range)
    angles = np.outer(np.arange(MAX_SEQ_LEN), inv_powers)
    cos = np.cos(angles)[:seq_len]
    sin = np.sin(angles)[:seq_len]
    cos = cos[positions]
    sin = sin[positions]
    x_even, x_odd = x[..., 0::2], x[..., 1::2]
    result = np.empty_like(x)
    result[..., 0::2] = x_even * cos - x_odd * sin
    result[..., 1::2] = x_even * sin + x_odd * cos
    return result
