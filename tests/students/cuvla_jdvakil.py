"""Port of arpg/vla-foundations, src/assignments/scratch-1/backbone.py (branch scratch-1-jdvakil, commit dc23583):
CausalSelfAttention (with its KV cache) and RotaryPositionalEmbedding, a student's solution of "Scratch-1: The
Transformer Backbone" of CU Boulder's CSCI 7000 VLA Foundations for Robotics (spring 2026; the course's students
submit on branches of its repository).

Ports multi_head_attention (CausalSelfAttention.forward without a cache), rope (the course's RotaryPositionalEmbedding,
to which the student added a `seq_start_pos` argument) and decode_step (the model's cached forward through the layer
on one token, with past_kv).

Conventions kept: the course's RotaryPositionalEmbedding(dim, max_seq_len=2048, base=10000.0) builds float32 tables,
`inv_freq = 1.0 / (base ** (torch.arange(0, dim, 2).float() / dim))`, `freqs = torch.einsum("i,j->ij", t, inv_freq)`
over t = 0..2047 and `emb = torch.cat([freqs, freqs], dim=-1)` (the halves layout), `rotate_half` is `x1, x2 =
x.chunk(2, dim=-1)`, `torch.cat([-x2, x1], dim=-1)`; the student's forward(q, k, seq_start_pos=0) takes `seq_len =
q.shape[2]` (the token axis of a (batch, heads, seq_len, head_dim) QUERY), `cos =
self.cos_cached[seq_start_pos:end_pos]` (an integer start, consecutive positions) and `cos = cos[None, None, :, :]` (a
4-D table), and rotates q and k with the same rows. CausalSelfAttention(dim, num_heads, use_rope=True): `assert dim %
num_heads == 0`, `self.head_dim = dim // num_heads`, `self.qkv_proj = nn.Linear(dim, 3 * dim, bias=False)`,
`self.out_proj = nn.Linear(dim, dim, bias=False)`, `self.rope = RotaryPositionalEmbedding(self.head_dim)` (base 10000);
forward(x, mask=None, past_kv=None): `batch_size, seq_len, _ = x.shape`, `qkv.view(batch_size, seq_len, 3,
self.num_heads, self.head_dim)`, `qkv.permute(2, 0, 3, 1, 4)`, `q, k, v = qkv.unbind(0)`; with a past `k =
torch.cat([past_k, k], dim=2)` (likewise v) and `present_kv = (k, v)` BEFORE the rotation (the cache keeps unrotated
keys); then `seq_start_pos = past_kv[0].shape[2]` (0 without a past) and `q, k = self.rope(q, k,
seq_start_pos=seq_start_pos)`: the table rows are cut by the query's length, so with a past ALL the keys, cached ones
included, are rotated at the new token's position, like the query; `scores = (q @ k.transpose(-2, -1)) /
math.sqrt(self.head_dim)`, with a mask `if mask.shape[-2] == seq_len and mask.shape[-1] == k.shape[2]` or `past_kv is
None`: `scores.masked_fill(mask == 0, float("-inf"))`, `F.softmax(scores, dim=-1)`, `out.transpose(1,
2).contiguous().view(batch_size, seq_len, self.dim)`, `self.resid_dropout(self.out_proj(out))`; the model passes
`torch.tril(torch.ones(seq_len, seq_len))` as the mask without a past and None with one.

Left out: dropout (eval mode), the sinusoidal embedding alternative (use_rope=True is the default).
Added for the contract only: multi_head_attention is CausalSelfAttention(dim = X.shape[-1], num_heads) with qkv_proj =
[W_Q | W_K | W_V] and out_proj = W_O (x @ W for the Linear's x @ weight.T); rope(x, positions, base) is
RotaryPositionalEmbedding(x.shape[-1], base=base).forward(x, x, seq_start_pos=int(positions[0]))[0] (x passed as it
is); decode_step is forward(x[None, None], mask, past_kv) with the contract's cache as the past (cache.keys and
cache.values as (1, 1, len, d), None when empty; mask as the model gives it), the layer's query, key and value for the
fused qkv_proj (their concatenation), dim = x.shape[-1] and one head; the new (unrotated) key and value are appended to
the cache (present_kv) and the (d_v,) row before out_proj is returned (rope_base is not read: the layer's RoPE has base
10000).
"""

import math

import numpy as np

MAX_SEQ_LEN = 2048  # RotaryPositionalEmbedding's default


def _torch_chunk2(x):  # x.chunk(2, dim=-1): pieces of ceil(n / 2)
    size = -(-x.shape[-1] // 2)
    return x[..., :size], x[..., size:]


class _RotaryPositionalEmbedding:
    def __init__(self, dim, max_seq_len=MAX_SEQ_LEN, base=10000.0):
        self.dim = dim
        self.max_seq_len = max_seq_len
        self.base = base
        self.inv_freq = (1.0 / (base ** (np.arange(0, dim, 2).astype(np.float32) / dim))).astype(np.float32)
        self._build_cache(max_seq_len)

    def _build_cache(self, seq_len):
        t = np.arange(seq_len).astype(np.float32)
        freqs = np.einsum("i,j->ij", t, self.inv_freq)  # (seq_len, dim//2)
        emb = np.concatenate([freqs, freqs], axis=-1)  # (seq_len, dim)
        self.cos_cached = np.cos(emb)
        self.sin_cached = np.sin(emb)

    def rotate_half(self, x):
        x1, x2 = _torch_chunk2(x)
        return np.concatenate([-x2, x1], axis=-1)

    def forward(self, q, k, seq_start_pos=0):
        seq_len = q.shape[2]
        end_pos = seq_start_pos + seq_len
        cos = self.cos_cached[seq_start_pos:end_pos, ...]
        sin = self.sin_cached[seq_start_pos:end_pos, ...]
        cos = cos[None, None, :, :]
        sin = sin[None, None, :, :]
        q_rot = (q * cos) + (self.rotate_half(q) * sin)
        k_rot = (k * cos) + (self.rotate_half(k) * sin)
        return q_rot, k_rot


def _softmax(x):  # F.softmax(x, dim=-1): an all -inf row is NaN
    with np.errstate(invalid="ignore"):
        e = np.exp(x - np.max(x, axis=-1, keepdims=True))
        return e / np.sum(e, axis=-1, keepdims=True)


class _CausalSelfAttention:
    def __init__(self, dim, num_heads, qkv_weight, out_weight=None):
        assert dim % num_heads == 0, "dim must be divisible by num_heads"
        self.dim = dim
        self.num_heads = num_heads
        self.head_dim = dim // num_heads
        self.scale = self.head_dim ** -0.5
        self.qkv_proj = qkv_weight  # x -> (..., 3*dim): X @ [W_Q | W_K | W_V], or the layer's three projections
        self.out_proj = out_weight
        self.rope = _RotaryPositionalEmbedding(self.head_dim)

    def forward(self, x, mask=None, past_kv=None):
        batch_size, seq_len, _ = x.shape
        qkv = self.qkv_proj(x)
        qkv = qkv.reshape(batch_size, seq_len, 3, self.num_heads, self.head_dim)
        qkv = qkv.transpose(2, 0, 3, 1, 4)
        q, k, v = qkv[0], qkv[1], qkv[2]
        new_kv = (k, v)  # the new token's rows of present_kv: the contract's cache.append(k, v)
        if past_kv is not None:
            past_k, past_v = past_kv
            k = np.concatenate([past_k, k], axis=2)
            v = np.concatenate([past_v, v], axis=2)
        seq_start_pos = past_kv[0].shape[2] if past_kv is not None else 0
        q, k = self.rope.forward(q, k, seq_start_pos=seq_start_pos)
        scores = (q @ np.swapaxes(k, -2, -1)) / math.sqrt(self.head_dim)
        if mask is not None:
            mask = np.asarray(mask)
            if mask.shape[-2] == seq_len and mask.shape[-1] == k.shape[2]:
                scores = np.where(mask == 0, -np.inf, scores)  # masked_fill (out of place: both broadcast)
            elif past_kv is None:
                scores = np.where(mask == 0, -np.inf, scores)
        attn_weights = _softmax(scores)
        out = attn_weights @ v
        out = out.transpose(0, 2, 1, 3).reshape(batch_size, seq_len, self.dim)
        if self.out_proj is not None:
            out = out @ self.out_proj
        return out, new_kv


def rope(x, positions, base=10000.0):
    x = np.asarray(x)
    module = _RotaryPositionalEmbedding(x.shape[-1], base=base)
    return module.forward(x, x, seq_start_pos=int(positions[0]))[0]


def multi_head_attention(X, W_Q, W_K, W_V, W_O, num_heads, mask=None):
    W_qkv = np.concatenate([W_Q, W_K, W_V], axis=1)
    attn = _CausalSelfAttention(X.shape[-1], num_heads, lambda x: x @ W_qkv, W_O)
    return attn.forward(X, mask)[0]


def decode_step(layer, x, cache, rope_base=None):
    x = np.asarray(x)

    def qkv_proj(t):  # the fused projection of one token, (1, 1, 2*d_k + d_v)
        return np.concatenate([layer.query(t[0, 0]), layer.key(t[0, 0]), layer.value(t[0, 0])])[None, None]

    attn = _CausalSelfAttention(x.shape[-1], 1, qkv_proj)
    past_kv = (cache.keys[None, None], cache.values[None, None]) if len(cache) else None
    mask = None if past_kv is not None else np.tril(np.ones((1, 1)))  # the model's mask
    out, (k, v) = attn.forward(x[None, None], mask, past_kv=past_kv)
    cache.append(k[0, 0], v[0, 0])
    return out[0, 0]
