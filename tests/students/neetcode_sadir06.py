"""Port of sadir06/neetcode-gpt, foundations/softmax.py (commit 5c43b40), model/multi_head_attention.py (commit a24ca7a)
and model/kv_cache.py (commit 1566ecd): Solution.softmax, MultiHeadedSelfAttention and KVCache with CachedAttention, a
learner's submissions (July 2026) to the NeetCode ML course on neetcode.io (an online course of graded coding problems,
"Math Foundations" to "Build GPT"; the site exports a learner's submissions to a GitHub repository of this
layout, "Every file in this project is code I wrote and submitted while completing the NeetCode ML course").

Ports softmax (Solution.softmax), multi_head_attention (MultiHeadedSelfAttention.forward with the problem's given nested
SingleHeadAttention), KVCache and decode_step (CachedAttention.forward on one token).

Conventions kept: softmax(z) (the problem's "z is a 1D NumPy array of logits", "Hint: subtract max(z) for numerical
stability", "return np.round(your_answer, 4)") is `softmax = (np.exp(z - np.max(z))) / np.sum(np.exp(z - max(z)))` and
`np.round(softmax, decimals=4)`: the numerator shifts by np.max over the whole array, the denominator by Python's
built-in max(z), which iterates over the FIRST axis and compares whole slices (right for 1-D input; an array of two or
more axes raises ValueError, "the truth value of an array with more than one element is ambiguous", unless its slices
have one entry each; a (1, m) array's max is its only row, so every term of the denominator is exp(0) = 1), one sum over
the whole array, no axis, no temperature, rounded to 4 decimal places. MultiHeadedSelfAttention(embedding_dim,
attention_dim, num_heads): `self.att_heads.append(self.SingleHeadAttention(embedding_dim, attention_dim // num_heads))`
for each head and `self.output_proj = nn.Linear(attention_dim, attention_dim, bias=False)` (as the problem says: a
square output projection); forward(embedded) (no mask argument) runs each head, `torch.cat(head_output, dim=2)` and
returns `torch.round(self.output_proj(concatenated), decimals=4)`. The given SingleHeadAttention(embedding_dim,
attention_dim) has key_gen, query_gen and value_gen `nn.Linear(embedding_dim, attention_dim, bias=False)` (one width for
the keys, queries AND values) and forward computes `scores = q @ torch.transpose(k, 1, 2)` (axes 1 and 2: a 3-D (B, T,
C) input), `context_length, attention_dim = k.shape[1], k.shape[2]`, `scores / (attention_dim ** 0.5)`, the causal mask
`torch.tril(torch.ones(context_length, context_length)) == 0` filled with -inf (always causal),
`nn.functional.softmax(scores, dim = 2)` and `scores @ v`. KVCache keeps `cache_k` and `cache_v` (None at first,
"(batch, seq_len, model_dim)"), update(new_k, new_v) stores the first block as given (`if self.cache_k is None`) and
then `torch.cat([self.cache_k, new_k], dim=1)` (likewise v), returning both; clear() resets them.
CachedAttention(model_dim): q_proj, k_proj and v_proj `nn.Linear(model_dim, model_dim, bias=False)`; forward(x,
kv_cache=None) projects q, k and v, makes a KVCache when none is given, `full_k, full_v = kv_cache.update(k, v)`,
`scores = (q @ full_k.transpose(-2, -1)) * (full_k.shape[-1] ** -0.5)`, `torch.softmax(scores, dim=-1)`, `weights @
full_v` (no mask: one new token sees every cached one; no RoPE anywhere in the model) and returns `torch.round(output,
decimals=4), kv_cache`.

Left out: torch.manual_seed(0) (the weights are the contract's), float32 arithmetic. Added for the contract only:
softmax(Z, axis=-1, temperature=1.0) is Solution.softmax(Z) (`axis` and `temperature` never read); in
multi_head_attention embedding_dim is X.shape[-1], attention_dim is W_Q.shape[-1], head h's key_gen, query_gen and
value_gen are columns [h*s, (h+1)*s) of W_K, W_Q and W_V with s = attention_dim // num_heads (x @ W for the Linear's x @
weight.T), output_proj is W_O, each loaded with load_state_dict's size check (a value slice narrower than s, or a W_O
other than (attention_dim, attention_dim), raises), and `mask` is never read; decode_step(layer, x, cache, rope_base) is
CachedAttention.forward(x, cache) on x viewed as (1, 1, D) with layer.query, layer.key and layer.value for q_proj,
k_proj and v_proj, the contract's cache for the student's (cache.append(k, v), then cache.keys and cache.values as
update's return), returning the (d_v,) row; `rope_base` is never read; the student's KVCache gets append(k, v) (a (d,)
or (T, d) row block given the batch axis of the student's tensors, k[None], then update), keys and values (the cached
(1, len, d) tensors' only sequence; an empty (0, 0) array before the first append) and len (the cached tensor's
seq_len).
"""

import numpy as np


def softmax(Z, axis=-1, temperature=1.0):
    z = Z
    softmax = (np.exp(z - np.max(z))) / np.sum(np.exp(z - max(z)))  # the built-in max(z) in the denominator
    return np.round(softmax, decimals=4)


def _softmax(A, axis):  # F.softmax: an all -inf slice is -inf - (-inf) = NaN
    E = np.exp(A - np.max(A, axis=axis, keepdims=True))
    return E / np.sum(E, axis=axis, keepdims=True)


def _load(W, shape):  # load_state_dict: a parameter of another shape is a size mismatch
    if W.shape != shape:
        raise RuntimeError(f"size mismatch: copying a param with shape {W.shape}, the current shape is {shape}")
    return W


def _single_head(embedded, key_gen, query_gen, value_gen):  # the problem's given SingleHeadAttention.forward
    k = embedded @ key_gen
    q = embedded @ query_gen
    v = embedded @ value_gen
    scores = q @ np.swapaxes(k, 1, 2)  # torch.transpose(k, 1, 2)
    context_length, attention_dim = k.shape[1], k.shape[2]
    scores = scores / (attention_dim ** 0.5)
    lower_triangular = np.tril(np.ones((context_length, context_length)))
    mask = lower_triangular == 0
    scores = np.where(mask, -np.inf, scores)  # masked_fill(mask, float('-inf'))
    scores = _softmax(scores, axis=2)
    return scores @ v


def multi_head_attention(X, W_Q, W_K, W_V, W_O, num_heads, mask=None):
    embedding_dim, attention_dim = X.shape[-1], W_Q.shape[-1]
    s = attention_dim // num_heads
    att_heads = []
    for h in range(num_heads):
        att_heads.append(tuple(_load(W[:, h * s:(h + 1) * s], (embedding_dim, s)) for W in (W_K, W_Q, W_V)))
    output_proj = _load(W_O, (attention_dim, attention_dim))
    head_output = []
    for head in att_heads:
        head_output.append(_single_head(X, *head))
    concatenated = np.concatenate(head_output, axis=2)  # torch.cat(head_output, dim=2)
    return np.round(concatenated @ output_proj, decimals=4)


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
    x = np.asarray(x)[None, None, :]  # (batch, seq_len, model_dim) = (1, 1, D)
    q = layer.query(x[0, 0])[None, None, :]
    k = layer.key(x[0, 0])[None, None, :]
    v = layer.value(x[0, 0])[None, None, :]
    kv_cache = cache
    if kv_cache is None:
        kv_cache = KVCache()
    full_k, full_v = _update(kv_cache, k, v)
    scores = (q @ np.swapaxes(full_k, -2, -1)) * (full_k.shape[-1] ** -0.5)
    weights = _softmax(scores, axis=-1)
    output = weights @ full_v
    return np.round(output, decimals=4)[0, 0]
