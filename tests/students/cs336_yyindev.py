"""Port of yyin-dev/cs336-a1, src/softmax.py, src/attention.py (scaled_dot_product_attention, MultiHeadSelfAttention)
and src/rope.py (RotaryPositionalEmbedding): Stanford CS336 assignment 1, a student's solution.

Conventions kept: `softmax(x, dim)` has no default dim and no temperature, subtracts the max (an all
-inf slice gives -inf - -inf = NaN); attention asserts matching widths, einsums "... n d_k, ... m d_k"
(any leading axes), divides by sqrt(K.shape[-1]) (there is no scale argument), masked_fill(~mask,
-inf) (True = may attend) and calls the student's softmax on dim=-1; multi-head self-attention works on
any leading axes, splits the projections with rearrange "... seq_len (num_heads d)" with d = d_model //
num_heads (the model width over the heads, which einops checks against the projections' width), always
builds its own causal tril mask (forward has no mask argument) and merges with the same d; RoPE
computes base ** -(2k / d_k) for the pairs (x[2k], x[2k+1]) and multiplies by the token positions
(real positions work). Added for the contract only: (out, weights) is returned; the contract's
W_Q/W_K/W_V/W_O (x @ W) replace the student's (hd, d_model) parameters; d_model is X.shape[-1] (the
student's constructor argument); MHA's optional RoPE (off unless theta and max_seq_len are given) is
dropped; `base` is the student's theta.
"""

import numpy as np


def softmax(Z, axis, temperature=1.0):
    assert axis < len(Z.shape)
    max_val = np.max(Z, axis=axis, keepdims=True)
    exp = np.exp(Z - max_val)
    s = np.sum(exp, axis=axis, keepdims=True)
    return exp / s


def scaled_dot_product_attention(Q, K, V, mask=None, scale=None):
    assert Q.shape[-1] == K.shape[-1]
    assert K.shape[-2] == V.shape[-2]
    d_k = K.shape[-1]
    QK_scaled = np.einsum("...nd,...md->...nm", Q, K) / np.sqrt(d_k)
    if mask is not None:
        QK_scaled = np.where(~mask, -np.inf, QK_scaled)
    attention_weights = softmax(QK_scaled, axis=-1)
    return np.einsum("...nm,...mv->...nv", attention_weights, V), attention_weights


def multi_head_attention(X, W_Q, W_K, W_V, W_O, num_heads, mask=None):
    d_model = X.shape[-1]
    seq_len = X.shape[-2]
    d = d_model // num_heads

    def split(M):  # rearrange "... seq_len (num_heads d) -> ... num_heads seq_len d"
        if M.shape[-1] != num_heads * d:
            raise ValueError(f"Shape mismatch, can't divide axis of length {M.shape[-1]} in chunks of {d}")
        return np.swapaxes(M.reshape(*M.shape[:-1], num_heads, d), -2, -3)

    Q_multi, K_multi, V_multi = split(X @ W_Q), split(X @ W_K), split(X @ W_V)
    causal = np.tril(np.ones((seq_len, seq_len))).astype(bool)
    multiheaded, _ = scaled_dot_product_attention(Q_multi, K_multi, V_multi, causal)
    if multiheaded.shape[-1] != d:  # rearrange "... num_heads seq_len d -> ... seq_len (num_heads d)"
        raise ValueError(f"Shape mismatch, axis d has length {multiheaded.shape[-1]}, expected {d}")
    concatenated = np.swapaxes(multiheaded, -2, -3)
    concatenated = concatenated.reshape(*concatenated.shape[:-2], num_heads * d)
    return concatenated @ W_O


def rope(x, positions, base=10000.0):
    d_k = x.shape[-1]
    assert d_k % 2 == 0
    num_pairs = d_k // 2
    exponent = np.arange(0, num_pairs) * 2 / d_k
    base_thetas = 1 / np.power(base, exponent)
    even_end = 2 * num_pairs + 1
    x_even = x[..., 0:even_end:2]
    x_odd = x[..., 1:even_end + 1:2]
    betas = np.einsum("p,...s->...sp", base_thetas, positions)
    cosines, sines = np.cos(betas), np.sin(betas)
    x_even_rotated = x_even * cosines - x_odd * sines
    x_odd_rotated = x_even * sines + x_odd * cosines
    stacked = np.stack([x_even_rotated, x_odd_rotated], axis=-1)
    return stacked.reshape(*stacked.shape[:-2], d_k)
