"""Port of sonhm3029/LLama2-from-scratch, model.py (commit ca1a3cf): precompute_theta_pos_frequencies,
apply_rotary_embeddings and SelfAttention.forward, a student's follow-along of Umar Jamil's "Coding LLaMA 2 from
scratch in PyTorch", extended by the student with Meta's additive attention mask to process whole prompts (a chat app).

Conventions kept: precompute_theta_pos_frequencies builds float32 angles `theta = 1.0 / (theta ** (theta_numerator /
head_dim))` for the integer positions `m = torch.arange(seq_len)` and `torch.polar` (complex64); the Transformer
precomputes them for `self.args.max_seq_len * 2` positions and slices `self.freqs_cis[start_pos : start_pos + seqlen]`
(an integer start, consecutive positions). apply_rotary_embeddings views x (B, Seq_Len, H, Head_Dim) as complex pairs
`torch.view_as_complex(x.float().reshape(*x.shape[:-1], -1, 2))` (interleaved pairs), multiplies by
`freqs_complex.unsqueeze(0).unsqueeze(2)` and reshapes back `x_out.reshape(*x.shape)`. SelfAttention.forward(x,
start_pos, freqs_complex, mask) reads `batch_size, seq_len, _ = x.shape` (3-D input only), `self.head_dim = args.dim
// args.n_heads` (every head D // H wide, D = the model width) with `xq.view(batch_size, seq_len, self.n_heads_q,
self.head_dim)` for q, k and v, rotates q and k, writes and reads the cache `self.cache_k[:batch_size, start_pos :
start_pos + seq_len] = xk`, `keys = self.cache_k[:batch_size, : start_pos + seq_len]`, scores
`torch.matmul(xq, keys.transpose(2, 3)) / math.sqrt(self.head_dim)`, `if mask is not None: scores = scores + mask`
(an ADDITIVE mask: the Transformer passes `torch.triu(torch.full((seqlen, seqlen), float("-inf")), diagonal=1)`
hstacked after zeros for the cached positions; a boolean mask adds 0/1, and it meets the (B, H_Q, Seq_Len,
Seq_Len_KV) scores as given, with no head axis inserted), `F.softmax(scores.float(), dim=-1)`,
`output.transpose(1, 2).contiguous().view(batch_size, seq_len, -1)` and wo. Left out: grouped-query heads (n_kv_heads
= None, so n_rep = 1 and repeat_kv returns its input), devices, the float32 cache dtype. Added for the contract only:
rope(x, positions, base) flattens x's leading axes into the student's (B, Seq_Len, H=1, Head_Dim) layout, builds the
table with theta = base for max_seq_len * 2 = 4096 positions (ModelArgs), takes the slice [start, start + N) with
start = int(positions[0]) and restores x's leading axes; multi_head_attention is a fresh SelfAttention (empty cache,
max_batch_size 32, max_seq_len 2048) with args.dim = X.shape[-1], n_heads = num_heads, wq, wk, wv, wo = W_Q, W_K,
W_V, W_O, called with start_pos = 0, the table's first N rows and the contract's mask as its `mask`.
"""

import numpy as np

MAX_BATCH_SIZE, MAX_SEQ_LEN = 32, 2048  # ModelArgs


def _precompute_theta_pos_frequencies(head_dim, seq_len, theta=10000.0):
    assert head_dim % 2 == 0, "Dimension must be divisible by 2"
    theta_numerator = np.arange(0, head_dim, 2).astype(np.float32)
    theta = (1.0 / (theta ** (theta_numerator / head_dim))).astype(np.float32)
    m = np.arange(seq_len)
    freqs = np.outer(m, theta).astype(np.float32)
    return (np.cos(freqs) + 1j * np.sin(freqs)).astype(np.complex64)  # torch.polar(ones, freqs)


def _apply_rotary_embeddings(x, freqs_complex):
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
    out = _apply_rotary_embeddings(x.reshape(-1, n, 1, d), freqs_complex)
    return out.reshape(*x.shape[:-1], *out.shape[3:])


def multi_head_attention(X, W_Q, W_K, W_V, W_O, num_heads, mask=None):
    n_heads_q = n_kv_heads = num_heads
    head_dim = X.shape[-1] // num_heads
    cache_k = np.zeros((MAX_BATCH_SIZE, MAX_SEQ_LEN, n_kv_heads, head_dim))
    cache_v = np.zeros((MAX_BATCH_SIZE, MAX_SEQ_LEN, n_kv_heads, head_dim))
    start_pos = 0
    batch_size, seq_len, _ = X.shape
    freqs_complex = _precompute_theta_pos_frequencies(head_dim, MAX_SEQ_LEN * 2)[start_pos:start_pos + seq_len]
    xq = (X @ W_Q).reshape(batch_size, seq_len, n_heads_q, head_dim)
    xk = (X @ W_K).reshape(batch_size, seq_len, n_kv_heads, head_dim)
    xv = (X @ W_V).reshape(batch_size, seq_len, n_kv_heads, head_dim)
    xq = _apply_rotary_embeddings(xq, freqs_complex)
    xk = _apply_rotary_embeddings(xk, freqs_complex)
    cache_k[:batch_size, start_pos:start_pos + seq_len] = xk
    cache_v[:batch_size, start_pos:start_pos + seq_len] = xv
    keys = cache_k[:batch_size, :start_pos + seq_len]
    values = cache_v[:batch_size, :start_pos + seq_len]
    xq, keys, values = (np.swapaxes(t, 1, 2) for t in (xq, keys, values))
    scores = np.matmul(xq, np.swapaxes(keys, 2, 3)) / np.sqrt(head_dim)
    if mask is not None:
        scores = scores + mask  # additive: a boolean mask adds 0/1
    scores = np.exp(scores - scores.max(axis=-1, keepdims=True))
    scores = scores / scores.sum(axis=-1, keepdims=True)  # F.softmax(dim=-1)
    output = np.matmul(scores, values)
    output = np.swapaxes(output, 1, 2).reshape(batch_size, seq_len, -1)
    return output @ W_O
