"""Port of hiba-msm/neetcode-gpt, model/multi_head_attention.py (commit 01e5d5c) and model/kv_cache.py (commit 676d175):
MultiHeadedSelfAttention and KVCache with CachedAttention, a learner's submissions (June 2026) to the NeetCode ML course
on neetcode.io (an online course of graded coding problems, "Math Foundations" to "Build GPT"; the site exports a
learner's submissions to a GitHub repository of this layout, "Every file in this project is code I wrote and
submitted while completing the NeetCode ML course"). Her foundations/softmax.py holds the activations problem's sigmoid
and relu, not a softmax: the reference's softmax stays.

Ports multi_head_attention (MultiHeadedSelfAttention.forward), KVCache and decode_step (CachedAttention.forward on one
token).

Conventions kept: MultiHeadedSelfAttention(embedding_dim, attention_dim, num_heads): `self.head_size = attention_dim //
num_heads`, the heads the problem asks for, `nn.ModuleList([self.SingleHeadAttention(embedding_dim, self.head_size) for
_ in range(num_heads)])` (the given SingleHeadAttention: key_gen, query_gen and value_gen `nn.Linear(embedding_dim,
attention_dim, bias=False)`, one width for the keys, queries AND values), `self.output_projection =
nn.Linear(attention_dim, attention_dim, bias=False)` (as the problem says: a square output projection), and the heads'
weights concatenated into buffers "for faster vectorized forward", `torch.cat([h.key_gen.weight.detach() for h in
self.heads], dim=0)` (likewise query and value); forward(embedded) (no mask argument) reads `B, T, _ = embedded.shape`
(3-D only), `F.linear(embedded, self.k_weight).view(B, T, H, D).transpose(1, 2)` with D = self.head_size (likewise q and
v), `(q @ k.transpose(-2, -1)) / (D ** 0.5)`, the causal mask `torch.triu(torch.ones(T, T, dtype=torch.bool),
diagonal=1)` filled with -inf (always causal), `F.softmax(scores, dim=-1)`, `out.transpose(1, 2).reshape(B, T,
self.attention_dim)`, `self.output_projection(out)` and returns `torch.round(out * 10000) / 10000` (rounded to 4 decimal
places, as the problem asks). KVCache keeps `cache_k` and `cache_v` (None at first), update(new_k, new_v) stores the
first block as given (`if self.cache_k is None`) and then `torch.cat([self.cache_k, new_k], dim=1)` (likewise v),
returning both; clear() resets them. CachedAttention(model_dim): q_proj, k_proj and v_proj `nn.Linear(model_dim,
model_dim, bias=False)` and `self.scale = model_dim ** -0.5` (the model width, which the course's square projections
make the keys' width too); forward(x, kv_cache=None) projects q, k and v, makes a KVCache when none is given, `k, v =
kv_cache.update(k, v)`, `scores = torch.matmul(q, k.transpose(1, 2))`, `scores.mul_(self.scale)`, `torch.softmax(scores,
dim=-1)`, `torch.matmul(att, v)` (no mask: one new token sees every cached one; no RoPE anywhere in the model) and
returns `torch.round(out * 10000) / 10000, kv_cache`.

Left out: torch.manual_seed(0) (the weights are the contract's), torch.inference_mode(), float32 arithmetic. Added for
the contract only: in multi_head_attention embedding_dim is X.shape[-1], attention_dim is W_Q.shape[-1], head h's
key_gen, query_gen and value_gen are columns [h*s, (h+1)*s) of W_K, W_Q and W_V with s = attention_dim // num_heads (x @
W for the Linear's x @ weight.T; the buffers are their concatenation), output_projection is W_O, each loaded with
load_state_dict's size check (a value slice narrower than s, or a W_O other than (attention_dim, attention_dim),
raises), and `mask` is never read; decode_step(layer, x, cache, rope_base) is CachedAttention(model_dim).forward(x,
cache) with model_dim = D = x.shape[-1] (the width its Linear layers take) on x viewed as (1, 1, D), with layer.query,
layer.key and layer.value for q_proj, k_proj and v_proj, the contract's cache for the student's (cache.append(k, v),
then cache.keys and cache.values as update's return), returning the (d_v,) row; `rope_base` is never read; the student's
KVCache gets append(k, v) (a (d,) or (T, d) row block given the batch axis of the student's tensors, k[None], then
update), keys and values (the cached (1, len, d) tensors' only sequence; an empty (0, 0) array before the first append)
and len (the cached tensor's seq_len).
"""

import numpy as np


def _softmax(A, axis):  # F.softmax: an all -inf slice is -inf - (-inf) = NaN
    E = np.exp(A - np.max(A, axis=axis, keepdims=True))
    return E / np.sum(E, axis=axis, keepdims=True)


def _load(W, shape):  # load_state_dict: a parameter of another shape is a size mismatch
    if W.shape != shape:
        raise RuntimeError(f"size mismatch: copying a param with shape {W.shape}, the current shape is {shape}")
    return W


def multi_head_attention(X, W_Q, W_K, W_V, W_O, num_heads, mask=None):
    embedding_dim, attention_dim = X.shape[-1], W_Q.shape[-1]
    head_size = attention_dim // num_heads
    s = head_size
    heads = [tuple(_load(W[:, h * s:(h + 1) * s], (embedding_dim, s)) for W in (W_K, W_Q, W_V))
             for h in range(num_heads)]
    output_projection = _load(W_O, (attention_dim, attention_dim))
    k_weight = np.concatenate([h[0] for h in heads], axis=1)  # torch.cat([h.key_gen.weight ...], dim=0)
    q_weight = np.concatenate([h[1] for h in heads], axis=1)
    v_weight = np.concatenate([h[2] for h in heads], axis=1)

    embedded = X
    B, T, _ = embedded.shape
    H = num_heads
    D = head_size
    k = np.swapaxes((embedded @ k_weight).reshape(B, T, H, D), 1, 2)
    q = np.swapaxes((embedded @ q_weight).reshape(B, T, H, D), 1, 2)
    v = np.swapaxes((embedded @ v_weight).reshape(B, T, H, D), 1, 2)
    scores = (q @ np.swapaxes(k, -2, -1)) / (D ** 0.5)
    causal = np.triu(np.ones((T, T), dtype=bool), k=1)
    scores = np.where(causal, -np.inf, scores)  # masked_fill(mask, float("-inf"))
    scores = _softmax(scores, axis=-1)
    out = scores @ v
    out = np.swapaxes(out, 1, 2).reshape(B, T, attention_dim)
    out = out @ output_projection
    return np.round(out * 10000) / 10000


class KVCache:
    def __init__(self):
        self.cache_k = None
        self.cache_v = None

    def update(self, new_k, new_v):
        if self.cache_k is None:
            self.cache_k = new_k
            self.cache_v = new_v
        else:
            self.cache_k = np.concatenate([self.cache_k, new_k], axis=1)
            self.cache_v = np.concatenate([self.cache_v, new_v], axis=1)
        return self.cache_k, self.cache_v

    def clear(self):
        self.cache_k = None
        self.cache_v = None

    def append(self, k, v):  # for the contract: (d,) or (T, d) rows as the student's (1, T, d) blocks
        self.update(np.atleast_2d(k)[None], np.atleast_2d(v)[None])

    @property
    def keys(self):
        return np.zeros((0, 0)) if self.cache_k is None else self.cache_k[0]

    @property
    def values(self):
        return np.zeros((0, 0)) if self.cache_v is None else self.cache_v[0]

    def __len__(self):
        return 0 if self.cache_k is None else self.cache_k.shape[1]


def _update(kv_cache, k, v):  # kv_cache.update(k, v) through the contract's cache
    kv_cache.append(k[0], v[0])
    return kv_cache.keys[None], kv_cache.values[None]


def decode_step(layer, x, cache, rope_base=None):
    model_dim = np.shape(x)[-1]  # CachedAttention(model_dim): its Linear layers take x's width
    scale = model_dim ** -0.5
    x = np.asarray(x)[None, None, :]  # (batch, seq_len, model_dim) = (1, 1, D)
    q = layer.query(x[0, 0])[None, None, :]
    k = layer.key(x[0, 0])[None, None, :]
    v = layer.value(x[0, 0])[None, None, :]
    kv_cache = cache
    if kv_cache is None:
        kv_cache = KVCache()
    k, v = _update(kv_cache, k, v)
    scores = q @ np.swapaxes(k, 1, 2)  # torch.matmul(q, k.transpose(1, 2))
    scores = scores * scale  # scores.mul_(self.scale)
    att = _softmax(scores, axis=-1)
    out = att @ v
    return (np.round(out * 10000) / 10000)[0, 0]
