"""Port of ekzhang/tiny-llm, src/tiny_llm/attention.py (scaled_dot_product_attention_simple, SimpleMultiHeadAttention)
and src/tiny_llm/positional_encoding.py (RoPE): a student's solution of the tiny-llm course (week 1).

Conventions kept: attention scales by `scale` or rsqrt(query.shape[-1]) and ADDS the mask to the
logits (the course's masks are additive floats, so a boolean mask adds 0/1), then softmax on the last
axis; multi-head attention keeps any leading axes (`*batch_dims, l_dim, e_dim = query.shape`),
reshapes to (..., L, H, -1) (head widths inferred), swaps to (..., H, L, D) and passes the mask to
attention unchanged (no head axis inserted); RoPE builds float32 cos/sin tables for positions
0..seq_len-1 with theta = base ** (-arange(0, D, 2) / D), takes an `offset` slice (integer start,
contiguous positions; None means 0..L-1) and, by default (traditional=False), rotates the two HALVES of
the head dimension. The student's softmax is mx.softmax (not ported). Added for the contract only:
(out, weights) is returned; the contract's positions are passed as the student's offset,
slice(int(positions[0]), int(positions[0]) + L); x's leading axes are flattened into the student's
(N, L, H=1, D) layout; weights are the contract's (x @ W).
"""

import numpy as np

SEQ_LEN = 1024  # the RoPE table's length (the student's constructor argument)


def scaled_dot_product_attention(Q, K, V, mask=None, scale=None):
    if scale is None:
        scale = 1.0 / np.sqrt(Q.shape[-1])
    attn_logits = (Q @ np.swapaxes(K, -2, -1)) * scale
    if mask is not None:
        attn_logits = attn_logits + mask
    attn_weights = softmax(attn_logits, axis=-1)  # noqa: F821 - the submission's softmax (the reference's stands in for the student's library call)
    return attn_weights @ V, attn_weights


def multi_head_attention(X, W_Q, W_K, W_V, W_O, num_heads, mask=None):
    *batch_dims, l_dim, e_dim = X.shape  # noqa: RUF059 - the student's unpacking (it states the shape assumed)
    nlhd_shape = (*batch_dims, l_dim, num_heads, -1)
    q = np.swapaxes((X @ W_Q).reshape(nlhd_shape), -3, -2)
    k = np.swapaxes((X @ W_K).reshape(nlhd_shape), -3, -2)
    v = np.swapaxes((X @ W_V).reshape(nlhd_shape), -3, -2)
    attn, _ = scaled_dot_product_attention(q, k, v, mask, None)
    return np.swapaxes(attn, -3, -2).reshape((*batch_dims, l_dim, -1)) @ W_O


def rope(x, positions, base=10000.0, traditional=False):
    x = np.asarray(x)
    shape = x.shape
    L, D = shape[-2:]
    x = x.reshape(-1, L, 1, D)  # the student's [N, L, H, D]
    N, L, H, D = x.shape
    theta = np.power(base, -np.arange(0, D, 2, dtype=np.float32) / D)
    freqs = np.arange(SEQ_LEN)[:, None] * theta
    sin_freqs, cos_freqs = np.sin(freqs), np.cos(freqs)
    start = int(positions[0])
    offset = slice(start, start + L)
    assert offset.stop - offset.start == L, f"offset must be of length {L}"
    cos_basis = cos_freqs[offset].reshape(-1, L, 1, D // 2)
    sin_basis = sin_freqs[offset].reshape(-1, L, 1, D // 2)
    if traditional:
        x = x.reshape(N, L, H, D // 2, 2)
        x0, x1 = x[..., 0], x[..., 1]
    else:
        x = x.reshape(N, L, H, 2, D // 2)
        x0, x1 = x[..., 0, :], x[..., 1, :]
    y0 = x0 * cos_basis - x1 * sin_basis
    y1 = x0 * sin_basis + x1 * cos_basis
    return np.stack([y0, y1], axis=-1 if traditional else -2).reshape(shape)
