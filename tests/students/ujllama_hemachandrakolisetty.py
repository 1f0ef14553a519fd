"""Port of HemachandraKolisetty/LLaMA2-from-scratch, model.py (commit 144946f): precompute_theta_pos_frequencies,
apply_rotary_embedding and SelfAttention.forward, a student's follow-along of Umar Jamil's "Coding LLaMA 2 from
scratch in PyTorch" (RoPE, KV cache, grouped-query attention).

Conventions kept: precompute_theta_pos_frequencies builds float32 angles `theta = 1.0 / (theta ** (theta_number /
head_dim))` for the integer positions `m = torch.arange(seq_len)` and `torch.polar` (complex64); the Transformer
precomputes them for `args.max_seq_len * 2` positions and slices `self.freqs_complex[start_pos:start_pos + seq_len]`
(an integer start, consecutive positions). apply_rotary_embedding views x (B, Seq_len, H, Head_dim) as complex pairs
`torch.view_as_complex(x.float().reshape(*x.shape[:-1], -1, 2))` (interleaved pairs), multiplies by
`freqs_complex.unsqueeze(0).unsqueeze(2)` and reshapes back `x_out.reshape(*x.shape)`. SelfAttention.forward reads
`batch_size, seq_len, _ = x.shape` (3-D input only), `self.head_dim = args.dim // self.n_heads_q` (every head D // H
wide, D = the model width) with `xq.view(batch_size, seq_len, self.n_heads_q, self.head_dim)` for q, k and v, rotates
q and k with apply_rotary_embedding, writes the cache `self.cache_k[:batch_size, start_pos:start_pos+1] = xk` (ONE
slot, whatever seq_len is: a prompt of more than one token cannot be written) and reads `keys =
self.cache_k[:batch_size, :start_pos + 1]`, scores `torch.matmul(xq, keys.transpose(2, 3)) /
math.sqrt(self.head_dim)`, `F.softmax(scores.float(), dim=-1)`, merges `output.transpose(1, 2).contiguous().view(
batch_size, seq_len, -1)` and applies wo; it has no mask argument. Left out: grouped-query heads (n_kv_heads = None,
so n_rep = 1 and repeat_kv returns its input), the device moves, the float32 cache dtype. Added for the contract only:
rope(x, positions, base) flattens x's leading axes into the student's (B, Seq_len, H=1, Head_dim) layout, builds the
table with theta = base for max_seq_len * 2 = 4096 positions (ModelArgs), takes the slice [start, start + N) with
start = int(positions[0]) and restores x's leading axes; multi_head_attention is a fresh SelfAttention (empty cache,
max_batch_size 32, max_seq_len 2048) with args.dim = X.shape[-1], n_heads = num_heads, wq, wk, wv, wo = W_Q, W_K, W_V,
W_O, called with start_pos = 0 and the table's first N rows (the mask is never read).
"""

import numpy as np

MAX_BATCH_SIZE, MAX_SEQ_LEN = 32, 2048  # ModelArgs


def _precompute_theta_pos_frequencies(head_dim, seq_len, theta=10000.0):
    assert head_dim % 2 == 0, "Dimension must be divisible by 2"
    theta_number = np.arange(0, head_dim, 2).astype(np.float32)
    theta = (1.0 / (theta ** (theta_number / head_dim))).astype(np.float32)
    m = np.arange(seq_len)
    freqs = np.outer(m, theta).astype(np.float32)
    return (np.cos(freqs) + 1j * np.sin(freqs)).astype(np.complex64)  # torch.polar(ones, freqs)


def _apply_rotary_embedding(x, freqs_complex):
    pairs = x.astype(np.float32).reshape(*x.shape[:-1], -1, 2)
    x_complex = pairs[..., 0] + 1j * pairs[..., 1]  # torch.view_as_complex
    freqs_complex = freqs_complex[None, :, None, :]  # unsqueeze(0).unsqueeze(2)
    x_rotated = x_complex * freqs_complex
    x_out = np.stack([x_rotated.real, x_rotated.imag], axis=-1)  # torch.view_as_real
    x_out = x_out.reshape(*x.shape)
    return x_out.astype(x.dtype)  # type_as(x)


def rope(x, positions, base=10000.0):
    x = np.asarray(x)
    n, d = x.shape[-2:]
    table = _precompute_theta_pos_frequencies(d, MAX_SEQ_LEN * 2, theta=base)
    start_pos = int(np.asarray(positions)[0])
    freqs_complex = table[start_pos:start_pos + n]
    out = _apply_rotary_embedding(x.reshape(-1, n, 1, d), freqs_complex)
    return out.reshape(*x.shape[:-1], *out.shape[3:])


def multi_head_attention(X, W_Q, W_K, W_V, W_O, num_heads, mask=None):
    n_heads_q = n_kv_heads = num_heads
    head_dim = X.shape[-1] // n_heads_q
    cache_k = np.zeros((MAX_BATCH_SIZE, MAX_SEQ_LEN, n_kv_heads, head_dim))
    cache_v = np.zeros((MAX_BATCH_SIZE, MAX_SEQ_LEN, n_kv_heads, head_dim))
    start_pos = 0
    batch_size, seq_len, _ = X.shape
    freqs_complex = _precompute_theta_pos_frequencies(head_dim, MAX_SEQ_LEN * 2)[start_pos:start_pos + seq_len]
    xq = (X @ W_Q).reshape(batch_size, seq_len, n_heads_q, head_dim)
    xk = (X @ W_K).reshape(batch_size, seq_len, n_kv_heads, head_dim)
    xv = (X @ W_V).reshape(batch_size, seq_len, n_kv_heads, head_dim)
    xq = _apply_rotary_embedding(xq, freqs_complex)
    xk = _apply_rotary_embedding(xk, freqs_complex)
    cache_k[:batch_size, start_pos:start_pos + 1] = xk  # one slot: raises unless seq_len == 1
    cache_v[:batch_size, start_pos:start_pos + 1] = xv
    keys = cache_k[:batch_size, :start_pos + 1]
    values = cache_v[:batch_size, :start_pos + 1]
    xq, keys, values = (np.swapaxes(t, 1, 2) for t in (xq, keys, values))
    scores = np.matmul(xq, np.swapaxes(keys, 2, 3)) / np.sqrt(head_dim)
    scores = np.exp(scores - scores.max(axis=-1, keepdims=True))
    scores = scores / scores.sum(axis=-1, keepdims=True)  # F.softmax(dim=-1)
    output = np.matmul(scores, values)
    output = np.swapaxes(output, 1, 2).reshape(batch_size, seq_len, -1)
    return output @ W_O
