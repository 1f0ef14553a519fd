"""Port of HuskyKingdom/amd_nju_a4, src/modeling/pos_emb.py, src/functional.py, src/modeling/attention.py and
src/modeling/transformer.py (commit 72e8a17): NTKAwareRoPE with apply_rotary_pos_emb and rotate_half,
OfflineSlidingWindowAttn, TransformerDecoderKVCache and TransformerDecoderLayer.forward, a student's GitHub Classroom
submission (August 2025) of assignment 4, "modeling transformer", of Nanjing University's LLM course (智能应用开发,
Jingwei Xu's undergraduate course; the assignments are NJUDeepEngine/open-llm-assignments): the assignment's template
leaves the earlier assignments' modules as NotImplementedError stubs, so its RoPE and attention are the student's own
assignments 1 and 3.

Ports rope, scaled_dot_product_attention, multi_head_attention (the decoder layer's self-attention sub-layer), KVCache
and decode_step (the decoder layer's kv-cache path on one token).

Conventions kept: NTKAwareRoPE(dim, max_seq_len, base=10000, ratio=1, dynamic=False, dtype=float32) builds its tables in
`_set_cos_sin_cache(max_seq_len * ratio)`: `base = self.base * (self.ratio**(self.dim/(self.dim-2)))` (the NTK scaling,
computed even with ratio 1: d = 2 divides by zero and raises ZeroDivisionError), `beta = base ** (torch.arange(0, dim,
2) / dim)` in float32, `theta = 1.0 / beta`, `n_theta = torch.outer(torch.arange(0, seq_len), theta)` and
`torch.cat((n_theta, n_theta), dim=-1)` (the halves layout); forward(input, offset=0) reads the input as [batch,
seq_len, num_heads, head_dim], `s_ = input.shape[1] + offset` (integer positions offset..s_-1, whatever they should be),
recomputes tables for an even `get_min_even_k` ratio when s_ exceeds max_seq_len * ratio, and returns
`apply_rotary_pos_emb(input, self.cos_cached[offset:s_], self.sin_cached[offset:s_])` (a negative offset gives a shorter
slice, which raises against the input); apply_rotary_pos_emb casts the input to float32, transposes it to [b, nh, s, hd]
and returns `input * cos + rotate_half(input) * sin` with `rotate_half` = `torch.cat((-x2, x1), dim=-1)` of the two
halves (the GPT-NeoX layout, not interleaved pairs), cast back to the input's dtype. OfflineSlidingWindowAttn(head_dim,
num_q_head, num_kv_head, ...) on [b, s, h, d] tensors: transposes q, k and v to [b, h, s, d], `(q @ k^T) *
self.softmax_scale` (`1.0/math.sqrt(head_dim)` when softmax_scale is None), divides by softmax_temp, adds -inf
sliding-window and causal masks built from `offset = k_len - q_len` (bottom-right aligned) only when window_size is
given or causal is True (it has no mask argument), `F.softmax(..., dim=-1).nan_to_num(0.0)`, the clip `torch.clip((r -
l) * weights + l, 0, 1)` with (l, r) = (0, 1), dropout, `weights @ v` (values of their own width) and transposes back.
TransformerDecoderKVCache(BSHD) keeps `self.k_cache = [[]] * num_layers` lists, `has` is False while
`len(self.k_cache[layer_idx]) == 0 or len(self.v_cache[layer_idx]) == 0`, `set` stores clones, `append` sets or
`torch.cat((cache, k), dim=1)`, `get` returns clones (ValueError when absent). TransformerDecoderLayer.forward(input,
cu_seqlens=None, kv_cache=None): `b, s, h = input.shape` (3-D only), `X @ self.qkv_proj` cut at head_dim * num_q_head
and head_dim * num_kv_head, each part `.reshape(b, s, -1, self.config.head_dim)` (the values too: one head width for q,
k and v), `offset = kv_cache.get(self.layer_idx)[0].shape[1]` when the cache has the layer (else 0), `q, k =
self.rope(q, offset), self.rope(k, offset)` (RoPE always: the layer has no switch for it), `kv_cache.append(...)` then
`kv_cache.get(...)`, `self.attn(q, k, v)` with the config's causal flag, `O.reshape(b, s, -1)` and `O @ self.o_proj`.

Left out: the cast of the input to the config's param_dtype, the layer's GroupRMSNorm before the projections, its
residual connections and MLP sub-layer; the SBHD and THD layouts, the packed qkv formats, QK-norm, softmax capping
(softmax_cap None), dropout (rate 0), OnlineSlidingWindowAttn, the dynamic NTK update. Added for the contract only:
rope(x, positions, base) is NTKAwareRoPE(d, max_seq_len=MAX_SEQ_LEN, base=base).forward on x viewed as [b, N, 1, d] (its
leading axes flattened into the batch) with offset int(positions[0]); scaled_dot_product_attention is
OfflineSlidingWindowAttn(d_k, 1, 1, softmax_scale=scale) with the TransformerConfig defaults (window_size None, causal
False, softmax_temp 1, clip (0, 1)) on Q, K and V viewed as [b, N, 1, d] (leading axes broadcast, then flattened),
returning (out, weights) (the student returns the output; the weights are its clipped softmax), and `mask` is never
read; multi_head_attention is the self-attention sub-layer with qkv_proj = [W_Q | W_K | W_V], o_proj = W_O, head_dim =
W_Q.shape[-1] // num_heads, num_q_head = num_kv_head = num_heads, rope_base 10000 (TransformerConfig's default),
causal=True (the course tests' TransformerConfig) and max_seq_len MAX_SEQ_LEN, `mask` never read; decode_step is the
layer's kv-cache path for one token, the concatenation of layer.query, layer.key and layer.value standing for `X @
self.qkv_proj` (head_dim = d_k, one head: the value part is cut into heads of d_k columns), the rope ported here for
self.rope (rope_base None read as the config's 10000), its OfflineSlidingWindowAttn with causal=True for self.attn, the
contract's cache for the student's (len(cache) for `kv_cache.get(self.layer_idx)[0].shape[1]`, cache.append(k, v),
cache.keys and cache.values for get), returning the (d_v,) row before o_proj; KVCache() is
TransformerDecoderKVCache(BSHD, num_layers=1) at layer 0 with (d,) or (T, d) rows given as [1, T, 1, d] copies, keys and
values its cached rows (an empty (0, 0) array while it has no layer) and len the cached tensor's seq_len.
"""

import math

import numpy as np

MAX_SEQ_LEN = 4096  # TransformerConfig.max_seq_len is required; long enough that the NTK extension never runs here
ROPE_BASE = 10000  # TransformerConfig.rope_base default
CAUSAL = True  # test_toy.py's TransformerConfig(causal=True)


def _rotate_half(x):
    x1 = x[..., :x.shape[-1] // 2]
    x2 = x[..., x.shape[-1] // 2:]
    return np.concatenate((-x2, x1), axis=-1)


def _apply_rotary_pos_emb(input, cos, sin):
    input_dtype = input.dtype
    x = np.swapaxes(input.astype(np.float32), 1, 2)
    input_embed = np.swapaxes((x * cos) + (_rotate_half(x) * sin), 1, 2)
    return input_embed.astype(input_dtype)


def _get_min_even_k(s, ms):
    k = (s + ms - 1) // ms
    if k % 2 == 0:
        return k
    return k + 1


class _NTKAwareRoPE:
    def __init__(self, dim, max_seq_len, base=10000, ratio=1, dynamic=False, dtype=np.float32):
        self.dim = dim
        self.max_seq_len = max_seq_len
        self.base = base
        self.ratio = ratio
        self.dynamic = dynamic
        self.dtype = dtype
        self._set_cos_sin_cache(self.max_seq_len * self.ratio)

    def _set_cos_sin_cache(self, seq_len):
        base = self.base * (self.ratio ** (self.dim / (self.dim - 2)))
        beta = (base ** (np.arange(0, self.dim, 2, dtype=self.dtype) / self.dim)).astype(self.dtype)
        theta = 1.0 / beta
        n_theta = np.outer(np.arange(0, seq_len, dtype=self.dtype), theta).astype(self.dtype)
        n_theta = np.concatenate((n_theta, n_theta), axis=-1)
        self.cos_cached = np.cos(n_theta).astype(self.dtype)
        self.sin_cached = np.sin(n_theta).astype(self.dtype)

    def forward(self, input, offset=0):
        ratio_ = self.ratio
        es = self.max_seq_len * ratio_
        s_ = input.shape[1] + offset
        if s_ > es:
            k_ = _get_min_even_k(s_, self.max_seq_len)
            ratio_ = k_
            if self.dynamic is True:
                self.ratio = k_
                self._set_cos_sin_cache(self.max_seq_len * self.ratio)
                return _apply_rotary_pos_emb(input, self.cos_cached[offset:s_], self.sin_cached[offset:s_])
            base = self.base * (ratio_ ** (self.dim / (self.dim - 2)))
            beta = (base ** (np.arange(0, self.dim, 2, dtype=self.dtype) / self.dim)).astype(self.dtype)
            theta = 1.0 / beta
            n_theta = np.outer(np.arange(offset, s_, dtype=self.dtype), theta).astype(self.dtype)
            n_theta = np.concatenate((n_theta, n_theta), axis=-1)
            return _apply_rotary_pos_emb(input, np.cos(n_theta), np.sin(n_theta))
        return _apply_rotary_pos_emb(input, self.cos_cached[offset:s_], self.sin_cached[offset:s_])


def _softmax_last(x):  # F.softmax(x, dim=-1): exp(x - max) / sum (an all -inf row is NaN)
    with np.errstate(invalid="ignore"):
        e = np.exp(x - np.max(x, axis=-1, keepdims=True))
        return e / np.sum(e, axis=-1, keepdims=True)


class _OfflineSlidingWindowAttn:  # the BSHD layout and the Q_K_V format
    def __init__(self, head_dim, num_q_head, num_kv_head, window_size=None, causal=False, softmax_scale=None,
                 softmax_cap=None, softmax_temp=1.0, softmax_clip_range=(0., 1.)):
        self.head_dim = head_dim
        self.num_q_head = num_q_head
        self.num_kv_head = num_kv_head
        self.window_size = window_size
        self.causal = causal
        self.softmax_scale = 1.0 / math.sqrt(head_dim) if softmax_scale is None else softmax_scale
        self.softmax_cap = softmax_cap
        self.softmax_temp = softmax_temp
        self.softmax_clip_range = softmax_clip_range

    def forward(self, q, k=None, v=None):
        q_dtype = q.dtype
        q_states, k_states, v_states = q, k, v
        if self.num_q_head != self.num_kv_head:
            k_states = np.repeat(k_states, self.num_q_head // self.num_kv_head, axis=-2)
            v_states = np.repeat(v_states, self.num_q_head // self.num_kv_head, axis=-2)
        q_states, k_states, v_states = (np.swapaxes(t, 1, 2) for t in (q_states, k_states, v_states))
        attn_weights = (q_states @ np.swapaxes(k_states, -2, -1)) * self.softmax_scale
        if self.softmax_cap is None:
            attn_weights = attn_weights / self.softmax_temp
        else:
            attn_weights = self.softmax_cap * np.tanh(attn_weights / self.softmax_cap)
        n_q, n_k = q_states.shape[-2], k_states.shape[-2]
        offset = n_k - n_q
        if self.window_size is not None:
            sw_mask = np.tril(np.ones((n_q, n_k)), k=-1 - self.window_size + offset) + \
                np.triu(np.ones((n_q, n_k)), k=1 + self.window_size + offset)
            attn_weights = attn_weights + np.where(sw_mask == 1, -np.inf, sw_mask)
        if self.causal is True:
            casual_mask = np.triu(np.ones((n_q, n_k)), k=1 + offset)
            attn_weights = attn_weights + np.where(casual_mask == 1, -np.inf, casual_mask)
        attn_weights = np.nan_to_num(_softmax_last(attn_weights), nan=0.0)
        low, high = self.softmax_clip_range
        attn_weights = np.clip((high - low) * attn_weights + low, 0.0, 1.0)  # then dropout (rate 0)
        out = np.swapaxes(attn_weights @ v_states, 1, 2)
        return out.astype(q_dtype), attn_weights


class _TransformerDecoderKVCache:  # the BSHD layout
    def __init__(self, num_layers=1):
        self.num_layers = num_layers
        self.k_cache = [[]] * num_layers
        self.v_cache = [[]] * num_layers

    def has(self, layer_idx):
        return not (len(self.k_cache[layer_idx]) == 0 or len(self.v_cache[layer_idx]) == 0)

    def get(self, layer_idx):
        if self.has(layer_idx) is False:
            raise ValueError(f"{layer_idx} layer doesn't exist in kv_cache.")
        return (self.k_cache[layer_idx].copy(), self.v_cache[layer_idx].copy(), None)

    def set(self, layer_idx, k, v):
        self.k_cache[layer_idx] = k.copy()
        self.v_cache[layer_idx] = v.copy()

    def append(self, layer_idx, k, v):
        if self.has(layer_idx) is False:
            self.set(layer_idx, k, v)
        else:
            self.k_cache[layer_idx] = np.concatenate((self.k_cache[layer_idx], k), axis=1)
            self.v_cache[layer_idx] = np.concatenate((self.v_cache[layer_idx], v), axis=1)


class KVCache:  # the contract's interface on TransformerDecoderKVCache(BSHD, num_layers=1), layer 0
    def __init__(self):
        self._cache = _TransformerDecoderKVCache(num_layers=1)

    def append(self, k, v):
        k, v = np.atleast_2d(np.array(k, dtype=float)), np.atleast_2d(np.array(v, dtype=float))
        self._cache.append(0, k[None, :, None, :], v[None, :, None, :])

    @property
    def keys(self):
        if not self._cache.has(0):
            return np.zeros((0, 0))
        k = self._cache.get(0)[0]
        return k.reshape(-1, k.shape[-1])

    @property
    def values(self):
        if not self._cache.has(0):
            return np.zeros((0, 0))
        v = self._cache.get(0)[1]
        return v.reshape(-1, v.shape[-1])

    def __len__(self):
        return self._cache.get(0)[0].shape[1] if self._cache.has(0) else 0


def rope(x, positions, base=10000.0):
    x = np.asarray(x)
    n, d = x.shape[-2:]
    module = _NTKAwareRoPE(dim=d, max_seq_len=MAX_SEQ_LEN, base=base)
    return module.forward(x.reshape(-1, n, 1, d), offset=int(positions[0])).reshape(x.shape)


def scaled_dot_product_attention(Q, K, V, mask=None, scale=None):
    lead = np.broadcast_shapes(Q.shape[:-2], K.shape[:-2], V.shape[:-2])
    (n_q, d_k), n_k, d_v = Q.shape[-2:], K.shape[-2], V.shape[-1]
    q = np.broadcast_to(Q, (*lead, n_q, d_k)).reshape(-1, n_q, 1, d_k)
    k = np.broadcast_to(K, (*lead, n_k, d_k)).reshape(-1, n_k, 1, d_k)
    v = np.broadcast_to(V, (*lead, n_k, d_v)).reshape(-1, n_k, 1, d_v)
    attn = _OfflineSlidingWindowAttn(head_dim=d_k, num_q_head=1, num_kv_head=1, softmax_scale=scale)
    out, weights = attn.forward(q, k, v)
    return out.reshape(*lead, n_q, d_v), weights.reshape(*lead, n_q, n_k)


def multi_head_attention(X, W_Q, W_K, W_V, W_O, num_heads, mask=None):
    head_dim, num_q_head, num_kv_head = W_Q.shape[-1] // num_heads, num_heads, num_heads
    rope_module = _NTKAwareRoPE(dim=head_dim, max_seq_len=MAX_SEQ_LEN, base=ROPE_BASE, ratio=1)  # __init__: self.rope
    attn = _OfflineSlidingWindowAttn(head_dim=head_dim, num_q_head=num_q_head, num_kv_head=num_kv_head,
                                     causal=CAUSAL)  # then self.attn
    b, s, _h = X.shape
    qkv_proj = np.concatenate([W_Q, W_K, W_V], axis=1)
    X = X @ qkv_proj
    q = X[:, :, :head_dim * num_q_head].reshape(b, s, -1, head_dim)
    k = X[:, :, head_dim * num_q_head:head_dim * num_q_head + head_dim * num_kv_head].reshape(b, s, -1, head_dim)
    v = X[:, :, head_dim * num_q_head + head_dim * num_kv_head:].reshape(b, s, -1, head_dim)
    offset = 0  # no kv cache
    q, k = rope_module.forward(q, offset), rope_module.forward(k, offset)
    o, _ = attn.forward(q, k, v)  # O
    o = o.reshape(b, s, -1)
    return o @ W_O


def decode_step(layer, x, cache, rope_base=None):
    parts = layer.query(x), layer.key(x), layer.value(x)
    X = np.concatenate(parts)[None, None, :]  # X @ qkv_proj for (b, s) = (1, 1)
    b, s, _ = X.shape
    head_dim, num_q_head, num_kv_head = parts[0].shape[-1], 1, 1  # config.head_dim, one head
    base = ROPE_BASE if rope_base is None else rope_base
    _NTKAwareRoPE(dim=head_dim, max_seq_len=MAX_SEQ_LEN, base=base)  # __init__'s self.rope (applied with rope below)
    attn = _OfflineSlidingWindowAttn(head_dim=head_dim, num_q_head=num_q_head, num_kv_head=num_kv_head,
                                     causal=CAUSAL)  # then self.attn
    q = X[:, :, :head_dim * num_q_head].reshape(b, s, -1, head_dim)
    k = X[:, :, head_dim * num_q_head:head_dim * num_q_head + head_dim * num_kv_head].reshape(b, s, -1, head_dim)
    v = X[:, :, head_dim * num_q_head + head_dim * num_kv_head:].reshape(b, s, -1, head_dim)
    offset = 0
    if cache is not None and len(cache) > 0:  # kv_cache.has(layer_idx): offset = kv_cache.get(...)[0].shape[1]
        offset = len(cache)
    position = np.array([offset], dtype=float)
    q, k = rope(q, position, base=base), rope(k, position, base=base)  # self.rope(q, offset), self.rope(k, offset)
    cache.append(k.reshape(s, -1), v.reshape(s, -1))  # kv_cache.append, then kv_cache.get
    k = cache.keys.reshape(b, -1, num_kv_head, head_dim)
    v = cache.values.reshape(b, len(cache), -1, head_dim)
    o, _ = attn.forward(q, k, v)  # O
    return o.reshape(b, s, -1)[0, 0]
