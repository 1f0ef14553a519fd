"""Port of ThomasCZhang/10423-Generative-AI-Spring-2024, hw1/handout/mingpt/model.py (commit 05b78da):
RotaryPositionalEmbeddings and GroupedQueryAttention, a student's solution of CMU 10-423/10-623 (Generative AI,
Spring 2024), homework 1 (RoPE and grouped-query attention added to minGPT).

Conventions kept: RotaryPositionalEmbeddings._build_cache takes `positions = torch.arange(0, self.d/2)` and `theta =
torch.pow(self.base, -2**(positions)/self.d)` (Python reads -2**i as -(2**i): theta_i = base ** (-(2**i) / d), not
base ** (-2i / d)), writes theta into both halves of a float32 (N, d) matrix (`c_matrix[:, :self.d//2] = theta`,
`c_matrix[:, self.d//2:] = theta`) and multiplies row t by `torch.arange(1, self.N+1)` (token t at position t + 1,
counting from 1; the positions are never an argument); forward returns `(x*self.cosine_mat) + (torch.cat((-x[:, :,
:, self.d//2:], x[:, :, :, :self.d//2]), dim = 3)*self.sine_mat)` (coordinate i paired with i + d/2, the GPT-NeoX
"rotate_half" layout; the indexing names four axes: a 3-D x raises, a 5-D one is cut along its fourth axis).
GroupedQueryAttention asserts `config.n_embd % config.n_query_head == 0`, reads `B, T, C = x.size()`, splits its
fused `self.vk_attn(x).split(self.n_embd, dim=2)` into v and k (pieces of the model width C), views k and v as (B, T,
n_head, C // n_head) and q as (B, T, n_head, g, C // n_head) (every head C // n_head wide), computes `torch.einsum(
'ijklm,ijmn->ijln', q, k.transpose(-2,-1))*(1.0 / math.sqrt(k.size(-1)))` (summed over the group axis), always
applies the causal buffer `self.bias[:,:,:T,:T]` with masked_fill(-inf) (forward has no mask argument; block_size is
128, chargpt.py's default), F.softmax(dim=-1), `y.transpose(1, 2).contiguous().view(B, T, C)` and c_proj. Left out:
dropout (off at evaluation), the Linear layers' biases, the memory bookkeeping and the rope branch of the attention
(the contract's multi-head attention has no RoPE). Added for the contract only: the contract's multi-head attention
is the student's GroupedQueryAttention with n_kv_head = n_query_head = num_heads (g = 1; the course's Block would run
the starter code's CausalSelfAttention then, which the student did not write), n_embd is X.shape[-1]; vk_attn's
weight is W_V and W_K side by side, q_attn's is W_Q, c_proj's is W_O; the contract's mask is never read; rope(x,
positions, base) applies a fresh RotaryPositionalEmbeddings(d=x.shape[-1], base=base) to x (positions are not read).
"""

import math

import numpy as np

BLOCK_SIZE = 128  # chargpt.py: CharDataset's block_size


def _split(a, size, axis):
    """torch.split with an int: pieces of `size` along axis (the last one shorter)."""
    n = a.shape[axis]
    return [np.take(a, range(i, min(i + size, n)), axis=axis) for i in range(0, n, size)]


def multi_head_attention(X, W_Q, W_K, W_V, W_O, num_heads, mask=None):
    n_embd, n_query_head, n_kv_head = X.shape[-1], num_heads, num_heads
    assert n_embd % n_query_head == 0
    assert n_query_head % n_kv_head == 0
    g = n_query_head // n_kv_head
    n_head = n_kv_head
    bias = np.tril(np.ones((BLOCK_SIZE, BLOCK_SIZE))).reshape(1, 1, BLOCK_SIZE, BLOCK_SIZE)

    B, T, C = X.shape
    v, k = _split(X @ np.concatenate([W_V, W_K], axis=1), n_embd, axis=2)
    q = X @ W_Q
    k = k.reshape(B, T, n_head, C // n_head).swapaxes(1, 2)
    v = v.reshape(B, T, n_head, C // n_head).swapaxes(1, 2)
    q = q.reshape(B, T, n_head, g, C // n_head).swapaxes(1, 2).swapaxes(2, 3)
    att = np.einsum('ijklm,ijmn->ijln', q, np.swapaxes(k, -2, -1)) * (1.0 / math.sqrt(k.shape[-1]))
    att = np.where(bias[:, :, :T, :T] == 0, -np.inf, att)
    E = np.exp(att - np.max(att, axis=-1, keepdims=True))
    att = E / np.sum(E, axis=-1, keepdims=True)
    y = att @ v
    y = np.ascontiguousarray(y.swapaxes(1, 2)).reshape(B, T, C)
    return y @ W_O


def rope(x, positions, base=10000.0):
    x = np.asarray(x)
    d = x.shape[-1]  # RotaryPositionalEmbeddings(d=x.shape[-1], base=base)
    N = x.shape[-2]
    pos = np.arange(0, d / 2, dtype=np.float32)
    theta = np.float32(base) ** (-(np.float32(2) ** pos) / np.float32(d))
    c_matrix = np.zeros((N, d), dtype=np.float32)
    c_matrix[:, :d // 2] = theta
    c_matrix[:, d // 2:] = theta
    c_matrix = c_matrix * np.arange(1, N + 1, dtype=np.float32)[:, None]
    cosine_mat = np.cos(c_matrix)[None, None, :, :]
    sine_mat = np.sin(c_matrix)[None, None, :, :]
    return (x * cosine_mat) + (np.concatenate((-x[:, :, :, d // 2:], x[:, :, :, :d // 2]), axis=3) * sine_mat)
