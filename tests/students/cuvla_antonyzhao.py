"""Port of arpg/vla-foundations, src/assignments/scratch-1/backbone.py (branch scratch-1-antony-zhao, commit db146f2):
CausalSelfAttention (with its KV cache) and RotaryPositionalEmbedding, a student's solution of "Scratch-1: The
Transformer Backbone" of CU Boulder's CSCI 7000 VLA Foundations for Robotics (spring 2026; the course's students
submit on branches of its repository).

Ports multi_head_attention (CausalSelfAttention.forward without the cache), rope (the course's
RotaryPositionalEmbedding, to which the student added a `start_pos` argument), KVCache (the cache the student keeps in
CausalSelfAttention: k_cache, v_cache and index) and decode_step (the student's cached path on one token).

Conventions kept: the course's RotaryPositionalEmbedding(dim, max_seq_len=2048, base=10000.0) builds float32 tables,
`inv_freq = 1.0 / (base ** (torch.arange(0, dim, 2).float() / dim))`, `freqs = torch.einsum("i,j->ij", t, inv_freq)`
over t = 0..2047 and `emb = torch.cat([freqs, freqs], dim=-1)` (the halves layout), `rotate_half` is `x1, x2 =
x.chunk(2, dim=-1)`, `torch.cat([-x2, x1], dim=-1)`; the student's forward(q, k, start_pos=0) takes `seq_len =
q.shape[2]` (the token axis of a (batch, heads, seq_len, head_dim) input) and `self.cos_cached[start_pos:start_pos +
seq_len]` (an integer start, consecutive positions). CausalSelfAttention(dim, num_heads): `assert dim % num_heads ==
0`, `self.head_dim = dim // num_heads`, `self.scale = self.head_dim ** -0.5`, `self.qkv_proj = nn.Linear(dim, 3 * dim,
bias=False)`, `self.out_proj = nn.Linear(dim, dim, bias=False)`, `self.rope = RotaryPositionalEmbedding(self.head_dim)`
(base 10000); forward(x, mask=None, use_cache=False, reset_cache=False): `batch_size, seq_len, _ = x.shape`, without a
cache (or on the cache's first call) `qkv.view(batch_size, seq_len, 3, self.num_heads, self.head_dim).permute(2, 0, 3,
1, 4)`, `q, k = self.rope(q, k)` (always, at positions 0..seq_len-1); with a cache already filled it projects only
`x[:, -1]`, rotates it at `self.index`, doubles the cache's capacity when full, writes the new key and value at
`self.index` and attends over `self.k_cache[:, :, :self.index]`; `score = (q @ k.transpose(-1, -2)) * self.scale`,
`if not use_cache: score = score.masked_fill_(mask == 0, -torch.inf)` (in place; the model passes the float tril as
the mask), `F.softmax(score, dim=-1)`, `attn_weights @ v`, `out.permute(0, 2, 1, 3).flatten(-2)`,
`self.out_proj(out)`. The cache, on its first call, is `torch.zeros(batch_size, self.num_heads, seq_len * 2,
self.head_dim)` holding the projected keys and values of every token of x, `self.index = seq_len`.

Left out: dropout (eval mode), the student's CausalLatentAttention (an alternative layer not used by default).
Added for the contract only: multi_head_attention is CausalSelfAttention(dim = X.shape[-1], num_heads) with qkv_proj =
[W_Q | W_K | W_V] and out_proj = W_O (x @ W for the Linear's x @ weight.T), use_cache=False; rope(x, positions, base) is
RotaryPositionalEmbedding(x.shape[-1], base=base).forward(x, x, start_pos=int(positions[0]))[0] (x passed as it is);
KVCache() is the student's cache (empty: k_cache None), append(k, v) is his first call (k: (T, d) rows as (1, 1, T, d))
or a later call (which keeps the key and value of the last token only, x[:, -1]), keys and values its first `index`
rows; decode_step is forward(x[None, None], use_cache=True) with the contract's cache standing for the student's
(len(cache) for self.index, so an empty cache is his `self.k_cache is None`; cache.append for his writes; cache.keys
and cache.values for self.k_cache[:, :, :self.index]), the layer's query, key and value for the fused qkv_proj (their
concatenation), dim = x.shape[-1] and one head, returning the (d_v,) row before out_proj (rope_base is not read: the
layer's RoPE has base 10000).
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

    def forward(self, q, k, start_pos=0):
        seq_len = q.shape[2]
        cos = self.cos_cached[start_pos:start_pos + seq_len, ...]
        sin = self.sin_cached[start_pos:start_pos + seq_len, ...]
        q_rot = (q * cos) + (self.rotate_half(q) * sin)
        k_rot = (k * cos) + (self.rotate_half(k) * sin)
        return q_rot, k_rot


def _softmax(x):  # F.softmax(x, dim=-1): an all -inf row is NaN
    with np.errstate(invalid="ignore"):
        e = np.exp(x - np.max(x, axis=-1, keepdims=True))
        return e / np.sum(e, axis=-1, keepdims=True)


def _masked_fill_(score, mask, value):  # Tensor.masked_fill_: the mask broadcasts to the tensor's own shape
    if mask is False:  # `None == 0`: masked_fill_ takes no bool
        raise TypeError("masked_fill_() received an invalid combination of arguments - got (bool, float)")
    mask = np.broadcast_to(np.asarray(mask), score.shape)
    return np.where(mask, value, score)


class KVCache:  # CausalSelfAttention's k_cache, v_cache and index
    def __init__(self):
        self.k_cache = None
        self.v_cache = None
        self.index = 0

    def append(self, k, v):
        k = np.atleast_2d(np.array(k, dtype=float))[None, None]  # (batch=1, heads=1, T, d)
        v = np.atleast_2d(np.array(v, dtype=float))[None, None]
        self._write(k, v)

    def _write(self, k, v):
        if self.k_cache is None:  # the first call: every token of x
            batch_size, num_heads, seq_len, _ = k.shape
            self.k_cache = np.zeros((batch_size, num_heads, seq_len * 2, k.shape[-1]))
            self.v_cache = np.zeros((batch_size, num_heads, seq_len * 2, v.shape[-1]))
            self.k_cache[:, :, :seq_len] = k.copy()
            self.v_cache[:, :, :seq_len] = v.copy()
            self.index = seq_len
        else:  # a later call: the last token of x only
            batch_size, num_heads = self.k_cache.shape[:2]
            if self.index + 1 > self.k_cache.shape[2]:
                new_cap = self.k_cache.shape[2] * 2
                k_new_cache = np.zeros((batch_size, num_heads, new_cap, self.k_cache.shape[-1]))
                v_new_cache = np.zeros((batch_size, num_heads, new_cap, self.v_cache.shape[-1]))
                k_new_cache[:, :, :self.index] = self.k_cache[:, :, :self.index]
                v_new_cache[:, :, :self.index] = self.v_cache[:, :, :self.index]
                self.k_cache = k_new_cache
                self.v_cache = v_new_cache
            self.k_cache[:, :, self.index:self.index + 1] = k[:, :, -1:]
            self.v_cache[:, :, self.index:self.index + 1] = v[:, :, -1:]
            self.index += 1

    @property
    def keys(self):
        if self.k_cache is None:
            return np.zeros((0, 0))
        return self.k_cache[0, 0, :self.index]

    @property
    def values(self):
        if self.v_cache is None:
            return np.zeros((0, 0))
        return self.v_cache[0, 0, :self.index]

    def __len__(self):
        return self.index


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
        self.cache = KVCache()

    def forward(self, x, mask=None, use_cache=False):
        batch_size, seq_len, _ = x.shape
        is_full_attention = (not use_cache) or len(self.cache) == 0  # self.k_cache is None
        if is_full_attention:
            qkv = self.qkv_proj(x)
            qkv = qkv.reshape(batch_size, seq_len, 3, self.num_heads, self.head_dim).transpose(2, 0, 3, 1, 4)
            q, k, v = qkv[0], qkv[1], qkv[2]
            q, k = self.rope.forward(q, k)
        if use_cache and len(self.cache) == 0:  # the cache's first call holds every token of x
            self.cache.append(k[0, 0], v[0, 0])
        elif use_cache:
            qkv = self.qkv_proj(x[:, -1][:, None])
            qkv = qkv.reshape(batch_size, 1, 3, self.num_heads, self.head_dim).transpose(2, 0, 3, 1, 4)
            q, k_new, v_new = qkv[0], qkv[1], qkv[2]
            q, k_new = self.rope.forward(q, k_new, len(self.cache))  # self.index
            self.cache.append(k_new[0, 0], v_new[0, 0])
            k = self.cache.keys[None, None]  # self.k_cache[:, :, :self.index]
            v = self.cache.values[None, None]
        score = (q @ np.swapaxes(k, -1, -2)) * self.scale
        if not use_cache:
            score = _masked_fill_(score, False if mask is None else np.asarray(mask) == 0, -np.inf)
        attn_weights = _softmax(score)
        out = attn_weights @ v
        out = out.transpose(0, 2, 1, 3)
        out = out.reshape(*out.shape[:-2], -1)  # flatten(-2)
        return out if self.out_proj is None else out @ self.out_proj


def rope(x, positions, base=10000.0):
    x = np.asarray(x)
    module = _RotaryPositionalEmbedding(x.shape[-1], base=base)
    return module.forward(x, x, start_pos=int(positions[0]))[0]


def multi_head_attention(X, W_Q, W_K, W_V, W_O, num_heads, mask=None):
    W_qkv = np.concatenate([W_Q, W_K, W_V], axis=1)
    attn = _CausalSelfAttention(X.shape[-1], num_heads, lambda x: x @ W_qkv, W_O)
    return attn.forward(X, mask)


def decode_step(layer, x, cache, rope_base=None):
    x = np.asarray(x)

    def qkv_proj(t):  # the fused projection of one token, (1, 1, 2*d_k + d_v)
        return np.concatenate([layer.query(t[0, 0]), layer.key(t[0, 0]), layer.value(t[0, 0])])[None, None]

    attn = _CausalSelfAttention(x.shape[-1], 1, qkv_proj)
    attn.cache = cache
    out = attn.forward(x[None, None], use_cache=True)
    return out[0, 0]
