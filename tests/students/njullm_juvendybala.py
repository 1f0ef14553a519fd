"""Port of juvendybala/fake_llama, src/modeling/pos_emb.py, src/functional.py, src/modeling/attention.py and
src/modeling/transformer.py (commit ee8c6d4): NTKAwareRoPE with apply_rotary_pos_emb, OfflineSlidingWindowAttn (with its
process method), TransformerDecoderKVCache and TransformerDecoderLayer (qkv_generate and forward), a student's solutions
of the assignments of Nanjing University's LLM course (智能应用开发, Jingwei Xu's undergraduate course; the assignments
are NJUDeepEngine/open-llm-assignments), gathered by the student into one repository.

Ports rope, scaled_dot_product_attention, multi_head_attention (the decoder layer's self-attention sub-layer), KVCache
and decode_step (the decoder layer's kv-cache path on one token).

Conventions kept: NTKAwareRoPE(dim, max_seq_len, base=10000, ratio=1, dynamic=False, dtype=float32) computes in __init__
`tmp = self.base * (self.ratio) ** (self.dim / (self.dim - 2))` (the NTK scaling, even with ratio 1: d = 2 divides by
zero and raises ZeroDivisionError), `inv_freq = 1.0 / (tmp ** (torch.arange(0, self.dim, 2) / self.dim))` in float32, `t
= torch.arange(self.max_seq_len * self.ratio)`, `emb = torch.cat((freqs, freqs), dim=-1)` (the halves layout) and the
cos/sin tables; forward(input, offset=0) reads `seq_len = input.shape[1]` of a [batch, seq_len, num_heads, head_dim]
input and returns `apply_rotary_pos_emb(input, self.cos_cached[offset : seq_len + offset], self.sin_cached[offset :
seq_len + offset])` (integer positions offset..offset+seq_len-1; a negative offset gives a shorter slice, which raises
against the input), with tables recomputed for an even ratio when seq_len + offset exceeds max_seq_len * ratio;
apply_rotary_pos_emb transposes the input to [b, nh, s, hd] in float32, `x1 = x[..., : x.shape[-1] // 2]`, `x2 = x[...,
x.shape[-1] // 2 :]`, `x_rotate_half = torch.cat((-x2, x1), dim=-1)` (the GPT-NeoX halves, not interleaved pairs), `x *
cos + x_rotate_half * sin`, transposed back and cast to the input's dtype. OfflineSlidingWindowAttn(head_dim,
num_q_head, num_kv_head, ...).process asserts the head counts, the batch sizes and `self.hd == hd_q and self.hd ==
hd_kv` (the keys' width; the values are not checked), transposes to [b, h, s, d], `torch.matmul(q, k^T) *
self.softmax_scale` (`1 / math.sqrt(self.hd)` when softmax_scale is None), divides by softmax_temp, adds a -inf mask
only when window_size is given or causal is True (bottom-right aligned positions; it has no mask argument),
`F.softmax(..., dim=-1)`, `nan_to_num(nan=0.0)`, `torch.clamp((r - l) * weights + l, 0, 1)` with (l, r) = (0, 1),
dropout, `torch.matmul(weights, v)` and transposes back. TransformerDecoderKVCache(BSHD) keeps per-layer lists and an
`is_exist` flag: `append` sets (the tensors as given) or concatenates along dim=-3, `get` raises KeyError when absent.
TransformerDecoderLayer: qkv_generate(input, offset) computes `torch.matmul(input, self.qkv_proj)` and narrows it into
q_size = num_q_head * head_dim columns and kv_size = num_kv_head * head_dim columns for k AND for v (`qkv.narrow(dim=-1,
start=q_size + kv_size, length=kv_size)`: the values as wide as the keys; narrow raises past the end), `b, s, hd =
input.shape` (3-D only), `.view(b, s, n, head_dim)` each, then `q = self.rotary_emb(q, offset)` and `k =
self.rotary_emb(k, offset)` (RoPE always: the layer has no switch for it); forward takes `offset = cached_k.shape[1]`
when the cache has the layer (else 0), appends k and v to the cache and gets them back, `self.attn(q, k, v)` with the
config's causal flag, `attn_output.reshape(b, s, -1)` and `torch.matmul(attn_output, self.o_proj)`.

Left out: the cast of the input to the config's param_dtype, the layer's GroupRMSNorm before the projections, its
residual connections and MLP sub-layer; the SBHD and THD layouts, the packed qkv formats, QK-norm, softmax capping
(softmax_cap None), dropout (rate 0), OnlineSlidingWindowAttn, the dynamic NTK update. Added for the contract only:
rope(x, positions, base) is NTKAwareRoPE(d, max_seq_len=MAX_SEQ_LEN, base=base).forward on x viewed as [b, N, 1, d] (its
leading axes flattened into the batch) with offset int(positions[0]); scaled_dot_product_attention is
OfflineSlidingWindowAttn(d_k, 1, 1, softmax_scale=scale) with the TransformerConfig defaults (window_size None, causal
False, softmax_temp 1, clip (0, 1)) on Q, K and V viewed as [b, N, 1, d] (leading axes broadcast, then flattened),
returning (out, weights) (the student returns the output; the weights are its clamped softmax), and `mask` is never
read; multi_head_attention is the self-attention sub-layer with qkv_proj = [W_Q | W_K | W_V], o_proj = W_O, head_dim =
W_Q.shape[-1] // num_heads, num_q_head = num_kv_head = num_heads, rope_base 10000 (TransformerConfig's default),
causal=True (the course tests' TransformerConfig) and max_seq_len MAX_SEQ_LEN, `mask` never read; decode_step is the
layer's kv-cache path for one token, the concatenation of layer.query, layer.key and layer.value standing for `input @
self.qkv_proj` (head_dim = d_k, one head), the rope ported here for self.rotary_emb (rope_base None read as the config's
10000), the contract's cache for the student's (len(cache) for `cached_k.shape[1]`, cache.append(k, v), cache.keys and
cache.values for get), returning the (d_v,) row before o_proj; KVCache() is TransformerDecoderKVCache(BSHD,
num_layers=1) at layer 0 with (d,) or (T, d) rows given as [1, T, 1, d] copies, keys and values its cached rows (an
empty (0, 0) array while it has no layer) and len the cached tensor's seq_len.
"""

import math

import numpy as np

MAX_SEQ_LEN = 4096  # TransformerConfig.max_seq_len is required; long enough that the NTK extension never runs here
ROPE_BASE = 10000  # TransformerConfig.rope_base default
CAUSAL = True  # the course tests' TransformerConfig(causal=True)


def _apply_rotary_pos_emb(input, cos, sin):
    x = np.swapaxes(input, 1, 2).astype(np.float32)
    x1 = x[..., : x.shape[-1] // 2]
    x2 = x[..., x.shape[-1] // 2:]
    x_rotate_half = np.concatenate((-x2, x1), axis=-1)
    x_embed = (x * cos.astype(np.float32)) + (x_rotate_half * sin.astype(np.float32))
    return np.swapaxes(x_embed, 1, 2).astype(input.dtype)


def _tables(base, ratio, dim, length, dtype):
    tmp = base * (ratio) ** (dim / (dim - 2))
    inv_freq = 1.0 / (tmp ** (np.arange(0, dim, 2).astype(dtype) / dim))
    t = np.arange(length, dtype=dtype)
    freqs = np.outer(t, inv_freq).astype(dtype)
    emb = np.concatenate((freqs, freqs), axis=-1)
    return np.cos(emb), np.sin(emb)


class _NTKAwareRoPE:
    def __init__(self, dim, max_seq_len, base=10000, ratio=1, dynamic=False, dtype=np.float32):
        self.dim = dim
        self.max_seq_len = max_seq_len
        self.base = base
        self.ratio = ratio
        self.dynamic = dynamic
        self.dtype = dtype
        self.cos_cached, self.sin_cached = _tables(self.base, self.ratio, self.dim, self.max_seq_len * self.ratio,
                                                   self.dtype)

    def forward(self, input, offset=0):
        seq_len = input.shape[1]
        if seq_len + offset > self.max_seq_len * self.ratio:
            ratio = (seq_len + offset + self.max_seq_len - 1) // self.max_seq_len
            if ratio % 2 == 1:
                ratio += 1
            cos, sin = _tables(self.base, ratio, self.dim, self.max_seq_len * ratio, self.dtype)
            if self.dynamic:
                self.ratio = ratio
                self.cos_cached, self.sin_cached = cos, sin
            return _apply_rotary_pos_emb(input, cos[offset: seq_len + offset], sin[offset: seq_len + offset])
        return _apply_rotary_pos_emb(input, self.cos_cached[offset: seq_len + offset],
                                     self.sin_cached[offset: seq_len + offset])


def _softmax_last(x):  # F.softmax(x, dim=-1): exp(x - max) / sum (an all -inf row is NaN)
    with np.errstate(invalid="ignore"):
        e = np.exp(x - np.max(x, axis=-1, keepdims=True))
        return e / np.sum(e, axis=-1, keepdims=True)


class _OfflineSlidingWindowAttn:  # the BSHD layout and the Q_K_V format
    def __init__(self, head_dim, num_q_head, num_kv_head, window_size=None, causal=False, softmax_scale=None,
                 softmax_cap=None, softmax_temp=1.0, softmax_clip_range=(0., 1.)):
        self.hd = head_dim
        self.nq = num_q_head
        self.nkv = num_kv_head
        self.window_size = window_size
        self.casual = causal
        self.softmax_scale = softmax_scale
        if softmax_scale is None:
            self.softmax_scale = 1 / math.sqrt(self.hd)
        self.softmax_cap = softmax_cap
        self.softmax_temp = softmax_temp
        self.softmax_clip_range = softmax_clip_range

    def process(self, chunk_q, chunk_k, chunk_v):
        bs_q, sq, nq, hd_q = chunk_q.shape
        bs_kv, skv, nkv, hd_kv = chunk_k.shape
        assert nq == self.nq and nkv == self.nkv
        assert bs_q == bs_kv
        assert self.hd == hd_q and self.hd == hd_kv
        if self.nq != self.nkv:
            chunk_k = np.repeat(chunk_k, self.nq // self.nkv, axis=2)
            chunk_v = np.repeat(chunk_v, self.nq // self.nkv, axis=2)
        chunk_q, chunk_k, chunk_v = (np.swapaxes(t, 1, 2) for t in (chunk_q, chunk_k, chunk_v))
        attn_weights = np.matmul(chunk_q, np.swapaxes(chunk_k, -2, -1)) * self.softmax_scale
        if self.softmax_cap is None:
            attn_weights = attn_weights / self.softmax_temp
        else:
            attn_weights = self.softmax_cap * np.tanh(attn_weights / self.softmax_cap)
        if self.window_size is not None or self.casual:
            max_size = max(sq, skv)
            pos_q = np.arange(sq) + (max_size - sq)
            pos_kv = np.arange(skv) + (max_size - skv)
            dist = pos_q[:, None] - pos_kv[None, :]
            mask = np.zeros((sq, skv), dtype=chunk_q.dtype)
            if self.window_size is not None:
                mask = np.where(np.abs(dist) > self.window_size, -np.inf, mask)
            if self.casual:
                mask = np.where(dist < 0, -np.inf, mask)
            attn_weights = attn_weights + mask[None, None]
        attn_weights = np.nan_to_num(_softmax_last(attn_weights), nan=0.0)
        low, high = self.softmax_clip_range
        attn_weights = np.clip((high - low) * attn_weights + low, 0, 1)  # then dropout (rate 0)
        result = np.matmul(attn_weights, chunk_v)
        return np.swapaxes(result, 1, 2), attn_weights

    def forward(self, q, k=None, v=None):
        q_tmp, k_tmp, v_tmp = q, k.astype(q.dtype), v.astype(q.dtype)
        return self.process(chunk_q=q_tmp, chunk_k=k_tmp, chunk_v=v_tmp)


class _TransformerDecoderKVCache:  # the BSHD layout
    def __init__(self, num_layers=1):
        self.num_layers = num_layers
        self.is_exist = [False for _ in range(num_layers)]
        self.key_cache = [None for _ in range(num_layers)]
        self.value_cache = [None for _ in range(num_layers)]

    def has(self, layer_idx):
        return not (layer_idx >= self.num_layers or self.is_exist[layer_idx] is False)

    def get(self, layer_idx):
        if self.has(layer_idx) is False:
            raise KeyError
        return self.key_cache[layer_idx], self.value_cache[layer_idx], None

    def set(self, layer_idx, k, v):
        self.key_cache[layer_idx] = k
        self.value_cache[layer_idx] = v
        self.is_exist[layer_idx] = True

    def append(self, layer_idx, k, v):
        if self.has(layer_idx) is False:
            self.set(layer_idx=layer_idx, k=k, v=v)
        else:
            self.key_cache[layer_idx] = np.concatenate([self.key_cache[layer_idx], k], axis=-3)
            self.value_cache[layer_idx] = np.concatenate([self.value_cache[layer_idx], v], axis=-3)


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


def _narrow(t, start, length):  # torch.narrow(t, dim=-1, start, length): raises past the end
    if start + length > t.shape[-1]:
        raise RuntimeError(f"start ({start}) + length ({length}) exceeds dimension size ({t.shape[-1]}).")
    return t[..., start:start + length]


def _qkv_generate(input, qkv, head_dim, nq, nkv, rotary_emb, offset):  # qkv = torch.matmul(input, self.qkv_proj)
    q_size = nq * head_dim
    kv_size = nkv * head_dim
    q = _narrow(qkv, 0, q_size)
    k = _narrow(qkv, q_size, kv_size)
    v = _narrow(qkv, q_size + kv_size, kv_size)
    b, s, _hd = input.shape
    q = q.reshape(b, s, nq, head_dim)
    k = k.reshape(b, s, nkv, head_dim)
    v = v.reshape(b, s, nkv, head_dim)
    q = rotary_emb(q, offset)
    k = rotary_emb(k, offset)
    return q, k, v


def multi_head_attention(X, W_Q, W_K, W_V, W_O, num_heads, mask=None):
    head_dim, nq, nkv = W_Q.shape[-1] // num_heads, num_heads, num_heads
    rotary_emb = _NTKAwareRoPE(dim=head_dim, max_seq_len=MAX_SEQ_LEN, base=ROPE_BASE, ratio=1)  # __init__
    attn = _OfflineSlidingWindowAttn(head_dim=head_dim, num_q_head=nq, num_kv_head=nkv, causal=CAUSAL)
    qkv_proj = np.concatenate([W_Q, W_K, W_V], axis=1)
    b, s, _hd = X.shape
    offset = 0  # no kv cache
    q, k, v = _qkv_generate(X, np.matmul(X, qkv_proj), head_dim, nq, nkv, rotary_emb.forward, offset)
    attn_output, _ = attn.forward(q, k, v)
    attn_output = attn_output.reshape(b, s, -1)
    return np.matmul(attn_output, W_O)


def decode_step(layer, x, cache, rope_base=None):
    parts = layer.query(x), layer.key(x), layer.value(x)
    hidden = np.asarray(x)[None, None, :]  # (b, s, hidden) = (1, 1, D)
    qkv = np.concatenate(parts)[None, None, :]  # torch.matmul(input, self.qkv_proj)
    head_dim, nq, nkv = parts[0].shape[-1], 1, 1  # config.head_dim, one head
    base = ROPE_BASE if rope_base is None else rope_base
    _NTKAwareRoPE(dim=head_dim, max_seq_len=MAX_SEQ_LEN, base=base)  # __init__'s self.rotary_emb (applied by rope)
    attn = _OfflineSlidingWindowAttn(head_dim=head_dim, num_q_head=nq, num_kv_head=nkv, causal=CAUSAL)
    b, s, _hd = hidden.shape
    offset = len(cache) if cache is not None and len(cache) > 0 else 0  # cached_k.shape[1] when kv_cache.has(...)
    position = np.array([offset], dtype=float)

    def rotary_emb(t, offset):  # self.rotary_emb(t, offset)
        return rope(t, position, base=base)

    q, k, v = _qkv_generate(hidden, qkv, head_dim, nq, nkv, rotary_emb, offset)
    cache.append(k.reshape(s, -1), v.reshape(s, -1))  # kv_cache.append, then kv_cache.get
    k = cache.keys.reshape(b, -1, nkv, head_dim)
    v = cache.values.reshape(b, -1, nkv, head_dim)
    attn_output, _ = attn.forward(q, k, v)
    return attn_output.reshape(b, s, -1)[0, 0]
