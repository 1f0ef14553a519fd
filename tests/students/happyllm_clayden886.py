"""Port of Clayden886/Happy-LLM, model.py (commit 815e980): Attention (with precompute_freqs_cis,
reshape_for_broadcast, apply_rotary_emb and repeat_kv), a learner's own LLaMA-style model written for chapters 5 and 6
of Datawhale's Happy-LLM (an open online book and course; chapter 5, "动手搭建大模型", builds a LLaMA-2 model with RoPE
and grouped-query attention; the student's repository rewrites it from scratch: model, tokenizer, pretraining, SFT).

Ports multi_head_attention (Attention.forward, with the student's RoPE).

Conventions kept: Attention(config): `self.head_dim = config.dim // config.n_heads`, `assert config.dim %
config.n_heads == 0`, `assert self.n_heads % self.n_kv_heads == 0`, `nn.Linear(config.dim, config.n_heads *
self.head_dim, bias=config.bias)` for wq (n_kv_heads heads for wk and wv) and `nn.Linear(config.n_heads *
self.head_dim, config.dim)` for wo; forward(x, freqs_cos, freqs_sin) has no mask argument: `batch_size, seq_len, dim =
x.shape` (3-D only), `xq.view(batch_size, seq_len, self.n_heads, self.head_dim)` (likewise xk and xv with n_kv_heads:
explicit sizes, so every projection must be n_heads * (dim // n_heads) wide), `xq, xk = apply_rotary_emb(xq, xk,
freqs_cos[:seq_len], freqs_sin[:seq_len])` (interleaved pairs: `xq_float[..., ::2], xq_float[..., 1::2]` of
`xq.float()`, rotated by the cos/sin of precompute_freqs_cis(dim // n_heads, max_seq_len): `freqs = 1.0 / (theta **
(torch.arange(0, dim, 2).float() / dim))`, theta = 10000.0, positions `torch.arange(end, dtype=torch.float32)`,
`torch.stack([..., ...], dim=-1).flatten(-2)`, `.type_as(xq)`), repeat_kv, `.transpose(1, 2)`, `scores =
torch.matmul(xq, xk.transpose(2, 3)) / (self.head_dim ** 0.5)`, its own causal mask ALWAYS: `mask =
torch.triu(torch.full((seq_len, seq_len), float("-inf")), diagonal=1)`, `scores = scores + mask`,
`F.softmax(scores.float(), dim=-1).type_as(xq)`, `output.transpose(1, 2).contiguous().view(batch_size, seq_len,
dim)` (the heads merged back into the INPUT's width) and `self.wo(output)`.

Left out: dropout (0.0 in ModelConfig), the biases (ModelConfig.bias = False). Added for the contract only:
multi_head_attention is Attention(ModelConfig(dim=X.shape[-1], n_heads=num_heads)) (n_kv_heads None: as many as
n_heads), its wq, wk, wv and wo are W_Q, W_K, W_V and W_O (x @ W), run on X with the Transformer's tables
precompute_freqs_cis(dim // n_heads, max_seq_len=512) (ModelConfig's default); the contract's mask is never read.
"""

import numpy as np

MAX_SEQ_LEN = 512  # ModelConfig.max_seq_len


def _precompute_freqs_cis(dim, end, theta=10000.0):
    freqs = (1.0 / (theta ** (np.arange(0, dim, 2).astype(np.float32) / dim))).astype(np.float32)
    t = np.arange(end, dtype=np.float32)
    freqs = np.outer(t, freqs).astype(np.float32)
    return np.cos(freqs), np.sin(freqs)


def _reshape_for_broadcast(freqs, x):
    ndim = x.ndim
    assert ndim >= 2
    shape = [1] * ndim
    shape[1] = x.shape[1]
    shape[-1] = x.shape[-1]
    return freqs.reshape(*shape)


def _apply_rotary_emb(xq, xk, freqs_cos, freqs_sin):
    xq_float = xq.astype(np.float32)
    xk_float = xk.astype(np.float32)

    xq_real, xq_imag = xq_float[..., ::2], xq_float[..., 1::2]
    xk_real, xk_imag = xk_float[..., ::2], xk_float[..., 1::2]

    freqs_cos = _reshape_for_broadcast(freqs_cos, xq_real)
    freqs_sin = _reshape_for_broadcast(freqs_sin, xq_real)

    xq_out_real = xq_real * freqs_cos - xq_imag * freqs_sin
    xq_out_imag = xq_real * freqs_sin + xq_imag * freqs_cos
    xk_out_real = xk_real * freqs_cos - xk_imag * freqs_sin
    xk_out_imag = xk_real * freqs_sin + xk_imag * freqs_cos

    xq_out = np.stack([xq_out_real, xq_out_imag], axis=-1)
    xq_out = xq_out.reshape(*xq_out.shape[:-2], -1)  # .flatten(-2)
    xk_out = np.stack([xk_out_real, xk_out_imag], axis=-1)
    xk_out = xk_out.reshape(*xk_out.shape[:-2], -1)
    return xq_out.astype(xq.dtype), xk_out.astype(xk.dtype)


def _repeat_kv(x, n_rep):
    batch_size, seq_len, n_kv_heads, head_dim = x.shape
    if n_rep == 1:
        return x
    x = np.broadcast_to(x[:, :, :, None, :], (batch_size, seq_len, n_kv_heads, n_rep, head_dim))
    return x.reshape(batch_size, seq_len, n_kv_heads * n_rep, head_dim)


def _softmax_float32(Z):  # F.softmax(scores.float(), dim=-1)
    Z = Z.astype(np.float32)
    E = np.exp(Z - np.max(Z, axis=-1, keepdims=True))
    return E / np.sum(E, axis=-1, keepdims=True)


def multi_head_attention(X, W_Q, W_K, W_V, W_O, num_heads, mask=None):
    config_dim = X.shape[-1]
    n_heads = num_heads
    n_kv_heads = n_heads
    n_rep = n_heads // n_kv_heads
    head_dim = config_dim // n_heads
    assert config_dim % n_heads == 0
    assert n_heads % n_kv_heads == 0
    freqs_cos, freqs_sin = _precompute_freqs_cis(config_dim // n_heads, MAX_SEQ_LEN)

    batch_size, seq_len, dim = X.shape
    xq = X @ W_Q
    xk = X @ W_K
    xv = X @ W_V

    xq = xq.reshape(batch_size, seq_len, n_heads, head_dim)
    xk = xk.reshape(batch_size, seq_len, n_kv_heads, head_dim)
    xv = xv.reshape(batch_size, seq_len, n_kv_heads, head_dim)

    xq, xk = _apply_rotary_emb(xq, xk, freqs_cos[:seq_len], freqs_sin[:seq_len])

    xk = _repeat_kv(xk, n_rep)
    xv = _repeat_kv(xv, n_rep)

    xq = np.swapaxes(xq, 1, 2)
    xk = np.swapaxes(xk, 1, 2)
    xv = np.swapaxes(xv, 1, 2)

    scores = np.matmul(xq, np.swapaxes(xk, 2, 3)) / (head_dim ** 0.5)

    causal = np.triu(np.full((seq_len, seq_len), -np.inf), k=1)
    scores = scores + causal

    scores = _softmax_float32(scores).astype(xq.dtype)
    output = np.matmul(scores, xv)

    output = np.swapaxes(output, 1, 2).reshape(batch_size, seq_len, dim)
    return output @ W_O
