"""Port of aeft/tiny-llm, src/tiny_llm/attention.py (scaled_dot_product_attention_simple, SimpleMultiHeadAttention,
causal_mask) and src/tiny_llm/positional_encoding.py (RoPE): a student's solution of the tiny-llm course (week 1).

Conventions kept: attention scales by `scale` or 1 / key.shape[-1] ** 0.5 and ADDS the mask to the
scores (the course's masks are additive floats, so a boolean mask adds 0/1), then softmax on the last
axis; causal_mask returns the course's additive float mask, -inf where key j > (S - L) + query i and 0
elsewhere (bottom-right aligned); multi-head attention keeps any leading axes, asserts that the query
projection is hidden_size wide, reshapes each projection to (..., L, H, width // H) (head widths
inferred), passes the mask to attention unchanged (no head axis inserted) and merges the heads with
reshape(..., L, hidden_size); RoPE builds float32 cos/sin tables for positions 0..seq_len-1 with
inv_freq = base ** -(i / (D/2)), takes an `offset` slice (integer start, contiguous positions; None
means 0..L-1) and, by default (traditional=False), rotates the two HALVES of the head dimension. The
student's softmax is mx.softmax (not ported). Added for the contract only: (out, weights) is returned;
hidden_size is X.shape[-1] (the constructor's argument); the weights are the contract's (x @ W);
causal_mask's dtype is float and S defaults to L; the contract's positions are passed as the student's
offset, slice(int(positions[0]), int(positions[0]) + L); x's leading axes are flattened into the
student's (N, L, H=1, D) layout.
"""

import numpy as np

SEQ_LEN = 1024  # the RoPE table's length (the student's constructor argument)


def scaled_dot_product_attention(Q, K, V, mask=None, scale=None):
    if scale is None:
        scale = 1 / (K.shape[-1] ** 0.5)
    scores = (Q @ np.swapaxes(K, -2, -1)) * scale
    if mask is not None:
        scores = scores + mask
    weights = softmax(scores, -1)  # noqa: F821 - the submission's softmax (the reference's stands in for the student's library call)
    return weights @ V, weights


def causal_mask(n_q, n_k=None):
    L, S = n_q, n_q if n_k is None else n_k
    xrange = np.arange(L).reshape(L, 1)
    yrange = np.arange(S).reshape(1, S)
    mask = yrange > (S - L + xrange)
    return np.where(mask, -np.inf, 0.0)


def multi_head_attention(X, W_Q, W_K, W_V, W_O, num_heads, mask=None):
    hidden_size = X.shape[-1]
    assert hidden_size % num_heads == 0
    mh_q = X @ W_Q
    assert mh_q.shape[-1] == hidden_size
    mh_q = np.swapaxes(mh_q.reshape(*mh_q.shape[:-1], num_heads, mh_q.shape[-1] // num_heads), -3, -2)
    mh_k = X @ W_K
    mh_k = np.swapaxes(mh_k.reshape(*mh_k.shape[:-1], num_heads, mh_k.shape[-1] // num_heads), -3, -2)
    mh_v = X @ W_V
    mh_v = np.swapaxes(mh_v.reshape(*mh_v.shape[:-1], num_heads, mh_v.shape[-1] // num_heads), -3, -2)
    mh_o, _ = scaled_dot_product_attention(mh_q, mh_k, mh_v, mask=mask)
    mh_o = np.swapaxes(mh_o, -3, -2)
    mh_o = mh_o.reshape(*mh_o.shape[:-2], hidden_size)
    return mh_o @ W_O


def rope(x, positions, base=10000.0, traditional=False):
    x = np.asarray(x)
    shape = x.shape
    x = x.reshape(-1, shape[-2], 1, shape[-1])  # the student's (N, S, H, D)
    N, S, H, D = x.shape
    half_dims = D // 2
    inner = np.arange(0, half_dims, dtype=np.float32) / half_dims
    inv_freq = np.power(np.float32(base), -inner)
    ang = np.outer(np.arange(SEQ_LEN), inv_freq).astype(np.float32)
    cos_freqs, sin_freqs = np.cos(ang), np.sin(ang)
    start = int(positions[0])
    offset = slice(start, start + S)
    assert offset.stop - offset.start == S, f"offset must be of length {S}"
    cos_basis = cos_freqs[offset, :].reshape(-1, S, 1, half_dims)
    sin_basis = sin_freqs[offset, :].reshape(-1, S, 1, half_dims)
    if traditional:
        x = x.reshape(N, S, H, half_dims, 2)
        x1, x2 = x[..., 0], x[..., 1]
        real = x1 * cos_basis - x2 * sin_basis
        imag = x2 * cos_basis + x1 * sin_basis
        y = np.stack([real, imag], axis=-1).reshape(N, S, H, D)
    else:
        x1, x2 = x[..., 0:half_dims], x[..., half_dims:D]
        real = x1 * cos_basis - x2 * sin_basis
        imag = x2 * cos_basis + x1 * sin_basis
        y = np.concatenate([real, imag], axis=-1).reshape(N, S, H, D)
    return y.astype(x.dtype).reshape(shape)
