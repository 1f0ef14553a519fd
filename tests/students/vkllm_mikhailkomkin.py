"""Port of MIKhailkomkin/MIKhailkomkin-vk-llm_course, Homework/02/solution.py (commit 830e961): compute_attention,
compute_multihead_attention and compute_rotary_embeddings, a student's solution (October 2024) of homework 2 of VK's
LLM course (VK Education's "NLP course at VK", Moscow, autumn 2024; the course's repository is
makarenko95/llm-course-2024-autumn, which the students fork: Homework/02/solution.py gives the three signatures and
docstrings, tests/test_attention.py compares them with F.scaled_dot_product_attention and nn.MultiheadAttention, and
tests/test_rotary.py with torchtune's RotaryPositionalEmbeddings on a (32, 128, 3, 64) input).

Ports scaled_dot_product_attention (compute_attention), multi_head_attention (compute_multihead_attention) and rope
(compute_rotary_embeddings).

Conventions kept: compute_attention(queries, keys, values) reads `BATCH_SIZE, SEQ_LENGTH, HIDDEN_DIM = queries.shape`
(3-D only: the docstring's (BATCH_SIZE, SEQ_LENGTH, HIDDEN_DIM)), computes `torch.bmm(queries, keys.transpose(1, 2)) /
d` with `d = HIDDEN_DIM ** 0.5` (torch.bmm: 3-D only), `torch.softmax(A, dim=-1)` and `torch.bmm(A, values)` (no mask
and no scale parameter); compute_multihead_attention(queries, keys, values, projection_matrix) takes the heads already
projected and split, (BATCH_SIZE, N_HEADS, SEQ_LENGTH, DIM_PER_HEAD), reads `BATCH_SIZE, N_HEADS, SEQ_LENGTH,
DIM_PER_HEAD = queries.shape` (4-D only), runs compute_attention on `queries[:, i, :, :]`, `keys[:, i, :, :]` and
`values[:, i, :, :]` for each head i, `torch.cat(torch_list, dim=2)` and `torch.matmul(multihead_attention,
projection_matrix.T)` (nn.Linear's weight convention, as the test passes mha.out_proj.weight);
compute_rotary_embeddings(x) reads `BATCH_SIZE, SEQ_LENGTH, N_HEADS, DIM_PER_HEAD = x.shape` (the course's (B, N, H, d)
layout), takes `theta = 1.0 / (10000 ** (theta / (DIM_PER_HEAD // 2)))` of `torch.arange(0, DIM_PER_HEAD // 2)` (base
10000) and the positions `seq_idx = torch.arange(SEQ_LENGTH)` (token t at position t: the function has no positions),
and rotates the interleaved pairs `x1 = x[..., ::2]`, `x2 = x[..., 1::2]` into `torch.stack([rotated_x1, rotated_x2],
dim=-1).flatten(-2)`.

Left out: float32 arithmetic. Added for the contract only: scaled_dot_product_attention(Q, K, V, mask, scale) is
compute_attention(Q, K, V) returning (out, weights) (the student returns the output; the weights are its softmax), its
`mask` and `scale` never read; multi_head_attention projects X with W_Q, W_K and W_V and splits each into num_heads
heads, (..., H, N, d) (what the course's test does before calling the student), then calls
compute_multihead_attention with projection_matrix = W_O.T (so that `@ projection_matrix.T` is `@ W_O`), its `mask`
never read; rope(x, positions, base) is compute_rotary_embeddings on x viewed as (b, N, 1, d) (its leading axes
flattened into the batch, one head), `positions` and `base` never read.
"""

import numpy as np


def _softmax(x, axis):  # torch.softmax
    e = np.exp(x - np.max(x, axis=axis, keepdims=True))
    return e / np.sum(e, axis=axis, keepdims=True)


def _bmm(a, b):  # torch.bmm: two 3-D tensors with the same batch
    if a.ndim != 3 or b.ndim != 3 or a.shape[0] != b.shape[0]:
        raise RuntimeError(f"bmm: expected 3-D tensors with the same batch, got {a.shape} and {b.shape}")
    return a @ b


def _compute_attention(queries, keys, values):  # returns the softmax too, for the contract
    _BATCH_SIZE, _SEQ_LENGTH, HIDDEN_DIM = queries.shape  # BATCH_SIZE, SEQ_LENGTH, HIDDEN_DIM = queries.shape
    d = HIDDEN_DIM ** 0.5
    A = _bmm(queries, np.swapaxes(keys, 1, 2)) / d
    A = _softmax(A, axis=-1)
    H = _bmm(A, values)
    return H, A


def scaled_dot_product_attention(Q, K, V, mask=None, scale=None):
    return _compute_attention(Q, K, V)


def _compute_multihead_attention(queries, keys, values, projection_matrix):
    _BATCH_SIZE, N_HEADS, _SEQ_LENGTH, _DIM_PER_HEAD = queries.shape  # the student's four names
    torch_list = []
    for i in range(N_HEADS):
        H, _ = _compute_attention(queries[:, i, :, :], keys[:, i, :, :], values[:, i, :, :])
        torch_list.append(H)
    multihead_attention = np.concatenate(torch_list, axis=2)
    return np.matmul(multihead_attention, projection_matrix.T)


def multi_head_attention(X, W_Q, W_K, W_V, W_O, num_heads, mask=None):
    def split(M):  # (..., N, H*d) -> (..., H, N, d), as the course's test splits the heads
        return np.swapaxes(M.reshape(*M.shape[:-1], num_heads, -1), -2, -3)

    q, k, v = (split(X @ W) for W in (W_Q, W_K, W_V))
    return _compute_multihead_attention(q, k, v, projection_matrix=W_O.T)


def _compute_rotary_embeddings(x):
    _BATCH_SIZE, SEQ_LENGTH, _N_HEADS, DIM_PER_HEAD = x.shape  # BATCH_SIZE, SEQ_LENGTH, N_HEADS, DIM_PER_HEAD
    theta = np.arange(0, DIM_PER_HEAD // 2, dtype=float)
    theta = 1.0 / (10000 ** (theta / (DIM_PER_HEAD // 2)))
    seq_idx = np.arange(SEQ_LENGTH, dtype=float)
    angles = np.einsum("i,j->ij", seq_idx, theta)
    cos_emb = np.cos(angles)[None, :, None, :]  # .unsqueeze(0).unsqueeze(2)
    sin_emb = np.sin(angles)[None, :, None, :]
    x1 = x[..., ::2]
    x2 = x[..., 1::2]
    rotated_x1 = x1 * cos_emb - x2 * sin_emb
    rotated_x2 = x1 * sin_emb + x2 * cos_emb
    result = np.stack([rotated_x1, rotated_x2], axis=-1)
    return result.reshape(*result.shape[:-2], -1)  # .flatten(-2)


def rope(x, positions, base=10000.0):
    x = np.asarray(x)
    n, d = x.shape[-2:]
    return _compute_rotary_embeddings(x.reshape(-1, n, 1, d)).reshape(x.shape)
