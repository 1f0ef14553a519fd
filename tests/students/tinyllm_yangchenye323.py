"""Port of YangchenYe323/tiny-llm, src/tiny_llm/attention.py (scaled_dot_product_attention_simple,
SimpleMultiHeadAttention) and src/tiny_llm/positional_encoding.py (RoPE): a student's solution of the
tiny-llm course.

Conventions kept: attention scales by `scale` or 1 / sqrt(query.shape[-1]) and ADDS the mask to the
scores (the course's masks are additive floats, so a boolean mask adds 0/1); multi-head attention keeps
any leading axes (shape[:-1]), sets head_dim = wq.shape[-1] // num_heads where the student's wq is
(H*D, E), i.e. the INPUT width over the heads, for q, k and v alike, and passes the mask unchanged (no
head axis); RoPE tables cover positions 0..seq_len with w = 1 / base ** (arange(D/2) * 2 / D), an
`offset` slice selects rows (integer start, contiguous; None means the first L) and, by default
(traditional=False), the two HALVES of the head dimension are rotated. The student's softmax is
mx.softmax (not ported). Added for the contract only: (out, weights) is returned; the contract's
positions are passed as the student's offset, slice(int(positions[0]), int(positions[0]) + L); x's
leading axes are flattened into the student's (N, L, H=1, D) layout; wq is the contract's W_Q transposed.
"""

import numpy as np

SEQ_LEN = 1024  # the RoPE table's length (the student's constructor argument)


def scaled_dot_product_attention(Q, K, V, mask=None, scale=None):
    D_k = Q.shape[-1]
    if scale is None:
        scale = 1.0 / np.sqrt(D_k)
    scores = (Q @ np.swapaxes(K, -2, -1)) * scale
    if mask is not None:
        scores = scores + mask
    weights = softmax(scores, axis=-1)  # noqa: F821 - the submission's softmax (the reference's stands in for the student's library call)
    return weights @ V, weights


def multi_head_attention(X, W_Q, W_K, W_V, W_O, num_heads, mask=None):
    head_dim = W_Q.T.shape[-1] // num_heads
    shape = X.shape
    proj_shape = [*shape[:-1], num_heads * head_dim]
    mh_shape = [*shape[:-1], num_heads, head_dim]
    q = np.swapaxes((X @ W_Q).reshape(mh_shape), -2, -3)
    k = np.swapaxes((X @ W_K).reshape(mh_shape), -2, -3)
    v = np.swapaxes((X @ W_V).reshape(mh_shape), -2, -3)
    scores, _ = scaled_dot_product_attention(q, k, v, scale=None, mask=mask)
    return np.swapaxes(scores, -2, -3).reshape(proj_shape) @ W_O


def rope(x, positions, base=10000.0, traditional=False):
    x = np.asarray(x)
    shape = x.shape
    x = x.reshape(-1, shape[-2], 1, shape[-1])  # the student's [N, L, H, D]
    N, L, H, D = x.shape
    assert L <= SEQ_LEN
    w = 1 / (base ** (np.arange(D // 2) * 2 / D))
    freq = np.outer(np.arange(SEQ_LEN + 1), w)
    start = int(positions[0])
    offset = slice(start, start + L)
    sin = np.sin(freq)[offset].reshape(1, L, 1, D // 2)
    cos = np.cos(freq)[offset].reshape(1, L, 1, D // 2)
    if traditional:
        pairs = x.reshape(N, L, H, D // 2, 2)
        x0, x1 = pairs[..., 0], pairs[..., 1]
        return np.stack([x0 * cos - x1 * sin, x0 * sin + x1 * cos], axis=-1).reshape(shape)
    halves = x.reshape(N, L, H, 2, D // 2)
    x0, x1 = halves[..., 0, :], halves[..., 1, :]
    return np.concatenate([x0 * cos - x1 * sin, x0 * sin + x1 * cos], -1).reshape(shape)
