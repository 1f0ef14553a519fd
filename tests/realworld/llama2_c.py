"""Port of karpathy/llama2.c, run.c, forward(): the RoPE loop and the attention of one new token over
the key/value cache, in single precision (float, cosf, sinf, expf).

Conventions kept: `freq = 1.0f / powf(base, head_dim / (float)head_size)` with head_dim = i % head_size
for i = 0, 2, 4, ... and pairs (vec[i], vec[i+1]) rotated by `pos * freq`; q and k rotated at `pos`
(the number of cached tokens) before k is stored; scores / sqrtf(head_size) and a max-subtracted
softmax over positions 0..pos, all in float32. Adapted: run.c's constant 10000.0f is `rope_base`,
and the cache is the contract's (append, keys, values).
"""

import numpy as np


def _rotate(vec, pos, base):
    vec = np.array(vec, dtype=np.float32)
    head_size = len(vec)
    for i in range(0, head_size, 2):
        head_dim = i % head_size
        freq = np.float32(1.0) / np.power(np.float32(base), np.float32(head_dim / np.float32(head_size)))
        val = np.float32(pos) * freq
        fcr, fci = np.cos(val, dtype=np.float32), np.sin(val, dtype=np.float32)
        v0, v1 = vec[i], vec[i + 1]
        vec[i], vec[i + 1] = v0 * fcr - v1 * fci, v0 * fci + v1 * fcr
    return vec


def decode_step(layer, x, cache, rope_base=None):
    q, k, v = (np.asarray(f(x), dtype=np.float32) for f in (layer.query, layer.key, layer.value))
    pos = len(cache)
    if rope_base is not None:
        q, k = _rotate(q, pos, rope_base), _rotate(k, pos, rope_base)
    cache.append(k, v)
    keys, values = np.asarray(cache.keys, dtype=np.float32), np.asarray(cache.values, dtype=np.float32)
    att = (keys @ q) / np.sqrt(np.float32(len(q)))
    att = np.exp(att - att.max()).astype(np.float32)
    att = att / att.sum()
    return (att @ values).astype(np.float64)
