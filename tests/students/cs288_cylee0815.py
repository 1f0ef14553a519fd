"""Port of cylee0815/cs288-sp26-a2, part2/model.py (commit 42bc674): softmax, scaled_dot_product_attention,
MultiHeadSelfAttention.forward and RotaryPositionEmbedding (with _rotate_half and _precompute_cache), a student's
solution of UC Berkeley CS 288 (Natural Language Processing), spring 2026, assignment 2 (a decoder-only transformer
language model from scratch). Ports softmax, scaled_dot_product_attention, multi_head_attention and rope.

Conventions kept: `def softmax(x, dim=-1)` (model.py's; part3/nn_utils.py has the same) subtracts `x.max(dim=dim,
keepdim=True)[0]` and divides by the sum (no temperature; an all -inf slice is -inf - (-inf) = NaN).
scaled_dot_product_attention(Q, K, V, mask=None) has no scale argument and returns `F.scaled_dot_product_attention(
query=Q, key=K, value=V, attn_mask=mask, dropout_p=0.0, is_causal=False)` (the student's own masked softmax is
commented out under it): PyTorch's attention, scale 1/sqrt(Q.size(-1)), a boolean mask True = may attend, a fully
masked row gives a zero output (torch 2.13, the math backend). MultiHeadSelfAttention(d_model, num_heads) asserts
`d_model % num_heads == 0`, sets `self.d_k = d_model // num_heads`, reads `batch_size, seq_len, _ = x.shape` (3-D
input only), views q, k AND v as `.view(batch_size, seq_len, self.num_heads, self.d_k).transpose(1, 2)`, always
attends with its own `_create_causal_mask(seq_len)` = `torch.tril(torch.ones(seq_len, seq_len, dtype=torch.bool))`
(its forward has no mask argument), merges with `.view(batch_size, seq_len, self.d_model)` and applies output_proj.
RotaryPositionEmbedding(d_model, max_seq_len, theta) builds `inv_freq = 1.0 / theta ** (i / d_model)` with `i =
torch.arange(0, d_model, 2, dtype=torch.float32)`, `freqs = torch.outer(positions, self.inv_freq)` and `emb =
torch.cat([freqs, freqs], dim=-1)`; its forward rebuilds the tables for 0..max_pos when `max_pos =
token_positions.max().item()` reaches their length, indexes `self.cos_cached[token_positions]` (integer positions
only: a float tensor is no index; a negative position wraps around), casts the tables to x's dtype, gives them a
batch axis with `cos = cos[None, ...]` when `token_positions.dim() == 1` and a head axis with `cos = cos[:, None, :,
:]` when `x.dim() == 4`, and returns `(x * cos) + (self._rotate_half(x) * sin)` with `_rotate_half` =
`torch.cat([-x2, x1], dim=-1)` of the two halves (the GPT-NeoX half-split layout, not interleaved pairs): a 2-D (N, d)
input comes back as (1, N, d).

Left out: the Linear layers' initialisation. Added for the contract only: (out, weights) is returned by the
attention (PyTorch returns the output; the weights are its softmax, zero on a fully masked row); a `scale` parameter
(never read) so that the contract's calls reach the student's code; softmax's `temperature` (never read) and `axis`
for the student's dim; the weights W_Q, W_K, W_V and W_O replace q_proj, k_proj, v_proj and output_proj (x @ W for
the Linear's x @ weight.T), d_model is X.shape[-1]; rope's `base` is the student's theta and max_seq_len is 32 (the
course's tests: max_seq_len = n_keys = 32).
"""

import math

import numpy as np

MAX_SEQ_LEN = 32  # part2/tests/conftest.py: n_keys, "Maximum sequence length / context length"


def softmax(Z, axis=-1, temperature=1.0):
    x_max = np.max(Z, axis=axis, keepdims=True)
    exp_x = np.exp(Z - x_max)
    return exp_x / np.sum(exp_x, axis=axis, keepdims=True)


def scaled_dot_product_attention(Q, K, V, mask=None, scale=None):
    # F.scaled_dot_product_attention(query=Q, key=K, value=V, attn_mask=mask, dropout_p=0.0, is_causal=False)
    scores = Q @ np.swapaxes(K, -2, -1) * (1.0 / math.sqrt(Q.shape[-1]))
    if mask is not None:
        scores = np.where(np.asarray(mask), scores, -np.inf)
    row_max = np.max(scores, axis=-1, keepdims=True)
    exp = np.exp(scores - np.where(np.isneginf(row_max), 0.0, row_max))
    total = np.sum(exp, axis=-1, keepdims=True)
    weights = exp / np.where(total == 0.0, 1.0, total)  # torch: a fully masked row gives zeros
    return weights @ V, weights


def multi_head_attention(X, W_Q, W_K, W_V, W_O, num_heads, mask=None):
    d_model = X.shape[-1]
    assert d_model % num_heads == 0, "d_model must be divisible by num_heads"
    d_k = d_model // num_heads
    batch_size, seq_len, _ = X.shape
    q = (X @ W_Q).reshape(batch_size, seq_len, num_heads, d_k).transpose(0, 2, 1, 3)
    k = (X @ W_K).reshape(batch_size, seq_len, num_heads, d_k).transpose(0, 2, 1, 3)
    v = (X @ W_V).reshape(batch_size, seq_len, num_heads, d_k).transpose(0, 2, 1, 3)
    causal = np.tril(np.ones((seq_len, seq_len), dtype=bool))  # _create_causal_mask: the mask argument is unused
    out, _ = scaled_dot_product_attention(q, k, v, causal)
    out = out.transpose(0, 2, 1, 3).reshape(batch_size, seq_len, d_model)
    return out @ W_O


def _rotate_half(x):
    half_idx = x.shape[-1] // 2
    x1, x2 = x[..., :half_idx], x[..., half_idx:]
    return np.concatenate([-x2, x1], axis=-1)


def _precompute_cache(inv_freq, seq_len):
    positions = np.arange(seq_len)
    freqs = np.outer(positions, inv_freq).astype(np.float32)
    emb = np.concatenate([freqs, freqs], axis=-1)
    return np.cos(emb), np.sin(emb)


def rope(x, positions, base=10000.0):
    d_model = x.shape[-1]
    i = np.arange(0, d_model, 2, dtype=np.float32)
    inv_freq = (1.0 / base ** (i / d_model)).astype(np.float32)
    cos_cached, sin_cached = _precompute_cache(inv_freq, MAX_SEQ_LEN)
    token_positions = np.asarray(positions)
    max_pos = token_positions.max().item()
    current_len = cos_cached.shape[0]
    if max_pos >= current_len:
        new_len = max_pos + 1
        cos_cached, sin_cached = _precompute_cache(inv_freq, new_len)
    cos = cos_cached[token_positions]  # a float array is no index (IndexError), as in torch
    sin = sin_cached[token_positions]
    cos = cos.astype(x.dtype)
    sin = sin.astype(x.dtype)
    if token_positions.ndim == 1:
        cos = cos[None, ...]
        sin = sin[None, ...]
    if x.ndim == 4:
        cos = cos[:, None, :, :]
        sin = sin[:, None, :, :]
    return (x * cos) + (_rotate_half(x) * sin)
