"""Port of Dingkwan/minllama-assignment, llama.py (Attention.compute_query_key_value_scores) and rope.py
(apply_rotary_emb): a student's solution of CMU 11-711 (Advanced NLP) assignment 1, minllama.

Conventions kept: compute_query_key_value_scores reads `batch_size, n_heads, seqlen, head_dim = query.size()` (4-D
input only), scales by 1 / sqrt(head_dim) (there is no scale argument), always applies its own causal mask
`torch.tril(torch.ones((seqlen, seqlen)))` viewed as (1, 1, seqlen, seqlen) with masked_fill(~mask, -inf) (square:
as many keys as queries; the function has no mask argument), then softmax on the last axis and @ value;
apply_rotary_emb reads `bsz, seqlen, _, _ = query.shape` (the (batch, seqlen, heads, head_dim) layout), builds the
float32 angles of positions 0..max_seq_len-1 times theta ** (-2i / head_dim), keeps the first seqlen rows (token t
is always rotated at position t) and multiplies the interleaved pairs, viewed as complex64 numbers, by cos + i sin
(torch.polar). reshape_for_broadcast is the assignment's own helper (given, kept as is). The student's softmax is
F.softmax (not ported: the reference's stands in for it). Added for the contract only: (out, weights) is returned;
rope(x, positions, base) flattens x's leading axes into the student's (batch, seqlen, heads=1, head_dim) layout,
passes x as both query and key with head_dim = x.shape[-1], max_seq_len = 1024 (the config's) and theta = base, and
returns the query's output in x's shape.
"""

import numpy as np

MAX_SEQ_LEN = 1024  # LlamaConfig.max_seq_len


def scaled_dot_product_attention(Q, K, V, mask=None, scale=None):
    batch_size, n_heads, seqlen, head_dim = Q.shape  # noqa: RUF059 - the student's unpacking (it states the shape assumed)
    attn_scores = np.matmul(Q, np.swapaxes(K, -2, -1))
    attn_scores = attn_scores / np.sqrt(head_dim)
    causal_mask = np.tril(np.ones((seqlen, seqlen), dtype=bool)).reshape(1, 1, seqlen, seqlen)
    attn_scores = np.where(np.broadcast_to(~causal_mask, attn_scores.shape), -np.inf, attn_scores)
    attn_probs = softmax(attn_scores, axis=-1)  # noqa: F821 - the submission's softmax (the reference's stands in for F.softmax)
    return np.matmul(attn_probs, V), attn_probs


def reshape_for_broadcast(freqs_cis, x):
    ndim = x.ndim
    assert 0 <= 1 < ndim
    assert freqs_cis.shape == (x.shape[1], x.shape[-1])
    shape = [d if i == 1 or i == ndim - 1 else 1 for i, d in enumerate(x.shape)]
    return freqs_cis.reshape(shape)


def apply_rotary_emb(query, key, head_dim, max_seq_len, theta=10000.0):
    bsz, seqlen, _, _ = query.shape
    dtype = query.dtype
    assert head_dim % 2 == 0, "RoPE needs an even head_dim"
    half_dim = head_dim // 2
    dim_idx = np.arange(half_dim, dtype=np.float32)
    inv_freq = (1.0 / (theta ** (2 * dim_idx / head_dim))).astype(np.float32)
    positions = np.arange(max_seq_len, dtype=np.float32)
    angles = np.einsum("p,d->pd", positions, inv_freq)[:seqlen]
    freqs_cis = (np.cos(angles) + 1j * np.sin(angles)).astype(np.complex64)
    q_float = query.astype(np.float32).reshape(*query.shape[:-1], -1, 2)
    k_float = key.astype(np.float32).reshape(*key.shape[:-1], -1, 2)
    q_complex = (q_float[..., 0] + 1j * q_float[..., 1]).astype(np.complex64)
    k_complex = (k_float[..., 0] + 1j * k_float[..., 1]).astype(np.complex64)
    freqs_cis_broadcast = reshape_for_broadcast(freqs_cis, q_complex)
    q_rot = q_complex * freqs_cis_broadcast
    k_rot = k_complex * freqs_cis_broadcast
    q_out = np.stack([q_rot.real, q_rot.imag], axis=-1).reshape(bsz, seqlen, -1, head_dim)
    k_out = np.stack([k_rot.real, k_rot.imag], axis=-1).reshape(bsz, seqlen, -1, head_dim)
    return q_out.astype(dtype), k_out.astype(dtype)


def rope(x, positions, base=10000.0):
    x = np.asarray(x, dtype=float)
    L, d = x.shape[-2:]
    q = x.reshape(-1, L, 1, d)
    query_out, _ = apply_rotary_emb(q, q, d, MAX_SEQ_LEN, theta=base)
    return query_out.reshape(x.shape)
