"""Port of zykRichard/MyLlama, src/modeling/attention.py and src/modeling/transformer.py (commit 4991f6f):
OfflineSlidingWindowAttn (with repeat_kv) and TransformerDecoderKVCache, a student's own LLaMA written following the
assignments of Nanjing University's LLM course (智能应用开发, Jingwei Xu's course; the README follows the assignments of
NJUDeepEngine/open-llm-assignments module by module).

Ports scaled_dot_product_attention and KVCache.

Conventions kept: OfflineSlidingWindowAttn(head_dim, num_q_head, num_kv_head, ...) sets `self.softmax_scale = 1.0 /
math.sqrt(self.hd) if softmax_scale is None else softmax_scale`; forward(q, k, v, offset=0, ...) repeats k and v to the
query heads (`torch.repeat_interleave(hidden_states, n_rep, dim=-2)`), views q and k as [b, s, hq, hd] (v as given:
values keep their own width), transposes the BSHD tensors to [b, h, s, d], computes `P = q @ k.transpose(-2, -1)`,
builds its own mask in two Python loops (`self.window_size = float('inf')` when window_size is None; without causal,
-inf only for keys outside the window around `q_index += offset`: none here; it has no mask argument), `P = P *
self.softmax_scale / self.softmax_temp + mask` (softmax_cap None), `F.softmax(P - P.max(dim=-1, keepdim=True).values,
dim=-1)`, dropout, the clip `torch.clamp((r - l) * A + l, min=0, max=1)` with (l, r) = (0, 1), `O = A @ v` and
transposes back. TransformerDecoderKVCache(BSHD) keeps dicts of tensors per layer: `has` raises ValueError for a layer
index outside [0, num_layers) and checks both dicts, `set` stores the tensors as given, `append` sets or concatenates
with `torch.cat([cache, k], dim=1)`, `get` returns (None, None, None) when absent.

Left out: the SBHD layout, QK-norm (apply_qk_norm False), softmax capping (softmax_cap None), dropout (rate 0),
AttnProjectionModule, OnlineSlidingWindowAttn, and NTKAwareRoPE with the decoder layer TransformerDecoderAttnLayer: both
call apply_rotary_pos_emb, which src/functional.py still leaves as `raise NotImplementedError("TODO: Assignment1 -
Task3")` in every commit, so the student's RoPE, multi-head layer and decoding never run. Added for the contract only:
scaled_dot_product_attention is OfflineSlidingWindowAttn(d_k, 1, 1, softmax_scale=scale) with the TransformerConfig
defaults (window_size None, causal False, softmax_temp 1, clip (0, 1)) on Q, K and V viewed as [b, N, 1, d] (leading
axes broadcast, then flattened) with offset 0, returning (out, weights) (the student returns O; the weights are its
clamped softmax A), and `mask` is never read; KVCache() is TransformerDecoderKVCache(BSHD, num_layers=1) at layer 0 with
(d,) or (T, d) rows given as [1, T, 1, d] copies, keys and values its cached rows (an empty (0, 0) array while it has no
layer) and len the cached tensor's seq_len.
"""

import math

import numpy as np


def _softmax_last(x):  # F.softmax(x, dim=-1)
    e = np.exp(x - np.max(x, axis=-1, keepdims=True))
    return e / np.sum(e, axis=-1, keepdims=True)


class _OfflineSlidingWindowAttn:  # the BSHD layout and the Q_K_V format
    def __init__(self, head_dim, num_q_head, num_kv_head, window_size=None, causal=False, softmax_scale=None,
                 softmax_cap=None, softmax_temp=1.0, softmax_clip_range=(0., 1.)):
        self.hd = head_dim
        self.hq = num_q_head
        self.hkv = num_kv_head
        self.window_size = window_size
        self.causal = causal
        self.softmax_clip_range = softmax_clip_range
        self.softmax_scale = 1.0 / math.sqrt(self.hd) if softmax_scale is None else softmax_scale
        self.softmax_temp = softmax_temp
        self.softmax_cap = softmax_cap

    def repeat_kv(self, hidden_states, n_rep):
        return np.repeat(hidden_states, n_rep, axis=-2)

    def forward(self, q, k=None, v=None, offset=0):
        k, v = self.repeat_kv(k, self.hq // self.hkv), self.repeat_kv(v, self.hq // self.hkv)  # q, k, v = q, ...
        q = q.reshape(q.shape[0], q.shape[1], self.hq, self.hd)
        k = k.reshape(k.shape[0], k.shape[1], self.hq, self.hd)
        q, k, v = np.swapaxes(q, 1, 2), np.swapaxes(k, 1, 2), np.swapaxes(v, 1, 2)
        P = q @ np.swapaxes(k, -2, -1)
        mask = np.zeros_like(P)
        if self.window_size is None:
            self.window_size = float("inf")
        if not self.causal:
            for q_index in range(P.shape[-2]):
                for k_index in range(P.shape[-1]):
                    q_index += offset  # noqa: PLW2901 - the student's loop
                    if k_index > q_index + self.window_size or k_index < q_index - self.window_size:
                        mask[:, :, q_index, k_index] = -float("inf")
        else:
            for q_index in range(P.shape[-2]):
                for k_index in range(P.shape[-1]):
                    q_index += offset  # noqa: PLW2901 - the student's loop
                    if k_index > q_index or k_index < q_index - self.window_size:
                        mask[:, :, q_index, k_index] = -float("inf")
        if self.softmax_cap is None:
            P = P * self.softmax_scale / self.softmax_temp + mask
        else:
            P = self.softmax_cap * np.tanh(P * self.softmax_scale / self.softmax_temp) + mask
        A = _softmax_last(P - np.max(P, axis=-1, keepdims=True))  # then dropout (rate 0)
        low, high = self.softmax_clip_range
        A = np.clip((high - low) * A + low, 0, 1)
        O = A @ v  # noqa: E741 - the student's name
        return np.swapaxes(O, 1, 2), A


class _TransformerDecoderKVCache:  # the BSHD layout
    def __init__(self, num_layers=1):
        self.num_layers = num_layers
        self.key_cache = {}
        self.value_cache = {}

    def has(self, layer_idx):
        if layer_idx < 0 or layer_idx >= self.num_layers:
            raise ValueError(f"Invalid layer index: {layer_idx}, should be in the range of [0, {self.num_layers})")
        return layer_idx in self.key_cache and layer_idx in self.value_cache

    def get(self, layer_idx):
        if not self.has(layer_idx):
            return None, None, None
        return (self.key_cache[layer_idx], self.value_cache[layer_idx], None)

    def set(self, layer_idx, k, v):
        if layer_idx < 0 or layer_idx >= self.num_layers:
            raise ValueError(f"Invalid layer index: {layer_idx}, should be in the range of [0, {self.num_layers})")
        self.key_cache[layer_idx] = k
        self.value_cache[layer_idx] = v

    def append(self, layer_idx, k, v):
        if layer_idx < 0 or layer_idx >= self.num_layers:
            raise ValueError(f"Invalid layer index: {layer_idx}, should be in the range of [0, {self.num_layers})")
        if not self.has(layer_idx):
            self.set(layer_idx, k, v)
        else:
            self.key_cache[layer_idx] = np.concatenate([self.key_cache[layer_idx], k], axis=1)
            self.value_cache[layer_idx] = np.concatenate([self.value_cache[layer_idx], v], axis=1)


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


def scaled_dot_product_attention(Q, K, V, mask=None, scale=None):
    lead = np.broadcast_shapes(Q.shape[:-2], K.shape[:-2], V.shape[:-2])
    (n_q, d_k), n_k, d_v = Q.shape[-2:], K.shape[-2], V.shape[-1]
    q = np.broadcast_to(Q, (*lead, n_q, d_k)).reshape(-1, n_q, 1, d_k)
    k = np.broadcast_to(K, (*lead, n_k, d_k)).reshape(-1, n_k, 1, d_k)
    v = np.broadcast_to(V, (*lead, n_k, d_v)).reshape(-1, n_k, 1, d_v)
    attn = _OfflineSlidingWindowAttn(head_dim=d_k, num_q_head=1, num_kv_head=1, softmax_scale=scale)
    out, weights = attn.forward(q, k, v, offset=0)
    return out.reshape(*lead, n_q, d_v), weights.reshape(*lead, n_q, n_k)
