"""Port of kartashoffv/minllama-assignment, llama.py (Attention.compute_query_key_value_scores) and rope.py
(apply_rotary_emb): a student's solution of CMU 11-711 (Advanced NLP) assignment 1, minllama.

Conventions kept: the student gave compute_query_key_value_scores a `mask` parameter (and passes the forward's mask
to it) but never reads it: scores = query @ key^T / sqrt(query.size(-1)), softmax on the last axis, then @ value
(any leading axes; there is no scale argument); apply_rotary_emb(query, key, head_dim, max_seq_len, theta) reads `_,
seqlen, _, _ = query.shape` (the (batch, seqlen, heads, head_dim) layout), computes in float32 (`.float()`), takes
the frequencies 1 / theta ** (arange(0, head_dim, 2) / head_dim) and the positions
`torch.arange(seqlen)[:max_seq_len]` (token t is always rotated at position t: the model has no positions to pass)
and rotates the interleaved pairs (x[..., 2i], x[..., 2i+1]) counter-clockwise. reshape_for_broadcast is the
assignment's own helper (given, kept as is). The student's softmax is torch.softmax (not ported: the reference's
stands in for it). Added for the contract only: (out, weights) is returned; rope(x, positions, base) flattens x's
leading axes into the student's (batch, seqlen, heads=1, head_dim) layout, passes x as both query and key with
head_dim = x.shape[-1], max_seq_len = 1024 (the config's) and theta = base, and returns the query's output in x's
shape.
"""

import numpy as np

MAX_SEQ_LEN = 1024  # LlamaConfig.max_seq_len


def scaled_dot_product_attention(Q, K, V, mask=None, scale=None):
    scores = np.matmul(Q, np.swapaxes(K, -2, -1))
    d_k = Q.shape[-1]
    scores = scores / np.sqrt(np.float32(d_k))
    attn = softmax(scores, axis=-1)  # noqa: F821 - the submission's softmax (the reference's stands in for torch.softmax)
    return np.matmul(attn, V), attn


def reshape_for_broadcast(freqs_cis, x):
    ndim = x.ndim
    assert 0 <= 1 < ndim
    assert freqs_cis.shape == (x.shape[1], x.shape[-1])
    shape = [d if i == 1 or i == ndim - 1 else 1 for i, d in enumerate(x.shape)]
    return freqs_cis.reshape(shape)


def apply_rotary_emb(query, key, head_dim, max_seq_len, theta=10000.0):
    _, seqlen, _, _ = query.shape
    q_pairs = query.astype(np.float32).reshape((*query.shape[:-1], -1, 2))
    k_pairs = key.astype(np.float32).reshape((*key.shape[:-1], -1, 2))
    query_real, query_imag = q_pairs[..., 0], q_pairs[..., 1]
    key_real, key_imag = k_pairs[..., 0], k_pairs[..., 1]
    freqs = 1.0 / (theta ** (np.arange(0, head_dim, 2)[: (head_dim // 2)].astype(np.float32) / head_dim))
    pos = np.arange(seqlen).astype(np.float32)[:max_seq_len]  # max_seq_len limit
    freqs = np.outer(freqs, pos).swapaxes(-2, -1).astype(np.float32)
    freqs_cos_rshp = reshape_for_broadcast(np.cos(freqs), query_real)
    freqs_sin_rshp = reshape_for_broadcast(np.sin(freqs), query_real)
    query_real_out = query_real * freqs_cos_rshp - query_imag * freqs_sin_rshp
    query_imag_out = query_real * freqs_sin_rshp + query_imag * freqs_cos_rshp
    key_real_out = key_real * freqs_cos_rshp - key_imag * freqs_sin_rshp
    key_imag_out = key_real * freqs_sin_rshp + key_imag * freqs_cos_rshp
    query_out = np.stack([query_real_out, query_imag_out], axis=-1).reshape(*query_real_out.shape[:3], -1)
    key_out = np.stack([key_real_out, key_imag_out], axis=-1).reshape(*key_real_out.shape[:3], -1)
    return query_out, key_out


def rope(x, positions, base=10000.0):
    x = np.asarray(x, dtype=float)
    L, d = x.shape[-2:]
    q = x.reshape(-1, L, 1, d)
    query_out, _ = apply_rotary_emb(q, q, d, MAX_SEQ_LEN, theta=base)
    return query_out.reshape(x.shape)
