"""Port of rasbt/LLMs-from-scratch, ch03/02_bonus_efficient-multihead-attention/ch03.py
(MultiHeadAttention) and ch04/03_kv-cache/gpt_with_kv_cache.py (the cache_k/cache_v concatenation).

Conventions kept: `b, num_tokens, d_in = x.shape` (batch-first); head_dim = d_out // num_heads with
d_out the query width, used for keys, queries AND values; masked_fill(mask, -inf) with the mask
marking what is hidden; the scores divided by keys.shape[-1] ** 0.5 inside the softmax; the cache
grows by concatenation along the token axis. GPT-2 has learned positions: no RoPE in decode_step.
"""

import numpy as np


def multi_head_attention(X, W_Q, W_K, W_V, W_O, num_heads, mask=None):
    b, num_tokens, d_in = X.shape  # noqa: RUF059 - the source's spelling (batch-first 3-D input)
    d_out = W_Q.shape[1]
    head_dim = d_out // num_heads
    keys, queries, values = ((X @ W).reshape(b, num_tokens, num_heads, head_dim) for W in (W_K, W_Q, W_V))
    keys, queries, values = (np.swapaxes(t, 1, 2) for t in (keys, queries, values))
    attn_scores = queries @ np.swapaxes(keys, 2, 3)
    if mask is not None:
        attn_scores = np.where(~mask, -np.inf, attn_scores)
    scaled = attn_scores / keys.shape[-1] ** 0.5
    e = np.exp(scaled - scaled.max(axis=-1, keepdims=True))
    attn_weights = e / e.sum(axis=-1, keepdims=True)
    context_vec = np.swapaxes(attn_weights @ values, 1, 2).reshape(b, num_tokens, d_out)
    return context_vec @ W_O


class KVCache:
    def __init__(self):
        self.cache_k, self.cache_v = None, None

    def append(self, k, v):
        keys_new, values_new = np.atleast_2d(np.asarray(k, dtype=float)), np.atleast_2d(np.asarray(v, dtype=float))
        if self.cache_k is None:
            self.cache_k, self.cache_v = keys_new, values_new
        else:
            self.cache_k = np.concatenate([self.cache_k, keys_new], axis=0)
            self.cache_v = np.concatenate([self.cache_v, values_new], axis=0)

    @property
    def keys(self):
        return self.cache_k

    @property
    def values(self):
        return self.cache_v

    def __len__(self):
        return 0 if self.cache_k is None else len(self.cache_k)


def decode_step(layer, x, cache, rope_base=None):
    queries, keys_new, values_new = layer.query(x), layer.key(x), layer.value(x)
    cache.append(keys_new, values_new)
    keys, values = cache.keys, cache.values
    attn_scores = queries @ keys.T
    scaled = attn_scores / keys.shape[-1] ** 0.5
    e = np.exp(scaled - scaled.max())
    return (e / e.sum()) @ values
