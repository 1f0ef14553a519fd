"""Transformer attention in numpy: your solution.

Rows are tokens everywhere: ``X`` has shape ``(..., N, D)``, where ``...`` is any
number of leading batch/head axes (possibly none). Every function returns new
arrays and never modifies its inputs.

Parts follow the worksheets:
  A  projections and scores        CS 189 Dis 10 Q1(a,b)
  B  softmax                       Dis 10 Q1(c,f), Dis 11 Q2
  C  masks, scaled dot-product     Dis 10 Q2, Dis 11 Q2
  D  multi-head attention          CSCI 5922 PS4 Q2(c)
  E  rotary positional embeddings  Dis 11 Q1
  F  KV caching                    Dis 11 Q3

This is your file. Replace each ``raise NotImplementedError(...)`` by your code; its
message is a hint. Use only numpy and the Python standard library, keep every name and
signature, never modify an input array, and leave the given ``AttentionLayer`` as it is.

Run the public tests from this folder with ``python -m pytest -q``: a failing test
says what was compared, where it differs and, when it recognises one, the likely
mistake. Then submit this file (or attention.ipynb if you work in the notebook).
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
    raise NotImplementedError("Dis 10 Q1(a): q_i = W_Q^T x_i, one row per token")


def attention_scores(Q, K):
    """Unscaled attention scores: every query against every key.

    Args:
        Q: (..., N_q, d_k) queries.
        K: (..., N_k, d_k) keys.

    Returns:
        Z: (..., N_q, N_k) with Z[..., i, j] = Q[..., i, :] . K[..., j, :]
        (Dis 10 Q1b: z_ij = q_i^T k_j).
    """
    raise NotImplementedError("Dis 10 Q1(b): z_ij = q_i^T k_j for every pair (i, j)")


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
    raise NotImplementedError("Dis 10 Q1(c) and Dis 11 Q2: exp(z/T) / sum exp(z/T); subtract the max first")


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
    raise NotImplementedError("Dis 11 Q2(C): query i sees key j iff j <= i + (n_k - n_q)")


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
    raise NotImplementedError("Dis 10 Q2 and PS4 Q2(a): softmax(Q K^T / sqrt(d_k)) V, masked scores = -inf")


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
    raise NotImplementedError("PS4 Q2(c): split into heads, attend per head (1/sqrt(d_k)), concat, @ W_O")


# ----------------------------------------------------------------------------
# Part E: rotary positional embeddings (Dis 11 Q1)
# ----------------------------------------------------------------------------


def rotation_matrix(angle):
    """Counter-clockwise 2-D rotation by ``angle`` radians.

    Returns:
        (2, 2) array [[cos a, -sin a], [sin a, cos a]].
    """
    raise NotImplementedError("Dis 11 Q1(c): R(a) = [[cos a, -sin a], [sin a, cos a]]")


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
    raise NotImplementedError("Dis 11 Q1(c,d): rotate pair (2i, 2i+1) of row n by positions[n] * base**(-2i/d)")


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
        raise NotImplementedError("Dis 11 Q3: keep every appended key and value, oldest first")

    def append(self, k, v):
        """Add the key(s) k: (d_k,) or (T, d_k) and value(s) v: (d_v,) or (T, d_v)."""
        raise NotImplementedError("Dis 11 Q3: add rows after the ones already cached (never overwrite)")

    @property
    def keys(self):
        """(len, d_k) every cached key, oldest first."""
        raise NotImplementedError("Dis 11 Q3: stack the cached keys into one (len, d_k) array")

    @property
    def values(self):
        """(len, d_v) every cached value, oldest first."""
        raise NotImplementedError("Dis 11 Q3: stack the cached values into one (len, d_v) array")

    def __len__(self):
        """The number of cached tokens."""
        raise NotImplementedError("Dis 11 Q3: the number of tokens (rows) cached so far")


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
    raise NotImplementedError("Dis 11 Q3: project x once, rotate at len(cache), append k and v, attend")


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
    raise NotImplementedError("Dis 11 Q3: a fresh KVCache, then decode_step on each row of X in order")


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
    raise NotImplementedError("Dis 11 Q3: at step n recompute k and v of tokens 0..n and q of token n, then attend")
