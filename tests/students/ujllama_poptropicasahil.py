"""Port of PoptropicaSahil/Llama2-from-scratch, main/model.py (commit 910eb47): precompute_theta_pos_frequencies,
apply_rotary_embeddings and SelfAttention.forward, a student's follow-along of Umar Jamil's "Coding LLaMA 2 from
scratch in PyTorch" (RoPE, KV cache, grouped-query attention), annotated with the student's own notes.

Conventions kept: precompute_theta_pos_frequencies builds float32 angles `theta = theta_constant **
(-theta_numerator / head_dim)` for the integer positions `m = torch.arange(seq_len)` and `torch.polar` (complex64);
the Transformer precomputes them for `self.args.max_seq_len * 2` positions and slices `self.freqs_complex[start_idx :
start_idx + seq_len]` (an integer start, consecutive positions). apply_rotary_embeddings REASSIGNS its input, `x =
x.float().reshape(*x.shape[:-1], -1, 2)` (the (..., head_dim/2, 2) pair view, float32), takes `torch.view_as_complex(
x)`, multiplies by `freqs_complex.unsqueeze(0).unsqueeze(2)`, `torch.view_as_real(x_rotated)`, then `x_out =
x_out.reshape(*x.shape)` with the reassigned x: the pairs are never flattened back, so it returns (B, seq_len,
n_heads, head_dim/2, 2) in float32 (`.type_as(x)`). SelfAttention.forward reads `batch_size, seq_len, _ = x.shape`
(3-D input only), `self.head_dim = args.dim // args.n_heads` (every head D // H wide, D = the model width) with
`xq.view(batch_size, seq_len, self.n_heads_q, self.head_dim)` for q, k and v, rotates q and k, then writes
`self.cache_k[:batch_size, start_pos : start_pos + seq_len] = xk`: the (B, seq_len, H, head_dim/2, 2) keys cannot be
written into the (B, seq_len, H, head_dim) cache slots, so it raises there. Past that line (never reached) it reads
`keys = self.cache_k[:batch_size, : start_pos + seq_len]`, scores `torch.matmul(xq, keys.transpose(2,3)) /
math.sqrt(self.head_dim)`, `F.softmax(scores.float(), dim=1)` (axis 1 of the (B, H, seq_len, seq_len_kv) scores: the
HEADS), `output.transpose(1, 2).contiguous().view(batch_size, seq_len, -1)` and wo; it has no mask argument. Left
out: grouped-query heads (n_heads_kv = None, so n_rep = 1 and repeat_kv returns its input), devices, the float32
cache dtype, main/inference.py (which feeds token cur_pos - 1 with start_idx=cur_pos). Added for the contract only:
rope(x, positions, base) flattens x's leading axes into the student's (B, seq_len, n_heads=1, head_dim) layout,
builds the table with theta_constant = base for max_seq_len * 2 = 4096 positions (main/model_args.py), takes the
slice [start, start + N) with start = int(positions[0]) and restores x's leading axes (the student's trailing axes
kept as they come out); multi_head_attention is a fresh SelfAttention (empty cache, max_batch_size 32, max_seq_len
2048) with args.dim = X.shape[-1], n_heads = num_heads, wq, wk, wv, wo = W_Q, W_K, W_V, W_O, called with start_pos =
0 and the table's first N rows (the mask is never read).
"""

import numpy as np

MAX_BATCH_SIZE, MAX_SEQ_LEN = 32, 2048  # main/model_args.py


def _precompute_theta_pos_frequencies(head_dim, seq_len, theta_constant=10000.0):
    assert head_dim % 2 == 0, "Dimension must be even"
    theta_numerator = np.arange(0, head_dim, 2).astype(np.float32)
    theta = (theta_constant ** (-theta_numerator / head_dim)).astype(np.float32)
    m = np.arange(seq_len)
    freqs = np.outer(m, theta).astype(np.float32)
    return (np.cos(freqs) + 1j * np.sin(freqs)).astype(np.complex64)  # torch.polar(ones, freqs)


def _apply_rotary_embeddings(x, freqs_complex):
    x = x.astype(np.float32).reshape(*x.shape[:-1], -1, 2)  # x reassigned: (..., head_dim/2, 2)
    x_complex = x[..., 0] + 1j * x[..., 1]  # torch.view_as_complex(x)
    freqs_complex = freqs_complex[None, :, None, :]  # unsqueeze(0).unsqueeze(2)
    x_rotated = x_complex * freqs_complex
    x_out = np.stack([x_rotated.real, x_rotated.imag], axis=-1)  # torch.view_as_real
    x_out = x_out.reshape(*x.shape)  # the reassigned x's shape: the pairs stay unflattened
    return x_out.astype(x.dtype)  # type_as(x): float32


def rope(x, positions, base=10000.0):
    x = np.asarray(x)
    n, d = x.shape[-2:]
    table = _precompute_theta_pos_frequencies(d, MAX_SEQ_LEN * 2, theta_constant=base)
    start_idx = int(np.asarray(positions)[0])
    freqs_complex = table[start_idx:start_idx + n]
    out = _apply_rotary_embeddings(x.reshape(-1, n, 1, d), freqs_complex)
    return out.reshape(*x.shape[:-1], *out.shape[3:])


def multi_head_attention(X, W_Q, W_K, W_V, W_O, num_heads, mask=None):
    n_heads_q = n_heads_kv = num_heads
    head_dim = X.shape[-1] // num_heads
    cache_k = np.zeros((MAX_BATCH_SIZE, MAX_SEQ_LEN, n_heads_kv, head_dim))
    cache_v = np.zeros((MAX_BATCH_SIZE, MAX_SEQ_LEN, n_heads_kv, head_dim))
    start_pos = 0
    batch_size, seq_len, _ = X.shape
    freqs_complex = _precompute_theta_pos_frequencies(head_dim, MAX_SEQ_LEN * 2)[start_pos:start_pos + seq_len]
    xq = (X @ W_Q).reshape(batch_size, seq_len, n_heads_q, head_dim)
    xk = (X @ W_K).reshape(batch_size, seq_len, n_heads_kv, head_dim)
    xv = (X @ W_V).reshape(batch_size, seq_len, n_heads_kv, head_dim)
    xq = _apply_rotary_embeddings(xq, freqs_complex)
    xk = _apply_rotary_embeddings(xk, freqs_complex)
    cache_k[:batch_size, start_pos:start_pos + seq_len] = xk  # raises: (B, N, H, hd/2, 2) into (B, N, H, hd)
    cache_v[:batch_size, start_pos:start_pos + seq_len] = xv
    keys = cache_k[:batch_size, :start_pos + seq_len]
    values = cache_v[:batch_size, :start_pos + seq_len]
    xq, keys, values = (np.swapaxes(t, 1, 2) for t in (xq, keys, values))
    scores = np.matmul(xq, np.swapaxes(keys, 2, 3)) / np.sqrt(head_dim)
    scores = np.exp(scores - scores.max(axis=1, keepdims=True))
    scores = scores / scores.sum(axis=1, keepdims=True)  # F.softmax(scores.float(), dim=1)
    output = np.matmul(scores, values)
    output = np.swapaxes(output, 1, 2).reshape(batch_size, seq_len, -1)
    return output @ W_O
