"""Port of KuangjuX/tiny-llm, src/tiny_llm/attention.py (scaled_dot_product_attention_simple, SimpleMultiHeadAttention,
causal_mask) and src/tiny_llm/positional_encoding.py (RoPE): a student's solution of the tiny-llm course.

Conventions kept: attention scales by `scale` or rsqrt(query.shape[-1]) and ADDS the mask to the scores
(the course's masks are additive floats, so a boolean mask adds 0/1); causal_mask(L, S) is
where(tril(ones((L, S)), k=S - L), 0, -inf), an ADDITIVE float mask (bottom-right aligned); multi-head
attention takes `batch_size = query.shape[0]` and reshapes to (batch_size, -1, H, hidden_size // H)
(the model width over the heads for q, k and v; a 2-D input becomes N sequences of one token) and
merges back to (batch_size, -1, hidden_size); RoPE computes freqs = base ** (-arange(D/2) / (D/2)),
positions t = arange(offset.start, offset.stop) (an integer offset, contiguous; None means 0..L-1) and,
by default (traditional=False), rotates the two HALVES of the head dimension. The student's softmax is
mx.softmax (not ported). Added for the contract only: (out, weights) is returned; causal_mask's n_k
defaults to n_q; the contract's positions are passed as the student's offset,
slice(int(positions[0]), int(positions[0]) + L); x's leading axes are flattened into the student's
(N, S, H=1, D) layout; weights are the contract's.
"""

import numpy as np


def causal_mask(n_q, n_k=None):
    L, S = n_q, n_q if n_k is None else n_k
    allowed = np.tril(np.ones((L, S), dtype=bool), k=S - L)
    return np.where(allowed, 0.0, -np.inf)


def scaled_dot_product_attention(Q, K, V, mask=None, scale=None):
    factor = 1.0 / np.sqrt(Q.shape[-1]) if scale is None else scale
    scores = (Q @ np.swapaxes(K, -2, -1)) * factor
    if mask is not None:
        scores = scores + mask
    weights = softmax(scores, axis=-1)  # noqa: F821 - the submission's softmax (the reference's stands in for the student's library call)
    return weights @ V, weights


def multi_head_attention(X, W_Q, W_K, W_V, W_O, num_heads, mask=None):
    batch_size = X.shape[0]
    hidden_size = X.shape[-1]
    head = hidden_size // num_heads

    def heads(M):
        return np.transpose(M.reshape(batch_size, -1, num_heads, head), (0, 2, 1, 3))

    q, k, v = heads(X @ W_Q), heads(X @ W_K), heads(X @ W_V)
    out, _ = scaled_dot_product_attention(q, k, v, mask=mask)
    return np.transpose(out, (0, 2, 1, 3)).reshape(batch_size, -1, hidden_size) @ W_O


def rope(x, positions, base=10000.0, traditional=False):
    x = np.asarray(x)
    shape = x.shape
    x = x.reshape(-1, shape[-2], 1, shape[-1])  # the student's (N, S, H, D)
    N, S, H, D = x.shape
    half_dims = D // 2
    inner = np.arange(0, half_dims, dtype=np.float32) / half_dims
    freqs = np.power(base, -inner)
    start = int(positions[0])
    offset = slice(start, start + S)
    assert offset.stop - offset.start == S, f"offset length should be {S}"
    t = np.arange(offset.start, offset.stop)
    pos_freqs = np.outer(t, freqs)
    cos_pos, sin_pos = np.cos(pos_freqs)[None, :, None, :], np.sin(pos_freqs)[None, :, None, :]
    if traditional:
        pairs = x.reshape(N, S, H, half_dims, 2)
        x1, x2 = pairs[..., 0], pairs[..., 1]
    else:
        x1, x2 = x[..., :half_dims], x[..., half_dims:]
    real = x1 * cos_pos - x2 * sin_pos
    imag = x2 * cos_pos + x1 * sin_pos
    y = np.stack([real, imag], axis=-1) if traditional else np.concatenate([real, imag], axis=-1)
    return y.reshape(shape)
