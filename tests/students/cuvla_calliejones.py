"""Port of arpg/vla-foundations, src/assignments/scratch-1/backbone.py (branch scratch-1-calliejones, commit 21bf142):
CausalSelfAttention (with its KV cache) and RotaryPositionalEmbedding, a student's solution of "Scratch-1: The
Transformer Backbone" of CU Boulder's CSCI 7000 VLA Foundations for Robotics (spring 2026; the course's students
submit on branches of its repository).

Ports multi_head_attention (CausalSelfAttention.forward without a cache), rope (the course's RotaryPositionalEmbedding,
to which the student added a `position_offset` argument) and decode_step (forward_with_cache's path through the layer
on one token, with past_key_value).

Conventions kept: the course's RotaryPositionalEmbedding(dim, max_seq_len=2048, base=10000.0) builds float32 tables,
`inv_freq = 1.0 / (base ** (torch.arange(0, dim, 2).float() / dim))`, `freqs = torch.einsum("i,j->ij", t, inv_freq)`
over t = 0..2047 and `emb = torch.cat([freqs, freqs], dim=-1)` (the halves layout), `rotate_half` is `x1, x2 =
x.chunk(2, dim=-1)`, `torch.cat([-x2, x1], dim=-1)`; the student's forward(q, k, position_offset=0) takes `seq_len =
q.shape[2]` (the token axis of a (batch, heads, seq_len, head_dim) input) and `self.cos_cached[position_offset :
position_offset + seq_len]` (an integer start, consecutive positions). CausalSelfAttention(dim, num_heads,
use_rope=True): `assert dim % num_heads == 0`, `self.head_dim = dim // num_heads`, `self.scale = self.head_dim **
-0.5`, `self.qkv_proj = nn.Linear(dim, 3 * dim, bias=False)`, `self.out_proj = nn.Linear(dim, dim, bias=False)`,
`self.rope = RotaryPositionalEmbedding(self.head_dim)` (base 10000); forward(x, mask=None, ..., past_key_value=None,
use_cache=False): `batch_size, seq_len, _ = x.shape`, `past_len = past_key_value[0].shape[2]` (0 without a cache),
`qkv.view(batch_size, seq_len, 3, self.num_heads, self.head_dim)`, `qkv.permute(2, 0, 3, 1, 4)`, `q, k = self.rope(q,
k, position_offset=past_len)`, `k = torch.cat([past_k, k], dim=2)` (likewise v), `scores = torch.matmul(q,
k.transpose(-2, -1)) * self.scale`, `if mask is not None: causal_mask = mask` else `torch.ones(seq_len, total_len)`
with a past or `torch.tril(torch.ones(seq_len, total_len))` without one, `scores.masked_fill(causal_mask == 0,
float('-inf'))`, `F.softmax(scores, dim=-1)`, `out.transpose(1, 2).contiguous().view(batch_size, seq_len, self.dim)`,
`self.resid_dropout(self.out_proj(out))`; forward_with_cache passes `torch.tril(torch.ones(seq_len, seq_len))` as the
mask on the first call and None once there is a past.

Left out: dropout (eval mode), the sinusoidal embedding alternative (position_encoding="rope" is the default).
Added for the contract only: multi_head_attention is CausalSelfAttention(dim = X.shape[-1], num_heads) with qkv_proj =
[W_Q | W_K | W_V] and out_proj = W_O (x @ W for the Linear's x @ weight.T); rope(x, positions, base) is
RotaryPositionalEmbedding(x.shape[-1], base=base).forward(x, x, position_offset=int(positions[0]))[0] (x passed as it
is); decode_step is forward(x[None, None], mask, past_key_value, use_cache=True) with the contract's cache as the past
(cache.keys and cache.values as (1, 1, len, d), None when empty; mask as forward_with_cache gives it), the layer's
query, key and value for the fused qkv_proj (their concatenation), dim = x.shape[-1] and one head; the new key and
value are appended to the cache (present_key_value) and the (d_v,) row before out_proj is returned (rope_base is not
read: the layer's RoPE has base 10000).
"""

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

    def forward(self, q, k, position_offset=0):
        seq_len = q.shape[2]
        cos = self.cos_cached[position_offset: position_offset + seq_len, ...]
        sin = self.sin_cached[position_offset: position_offset + seq_len, ...]
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

    def forward(self, x, mask=None, past_key_value=None, use_cache=False):
        batch_size, seq_len, _ = x.shape
        past_len = past_key_value[0].shape[2] if past_key_value is not None else 0
        position_offset = past_len
        qkv = self.qkv_proj(x)
        qkv = qkv.reshape(batch_size, seq_len, 3, self.num_heads, self.head_dim)
        qkv = qkv.transpose(2, 0, 3, 1, 4)
        q, k, v = qkv[0], qkv[1], qkv[2]
        q, k = self.rope.forward(q, k, position_offset=position_offset)
        present_key_value = (k, v)  # the new token's rows: the contract's cache.append(k, v)
        if past_key_value is not None:
            past_k, past_v = past_key_value
            k = np.concatenate([past_k, k], axis=2)
            v = np.concatenate([past_v, v], axis=2)
        total_len = k.shape[2]
        scores = (q @ np.swapaxes(k, -2, -1)) * self.scale
        if mask is not None:
            causal_mask = np.asarray(mask)
        elif past_len > 0:
            causal_mask = np.ones((seq_len, total_len))
        else:
            causal_mask = np.tril(np.ones((seq_len, total_len)))
        scores = np.where(causal_mask == 0, -np.inf, scores)  # masked_fill (out of place: both broadcast)
        attn_weights = _softmax(scores)
        out = attn_weights @ v
        out = out.transpose(0, 2, 1, 3).reshape(batch_size, seq_len, self.dim)
        if self.out_proj is not None:
            out = out @ self.out_proj
        return (out, present_key_value) if use_cache else out


def rope(x, positions, base=10000.0):
    x = np.asarray(x)
    module = _RotaryPositionalEmbedding(x.shape[-1], base=base)
    return module.forward(x, x, position_offset=int(positions[0]))[0]


def multi_head_attention(X, W_Q, W_K, W_V, W_O, num_heads, mask=None):
    W_qkv = np.concatenate([W_Q, W_K, W_V], axis=1)
    attn = _CausalSelfAttention(X.shape[-1], num_heads, lambda x: x @ W_qkv, W_O)
    return attn.forward(X, mask)


def decode_step(layer, x, cache, rope_base=None):
    x = np.asarray(x)

    def qkv_proj(t):  # the fused projection of one token, (1, 1, 2*d_k + d_v)
        return np.concatenate([layer.query(t[0, 0]), layer.key(t[0, 0]), layer.value(t[0, 0])])[None, None]

    attn = _CausalSelfAttention(x.shape[-1], 1, qkv_proj)
    past_key_value = (cache.keys[None, None], cache.values[None, None]) if len(cache) else None
    mask = None if past_key_value is not None else np.tril(np.ones((1, 1)))  # forward_with_cache's mask
    out, (k, v) = attn.forward(x[None, None], mask, past_key_value=past_key_value, use_cache=True)
    cache.append(k[0, 0], v[0, 0])
    return out[0, 0]
