"""Port of fuyufjh/tiny-llm, src/tiny_llm/attention.py (scaled_dot_product_attention_simple, SimpleMultiHeadAttention,
causal_mask) and src/tiny_llm/positional_encoding.py (RoPE): a student's solution of the tiny-llm course.

Conventions kept: attention scales by `scale` or 1 / D ** 0.5 and ADDS the mask to the scores (the
course's masks are additive floats, so a boolean mask adds 0/1), softmax on the last axis;
causal_mask(L, S) is an ADDITIVE float mask, triu(full((L, S), -inf), k=S - L + 1) (bottom-right
aligned: 0 where a query may attend); multi-head attention unpacks `batch_size, seq_length, _ =
query.shape` (batch-first 3-D), uses head_dim = hidden_size // num_heads for q, k and v and merges to
hidden_size; RoPE builds cos/sin tables for positions 0..seq_len-1, takes an `offset` slice (integer
start, contiguous positions; None means the first L) and, by default (traditional=False), rotates the
two HALVES of the head dimension. The student's softmax is mx.softmax (not ported). Added for the
contract only: (out, weights) is returned; causal_mask's n_k defaults to n_q; the contract's positions
are passed as the student's offset, slice(int(positions[0]), int(positions[0]) + L); x's leading axes
are flattened into the student's (batch, seq, heads=1, head_dim) layout; weights are the contract's.
"""

import numpy as np

SEQ_LEN = 1024  # the RoPE table's length (the student's constructor argument)


def causal_mask(n_q, n_k=None):
    L, S = n_q, n_q if n_k is None else n_k
    k = S - L + 1
    return np.triu(np.full((L, S), -np.inf), k)


def scaled_dot_product_attention(Q, K, V, mask=None, scale=None):
    if scale is None:
        D = Q.shape[-1]
        scale = 1.0 / (D ** 0.5)
    scores = Q @ np.swapaxes(K, -1, -2)
    scores = scores * scale
    if mask is not None:
        scores = scores + mask
    attention_weights = softmax(scores, axis=-1)  # noqa: F821 - the submission's softmax (the reference's stands in for the student's library call)
    return attention_weights @ V, attention_weights


def multi_head_attention(X, W_Q, W_K, W_V, W_O, num_heads, mask=None):
    batch_size, seq_length, _ = X.shape
    hidden_size = X.shape[-1]
    head_dim = hidden_size // num_heads

    def heads(M):
        return M.reshape(batch_size, seq_length, num_heads, head_dim).transpose(0, 2, 1, 3)

    q, k, v = heads(X @ W_Q), heads(X @ W_K), heads(X @ W_V)
    out, _ = scaled_dot_product_attention(q, k, v, mask=mask)
    return out.transpose(0, 2, 1, 3).reshape(batch_size, seq_length, hidden_size) @ W_O


def rope(x, positions, base=10000.0, traditional=False):
    x = np.asarray(x)
    shape = x.shape
    x = x.reshape(-1, shape[-2], 1, shape[-1])  # the student's (batch, seq, heads, head_dim)
    batch_size, seq_length, num_heads, head_dim = x.shape
    inv_freq = 1.0 / (base ** (np.arange(0, head_dim, 2) / head_dim))
    freqs = np.arange(SEQ_LEN)[:, None] * inv_freq[None, :]
    cos_freqs, sin_freqs = np.cos(freqs), np.sin(freqs)
    start = int(positions[0])
    offset = slice(start, start + seq_length)
    cos_freqs, sin_freqs = cos_freqs[offset][None, :, None, :], sin_freqs[offset][None, :, None, :]
    if traditional:
        pairs = x.reshape(batch_size, seq_length, num_heads, head_dim // 2, 2)
        out = np.zeros_like(pairs)
        out[..., 0] = pairs[..., 0] * cos_freqs - pairs[..., 1] * sin_freqs
        out[..., 1] = pairs[..., 0] * sin_freqs + pairs[..., 1] * cos_freqs
        return out.reshape(shape)
    half_dim = head_dim // 2
    x1, x2 = x[..., :half_dim], x[..., half_dim:]
    out = np.concatenate([x1 * cos_freqs - x2 * sin_freqs, x1 * sin_freqs + x2 * cos_freqs], axis=-1)
    return out.reshape(shape)


class KVCache:  # the student's TinyKvFullCache: concatenation along the sequence axis (axis 1 of (batch, seq, ...))
    def __init__(self):
        self.key = None
        self.value = None
        self.offset = 0

    def append(self, k, v):
        key = np.asarray(k, dtype=float).reshape(1, -1, 1, np.shape(k)[-1])  # the student's (batch, seq, heads, dim)
        value = np.asarray(v, dtype=float).reshape(1, -1, 1, np.shape(v)[-1])
        if self.key is None:
            self.key, self.value = key, value
            self.offset = key.shape[1]
        else:
            self.key = np.concatenate([self.key, key], axis=1)
            self.value = np.concatenate([self.value, value], axis=1)
            self.offset += key.shape[1]

    @property
    def keys(self):
        return self.key[0, :, 0, :]

    @property
    def values(self):
        return self.value[0, :, 0, :]

    def __len__(self):
        return self.offset
