"""Port of vigkneshvr/RoPE-and-GQA-addition-to-minGPT2, mingpt/model.py (commit 4c212be): RotaryPositionalEmbeddings
and GroupedQueryAttention, a student's solution of CMU 10-423/10-623 (Generative AI, Spring 2024), homework 1 (RoPE
and grouped-query attention added to minGPT; the repository keeps the handout's TODO banners).

Conventions kept: RotaryPositionalEmbeddings.__init__ stores d but not base; _build_cache reads `B,nh,T,d=x.shape`
(4-D input only), takes `theta = 1 / (10000 ** (2*(torch.arange(0, d/2, 1).float()) / d))` (base 10000 whatever the
base argument; float32), `seq_idx = torch.arange(1,T+1).float()` (token t at position t + 1, counting from 1; the
positions are never an argument), `idx_theta = torch.cat((idx_theta,idx_theta),dim=1)` and caches cos and sin as (1,
1, T, d); forward builds `neg_half_x= torch.cat([-x[:, :, :, self.d//2:], x[:, :, :, :self.d//2]], dim=-1)`
(coordinate i paired with i + d/2: the GPT-NeoX "rotate_half" layout) and returns `x_rope * cos + neg_half_x * sin`
on `x[..., :self.d]`, concatenated with the (empty) rest. GroupedQueryAttention asserts `config.n_embd %
config.n_query_head == 0` and `config.n_embd % config.n_kv_head == 0`, reads `B, T, C = x.size()`, splits q, k and v
with einops `rearrange(q,"B T (nh d) -> B nh T d",nh=...)` (exactly one batch axis; a head's width is its
projection's width over the heads), regroups `rearrange(q, "b (h g) n d -> b g h n d", g=self.g)` and computes
`einsum(q,k, "b g h n d, b h s d -> b h n s")* (1.0 / math.sqrt(k.size(-1)))` (the group axis is summed: harmless
only for g = 1), always applies the causal buffer `self.bias[:,:,:T,:T]` with masked_fill(-inf) (forward has no mask
argument; block_size is 128, chargpt.py's CharDataset default), F.softmax(dim=-1), `att @ v`, `rearrange(y,"B h T d
-> B T (h d)")` and c_proj. Left out: dropout (off at evaluation), the Linear layers' biases, the memory bookkeeping
and the constructor's print; CausalSelfAttention builds its RoPE with `RotaryPositionalEmbeddings(self.n_embd)` (the
model width, not a head's) but that is the attention's code, and the contract's multi-head attention has no RoPE.
Added for the contract only: the contract's multi-head attention is the student's GroupedQueryAttention with
n_kv_head = n_query_head = num_heads (g = 1; the course's Block would run the starter code's CausalSelfAttention then,
whose only student lines are the RoPE ones), n_embd is X.shape[-1]; q_attn, k_attn, v_attn and c_proj are W_Q, W_K,
W_V and W_O; the contract's mask is never read; rope(x, positions, base) applies a fresh
RotaryPositionalEmbeddings(d=x.shape[-1]) to x (positions and base are not read).
"""

import math

import numpy as np

BLOCK_SIZE = 128  # chargpt.py: CharDataset.get_default_config().block_size


def _rearrange_heads(M, nh):  # einops "B T (nh d) -> B nh T d"
    if M.ndim != 3:
        raise ValueError(f"Wrong shape: expected 3 dims. Received {M.ndim}-dim tensor.")
    b, t, width = M.shape
    if width % nh:
        raise ValueError(f"Shape mismatch, can't divide axis of length {width} in chunks of {nh}")
    return M.reshape(b, t, nh, width // nh).transpose(0, 2, 1, 3)


def multi_head_attention(X, W_Q, W_K, W_V, W_O, num_heads, mask=None):
    n_embd, n_query_head, n_kv_head = X.shape[-1], num_heads, num_heads
    assert n_embd % n_query_head == 0
    assert n_embd % n_kv_head == 0
    g = n_query_head // n_kv_head
    bias = np.tril(np.ones((BLOCK_SIZE, BLOCK_SIZE))).reshape(1, 1, BLOCK_SIZE, BLOCK_SIZE)

    B, T, C = X.shape  # noqa: RUF059
    q = X @ W_Q
    k = X @ W_K
    v = X @ W_V
    q = _rearrange_heads(q, n_query_head)
    k = _rearrange_heads(k, n_kv_head)
    v = _rearrange_heads(v, n_kv_head)
    b, hg, n, d = q.shape
    q = q.reshape(b, hg // g, g, n, d).transpose(0, 2, 1, 3, 4)  # "b (h g) n d -> b g h n d"
    att = np.einsum("bghnd,bhsd->bhns", q, k) * (1.0 / math.sqrt(k.shape[-1]))
    att = np.where(bias[:, :, :T, :T] == 0, -np.inf, att)
    E = np.exp(att - np.max(att, axis=-1, keepdims=True))
    att = E / np.sum(E, axis=-1, keepdims=True)
    y = att @ v
    b, h, t, d = y.shape
    y = y.transpose(0, 2, 1, 3).reshape(b, t, h * d)  # "B h T d -> B T (h d)"
    return y @ W_O


def rope(x, positions, base=10000.0):
    x = np.asarray(x)
    self_d = x.shape[-1]  # RotaryPositionalEmbeddings(d=x.shape[-1]): base is not stored
    B, nh, T, d = x.shape  # noqa: RUF059
    theta = np.float32(1) / (np.float32(10000) ** (np.float32(2) * np.arange(0, d / 2, 1, dtype=np.float32)
                                                   / np.float32(d)))
    seq_idx = np.arange(1, T + 1, dtype=np.float32)
    idx_theta = np.einsum('n,d->nd', seq_idx, theta)
    idx_theta = np.concatenate((idx_theta, idx_theta), axis=1)
    cos_cached = np.cos(idx_theta)[None, None, :, :]
    sin_cached = np.sin(idx_theta)[None, None, :, :]
    neg_half_x = np.concatenate([-x[:, :, :, self_d // 2:], x[:, :, :, :self_d // 2]], axis=-1)
    x_rope, x_pass = x[..., :self_d], x[..., self_d:]
    x_rope = (x_rope * cos_cached[:x.shape[0]]) + (neg_half_x * sin_cached[:x.shape[0]])
    return np.concatenate((x_rope, x_pass), axis=-1)
