"""Port of SMS915/CS336-SP25-Selfstudy, assignment1-basics/cs336_basics/Softmax.py, ScaledDotProductAttention.py,
MultiHeadSelfAttention.py and RoPE.py (Stanford CS336 assignment 1, a student's solution).

Conventions kept: `Softmax(x, i=0)` normalises dim 0 unless told otherwise, has no temperature and no
guard for an all -inf slice (max is -inf, then -inf - -inf = NaN); attention scores are an einsum
"batch_size ... query d_k, batch_size ... key d_k" (a named leading batch axis is required, so 2-D
inputs raise), divided by sqrt(K.shape[-1]), masked with where(mask, scores, -inf), then the student's
Softmax on -1; multi-head attention rearranges "b s (h d) -> b h s d" (3-D input only), always builds its
own causal tril mask (the mask argument does not exist in the student's forward), and merges with
d = d_model // num_heads (einops checks it); RoPE precomputes cos/sin tables for positions
0..max_seq_len-1 and indexes them with `token_positions` (integer positions only). Added for the
contract only: (out, weights) is returned, `base` names the student's theta, W_Q/W_K/W_V/W_O replace
the student's Linear layers, and MHA's RoPE branch (not in the contract) is dropped.
"""

import numpy as np

MAX_SEQ_LEN = 2048  # the student's constructor argument: a table this long is precomputed


def softmax(Z, axis=0, temperature=1.0):
    shifted = Z - np.max(Z, axis=axis, keepdims=True)
    return np.exp(shifted) / np.sum(np.exp(shifted), axis=axis, keepdims=True)


def scaled_dot_product_attention(Q, K, V, mask=None, scale=None):
    d_k = K.shape[-1]
    scores = np.einsum("b...qd,b...kd->b...qk", Q, K) / np.sqrt(d_k)
    if mask is not None:
        scores = np.where(mask, scores, -np.inf)
    weights = softmax(scores, -1)
    return np.einsum("b...qk,b...kd->b...qd", weights, V), weights


def multi_head_attention(X, W_Q, W_K, W_V, W_O, num_heads, mask=None):
    b, s, d_model = X.shape
    d_v = d_model // num_heads

    def heads(M):  # rearrange "b s (h d) -> b h s d"
        return M.reshape(b, s, num_heads, -1).transpose(0, 2, 1, 3)

    q, k, v = heads(X @ W_Q), heads(X @ W_K), heads(X @ W_V)
    causal = np.tril(np.ones((s, s), dtype=bool))[None, None]
    out, _ = scaled_dot_product_attention(q, k, v, causal)
    if out.shape[-1] != d_v:  # rearrange "b h s d -> b s (h d)" with d=self.d_v
        raise ValueError(f"Shape mismatch, can't divide axis of length {out.shape[-1]} in chunks of {d_v}")
    return out.transpose(0, 2, 1, 3).reshape(b, s, num_heads * d_v) @ W_O


def rope(x, positions, base=10000.0):
    d_k = x.shape[-1]
    freq = 1.0 / base ** (np.arange(0, d_k, 2) / d_k)
    table = np.outer(np.arange(MAX_SEQ_LEN), freq)
    cos, sin = np.cos(table)[positions], np.sin(table)[positions]
    even, odd = x[..., 0::2], x[..., 1::2]
    out = np.empty_like(x)
    out[..., 0::2] = even * cos - odd * sin
    out[..., 1::2] = even * sin + odd * cos
    return out
