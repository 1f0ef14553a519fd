"""Port of AngrySigma/llm-course-2024-autumn, Homework/02/solution.py (commit 5999544): compute_attention,
compute_multihead_attention and compute_rotary_embeddings, a student's solution (October 2024) of homework 2 of VK's
LLM course (VK Education's "NLP course at VK", Moscow, autumn 2024; the course's repository is
makarenko95/llm-course-2024-autumn, which the students fork: Homework/02/solution.py gives the three signatures and
docstrings, tests/test_attention.py compares them with F.scaled_dot_product_attention and nn.MultiheadAttention, and
tests/test_rotary.py with torchtune's RotaryPositionalEmbeddings on a (32, 128, 3, 64) input).

Ports scaled_dot_product_attention (compute_attention), multi_head_attention (compute_multihead_attention) and rope
(compute_rotary_embeddings).

Conventions kept: compute_attention(queries, keys, values) returns `softmax(queries @ keys.transpose(-1, -2) /
torch.sqrt(torch.tensor(queries.size()[-1])), dim=-1) @ values` (no mask and no scale parameter);
compute_multihead_attention(queries, keys, values, projection_matrix) takes the heads already projected and split,
(BATCH_SIZE, N_HEADS, SEQ_LENGTH, DIM_PER_HEAD), reads `batch_size, num_heads, seq_len, hidden_dim = queries.size()`
(4-D only), runs compute_attention on them, then `.transpose(1, 2).contiguous().view(batch_size, seq_len, num_heads *
hidden_dim)` (the queries' width: values of another width raise) and returns `qks @ projection_matrix.T` (nn.Linear's
weight convention, as the test passes mha.out_proj.weight); compute_rotary_embeddings(x) reads `batch, seq_len,
n_heads, dim = x.size()` (the course's (B, N, H, d) layout), takes `base = 10000`, `theta = 1.0 / (base **
(torch.arange(0, dim, 2).float() / dim))` and the positions `torch.arange(0, seq_len)` (token t at position t:
the function has no positions), and rotates the interleaved pairs as complex numbers (`x.view(batch, seq_len, n_heads,
dim // 2, 2)`, view_as_complex, times torch.polar(1, angle), view_as_real).

Left out: float32 arithmetic. Added for the contract only: scaled_dot_product_attention(Q, K, V, mask, scale) is
compute_attention(Q, K, V) returning (out, weights) (the student returns the output; the weights are its softmax), its
`mask` and `scale` never read; multi_head_attention projects X with W_Q, W_K and W_V and splits each into num_heads
heads, (..., H, N, d) (what the course's test does before calling the student), then calls
compute_multihead_attention with projection_matrix = W_O.T (so that `@ projection_matrix.T` is `@ W_O`), its `mask`
never read; rope(x, positions, base) is compute_rotary_embeddings on x viewed as (b, N, 1, d) (its leading axes
flattened into the batch, one head), `positions` and `base` never read.
"""

import numpy as np


def _softmax(x, axis):  # torch.nn.functional.softmax
    e = np.exp(x - np.max(x, axis=axis, keepdims=True))
    return e / np.sum(e, axis=axis, keepdims=True)


def _compute_attention(queries, keys, values):  # returns the softmax too, for the contract
    weights = _softmax(queries @ np.swapaxes(keys, -1, -2) / np.sqrt(queries.shape[-1]), axis=-1)
    return weights @ values, weights


def scaled_dot_product_attention(Q, K, V, mask=None, scale=None):
    return _compute_attention(Q, K, V)


def _compute_multihead_attention(queries, keys, values, projection_matrix):
    batch_size, num_heads, seq_len, hidden_dim = queries.shape
    qks = np.swapaxes(_compute_attention(queries, keys, values)[0], 1, 2).reshape(
        batch_size, seq_len, num_heads * hidden_dim)  # .transpose(1, 2).contiguous().view(...)
    return qks @ projection_matrix.T


def multi_head_attention(X, W_Q, W_K, W_V, W_O, num_heads, mask=None):
    def split(M):  # (..., N, H*d) -> (..., H, N, d), as the course's test splits the heads
        return np.swapaxes(M.reshape(*M.shape[:-1], num_heads, -1), -2, -3)

    q, k, v = (split(X @ W) for W in (W_Q, W_K, W_V))
    return _compute_multihead_attention(q, k, v, projection_matrix=W_O.T)


def _compute_rotary_embeddings(x):
    batch, seq_len, n_heads, dim = x.shape
    base = 10000
    theta = 1.0 / (base ** (np.arange(0, dim, 2, dtype=float) / dim))
    theta_idx = np.arange(0, seq_len, dtype=theta.dtype)
    idx_theta = np.outer(theta_idx, theta)
    complex_theta = np.exp(1j * idx_theta).reshape(1, seq_len, 1, dim // 2)  # torch.polar(ones, idx_theta)
    x_reshaped = x.reshape(batch, seq_len, n_heads, dim // 2, 2)
    x_complex = x_reshaped[..., 0] + 1j * x_reshaped[..., 1]  # torch.view_as_complex
    x_rotated = x_complex * complex_theta
    x_rotated = np.stack([x_rotated.real, x_rotated.imag], axis=-1)  # torch.view_as_real
    return x_rotated.reshape(batch, seq_len, n_heads, dim)


def rope(x, positions, base=10000.0):
    x = np.asarray(x)
    n, d = x.shape[-2:]
    return _compute_rotary_embeddings(x.reshape(-1, n, 1, d)).reshape(x.shape)
