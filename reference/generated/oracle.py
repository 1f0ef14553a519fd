"""The grader's oracle: GENERATED from the homework's solution by `autograder template`.

The graded suite computes with it only what no stored case holds: the answers of a dependency it serves
to a probe (``Student.call_served``) and the expected output of a probe's rewritten input. It runs in
the grader only, never in the worker; like the stored outputs, it is unreadable to student code.
"""

from __future__ import annotations

import numpy as np

# ----------------------------------------------------------------------------
# Part A: projections and scores (Dis 10 Q1)
# ----------------------------------------------------------------------------


def qkv_project(X, W_Q, W_K, W_V):
    """Project token embeddings to queries, keys and values.

    Args:
        X:   (..., N, D) token embeddings, one row per token.
        W_Q: (D, d_k) query weights.
        W_K: (D, d_k) key weights.
        W_V: (D, d_v) value weights.

    Returns:
        (Q, K, V) with shapes (..., N, d_k), (..., N, d_k), (..., N, d_v):
        row n of Q is q_n = W_Q^T x_n (Dis 10 Q1a), and likewise for K and V.
    """
    return X @ W_Q, X @ W_K, X @ W_V


def attention_scores(Q, K):
    """Unscaled attention scores: every query against every key.

    Args:
        Q: (..., N_q, d_k) queries.
        K: (..., N_k, d_k) keys.

    Returns:
        Z: (..., N_q, N_k) with Z[..., i, j] = Q[..., i, :] . K[..., j, :]
        (Dis 10 Q1b: z_ij = q_i^T k_j).
    """
    return Q @ np.swapaxes(K, -1, -2)


# ----------------------------------------------------------------------------
# Part B: softmax (Dis 10 Q1c,f; Dis 11 Q2)
# ----------------------------------------------------------------------------


def softmax(Z, axis=-1, temperature=1.0):
    """Numerically stable softmax of Z / temperature along ``axis``.

    Args:
        Z: array of logits (any shape); entries may be -inf (weight 0).
        axis: the axis that is normalised (each slice along it sums to 1).
        temperature: T > 0. T -> 0 tends to one-hot at the max, T -> inf to uniform.

    Returns:
        Array of Z's shape. A slice whose entries are all -inf becomes all zeros
        (no NaN, no warning). Logits as large as 1000 do not overflow.
    """
    Z = np.asarray(Z) / temperature
    Z_max = np.max(Z, axis=axis, keepdims=True)
    Z_max = np.where(np.isneginf(Z_max), 0.0, Z_max)  # an all -inf slice stays all -inf
    E = np.exp(Z - Z_max)  # every exponent <= 0: no overflow, exp(-inf) = 0
    total = np.sum(E, axis=axis, keepdims=True)
    return E / np.where(total == 0.0, 1.0, total)  # all -inf slice: 0 / 1 = 0


# ----------------------------------------------------------------------------
# Part C: masks and scaled dot-product attention (Dis 10 Q2, Dis 11 Q2)
# ----------------------------------------------------------------------------


def causal_mask(n_q, n_k=None):
    """Boolean causal mask, bottom-right aligned.

    Args:
        n_q: number of queries.
        n_k: number of keys (defaults to n_q).

    Returns:
        (n_q, n_k) bool array; mask[i, j] is True iff query i may attend to key j,
        i.e. j <= i + (n_k - n_q). The last query is the newest token and sees
        every key (what cached decoding needs). For n_q == n_k this is the usual
        lower-triangular mask.
    """
    if n_k is None:
        n_k = n_q
    return np.tril(np.ones((n_q, n_k), dtype=bool), k=n_k - n_q)


def scaled_dot_product_attention(Q, K, V, mask=None, scale=None):
    """softmax(Q K^T * scale, masked) @ V.

    Args:
        Q: (..., N_q, d_k) queries.
        K: (..., N_k, d_k) keys.
        V: (..., N_k, d_v) values.
        mask: optional bool array broadcastable to (..., N_q, N_k);
            True = may attend (PyTorch SDPA polarity). Disallowed scores become
            -inf before the softmax.
        scale: multiplies the scores; defaults to 1 / sqrt(d_k).

    Returns:
        (out, weights): out (..., N_q, d_v) = weights @ V and
        weights (..., N_q, N_k), whose rows sum to 1. A fully masked row has zero
        weights and a zero output.
    """
    if scale is None:
        scale = 1.0 / np.sqrt(Q.shape[-1])
    scores = attention_scores(Q, K) * scale
    if mask is not None:
        scores = np.where(mask, scores, -np.inf)
    weights = softmax(scores, axis=-1)
    return weights @ V, weights


# ----------------------------------------------------------------------------
# Part D: multi-head attention (PS4 Q2c)
# ----------------------------------------------------------------------------


def multi_head_attention(X, W_Q, W_K, W_V, W_O, num_heads, mask=None):
    """Multi-head self-attention without biases (equals nn.MultiheadAttention).

    Args:
        X:   (..., N, D) token embeddings.
        W_Q: (D, H*d_k), W_K: (D, H*d_k), W_V: (D, H*d_v), W_O: (H*d_v, D_out),
            where H = num_heads. Head h uses columns [h*d_k, (h+1)*d_k) of W_Q and
            W_K and columns [h*d_v, (h+1)*d_v) of W_V.
        num_heads: H.
        mask: optional bool array broadcastable to (..., N, N), True = may
            attend, shared by every head.

    Returns:
        out: (..., N, D_out) = concat(head_0, ..., head_{H-1}) @ W_O, where each
        head is scaled dot-product attention with scale 1 / sqrt(d_k) (the
        per-head width, not D).
    """
    def split_heads(M):  # (..., N, H*d) -> (..., H, N, d)
        return np.swapaxes(M.reshape(*M.shape[:-1], num_heads, -1), -2, -3)

    Q, K, V = (split_heads(M) for M in qkv_project(X, W_Q, W_K, W_V))
    if mask is not None:  # the same (N, N) mask for every head: (..., 1, N, N)
        n = X.shape[-2]
        mask = np.asarray(mask)
        mask = np.broadcast_to(mask, (*mask.shape[:-2], n, n))[..., None, :, :]
    heads, _ = scaled_dot_product_attention(Q, K, V, mask=mask)  # (..., H, N, d_v)
    concat = np.swapaxes(heads, -2, -3)  # (..., N, H, d_v)
    concat = concat.reshape(*concat.shape[:-2], -1)  # (..., N, H*d_v)
    return concat @ W_O


# ----------------------------------------------------------------------------
# Part E: rotary positional embeddings (Dis 11 Q1)
# ----------------------------------------------------------------------------


def rotation_matrix(angle):
    """Counter-clockwise 2-D rotation by ``angle`` radians.

    Returns:
        (2, 2) array [[cos a, -sin a], [sin a, cos a]].
    """
    c, s = np.cos(angle), np.sin(angle)
    return np.array([[c, -s], [s, c]])


def rope(x, positions, base=10000.0):
    """Rotary positional embedding (RoFormer / Meta-Llama interleaved layout).

    Args:
        x: (..., N, d) with d even; row n is the token at positions[n].
        positions: (N,) real numbers (not only integers).
        base: frequency base; theta_i = base ** (-2i / d) for i = 0 .. d/2 - 1.

    Returns:
        Array of x's shape in which the pair (x[..., n, 2i], x[..., n, 2i+1]) is
        rotated counter-clockwise by the angle positions[n] * theta_i, i.e.
        multiplied by rotation_matrix(positions[n] * theta_i). For d = 2,
        theta_0 = 1 and row n becomes R(positions[n]) x_n (Dis 11 Q1).
    """
    x = np.asarray(x)
    d = x.shape[-1]
    theta = base ** (-np.arange(0, d, 2) / d)  # (d/2,)
    angles = np.asarray(positions, dtype=float)[:, None] * theta  # (N, d/2)
    cos, sin = np.cos(angles), np.sin(angles)
    x_even, x_odd = x[..., 0::2], x[..., 1::2]  # the two coordinates of each pair
    out = np.empty(x.shape, dtype=np.result_type(x, cos))
    out[..., 0::2] = x_even * cos - x_odd * sin
    out[..., 1::2] = x_even * sin + x_odd * cos
    return out


# ----------------------------------------------------------------------------
# Part F: KV caching (Dis 11 Q3)
# ----------------------------------------------------------------------------


class AttentionLayer:
    """A single attention head's projections, applied one token at a time.

    Given code (not graded): the grader passes an object with the same three
    methods to ``decode_step`` and ``generate_*`` and counts the calls. Use it
    to run Part F locally; ``calls`` counts projections like the grader does.
    """

    def __init__(self, W_Q, W_K, W_V):
        """W_Q, W_K: (D, d_k); W_V: (D, d_v)."""
        self.W_Q, self.W_K, self.W_V = (np.asarray(W, dtype=float) for W in (W_Q, W_K, W_V))
        self.calls = {"query": 0, "key": 0, "value": 0}

    def query(self, x):
        """x: (D,) one token -> (d_k,)."""
        self.calls["query"] += 1
        return x @ self.W_Q

    def key(self, x):
        """x: (D,) one token -> (d_k,)."""
        self.calls["key"] += 1
        return x @ self.W_K

    def value(self, x):
        """x: (D,) one token -> (d_v,)."""
        self.calls["value"] += 1
        return x @ self.W_V


class KVCache:
    """The keys and values of every token decoded so far, oldest first.

    ``KVCache()`` is empty; ``append(k, v)`` adds one token (k: (d_k,), v: (d_v,))
    or T tokens at once (k: (T, d_k), v: (T, d_v)); ``keys`` is (len, d_k),
    ``values`` is (len, d_v), and ``len(cache)`` is the number of cached tokens.
    """

    def __init__(self):
        """An empty cache."""
        self._keys = []  # blocks of shape (T, d_k)
        self._values = []  # blocks of shape (T, d_v)

    def append(self, k, v):
        """Add the key(s) k: (d_k,) or (T, d_k) and value(s) v: (d_v,) or (T, d_v)."""
        self._keys.append(np.atleast_2d(np.array(k, dtype=float)))  # a copy, as a row block
        self._values.append(np.atleast_2d(np.array(v, dtype=float)))

    @property
    def keys(self):
        """(len, d_k) every cached key, oldest first."""
        return np.concatenate(self._keys) if self._keys else np.zeros((0, 0))

    @property
    def values(self):
        """(len, d_v) every cached value, oldest first."""
        return np.concatenate(self._values) if self._values else np.zeros((0, 0))

    def __len__(self):
        """The number of cached tokens."""
        return sum(len(block) for block in self._keys)


def decode_step(layer, x, cache, rope_base=None):
    """Attend from one new token over every cached token, itself included.

    Args:
        layer: object with query(x), key(x), value(x), each projecting ONE token;
            call each exactly once, on x.
        x: (D,) the new token.
        cache: a KVCache holding the earlier tokens; k and v of x are appended.
        rope_base: if given, q and k are rotated with rope(..., base=rope_base)
            at the token's absolute position len(cache) (taken before appending).

    Returns:
        (d_v,) the attention output of x over the cache, scale 1 / sqrt(d_k).
    """
    q, k, v = layer.query(x), layer.key(x), layer.value(x)
    if rope_base is not None:
        position = np.array([len(cache)], dtype=float)
        q = rope(q[None, :], position, base=rope_base)[0]
        k = rope(k[None, :], position, base=rope_base)[0]
    cache.append(k, v)
    out, _ = scaled_dot_product_attention(q[None, :], cache.keys, cache.values)
    return out[0]


def generate_cached(layer, X, rope_base=None):
    """Causal self-attention over X one token at a time, with a KV cache.

    Args:
        layer: query/key/value projections of one token each.
        X: (N, D) tokens in order.
        rope_base: passed to decode_step.

    Returns:
        (N, d_v); row n is the output for token n. Exactly N calls each of
        layer.query, layer.key and layer.value.
    """
    cache = KVCache()
    return np.stack([decode_step(layer, x, cache, rope_base=rope_base) for x in X])


def generate_naive(layer, X, rope_base=None):
    """Causal self-attention over X one token at a time, without a cache.

    At step n it recomputes the keys and values of tokens 0..n (one token per
    call) and the query of token n.

    Args:
        layer: query/key/value projections of one token each.
        X: (N, D) tokens in order.
        rope_base: if given, q and k are rotated at their positions 0..n.

    Returns:
        (N, d_v); row n is the output for token n. Exactly N(N+1)/2 key calls,
        N(N+1)/2 value calls and N query calls.
    """
    outputs = []
    for n in range(len(X)):
        q = layer.query(X[n])[None, :]  # (1, d_k)
        K = np.stack([layer.key(X[j]) for j in range(n + 1)])  # (n+1, d_k)
        V = np.stack([layer.value(X[j]) for j in range(n + 1)])  # (n+1, d_v)
        if rope_base is not None:
            q = rope(q, np.array([n], dtype=float), base=rope_base)
            K = rope(K, np.arange(n + 1, dtype=float), base=rope_base)
        out, _ = scaled_dot_product_attention(q, K, V)
        outputs.append(out[0])
    return np.stack(outputs)
