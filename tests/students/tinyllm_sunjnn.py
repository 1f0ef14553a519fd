"""Port of Sunjnn/tiny-llm, src/tiny_llm/attention.py (scaled_dot_product_attention_simple, SimpleMultiHeadAttention)
and src/tiny_llm/positional_encoding.py (RoPE): a student's solution of the tiny-llm course.

Conventions kept: attention scales by `scale` or 1 / key.shape[-1] ** 0.5 and ADDS the mask to the
scores (the course's masks are additive floats, so a boolean mask adds 0/1); multi-head attention reads
N, L, E = query.shape[0], [1], [2] (batch-first 3-D input), head width D = wq.shape[1] // H (the
query's, also used for the values), passes scale = rsqrt(E // H) (the model width over the heads, not
the head width) to attention, and reshapes the projected output to (N, L, E) (the input width);
RoPE builds tables with w = base ** (-2 i / dims), takes an `offset` slice (integer start, contiguous
positions; None means the first L) and, by default (traditional=False), rotates the two HALVES of the
head dimension. The student's softmax is mx.softmax (not ported). Added for the contract only:
(out, weights) is returned; the contract's positions are passed as the student's offset,
slice(int(positions[0]), int(positions[0]) + L); x's leading axes are flattened into the student's
(N, L, H=1, D) layout; the student's wq (H*D, E) is the contract's W_Q transposed.
"""

import numpy as np

SEQ_LEN = 1024  # the RoPE table's length (the student's constructor argument)


def scaled_dot_product_attention(Q, K, V, mask=None, scale=None):
    if scale is None:
        scale = 1.0 / (K.shape[-1] ** 0.5)
    result = (Q @ np.swapaxes(K, -2, -1)) * scale
    if mask is not None:
        result = np.add(result, mask)
    weights = softmax(result, axis=-1)  # noqa: F821 - the submission's softmax (the reference's stands in for the student's library call)
    return weights @ V, weights


def multi_head_attention(X, W_Q, W_K, W_V, W_O, num_heads, mask=None):
    N, L, E = X.shape[0], X.shape[1], X.shape[2]
    D = W_Q.T.shape[0] // num_heads
    scale = 1.0 / np.sqrt(E // num_heads)
    mq = (X.reshape(-1, E) @ W_Q).reshape(N, L, num_heads, D).swapaxes(1, 2)
    mk = (X.reshape(-1, E) @ W_K).reshape(N, L, num_heads, D).swapaxes(1, 2)
    mv = (X.reshape(-1, E) @ W_V).reshape(N, L, num_heads, D).swapaxes(1, 2)
    o, _ = scaled_dot_product_attention(mq, mk, mv, mask=mask, scale=scale)
    o = o.swapaxes(1, 2)
    return (o.reshape(-1, num_heads * D) @ W_O).reshape(N, L, E)


def rope(x, positions, base=10000.0, traditional=False):
    x = np.asarray(x)
    shape = x.shape
    x = x.reshape(-1, shape[-2], 1, shape[-1])  # the student's (N, L, H, D)
    N, L, H, D = x.shape
    i = np.arange(D / 2)
    theta = np.outer(np.arange(SEQ_LEN), np.power(base, -2 * i / D))
    start = int(positions[0])
    offset = slice(start, start + L)
    cos_freq = np.cos(theta)[offset, :].reshape(1, L, 1, D // 2)
    sin_freq = np.sin(theta)[offset, :].reshape(1, L, 1, D // 2)
    if traditional:
        pairs = x.reshape(N, L, H, D // 2, 2)
        x0, x1 = pairs[..., 0], pairs[..., 1]
    else:
        x0, x1 = x[..., : D // 2], x[..., D // 2:]
    y0 = x0 * cos_freq - x1 * sin_freq
    y1 = x0 * sin_freq + x1 * cos_freq
    y = np.stack([y0, y1], axis=-1) if traditional else np.concatenate([y0, y1], axis=-1)
    return y.reshape(shape)
