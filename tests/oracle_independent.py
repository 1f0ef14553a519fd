"""An independent float64 oracle for every function of the assignment contract.

Written from the contract (``docs/assignment.md``), not from ``reference/attention.py``, and
deliberately in a different style: explicit Python loops over batch/head axes, rows and
columns, correctly rounded dot products (``math.fsum``) and a log-sum-exp softmax with
``math.exp``. Slow, but plenty for the small shapes our tests use. Test-only code.
"""

from __future__ import annotations

import math

import numpy as np

NEG_INF = -math.inf


def _f64(a):
    """``a`` as a float64 array (a copy is never needed: nothing here writes to inputs)."""
    return np.asarray(a, dtype=np.float64)


def _dot(u, v):
    """Correctly rounded sum of the products u[i] * v[i]."""
    return math.fsum(float(a) * float(b) for a, b in zip(u, v))


def _softmax_list(logits):
    """Softmax of a list of floats by log-sum-exp; -inf gets 0, an all -inf list gives zeros."""
    finite = [z for z in logits if z != NEG_INF]
    if not finite:
        return [0.0] * len(logits)
    top = max(finite)
    log_total = top + math.log(math.fsum(math.exp(z - top) for z in finite))
    return [0.0 if z == NEG_INF else math.exp(z - log_total) for z in logits]


def _rows_times(A, W):
    """(..., n, m) times (m, p), one output entry at a time."""
    A, W = _f64(A), _f64(W)
    columns = [W[:, c] for c in range(W.shape[1])]
    out = np.empty((*A.shape[:-1], W.shape[1]))
    for index in np.ndindex(A.shape[:-1]):  # every (batch..., row)
        row = A[index]
        for c, column in enumerate(columns):
            out[(*index, c)] = _dot(row, column)
    return out


# Part A -------------------------------------------------------------------------------------


def qkv_project(X, W_Q, W_K, W_V):
    """(Q, K, V) = (X W_Q, X W_K, X W_V): row n of each is the projection of token n."""
    return _rows_times(X, W_Q), _rows_times(X, W_K), _rows_times(X, W_V)


def attention_scores(Q, K):
    """Z[..., i, j] = Q[..., i, :] . K[..., j, :] (unscaled)."""
    Q, K = _f64(Q), _f64(K)
    batch = np.broadcast_shapes(Q.shape[:-2], K.shape[:-2])
    Qb = np.broadcast_to(Q, batch + Q.shape[-2:])
    Kb = np.broadcast_to(K, batch + K.shape[-2:])
    n_q, n_k = Q.shape[-2], K.shape[-2]
    Z = np.empty((*batch, n_q, n_k))
    for b in np.ndindex(batch):
        for i in range(n_q):
            for j in range(n_k):
                Z[(*b, i, j)] = _dot(Qb[(*b, i)], Kb[(*b, j)])
    return Z


# Part B -------------------------------------------------------------------------------------


def softmax(Z, axis=-1, temperature=1.0):
    """exp(Z / T) normalised along ``axis``; -inf -> 0; an all -inf slice -> zeros."""
    moved = np.moveaxis(_f64(Z), axis, -1)
    out = np.empty(moved.shape)
    for index in np.ndindex(moved.shape[:-1]):
        out[index] = _softmax_list([float(z) / temperature for z in moved[index]])
    return np.moveaxis(out, -1, axis)


# Part C -------------------------------------------------------------------------------------


def causal_mask(n_q, n_k=None):
    """mask[i, j] is True iff j <= i + (n_k - n_q) (bottom-right aligned)."""
    if n_k is None:
        n_k = n_q
    mask = np.zeros((n_q, n_k), dtype=bool)
    for i in range(n_q):
        for j in range(n_k):
            mask[i, j] = j <= i + (n_k - n_q)
    return mask


def scaled_dot_product_attention(Q, K, V, mask=None, scale=None):
    """(out, weights): masked softmax of scale * Q K^T, then weights @ V; fully masked rows -> 0."""
    Q, K, V = _f64(Q), _f64(K), _f64(V)
    (n_q, d_k), n_k, d_v = Q.shape[-2:], K.shape[-2], V.shape[-1]
    if scale is None:
        scale = 1.0 / math.sqrt(d_k)
    allowed = np.ones((n_q, n_k), dtype=bool) if mask is None else np.asarray(mask, dtype=bool)
    batch = np.broadcast_shapes(Q.shape[:-2], K.shape[:-2], V.shape[:-2], allowed.shape[:-2])
    Qb = np.broadcast_to(Q, (*batch, n_q, d_k))
    Kb = np.broadcast_to(K, (*batch, n_k, d_k))
    Vb = np.broadcast_to(V, (*batch, n_k, d_v))
    allowed = np.broadcast_to(allowed, (*batch, n_q, n_k))
    out = np.empty((*batch, n_q, d_v))
    weights = np.empty((*batch, n_q, n_k))
    for b in np.ndindex(batch):
        for i in range(n_q):
            logits = [
                scale * _dot(Qb[(*b, i)], Kb[(*b, j)]) if allowed[(*b, i, j)] else NEG_INF for j in range(n_k)
            ]
            w = _softmax_list(logits)
            weights[(*b, i)] = w
            for c in range(d_v):
                out[(*b, i, c)] = math.fsum(w[j] * float(Vb[(*b, j, c)]) for j in range(n_k))
    return out, weights


# Part D -------------------------------------------------------------------------------------


def multi_head_attention(X, W_Q, W_K, W_V, W_O, num_heads, mask=None):
    """concat_h SDPA(X W_Q[:, h-block], X W_K[:, h-block], X W_V[:, h-block]) @ W_O."""
    W_Q, W_K, W_V = _f64(W_Q), _f64(W_K), _f64(W_V)
    d_k = W_Q.shape[1] // num_heads
    d_v = W_V.shape[1] // num_heads
    heads = []
    for h in range(num_heads):
        qk_block = list(range(h * d_k, (h + 1) * d_k))
        v_block = list(range(h * d_v, (h + 1) * d_v))
        Q, K, V = qkv_project(X, W_Q[:, qk_block], W_K[:, qk_block], W_V[:, v_block])
        out_h, _ = scaled_dot_product_attention(Q, K, V, mask=mask, scale=1.0 / math.sqrt(d_k))
        heads.append(out_h)
    return _rows_times(np.concatenate(heads, axis=-1), W_O)


# Part E -------------------------------------------------------------------------------------


def rotation_matrix(angle):
    """[[cos a, -sin a], [sin a, cos a]]."""
    a = float(angle)
    return np.array([[math.cos(a), -math.sin(a)], [math.sin(a), math.cos(a)]])


def rope(x, positions, base=10000.0):
    """Rotate pair (2i, 2i+1) of row n by positions[n] * base ** (-2i / d) (interleaved layout)."""
    x = _f64(x)
    d = x.shape[-1]
    pos = [float(p) for p in np.asarray(positions).reshape(-1)]
    thetas = [math.pow(base, -2.0 * i / d) for i in range(d // 2)]
    out = np.empty(x.shape)
    for index in np.ndindex(x.shape[:-1]):  # index[-1] is the token n
        n = index[-1]
        for i, theta in enumerate(thetas):
            R = rotation_matrix(pos[n] * theta)
            a, b = float(x[(*index, 2 * i)]), float(x[(*index, 2 * i + 1)])
            out[(*index, 2 * i)] = R[0, 0] * a + R[0, 1] * b
            out[(*index, 2 * i + 1)] = R[1, 0] * a + R[1, 1] * b
    return out


# Part F -------------------------------------------------------------------------------------


class KVCache:
    """Every appended key/value row, oldest first, kept as a Python list of row copies."""

    def __init__(self):
        """An empty cache."""
        self._key_rows = []
        self._value_rows = []

    def append(self, k, v):
        """Append one token (1-D k, v) or T tokens (2-D k, v)."""
        k, v = _f64(k), _f64(v)
        self._key_rows += [np.array(row) for row in k.reshape(-1, k.shape[-1])]
        self._value_rows += [np.array(row) for row in v.reshape(-1, v.shape[-1])]

    @property
    def keys(self):
        """(len, d_k) cached keys."""
        return np.array(self._key_rows)

    @property
    def values(self):
        """(len, d_v) cached values."""
        return np.array(self._value_rows)

    def __len__(self):
        """Number of cached tokens."""
        return len(self._key_rows)


def _attend_one(q, keys, values):
    """Unmasked attention of one query over rows of keys/values, scale 1/sqrt(d_k)."""
    scale = 1.0 / math.sqrt(len(q))
    w = _softmax_list([scale * _dot(q, key) for key in keys])
    n_v = np.shape(values)[-1]
    return np.array([math.fsum(w[j] * float(values[j][c]) for j in range(len(w))) for c in range(n_v)])


def _rotate_one(vector, position, base):
    """rope of a single row at one position."""
    return rope(np.asarray(vector)[None, :], [position], base=base)[0]


def decode_step(layer, x, cache, rope_base=None):
    """Project x once each, rotate at position len(cache) if asked, append, attend over the cache."""
    q, k, v = _f64(layer.query(x)), _f64(layer.key(x)), _f64(layer.value(x))
    if rope_base is not None:
        position = float(len(cache))
        q, k = _rotate_one(q, position, rope_base), _rotate_one(k, position, rope_base)
    cache.append(k, v)
    return _attend_one(q, cache.keys, cache.values)


def generate_cached(layer, X, rope_base=None):
    """decode_step on each row of X with one fresh cache; N calls of each projection."""
    cache = KVCache()
    rows = []
    for n in range(len(X)):
        rows.append(decode_step(layer, X[n], cache, rope_base=rope_base))
    return np.array(rows)


def generate_naive(layer, X, rope_base=None):
    """No cache: step n recomputes k, v of tokens 0..n and q of token n."""
    rows = []
    for n in range(len(X)):
        q = _f64(layer.query(X[n]))
        keys = [_f64(layer.key(X[j])) for j in range(n + 1)]
        values = [_f64(layer.value(X[j])) for j in range(n + 1)]
        if rope_base is not None:
            q = _rotate_one(q, float(n), rope_base)
            keys = [_rotate_one(key, float(j), rope_base) for j, key in enumerate(keys)]
        rows.append(_attend_one(q, keys, values))
    return np.array(rows)
