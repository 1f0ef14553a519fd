"""Port of Li0k/tiny-llm, src/tiny_llm/attention.py (scaled_dot_product_attention_simple, SimpleMultiHeadAttention,
causal_mask) and src/tiny_llm/positional_encoding.py (RoPE): a student's solution of the tiny-llm course (week 1).

Conventions kept: attention scales by `scale` or mx.rsqrt(query.shape[-1]) and ADDS the mask to the scores (the
course's masks are additive floats, so a boolean mask adds 0/1), then softmax on the last axis; causal_mask builds
tril(ones(L, S), k=S - L) and returns the course's additive float mask, where(mask, 0, -inf) (bottom-right
aligned); multi-head attention unpacks `N, L, E = query.shape` (exactly one batch axis), asserts E ==
hidden_size, reshapes q, k and v to (N, L, num_heads, head_dim) with head_dim = hidden_size // num_heads, scales by
mx.rsqrt(head_dim), passes the mask to attention unchanged (no head axis inserted) and merges the heads with
reshape(N, L, E); RoPE builds float32 cos/sin tables for positions 0..seq_len-1 with base ** (-(0, 2, 4, ...) /
dims), takes an `offset` slice (integer start, contiguous positions, one row of them per batch entry; None means
0..S-1) and, by default (traditional=False), rotates the two HALVES of the head dimension (x[..., :D/2] with
x[..., D/2:]). The student's softmax is basics.softmax = mx.softmax (not ported: the reference's stands in), and
the student's TinyKvFullCache (week 2: concatenates the new keys/values after the cached ones) is not in the
contract's form and not ported. Added for the contract only: (out, weights) is returned; hidden_size is
X.shape[-1] (the constructor's argument); the weights are the contract's (x @ W, where the student's linear
multiplies by w.T); causal_mask's dtype is float and S defaults to L; the contract's positions are passed as the
student's offset, slice(int(positions[0]), int(positions[0]) + S); x's leading axes are flattened into the
student's (N, S, H=1, D) layout.
"""

import numpy as np

SEQ_LEN = 1024  # the RoPE table's length (the student's constructor argument)


def scaled_dot_product_attention(Q, K, V, mask=None, scale=None):
    factor = np.float32(1.0 / np.sqrt(np.float32(Q.shape[-1]))) if scale is None else scale
    scores = (Q @ np.swapaxes(K, -1, -2)) * factor
    if mask is not None:
        scores = scores + mask
    attn_weights = softmax(scores, axis=-1)  # noqa: F821 - the submission's softmax (the reference's stands in for mx.softmax)
    return attn_weights @ V, attn_weights


def causal_mask(n_q, n_k=None):
    L, S = n_q, n_q if n_k is None else n_k
    mask = np.tril(np.ones((L, S)), k=(S - L))
    return np.where(mask, 0.0, -np.inf)


def multi_head_attention(X, W_Q, W_K, W_V, W_O, num_heads, mask=None):
    hidden_size = X.shape[-1]
    assert hidden_size % num_heads == 0
    head_dim = hidden_size // num_heads
    scale = np.float32(1.0 / np.sqrt(np.float32(head_dim)))
    N, L, E = X.shape
    assert E == hidden_size

    def project_inputs(x, w):
        return (x @ w).reshape(N, L, num_heads, head_dim).transpose(0, 2, 1, 3)

    output, _ = scaled_dot_product_attention(project_inputs(X, W_Q), project_inputs(X, W_K), project_inputs(X, W_V),
                                             scale=scale, mask=mask)
    output = output.transpose(0, 2, 1, 3).reshape(N, L, E)
    return output @ W_O


def rope(x, positions, base=10000.0, traditional=False):
    x = np.asarray(x)
    shape = x.shape
    x = x.reshape(-1, shape[-2], 1, shape[-1])  # the student's (N, S, H, D)
    N, S, H, D = x.shape
    assert D % 2 == 0, "dims must be even"
    i = np.arange(0, D, 2, dtype=np.float32)
    freqs = np.power(np.float32(base), -i / D).astype(np.float32)
    theta = np.outer(np.arange(SEQ_LEN), freqs).astype(np.float32)
    cos_freqs, sin_freqs = np.cos(theta), np.sin(theta)
    start = int(positions[0])
    offset = slice(start, start + S)
    assert offset.stop - offset.start == S, f"offset must be of length {S}"
    offset_array = np.array([list(range(offset.start, offset.stop)) for _ in range(N)])
    cos_basis = cos_freqs[offset_array, :].reshape(-1, S, 1, D // 2)
    sin_basis = sin_freqs[offset_array, :].reshape(-1, S, 1, D // 2)
    if traditional:
        x = x.reshape(N, S, H, D // 2, 2)
        x1, x2 = x[..., 0], x[..., 1]
        real = x1 * cos_basis - x2 * sin_basis
        imag = x2 * cos_basis + x1 * sin_basis
        y = np.stack([real, imag], axis=-1).reshape(N, S, H, D)
    else:
        x1, x2 = x[..., 0 : D // 2], x[..., D // 2 : D]
        real = x1 * cos_basis - x2 * sin_basis
        imag = x2 * cos_basis + x1 * sin_basis
        y = np.concatenate([real, imag], axis=-1).reshape(N, S, H, D)
    return y.reshape(shape)
