"""A correct solution written the way a student might: einsum, index grids, per-head loops, lists.

Test-only: the base of the ``student_*`` mutants in ``tests/mutants/__init__.py``, whose call
graph differs from the reference's (decode_step and generate_naive use softmax directly,
not scaled_dot_product_attention).
"""

import numpy as np


def qkv_project(X, W_Q, W_K, W_V):
    Q = np.matmul(X, W_Q)
    K = np.matmul(X, W_K)
    V = np.matmul(X, W_V)
    return Q, K, V


def attention_scores(Q, K):
    return np.einsum("...qd,...kd->...qk", Q, K)


def softmax(Z, axis=-1, temperature=1.0):
    z = np.array(Z, dtype=float) / temperature
    m = np.max(z, axis=axis, keepdims=True)
    m[~np.isfinite(m)] = 0.0
    e = np.exp(z - m)
    s = e.sum(axis=axis, keepdims=True)
    s[s == 0] = 1.0
    return e / s


def causal_mask(n_q, n_k=None):
    if n_k is None:
        n_k = n_q
    i = np.arange(n_q)[:, None]
    j = np.arange(n_k)[None, :]
    return j <= i + (n_k - n_q)


def scaled_dot_product_attention(Q, K, V, mask=None, scale=None):
    d_k = Q.shape[-1]
    if scale is None:
        scale = 1 / np.sqrt(d_k)
    scores = attention_scores(Q, K) * scale
    if mask is not None:
        scores = np.where(mask, scores, -np.inf)
    weights = softmax(scores, axis=-1)
    out = weights @ V
    return out, weights


def multi_head_attention(X, W_Q, W_K, W_V, W_O, num_heads, mask=None):
    Q, K, V = qkv_project(X, W_Q, W_K, W_V)
    d_k = Q.shape[-1] // num_heads
    d_v = V.shape[-1] // num_heads
    heads = []
    for h in range(num_heads):
        q = Q[..., h * d_k : (h + 1) * d_k]
        k = K[..., h * d_k : (h + 1) * d_k]
        v = V[..., h * d_v : (h + 1) * d_v]
        out, _ = scaled_dot_product_attention(q, k, v, mask=mask)
        heads.append(out)
    return np.concatenate(heads, axis=-1) @ W_O


def rotation_matrix(angle):
    return np.array([[np.cos(angle), -np.sin(angle)], [np.sin(angle), np.cos(angle)]])


def rope(x, positions, base=10000.0):
    x = np.asarray(x, dtype=float)
    d = x.shape[-1]
    out = x.copy()
    for i in range(d // 2):
        theta = base ** (-2 * i / d)
        ang = np.asarray(positions, dtype=float) * theta
        c, s = np.cos(ang), np.sin(ang)
        a, b = x[..., 2 * i], x[..., 2 * i + 1]
        out[..., 2 * i] = a * c - b * s
        out[..., 2 * i + 1] = a * s + b * c
    return out


class KVCache:
    def __init__(self):
        self.k_list = []
        self.v_list = []

    def append(self, k, v):
        k = np.asarray(k, dtype=float)
        v = np.asarray(v, dtype=float)
        if k.ndim == 1:
            k = k[None, :]
            v = v[None, :]
        for row in k:
            self.k_list.append(row.copy())
        for row in v:
            self.v_list.append(row.copy())

    @property
    def keys(self):
        return np.array(self.k_list)

    @property
    def values(self):
        return np.array(self.v_list)

    def __len__(self):
        return len(self.k_list)


def decode_step(layer, x, cache, rope_base=None):
    q = layer.query(x)
    k = layer.key(x)
    v = layer.value(x)
    if rope_base is not None:
        pos = np.array([len(cache)], dtype=float)
        q = rope(q.reshape(1, -1), pos, rope_base)[0]
        k = rope(k.reshape(1, -1), pos, rope_base)[0]
    cache.append(k, v)
    K = cache.keys
    V = cache.values
    scores = K @ q / np.sqrt(len(q))
    w = softmax(scores)
    return w @ V


def generate_cached(layer, X, rope_base=None):
    cache = KVCache()
    outs = []
    for t in range(X.shape[0]):
        outs.append(decode_step(layer, X[t], cache, rope_base))
    return np.array(outs)


def generate_naive(layer, X, rope_base=None):
    N = X.shape[0]
    outs = []
    for n in range(N):
        q = layer.query(X[n])
        ks = []
        vs = []
        for j in range(n + 1):
            ks.append(layer.key(X[j]))
            vs.append(layer.value(X[j]))
        K = np.array(ks)
        V = np.array(vs)
        if rope_base is not None:
            q = rope(q[None, :], np.array([n], dtype=float), rope_base)[0]
            K = rope(K, np.arange(n + 1, dtype=float), rope_base)
        w = softmax(K @ q / np.sqrt(q.shape[0]))
        outs.append(w @ V)
    return np.array(outs)
