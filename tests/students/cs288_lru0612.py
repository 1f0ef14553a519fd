"""Port of lru0612/cs288-sp26-a2, part2/model.py (commit fab596f): softmax, scaled_dot_product_attention,
MultiHeadSelfAttention.forward and RotaryPositionEmbedding (with _rotate_half and _precompute_cache), a student's
solution of UC Berkeley CS 288 (Natural Language Processing), spring 2026, assignment 2 (a decoder-only transformer
language model from scratch). Ports softmax, scaled_dot_product_attention, multi_head_attention and rope.

Conventions kept: `def softmax(x, dim=-1)` (model.py's; part3/nn_utils.py has the same) subtracts `torch.max(x,
dim=dim, keepdim=True).values` and returns `torch.nan_to_num(exp_x / exp_x.sum(dim=dim, keepdim=True), nan=0.0)` (no
temperature; an all -inf slice becomes zeros). scaled_dot_product_attention(Q, K, V, mask=None) computes `score = Q @
K.transpose(-2, -1) / math.sqrt(d_k)` with `d_k = Q.shape[-1]` (no scale argument), `score.masked_fill(mask ==
False, float('-inf'))` (True = may attend; out of place, so mask and scores broadcast) and `softmax(score) @ V` (the
student's softmax on its default dim -1). MultiHeadSelfAttention(d_model, num_heads) asserts `d_model % num_heads ==
0`, sets `self.d_k = d_model // num_heads`, reads `batch_size, seq_len, _ = x.shape` (3-D input only), views the
projections `.view(batch_size, seq_len, self.num_heads, self.d_k).transpose(1, 2)` (queries, keys AND values),
always attends with its own `_create_causal_mask(seq_len)` = `torch.tril(torch.ones(seq_len, seq_len,
dtype=torch.bool))` (its forward has no mask argument), merges with `.transpose(1, 2)` and `.contiguous().view(
batch_size, seq_len, -1)` and applies output_proj. RotaryPositionEmbedding(d_model, max_seq_len, theta) builds
`inv_freq = torch.tensor([1 / theta ** (2 * i / self.d_model) for i in range(self.d_model // 2)])` (float32),
`freqs = torch.outer(positions, self.inv_freq)` for positions 0..max_seq_len-1 and `emb = torch.cat([freqs, freqs],
dim=-1)`; forward indexes `self.cos_cached[token_positions]` (integer positions only: a float tensor is no index, a
position >= max_seq_len raises and a negative one wraps around), gives the tables a head axis with
`cos.unsqueeze(1)` when `x.dim() == 4` (meant for (batch, seq) positions) and returns `x * cos +
self._rotate_half(x) * sin` with `_rotate_half` = `torch.cat([-x2, x1], dim=-1)` of the two halves (the GPT-NeoX
half-split layout, not interleaved pairs).

Left out: the Linear layers' initialisation. Added for the contract only: (out, weights) is returned by the
attention (the student returns the output; the weights are its softmax(score)); a `scale` parameter (never read) so
that the contract's calls reach the student's code; softmax's `temperature` (never read) and `axis` for the
student's dim; the weights W_Q, W_K, W_V and W_O replace q_proj, k_proj, v_proj and output_proj (x @ W for the
Linear's x @ weight.T), d_model is X.shape[-1]; rope's `base` is the student's theta and max_seq_len is 32 (the
course's tests: max_seq_len = n_keys = 32).
"""

import math

import numpy as np

MAX_SEQ_LEN = 32  # part2/tests/conftest.py: n_keys, "Maximum sequence length / context length"


def softmax(Z, axis=-1, temperature=1.0):
    x_max = np.max(Z, axis=axis, keepdims=True)
    x_shifted = Z - x_max
    exp_x = np.exp(x_shifted)
    return np.nan_to_num(exp_x / np.sum(exp_x, axis=axis, keepdims=True), nan=0.0)


def scaled_dot_product_attention(Q, K, V, mask=None, scale=None):
    d_k = Q.shape[-1]
    score = Q @ np.swapaxes(K, -2, -1) / math.sqrt(d_k)
    if mask is not None:  # out-of-place masked_fill: mask and scores broadcast
        score = np.where(np.asarray(mask) == False, -np.inf, score)  # noqa: E712 (the student's `mask == False`)
    weights = softmax(score)
    attention = weights @ V
    return attention, weights


def multi_head_attention(X, W_Q, W_K, W_V, W_O, num_heads, mask=None):
    d_model = X.shape[-1]
    assert d_model % num_heads == 0, "d_model must be divisible by num_heads"
    d_k = d_model // num_heads
    batch_size, seq_len, _ = X.shape
    q_heads = (X @ W_Q).reshape(batch_size, seq_len, num_heads, d_k).transpose(0, 2, 1, 3)
    k_heads = (X @ W_K).reshape(batch_size, seq_len, num_heads, d_k).transpose(0, 2, 1, 3)
    v_heads = (X @ W_V).reshape(batch_size, seq_len, num_heads, d_k).transpose(0, 2, 1, 3)
    causal = np.tril(np.ones((seq_len, seq_len), dtype=bool))  # _create_causal_mask: the mask argument is unused
    attention, _ = scaled_dot_product_attention(q_heads, k_heads, v_heads, causal)
    attention = attention.transpose(0, 2, 1, 3)
    attention = attention.reshape(batch_size, seq_len, -1)
    return attention @ W_O


def _rotate_half(x):
    x1, x2 = x[..., :x.shape[-1] // 2], x[..., x.shape[-1] // 2:]
    return np.concatenate([-x2, x1], axis=-1)


def rope(x, positions, base=10000.0):
    d_model = x.shape[-1]
    inv_freq = np.array([1 / base ** (2 * i / d_model) for i in range(d_model // 2)], dtype=np.float32)
    freqs = np.outer(np.arange(MAX_SEQ_LEN), inv_freq).astype(np.float32)
    emb = np.concatenate([freqs, freqs], axis=-1)
    cos_cached, sin_cached = np.cos(emb), np.sin(emb)
    token_positions = np.asarray(positions)
    cos = cos_cached[token_positions]  # a float array is no index (IndexError), as in torch
    sin = sin_cached[token_positions]
    if x.ndim == 4:
        cos = np.expand_dims(cos, 1)  # cos.unsqueeze(1)
        sin = np.expand_dims(sin, 1)
    x_rotated = x * cos + _rotate_half(x) * sin
    return x_rotated
