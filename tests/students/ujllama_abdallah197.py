"""Port of abdallah197/llama2-from-scratch, model.py (commit 698bbc4) with config.py: precompute_theta_pos_frequencies,
apply_rotary_embeddings and SelfAttention.forward, a student's follow-along of Umar Jamil's "Coding LLaMA 2 from
scratch in PyTorch", extended by the student to train the model (a 'train' mode without the KV cache).

Conventions kept: precompute_theta_pos_frequencies builds float32 angles `theta = 1.0 / (theta ** (theta_numerator /
head_dim))` for the integer positions `m = torch.arange(seq_length)` and `torch.polar` (complex64); the Transformer
precomputes them for `self.args.max_seq_length * 2` positions (config.py: max_seq_length = 32, so 64 rows) and
slices `self.freqs_complex[start_pos: start_pos + seq_len]` (an integer start, consecutive positions; past row 64 the
slice is short and the product raises). apply_rotary_embeddings views x (B, seq_length, H, Head_dim) as complex pairs
`torch.view_as_complex(x.float().reshape(*x.shape[:-1], -1, 2))` (interleaved pairs), multiplies by
`m_theta_complex.unsqueeze(0).unsqueeze(2)` and reshapes back `x_out.reshape(*x.shape)`. SelfAttention.forward reads
`batch_size, seq_length, _ = x.shape` (3-D input only), `self.head_dim = args.dim // args.n_heads` (every head D // H
wide, D = the model width) with `xq.view(batch_size, seq_length, self.n_heads_q, self.head_dim)` for q, k and v,
rotates q and k, and in the config's default `mode: str = 'train'` takes `keys, values = xk, xv` (no cache), then
`torch.matmul(xq, keys.transpose(-2, -1)) / math.sqrt(self.head_dim)`, `F.softmax(scores.float(), dim=-1)`,
`output.transpose(1, 2).contiguous().view(batch_size, seq_length, -1)` and wo; it has no mask argument (training runs
without a causal mask). Left out: grouped-query heads (n_kv_heads = None, so n_rep = 1 and repeat_kv returns its
input), the inference mode's cache (the same result at start_pos = 0), devices. Added for the contract only: rope(x,
positions, base) flattens x's leading axes into the student's (B, seq_length, H=1, Head_dim) layout, builds the table
with theta = base for max_seq_length * 2 = 64 positions, takes the slice [start, start + N) with start =
int(positions[0]) and restores x's leading axes; multi_head_attention is SelfAttention in train mode with args.dim =
X.shape[-1], n_heads = num_heads, wq, wk, wv, wo = W_Q, W_K, W_V, W_O and the table's first N rows (start_pos = 0; the
mask is never read).
"""

import numpy as np

MAX_SEQ_LENGTH = 32  # config.py ModelArgs


def _precompute_theta_pos_frequencies(head_dim, seq_length, theta=10000):
    assert head_dim % 2 == 0
    theta_numerator = np.arange(0, head_dim, 2).astype(np.float32)
    theta = (1.0 / (theta ** (theta_numerator / head_dim))).astype(np.float32)
    m = np.arange(seq_length)
    m_theta = np.outer(m, theta).astype(np.float32)
    return (np.cos(m_theta) + 1j * np.sin(m_theta)).astype(np.complex64)  # torch.polar(ones, m_theta)


def _apply_rotary_embeddings(x, m_theta_complex):
    pairs = x.astype(np.float32).reshape(*x.shape[:-1], -1, 2)
    x_complex = pairs[..., 0] + 1j * pairs[..., 1]  # torch.view_as_complex
    m_theta_complex = m_theta_complex[None, :, None, :]  # unsqueeze(0).unsqueeze(2)
    x_rotated = x_complex * m_theta_complex
    x_out = np.stack([x_rotated.real, x_rotated.imag], axis=-1)  # torch.view_as_real
    x_out = x_out.reshape(*x.shape)
    return x_out.astype(x.dtype)  # type_as(x)


def rope(x, positions, base=10000.0):
    x = np.asarray(x)
    n, d = x.shape[-2:]
    table = _precompute_theta_pos_frequencies(d, MAX_SEQ_LENGTH * 2, theta=base)
    start_pos = int(np.asarray(positions)[0])
    freqs_complex = table[start_pos:start_pos + n]
    out = _apply_rotary_embeddings(x.reshape(-1, n, 1, d), freqs_complex)
    return out.reshape(*x.shape[:-1], *out.shape[3:])


def multi_head_attention(X, W_Q, W_K, W_V, W_O, num_heads, mask=None):
    n_heads_q = n_kv_heads = num_heads
    head_dim = X.shape[-1] // num_heads
    batch_size, seq_length, _ = X.shape
    start_pos = 0
    m_theta_complex = _precompute_theta_pos_frequencies(head_dim, MAX_SEQ_LENGTH * 2)[start_pos:start_pos + seq_length]
    xq = (X @ W_Q).reshape(batch_size, seq_length, n_heads_q, head_dim)
    xk = (X @ W_K).reshape(batch_size, seq_length, n_kv_heads, head_dim)
    xv = (X @ W_V).reshape(batch_size, seq_length, n_kv_heads, head_dim)
    xq = _apply_rotary_embeddings(xq, m_theta_complex)
    xk = _apply_rotary_embeddings(xk, m_theta_complex)
    keys, values = xk, xv  # mode == 'train': no cache
    xq, keys, values = (np.swapaxes(t, 1, 2) for t in (xq, keys, values))
    scores = np.matmul(xq, np.swapaxes(keys, -2, -1)) / np.sqrt(head_dim)
    scores = np.exp(scores - scores.max(axis=-1, keepdims=True))
    scores = scores / scores.sum(axis=-1, keepdims=True)  # F.softmax(dim=-1)
    output = np.matmul(scores, values)
    output = np.swapaxes(output, 1, 2).reshape(batch_size, seq_length, -1)
    return output @ W_O
