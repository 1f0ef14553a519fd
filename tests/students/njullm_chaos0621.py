"""Port of Chaos0621/llm-assignments, assignment1/A1_pos_emb.py, assignment1/A1_functional.py, assignment3/A3_T1.py,
assignment4/A4_T1.py and assignment4/A4_T2.py (commit 459cafc): NTKAwareRoPE with apply_rotary_pos_emb,
OfflineSlidingWindowAttn, TransformerDecoderKVCache and TransformerDecoderLayer, a student's solutions of the
assignments of Nanjing University's LLM course (智能应用开发, Jingwei Xu's course; the assignments are
NJUDeepEngine/open-llm-assignments), taken as its online course in 2024 and uploaded in 2025.

Ports rope, scaled_dot_product_attention, multi_head_attention (the decoder layer's self-attention sub-layer), KVCache
and decode_step (the decoder layer's kv-cache path on one token).

Conventions kept: NTKAwareRoPE(head_dim, max_seq_len, base=10000.0, k=1.0, dynamic=False) raises ValueError for an odd
head_dim and builds float32 tables in _build_cos_sin_cache: `inv_freq = 1.0 / (self.base ** (dim_idx / hd))` with
`dim_idx = torch.arange(0, hd, 2)` (times `k ** (dim_idx / (hd - 2))` only when k != 1), `freqs =
torch.einsum("i,j->ij", positions, inv_freq)` over positions 0..max_seq_len*k-1 and `emb = torch.cat([freqs, freqs],
dim=-1)` (the halves layout); forward(x) takes no positions and no offset: it requires a 4-D [b, s, nh, hd] input and
uses `self.cos_cached[:seq_len]` (positions 0..seq_len-1, whatever they should be; a longer input gets tables for an
even k); apply_rotary_pos_emb(x, cos, sin) rotates interleaved pairs, `x_even = x[..., ::2]`, `x_odd = x[..., 1::2]`,
with `cos_even = cos[..., ::2]` and `sin_even = sin[..., ::2]` taken from those halves-layout tables (pair i gets the
angle of column 2i of cat(freqs, freqs), i.e. frequency 2i mod d/2, not its own frequency i), `x_rot_even = x_even *
cos_even - x_odd * sin_even`, `x_rot_odd = x_even * sin_even + x_odd * cos_even`, stacked back to interleaved columns.
OfflineSlidingWindowAttn(num_q_heads, num_kv_heads, head_dim, window_size, causal=True, group_size=1, use_qk_norm=True,
...) raises unless `head_dim % group_size == 0` (checked even without QK-norm); _core_attention_bshd casts q, k and v to
float32, flattens [b, s, h, d] tensors with `q.reshape(bsz * hq, seq_len_q, hd)` (no transpose: with several heads each
group of rows mixes tokens and heads), likewise k and v (`v.reshape(bsz * hq, seq_len_kv, hd)` with the queries' hd:
values of another width raise), `torch.bmm(q_flat, k_flat.transpose(1, 2)) * self.softmax_scale` (`1.0 /
math.sqrt(head_dim)` when None), divides by softmax_temp, adds its own sliding-window mask (bottom-right aligned
positions, `allow = diff.abs() <= self.window_size`, `& (diff >= 0)` when causal, disallowed entries
`torch.finfo(dtype).min`; it has no mask argument), `F.softmax(logits, dim=-1)`, the clip `(r - l) * attn + l` clamped
to [0, 1] with (l, r) = (0, 1), `torch.bmm(attn, v_flat)` and `out_flat.reshape(bsz, seq_len_q, hq, hd)` (the inverse
flattening), cast back to the input's dtype. TransformerDecoderKVCache(BSHD) keeps a dict of (k, v, cu_seqlens); `set`
raises ValueError unless k and v are 4-D with `k.shape[0] == v.shape[0]` and `k.shape[2:] == v.shape[2:]` (keys and
values of the same width), `append` sets or concatenates along dim=1 (the same checks), `get` returns (None, None, None)
when absent. TransformerDecoderLayer(config): `norm_group_size = config.hidden_size` when config.group_size is None,
`qk_group_size = norm_group_size` when config.qk_norm_group_size is None, `window_size = config.max_seq_len` when
config.window_size is None, and `self.attn = OfflineSlidingWindowAttn(..., window_size, causal=config.causal,
group_size=qk_group_size, use_qk_norm=config.apply_qk_norm, ...)` (so head_dim must be a multiple of the hidden size),
then `self.rope = NTKAwareRoPE(head_dim=config.head_dim, ...)`; forward(x, cu_seqlens=None, kv_cache=None):
`q_proj.view(bsz, seqlen, self.num_q_heads, self.head_dim)` (likewise k and v: one head width for all three) with `bsz,
seqlen, _ = x_norm.shape` (3-D only), `self._apply_rope_bshd(q_bshd, k_bshd)` = `self.rope(q_bshd)`, `self.rope(k_bshd)`
(its offset argument is never used: a decoded token is rotated at position 0, i.e. not at all), with a cache `k_all =
torch.cat([k_prev, k_bshd_rope], dim=1)` (likewise v) and `kv_cache.set(self.layer_idx, k_all, v_all, None)`,
`self.attn(q, k_all, v_all)`, `attn_out_bshd.reshape(bsz, seqlen, self.num_q_heads * self.head_dim)` and
`self.o_proj(...)`.

Left out: the cast of the input to the config's param_dtype, the layer's GroupRMSNorm before the projections, its
residual connections and MLP sub-layer; the SBHD and THD layouts, the packed qkv formats, QK-norm (apply_qk_norm False),
softmax capping (softmax_cap None), dropout (rate 0), the dynamic NTK update; AttnQKVLayout and AttnQKVPackFormat,
imported from an assignment3 package the repository does not hold. Added for the contract only: rope(x, positions, base)
is NTKAwareRoPE(d, max_seq_len=MAX_SEQ_LEN, base=base).forward on x viewed as [b, N, 1, d] (its leading axes flattened
into the batch; `positions` is never read); scaled_dot_product_attention is OfflineSlidingWindowAttn(1, 1, d_k,
window_size=MAX_SEQ_LEN, causal=False, use_qk_norm=False, softmax_scale=scale) (the layer's window for window_size None;
TransformerConfig's causal and apply_qk_norm defaults) on Q, K and V viewed as [b, N, 1, d] (leading axes broadcast,
then flattened), returning (out, weights) (the student returns the output; the weights are its clamped softmax), and
`mask` is never read; multi_head_attention is the self-attention sub-layer with W_Q, W_K, W_V and W_O for q_proj,
k_proj, v_proj and o_proj (x @ W for the Linear's x @ weight.T), head_dim = W_Q.shape[-1] // num_heads, num_q_head =
num_kv_head = num_heads, hidden_size = X.shape[-1], group_size and qk_norm_group_size None (TransformerConfig's
defaults), rope_base 10000, causal=True (the course tests' TransformerConfig) and max_seq_len MAX_SEQ_LEN, `mask` never
read; decode_step is the layer's kv-cache path for one token with layer.query, layer.key and layer.value for q_proj,
k_proj and v_proj (head_dim = d_k, one head, hidden_size = D = x.shape[-1]), the rope ported here for self.rope
(rope_base None read as the config's 10000), the contract's cache for the student's (cache.append(k, v) for his set of
the concatenation, cache.keys and cache.values for get), returning the (d_v,) row before o_proj; KVCache() is
TransformerDecoderKVCache(BSHD, num_layers=1) at layer 0 with (d,) or (T, d) rows given as [1, T, 1, d] copies, keys and
values its cached rows (an empty (0, 0) array while it has no layer) and len the cached tensor's seq_len.
"""

import math

import numpy as np

MAX_SEQ_LEN = 4096  # TransformerConfig.max_seq_len is required; long enough that the NTK extension never runs here
ROPE_BASE = 10000  # TransformerConfig.rope_base default
CAUSAL = True  # the course tests' TransformerConfig(causal=True)


def _apply_rotary_pos_emb(x, cos, sin):
    if x.ndim != 4:
        raise ValueError(f"apply_rotary_pos_emb expects x of shape [b, s, nh, hd], but got {tuple(x.shape)}")
    bsz, seqlen, num_heads, head_dim = x.shape
    if head_dim % 2 != 0:
        raise ValueError(f"head_dim ({head_dim}) must be even for rotary embedding.")
    if cos.shape != (seqlen, head_dim) or sin.shape != (seqlen, head_dim):
        raise ValueError(f"cos/sin must have shape [seq_len, head_dim], got cos {tuple(cos.shape)}, sin "
                         f"{tuple(sin.shape)}")
    cos = cos.astype(x.dtype)[None, :, None, :]
    sin = sin.astype(x.dtype)[None, :, None, :]
    x_even = x[..., ::2]
    x_odd = x[..., 1::2]
    cos_even = cos[..., ::2]
    sin_even = sin[..., ::2]
    x_rot_even = x_even * cos_even - x_odd * sin_even
    x_rot_odd = x_even * sin_even + x_odd * cos_even
    x_rot = np.stack([x_rot_even, x_rot_odd], axis=-1)
    return x_rot.reshape(bsz, seqlen, num_heads, head_dim)


class _NTKAwareRoPE:
    def __init__(self, head_dim, max_seq_len, base=10000.0, k=1.0, dynamic=False, dtype=np.float32):
        if head_dim % 2 != 0:
            raise ValueError(f"head_dim ({head_dim}) must be even for RoPE.")
        if max_seq_len <= 0:
            raise ValueError("max_seq_len must be positive.")
        self.head_dim = head_dim
        self.max_seq_len_training = max_seq_len
        self.base = float(base)
        self.dynamic = dynamic
        self.k = float(k)
        if self.k < 1.0:
            self.k = 1.0
        init_extended = int(round(self.max_seq_len_training * self.k))  # noqa: RUF046 - the student's cast
        init_extended = max(init_extended, self.max_seq_len_training)
        self.cos_cached, self.sin_cached = self._build_cos_sin_cache(init_extended, self.k, dtype)
        self.max_seq_len_cached = init_extended

    def _build_cos_sin_cache(self, seq_len, k, dtype):
        hd = self.head_dim
        positions = np.arange(seq_len, dtype=np.float32)
        dim_idx = np.arange(0, hd, 2, dtype=np.float32)
        inv_freq = 1.0 / (self.base ** (dim_idx / hd))
        if k != 1.0:
            inv_freq = inv_freq * (k ** (dim_idx / (hd - 2)))
        freqs = np.einsum("i,j->ij", positions, inv_freq)
        emb = np.concatenate([freqs, freqs], axis=-1)
        return np.cos(emb).astype(dtype), np.sin(emb).astype(dtype)

    def _maybe_extend_cache(self, seq_len, x_dtype):
        if seq_len <= self.max_seq_len_cached:
            return self.cos_cached[:seq_len].astype(x_dtype), self.sin_cached[:seq_len].astype(x_dtype)
        ms = self.max_seq_len_training
        k_int = math.ceil(seq_len / ms)
        if k_int % 2 == 1:
            k_int += 1
        k_new = float(k_int)
        new_extended = ms * k_int
        cos_new, sin_new = self._build_cos_sin_cache(new_extended, k_new, self.cos_cached.dtype)
        if self.dynamic:
            self.k = k_new
            self.max_seq_len_cached = new_extended
            self.cos_cached, self.sin_cached = cos_new, sin_new
        return cos_new[:seq_len].astype(x_dtype), sin_new[:seq_len].astype(x_dtype)

    def forward(self, x):
        if x.ndim != 4:
            raise ValueError(f"NTKAwareRoPE expects x of shape [b, s, nh, hd], but got {tuple(x.shape)}")
        _bsz, seqlen, _nh, hd = x.shape
        if hd != self.head_dim:
            raise ValueError(f"Last dim of x ({hd}) must equal head_dim ({self.head_dim}).")
        cos, sin = self._maybe_extend_cache(seq_len=seqlen, x_dtype=x.dtype)
        return _apply_rotary_pos_emb(x, cos, sin)


def _softmax_last(x):  # F.softmax(x, dim=-1)
    e = np.exp(x - np.max(x, axis=-1, keepdims=True))
    return e / np.sum(e, axis=-1, keepdims=True)


class _OfflineSlidingWindowAttn:  # the BSHD layout and the Q_K_V format
    def __init__(self, num_q_heads, num_kv_heads, head_dim, window_size, causal=True, group_size=1,
                 use_qk_norm=True, softmax_scale=None, softmax_temp=1.0, softmax_cap=None, softmax_clip_lower=0.0,
                 softmax_clip_upper=1.0):
        if head_dim % group_size != 0:
            raise ValueError(f"head_dim ({head_dim}) must be divisible by group_size ({group_size})")
        if num_q_heads <= 0 or num_kv_heads <= 0:
            raise ValueError("num_q_heads and num_kv_heads must be positive")
        if num_q_heads % num_kv_heads != 0:
            raise ValueError("num_q_heads must be divisible by num_kv_heads for MQA/GQA")
        self.num_q_heads = num_q_heads
        self.num_kv_heads = num_kv_heads
        self.head_dim = head_dim
        self.window_size = window_size
        self.causal = causal
        self.use_qk_norm = use_qk_norm  # False here: the GroupRMSNorm sub-layers are left out
        self.softmax_scale = softmax_scale if softmax_scale is not None else 1.0 / math.sqrt(head_dim)
        self.softmax_temp = softmax_temp
        self.softmax_cap = softmax_cap
        self.softmax_clip_lower = softmax_clip_lower
        self.softmax_clip_upper = softmax_clip_upper

    def _sliding_window_mask(self, seq_len_q, seq_len_kv, dtype):
        s_q, s_k = seq_len_q, seq_len_kv
        max_len = max(s_q, s_k)
        q_pos = (max_len - s_q) + np.arange(s_q)[:, None]
        k_pos = (max_len - s_k) + np.arange(s_k)[None, :]
        diff = q_pos - k_pos
        allow = np.abs(diff) <= self.window_size
        if self.causal:
            allow = allow & (diff >= 0)
        mask = np.zeros((s_q, s_k), dtype=dtype)
        return np.where(allow, mask, np.full_like(mask, np.finfo(dtype).min))

    def _core_attention_bshd(self, q, k, v):
        bsz, seq_len_q, hq, hd = q.shape
        _, seq_len_kv, hkv, _ = k.shape
        if hq != hkv:
            repeat_factor = hq // hkv
            k = np.repeat(k, repeat_factor, axis=2)
            v = np.repeat(v, repeat_factor, axis=2)
        q, k, v = q.astype(np.float32), k.astype(np.float32), v.astype(np.float32)
        q_flat = q.reshape(bsz * hq, seq_len_q, hd)
        k_flat = k.reshape(bsz * hq, seq_len_kv, hd)
        logits = q_flat @ np.swapaxes(k_flat, 1, 2)
        logits = logits * self.softmax_scale
        if self.softmax_cap is None:
            logits = logits / self.softmax_temp
        else:
            logits = self.softmax_cap * np.tanh(logits / self.softmax_cap)
        mask = self._sliding_window_mask(seq_len_q, seq_len_kv, logits.dtype)
        logits = logits + mask[None]
        attn = _softmax_last(logits)
        if self.softmax_clip_lower is not None and self.softmax_clip_upper is not None:
            low, high = self.softmax_clip_lower, self.softmax_clip_upper
            attn = np.clip((high - low) * attn + low, 0.0, 1.0)
        v_flat = v.reshape(bsz * hq, seq_len_kv, hd)
        out_flat = attn @ v_flat
        return out_flat.reshape(bsz, seq_len_q, hq, hd), attn

    def forward(self, q, k=None, v=None):
        if k is None or v is None:
            raise ValueError("K and V must be provided for Q_K_V pack_format")
        out_bshd, attn = self._core_attention_bshd(q, k, v)
        return out_bshd.astype(q.dtype), attn


class _TransformerDecoderKVCache:  # the BSHD layout
    def __init__(self, num_layers=1):
        if num_layers <= 0:
            raise ValueError(f"num_layers must be positive, got {num_layers}")
        self.num_layers = num_layers
        self._cache = {}

    def has(self, layer_idx):
        return layer_idx in self._cache

    def get(self, layer_idx):
        return self._cache.get(layer_idx, (None, None, None))

    def set(self, layer_idx, k, v):
        if k.dtype != v.dtype:
            raise ValueError("Key and value tensors must have the same dtype and device")
        if k.ndim != 4 or v.ndim != 4:
            raise ValueError("K/V must be 4D tensors for BSHD layout")
        if k.shape[0] != v.shape[0] or k.shape[2:] != v.shape[2:]:
            raise ValueError("Batch and head/hidden dimensions of K/V must match for BSHD layout")
        self._cache[layer_idx] = (k, v, None)

    def append(self, layer_idx, k, v):
        if not self.has(layer_idx):
            self.set(layer_idx, k, v)
            return
        k_prev, v_prev, _cu_prev = self._cache[layer_idx]
        if k_prev is None or v_prev is None:
            self.set(layer_idx, k, v)
            return
        if k.dtype != k_prev.dtype or v.dtype != v_prev.dtype:
            raise ValueError("Appended K/V dtype must match existing cached tensors")
        if k_prev.ndim != 4 or k.ndim != 4:
            raise ValueError("K must be 4D for BSHD layout")
        if k_prev.shape[0] != k.shape[0] or k_prev.shape[2:] != k.shape[2:]:
            raise ValueError("Batch and head/hidden dims of appended K must match cache for BSHD layout")
        if v_prev.shape[0] != v.shape[0] or v_prev.shape[2:] != v.shape[2:]:
            raise ValueError("Batch and head/hidden dims of appended V must match cache for BSHD layout")
        self._cache[layer_idx] = (np.concatenate([k_prev, k], axis=1), np.concatenate([v_prev, v], axis=1), None)


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
    module = _NTKAwareRoPE(head_dim=d, max_seq_len=MAX_SEQ_LEN, base=base)
    return module.forward(x.reshape(-1, n, 1, d)).reshape(x.shape)


def scaled_dot_product_attention(Q, K, V, mask=None, scale=None):
    lead = np.broadcast_shapes(Q.shape[:-2], K.shape[:-2], V.shape[:-2])
    (n_q, d_k), n_k, d_v = Q.shape[-2:], K.shape[-2], V.shape[-1]
    q = np.broadcast_to(Q, (*lead, n_q, d_k)).reshape(-1, n_q, 1, d_k)
    k = np.broadcast_to(K, (*lead, n_k, d_k)).reshape(-1, n_k, 1, d_k)
    v = np.broadcast_to(V, (*lead, n_k, d_v)).reshape(-1, n_k, 1, d_v)
    attn = _OfflineSlidingWindowAttn(num_q_heads=1, num_kv_heads=1, head_dim=d_k, window_size=MAX_SEQ_LEN,
                                     causal=False, use_qk_norm=False, softmax_scale=scale)
    out, weights = attn.forward(q, k, v)
    return out.reshape(*lead, n_q, d_v), weights.reshape(*lead, n_q, n_k)


def _layer_attn(hidden_size, head_dim, num_heads):  # TransformerDecoderLayer.__init__: self.attn, then self.rope
    norm_group_size = hidden_size  # config.group_size is None
    qk_group_size = norm_group_size  # config.qk_norm_group_size is None
    window_size = MAX_SEQ_LEN  # config.window_size is None
    attn = _OfflineSlidingWindowAttn(num_q_heads=num_heads, num_kv_heads=num_heads, head_dim=head_dim,
                                     window_size=window_size, causal=CAUSAL, group_size=qk_group_size,
                                     use_qk_norm=False)
    return attn


def multi_head_attention(X, W_Q, W_K, W_V, W_O, num_heads, mask=None):
    hidden_size, head_dim = X.shape[-1], W_Q.shape[-1] // num_heads
    attn = _layer_attn(hidden_size, head_dim, num_heads)
    rope_module = _NTKAwareRoPE(head_dim=head_dim, max_seq_len=MAX_SEQ_LEN, base=ROPE_BASE, k=1)
    q_proj, k_proj, v_proj = X @ W_Q, X @ W_K, X @ W_V
    bsz, seqlen, _ = X.shape
    q_bshd = q_proj.reshape(bsz, seqlen, num_heads, head_dim)
    k_bshd = k_proj.reshape(bsz, seqlen, num_heads, head_dim)
    v_bshd = v_proj.reshape(bsz, seqlen, num_heads, head_dim)
    q_bshd_rope, k_bshd_rope = rope_module.forward(q_bshd), rope_module.forward(k_bshd)  # _apply_rope_bshd
    attn_out_bshd, _ = attn.forward(q_bshd_rope, k_bshd_rope, v_bshd)
    attn_out_2d = attn_out_bshd.reshape(bsz, seqlen, num_heads * head_dim)
    return attn_out_2d @ W_O


def decode_step(layer, x, cache, rope_base=None):
    hidden_size = np.asarray(x).shape[-1]
    q_proj, k_proj, v_proj = layer.query(x), layer.key(x), layer.value(x)
    head_dim, num_heads = q_proj.shape[-1], 1  # config.head_dim, one head
    base = ROPE_BASE if rope_base is None else rope_base
    attn = _layer_attn(hidden_size, head_dim, num_heads)
    _NTKAwareRoPE(head_dim=head_dim, max_seq_len=MAX_SEQ_LEN, base=base)  # __init__'s self.rope (applied by rope)
    bsz, seqlen = 1, 1
    q_bshd = q_proj.reshape(bsz, seqlen, num_heads, head_dim)
    k_bshd = k_proj.reshape(bsz, seqlen, num_heads, head_dim)
    v_bshd = v_proj.reshape(bsz, seqlen, num_heads, head_dim)
    position = np.array([len(cache)], dtype=float)  # never read: the student's rope takes no offset
    q_bshd_rope, k_bshd_rope = rope(q_bshd, position, base=base), rope(k_bshd, position, base=base)
    cache.append(k_bshd_rope.reshape(seqlen, -1), v_bshd.reshape(seqlen, -1))  # kv_cache.set of the concatenation
    k_all = cache.keys.reshape(bsz, -1, num_heads, head_dim)
    v_all = cache.values.reshape(bsz, -1, num_heads, head_dim)
    attn_out_bshd, _ = attn.forward(q_bshd_rope, k_all, v_all)
    return attn_out_bshd.reshape(bsz, seqlen, num_heads * head_dim)[0, 0]
