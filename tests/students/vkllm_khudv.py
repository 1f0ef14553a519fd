"""Port of KhudV/vk_llm_course, Homework/02/solution.py (commit c8c783d): compute_attention,
compute_multihead_attention and compute_rotary_embeddings, a student's solution (October 2024) of homework 2 of VK's
LLM course (VK Education's "NLP course at VK", Moscow, autumn 2024; the course's repository is
makarenko95/llm-course-2024-autumn, which the students fork: Homework/02/solution.py gives the three signatures and
docstrings, tests/test_attention.py compares them with F.scaled_dot_product_attention and nn.MultiheadAttention, and
tests/test_rotary.py with torchtune's RotaryPositionalEmbeddings on a (32, 128, 3, 64) input).

Ports scaled_dot_product_attention (compute_attention), multi_head_attention (compute_multihead_attention) and rope
(compute_rotary_embeddings).

Conventions kept: compute_attention(queries, keys, values) computes `torch.matmul(queries, keys.transpose(-2, -1)) /
torch.sqrt(torch.tensor(hidden_dim, dtype=torch.float32))` with `hidden_dim = queries.size(-1)`, `F.softmax(...,
dim=-1)` and `torch.matmul(attention_weights, values)` (no mask and no scale parameter);
compute_multihead_attention(queries, keys, values, projection_matrix) takes the heads already projected and split,
(BATCH_SIZE, N_HEADS, SEQ_LENGTH, DIM_PER_HEAD), reads `BATCH_SIZE, N_HEADS, SEQ_LENGTH, DIM_PER_HEAD = queries.size()`
(4-D only), attends with its own copy of the same three lines (scaled by the queries' DIM_PER_HEAD), then
`attention_output.permute(0, 2, 1, 3).reshape(BATCH_SIZE, SEQ_LENGTH, N_HEADS * DIM_PER_HEAD)` (the queries' width:
values of another width raise) and `torch.matmul(concatenated_output, projection_matrix.T)` (nn.Linear's weight
convention, as the test passes mha.out_proj.weight); compute_rotary_embeddings(x) reads `BATCH_SIZE, SEQ_LENGTH,
N_HEADS, DIM_PER_HEAD = x.shape` (the course's (B, N, H, d) layout), takes the positions `m =
torch.arange(SEQ_LENGTH)` (token t at position t: the function has no positions) and `theta = 10000 ** (-2 * i /
DIM_PER_HEAD)` (base 10000), repeats the cos/sin tables over the batch and heads, and rotates the interleaved pairs
`x1, x2 = x[..., ::2], x[..., 1::2]` into `torch.stack([x1 * cos_theta - x2 * sin_theta, x2 * cos_theta + x1 *
sin_theta], dim=-1).flatten(-2)`.

Left out: float32 arithmetic. Added for the contract only: scaled_dot_product_attention(Q, K, V, mask, scale) is
compute_attention(Q, K, V) returning (out, weights) (the student returns the output; the weights are its softmax), its
`mask` and `scale` never read; multi_head_attention projects X with W_Q, W_K and W_V and splits each into num_heads
heads, (..., H, N, d) (what the course's test does before calling the student), then calls
compute_multihead_attention with projection_matrix = W_O.T (so that `@ projection_matrix.T` is `@ W_O`), its `mask`
never read; rope(x, positions, base) is compute_rotary_embeddings on x viewed as (b, N, 1, d) (its leading axes
flattened into the batch, one head), `positions` and `base` never read.
"""

import numpy as np


def _softmax(x, axis):  # F.softmax
    e = np.exp(x - np.max(x, axis=axis, keepdims=True))
    return e / np.sum(e, axis=axis, keepdims=True)


def _compute_attention(queries, keys, values):  # returns the softmax too, for the contract
    hidden_dim = queries.shape[-1]
    attention_scores = np.matmul(queries, np.swapaxes(keys, -2, -1)) / np.sqrt(float(hidden_dim))
    attention_weights = _softmax(attention_scores, axis=-1)
    attention_output = np.matmul(attention_weights, values)
    return attention_output, attention_weights


def scaled_dot_product_attention(Q, K, V, mask=None, scale=None):
    return _compute_attention(Q, K, V)


def _compute_multihead_attention(queries, keys, values, projection_matrix):
    BATCH_SIZE, N_HEADS, SEQ_LENGTH, DIM_PER_HEAD = queries.shape
    attention_scores = np.matmul(queries, np.swapaxes(keys, -2, -1)) / np.sqrt(float(DIM_PER_HEAD))
    attention_weights = _softmax(attention_scores, axis=-1)
    attention_output = np.matmul(attention_weights, values)
    concatenated_output = attention_output.transpose(0, 2, 1, 3).reshape(BATCH_SIZE, SEQ_LENGTH,
                                                                        N_HEADS * DIM_PER_HEAD)
    return np.matmul(concatenated_output, projection_matrix.T)


def multi_head_attention(X, W_Q, W_K, W_V, W_O, num_heads, mask=None):
    def split(M):  # (..., N, H*d) -> (..., H, N, d), as the course's test splits the heads
        return np.swapaxes(M.reshape(*M.shape[:-1], num_heads, -1), -2, -3)

    q, k, v = (split(X @ W) for W in (W_Q, W_K, W_V))
    return _compute_multihead_attention(q, k, v, projection_matrix=W_O.T)


def _compute_rotary_embeddings(x):
    BATCH_SIZE, SEQ_LENGTH, N_HEADS, DIM_PER_HEAD = x.shape
    m = np.arange(SEQ_LENGTH, dtype=float)
    i = np.arange(DIM_PER_HEAD // 2, dtype=float)
    theta = 10000 ** (-2 * i / DIM_PER_HEAD)
    m_theta = m[:, None] * theta[None, :]
    cos_theta = np.cos(m_theta)
    sin_theta = np.sin(m_theta)
    cos_theta = np.tile(cos_theta[None, :, None, :], (BATCH_SIZE, 1, N_HEADS, 1))  # .repeat(BATCH_SIZE, 1, N_HEADS, 1)
    sin_theta = np.tile(sin_theta[None, :, None, :], (BATCH_SIZE, 1, N_HEADS, 1))
    x1, x2 = x[..., ::2], x[..., 1::2]
    x_rotated = np.stack([x1 * cos_theta - x2 * sin_theta, x2 * cos_theta + x1 * sin_theta], axis=-1)
    return x_rotated.reshape(*x_rotated.shape[:-2], -1)  # .flatten(-2)


def rope(x, positions, base=10000.0):
    x = np.asarray(x)
    n, d = x.shape[-2:]
    return _compute_rotary_embeddings(x.reshape(-1, n, 1, d)).reshape(x.shape)
