"""Port of andersvestrum/cs288-sp26-a2, part2/model.py (commit 8110d29): softmax, scaled_dot_product_attention,
MultiHeadSelfAttention.forward and RotaryPositionEmbedding (with _rotate_half and _precompute_cache), a student's
solution of UC Berkeley CS 288 (Natural Language Processing), spring 2026, assignment 2 (a decoder-only transformer
language model from scratch). Ports softmax, scaled_dot_product_attention, multi_head_attention and rope.

Conventions kept: `def softmax(x, dim=-1)` (model.py's; part3/nn_utils.py has the same) subtracts `x.max(dim=dim,
keepdim=True).values` and divides by the sum (no temperature; an all -inf slice is -inf - (-inf) = NaN).
scaled_dot_product_attention(Q, K, V, mask=None) computes `QK = Q @ K.transpose(-2, -1)`, `QK = QK / math.sqrt(d_k)`
with `d_k = Q.shape[-1]` (no scale argument), `QK.masked_fill(~mask, float('-inf'))` (True = may attend; out of
place, so mask and scores broadcast), the student's softmax on dim=-1, then `QK = torch.nan_to_num(QK, nan=0.0)` (a
fully masked row gives zero weights) and `QK @ V`. MultiHeadSelfAttention(d_model, num_heads) asserts `d_model %
num_heads == 0`, sets `self.d_k = d_model // num_heads`, reads `batch_size, seq_len, _ = x.shape` (3-D input only),
views q, k AND v as (batch_size, seq_len, num_heads, self.d_k) and transposes them to (batch, heads, seq, d_k),
always attends with its own `_create_causal_mask(seq_len)` = `torch.tril(torch.ones(seq_len, seq_len,
dtype=torch.bool))` (its forward has no mask argument), calls the student's attention, merges with
`.view(batch_size, seq_len, self.d_model)` and applies output_proj. RotaryPositionEmbedding(d_model, max_seq_len,
theta) builds `inv_freq = 1.0 / theta ** (torch.arange(0, d_model, 2) / d_model)` (float32), `freqs =
torch.outer(positions, self.inv_freq)` for positions 0..max_seq_len-1, `emb = torch.cat([freqs, freqs], dim=-1)` and
cos/sin tables of it; forward indexes `self.cos_cached[token_positions]` (integer positions only: a float tensor is
no index, a position >= max_seq_len raises and a negative one wraps around), gives the tables a head axis with
`cos.unsqueeze(1)` when `x.dim() == 4` (meant for (batch, seq) positions), and returns `x * cos +
self._rotate_half(x) * sin` with `_rotate_half` = `torch.cat([-x2, x1], dim=-1)` of the two halves (the GPT-NeoX
half-split layout, not interleaved pairs).

Left out: the Linear layers' initialisation. Added for the contract only: (out, weights) is returned by the
attention (the student returns the output; the weights are its QK after nan_to_num); a `scale` parameter (never
read) so that the contract's calls reach the student's code; softmax's `temperature` (never read) and `axis` for the
student's dim; the weights W_Q, W_K, W_V and W_O replace q_proj, k_proj, v_proj and output_proj (x @ W for the
Linear's x @ weight.T), d_model is X.shape[-1]; rope's `base` is the student's theta and max_seq_len is 32 (the
course's tests: max_seq_len = n_keys = 32).
"""

import math

import numpy as np

MAX_SEQ_LEN = 32  # part2/tests/conftest.py: n_keys, "Maximum sequence length / context length"


def softmax(Z, axis=-1, temperature=1.0):
    max_x = np.max(Z, axis=axis, keepdims=True)
    x = Z - max_x
    exp_x = np.exp(x)
    sum_exp_x = np.sum(exp_x, axis=axis, keepdims=True)
    return exp_x / sum_exp_x


def scaled_dot_product_attention(Q, K, V, mask=None, scale=None):
    d_k = Q.shape[-1]
    QK = Q @ np.swapaxes(K, -2, -1)
    QK = QK / math.sqrt(d_k)
    if mask is not None:  # out-of-place masked_fill: mask and scores broadcast
        QK = np.where(~np.asarray(mask), -np.inf, QK)
    QK = softmax(QK, axis=-1)
    QK = np.nan_to_num(QK, nan=0.0)
    output = QK @ V
    return output, QK


def multi_head_attention(X, W_Q, W_K, W_V, W_O, num_heads, mask=None):
    d_model = X.shape[-1]
    assert d_model % num_heads == 0, "d_model must be divisible by num_heads"
    d_k = d_model // num_heads
    batch_size, seq_len, _ = X.shape
    q, k, v = X @ W_Q, X @ W_K, X @ W_V
    q = q.reshape(batch_size, seq_len, num_heads, d_k).transpose(0, 2, 1, 3)
    k = k.reshape(batch_size, seq_len, num_heads, d_k).transpose(0, 2, 1, 3)
    v = v.reshape(batch_size, seq_len, num_heads, d_k).transpose(0, 2, 1, 3)
    causal = np.tril(np.ones((seq_len, seq_len), dtype=bool))  # _create_causal_mask: the mask argument is unused
    output, _ = scaled_dot_product_attention(q, k, v, causal)
    output = output.transpose(0, 2, 1, 3).reshape(batch_size, seq_len, d_model)
    return output @ W_O


def _rotate_half(x):
    x1 = x[..., :x.shape[-1] // 2]
    x2 = x[..., x.shape[-1] // 2:]
    return np.concatenate([-x2, x1], axis=-1)


def rope(x, positions, base=10000.0):
    d_model = x.shape[-1]
    inv_freq = (1.0 / base ** (np.arange(0, d_model, 2) / d_model)).astype(np.float32)
    freqs = np.outer(np.arange(MAX_SEQ_LEN), inv_freq).astype(np.float32)
    emb = np.concatenate([freqs, freqs], axis=-1)
    cos_cached, sin_cached = np.cos(emb), np.sin(emb)
    token_positions = np.asarray(positions)
    cos = cos_cached[token_positions]  # a float array is no index (IndexError), as in torch
    sin = sin_cached[token_positions]
    if x.ndim == 4:
        cos = np.expand_dims(cos, 1)  # cos.unsqueeze(1)
        sin = np.expand_dims(sin, 1)
    x = x * cos + _rotate_half(x) * sin
    return x
