"""Properties of reference/attention.py that hold for every input (contract invariants).

Every test runs with Python warnings as errors and numpy's divide/overflow/invalid
floating-point flags raising, so "no numpy warnings anywhere" is checked throughout.
"""

from __future__ import annotations

import math

import numpy as np
import pytest

from tests.homework import module as homework_module

ref = homework_module('attention')


pytestmark = pytest.mark.filterwarnings("error")


@pytest.fixture(autouse=True)
def _floating_point_errors_raise():
    with np.errstate(divide="raise", over="raise", invalid="raise"):
        yield


# ---- softmax -----------------------------------------------------------------------------------


@pytest.mark.parametrize("temperature", [1.0, 0.1, 10.0])
@pytest.mark.parametrize("axis", [0, 1, 2, -1, -2, -3])
def test_softmax_slices_sum_to_one_along_any_axis(axis, temperature):
    Z = np.random.default_rng(0).normal(scale=5.0, size=(3, 4, 5))
    P = ref.softmax(Z, axis=axis, temperature=temperature)
    assert P.shape == Z.shape and (P >= 0).all()
    np.testing.assert_allclose(P.sum(axis=axis), 1.0, rtol=0, atol=1e-14)


@pytest.mark.parametrize(
    "logits, expected",
    [
        ([1000.0, 1000.0], [0.5, 0.5]),
        ([1000.0, 0.0], [1.0, 0.0]),
        ([-1000.0, -1000.0, -1000.0, -1000.0], [0.25] * 4),
        ([-1000.0, 0.0], [0.0, 1.0]),
        ([1000.0, -1000.0], [1.0, 0.0]),
        ([1000.0, 999.0], [1 / (1 + math.exp(-1)), 1 / (1 + math.e)]),
    ],
)
def test_softmax_is_stable_at_logits_of_plus_and_minus_1000(logits, expected):
    np.testing.assert_allclose(ref.softmax(np.array(logits)), expected, rtol=0, atol=1e-15)


def test_softmax_gives_minus_inf_entries_weight_zero():
    Z = np.array([[1.0, -np.inf, 2.0], [-np.inf, 0.0, -np.inf]])
    P = ref.softmax(Z)
    assert P[0, 1] == 0.0 and P[1, 0] == 0.0 and P[1, 2] == 0.0
    np.testing.assert_allclose(P[0, [0, 2]], ref.softmax(np.array([1.0, 2.0])), rtol=1e-15)
    assert P[1, 1] == 1.0


@pytest.mark.parametrize("axis", [0, 1, -1])
def test_softmax_of_a_fully_minus_inf_slice_is_all_zeros(axis):
    Z = np.random.default_rng(1).normal(size=(3, 4))
    Z[1, :] = -np.inf
    Z[:, 2] = -np.inf
    P = ref.softmax(Z, axis=axis)
    assert not np.isnan(P).any()
    dead = np.isneginf(Z).all(axis=axis, keepdims=True)
    assert (P[np.broadcast_to(dead, P.shape)] == 0.0).all()
    np.testing.assert_allclose(P.sum(axis=axis), np.where(dead.squeeze(axis), 0.0, 1.0), atol=1e-15)


# ---- masks and attention -----------------------------------------------------------------------


@pytest.mark.parametrize("n_q", [1, 2, 5])
@pytest.mark.parametrize("n_k", [1, 3, 5, 8])
def test_causal_mask_is_the_bottom_right_definition(n_q, n_k):
    mask = ref.causal_mask(n_q, n_k)
    assert mask.shape == (n_q, n_k) and mask.dtype == bool
    for i in range(n_q):
        for j in range(n_k):
            assert mask[i, j] == (j <= i + (n_k - n_q))
    assert mask[-1].all()  # the newest token sees every key
    np.testing.assert_array_equal(ref.causal_mask(n_q), np.tril(np.ones((n_q, n_q), dtype=bool)))


def test_sdpa_fully_masked_row_gives_zero_weights_and_zero_output_without_warnings():
    rng = np.random.default_rng(2)
    Q, K, V = rng.normal(size=(2, 4, 3)), rng.normal(size=(2, 6, 3)), rng.normal(size=(2, 6, 5))
    mask = ref.causal_mask(4, 2)[:, [0, 1, 0, 1, 0, 1]]  # rows 0 and 1 see nothing
    out, weights = ref.scaled_dot_product_attention(Q, K, V, mask=mask)
    assert (out[:, :2] == 0).all() and (weights[:, :2] == 0).all()
    np.testing.assert_allclose(weights[:, 2:].sum(-1), 1.0, atol=1e-15)


def test_sdpa_is_stable_at_huge_scores():
    rng = np.random.default_rng(3)
    Q, K, V = 40.0 * rng.normal(size=(5, 8)), 40.0 * rng.normal(size=(5, 8)), rng.normal(size=(5, 2))
    out, weights = ref.scaled_dot_product_attention(Q, K, V, mask=ref.causal_mask(5))
    assert np.isfinite(out).all()
    np.testing.assert_allclose(weights.sum(-1), 1.0, atol=1e-14)


def test_multi_head_attention_with_one_head_equals_sdpa_times_w_o():
    rng = np.random.default_rng(4)
    X = rng.normal(size=(2, 5, 6))
    W_Q, W_K, W_V, W_O = (
        rng.normal(size=(6, 4)),
        rng.normal(size=(6, 4)),
        rng.normal(size=(6, 3)),
        rng.normal(size=(3, 7)),
    )
    mask = ref.causal_mask(5)
    heads, _ = ref.scaled_dot_product_attention(*ref.qkv_project(X, W_Q, W_K, W_V), mask=mask)
    got = ref.multi_head_attention(X, W_Q, W_K, W_V, W_O, 1, mask=mask)
    np.testing.assert_allclose(got, heads @ W_O, rtol=0, atol=1e-12)
    np.testing.assert_allclose(
        ref.multi_head_attention(X, W_Q, W_K, W_V, np.eye(3), 1),
        ref.scaled_dot_product_attention(*ref.qkv_project(X, W_Q, W_K, W_V))[0],
        rtol=0,
        atol=1e-12,
    )


# ---- RoPE --------------------------------------------------------------------------------------


@pytest.mark.parametrize("d", [2, 8, 64])
def test_rope_preserves_the_norm_of_every_pair_and_row(d):
    rng = np.random.default_rng(d)
    x, positions = rng.normal(size=(2, 3, 6, d)), rng.uniform(-100, 100, size=6)
    y = ref.rope(x, positions)
    pair_norms = np.hypot(x[..., 0::2], x[..., 1::2])
    np.testing.assert_allclose(np.hypot(y[..., 0::2], y[..., 1::2]), pair_norms, rtol=1e-13)
    np.testing.assert_allclose(np.linalg.norm(y, axis=-1), np.linalg.norm(x, axis=-1), rtol=1e-13)


@pytest.mark.parametrize("m, n", [(0.0, 3.0), (5.0, 2.0), (1.5, 1.5), (-7.25, 12.5)])
@pytest.mark.parametrize("shift", [1.0, 17.0, -4.5, 1000.0])
def test_rope_inner_product_depends_on_m_minus_n_only(m, n, shift):
    rng = np.random.default_rng(5)
    q, k = rng.normal(size=(1, 16)), rng.normal(size=(1, 16))

    def score(a, b):
        return float(ref.rope(q, [a])[0] @ ref.rope(k, [b])[0])

    np.testing.assert_allclose(score(m + shift, n + shift), score(m, n), rtol=0, atol=1e-11)
    np.testing.assert_allclose(score(m - n, 0.0), score(m, n), rtol=0, atol=1e-11)


# ---- KV caching --------------------------------------------------------------------------------


def full_causal(X, W_Q, W_K, W_V, rope_base):
    Q, K, V = ref.qkv_project(X, W_Q, W_K, W_V)
    if rope_base is not None:
        positions = np.arange(len(X), dtype=float)
        Q, K = ref.rope(Q, positions, base=rope_base), ref.rope(K, positions, base=rope_base)
    return ref.scaled_dot_product_attention(Q, K, V, mask=ref.causal_mask(len(X)))[0]


@pytest.mark.parametrize("rope_base", [None, 10000.0, 10.0])
@pytest.mark.parametrize("N", [1, 4, 9])
def test_cached_equals_naive_equals_full_causal_attention_row_by_row(N, rope_base):
    rng = np.random.default_rng(N)
    W, X = (
        (rng.normal(size=(5, 4)), rng.normal(size=(5, 4)), rng.normal(size=(5, 3))),
        rng.normal(size=(N, 5)),
    )
    full = full_causal(X, *W, rope_base)
    np.testing.assert_allclose(ref.generate_cached(ref.AttentionLayer(*W), X, rope_base), full, atol=1e-12)
    np.testing.assert_allclose(ref.generate_naive(ref.AttentionLayer(*W), X, rope_base), full, atol=1e-12)
    cache, layer = ref.KVCache(), ref.AttentionLayer(*W)
    for n in range(N):  # row n only needs tokens 0..n
        np.testing.assert_allclose(ref.decode_step(layer, X[n], cache, rope_base), full[n], atol=1e-12)
        np.testing.assert_allclose(full_causal(X[: n + 1], *W, rope_base)[n], full[n], atol=1e-12)
        assert len(cache) == n + 1


# ---- every function: inputs, dtypes, batch axes ------------------------------------------------


def calls(rng):
    """name -> (function, positional args) for every contract function, all arrays float64."""
    X, W = rng.normal(size=(2, 4, 6)), [rng.normal(size=(6, 6)) for _ in range(4)]
    Q, K, V = rng.normal(size=(2, 4, 3)), rng.normal(size=(2, 5, 3)), rng.normal(size=(2, 5, 2))
    Z = rng.normal(size=(3, 4))
    Z[0] = -np.inf
    mask = ref.causal_mask(4, 5)
    Wl = (rng.normal(size=(6, 4)), rng.normal(size=(6, 4)), rng.normal(size=(6, 3)))

    def decode(x, k0, v0):
        cache = ref.KVCache()
        cache.append(k0, v0)
        return ref.decode_step(ref.AttentionLayer(*Wl), x, cache, 100.0)

    return {
        "qkv_project": (ref.qkv_project, (X, W[0], W[1], W[2])),
        "attention_scores": (ref.attention_scores, (Q, K)),
        "softmax": (lambda z: ref.softmax(z, axis=0, temperature=0.5), (Z,)),
        "scaled_dot_product_attention": (ref.scaled_dot_product_attention, (Q, K, V, mask)),
        "multi_head_attention": (lambda *a: ref.multi_head_attention(*a, 3, ref.causal_mask(4)), (X, *W)),
        "rotation_matrix": (ref.rotation_matrix, (np.array(0.7),)),
        "rope": (ref.rope, (rng.normal(size=(2, 4, 6)), rng.uniform(0, 9, size=4))),
        "KVCache.append": (lambda k, v: ref.KVCache().append(k, v), (K[0], V[0])),
        "decode_step": (decode, (X[0, 0], rng.normal(size=(3, 4)), rng.normal(size=(3, 3)))),
        "generate_cached": (lambda x: ref.generate_cached(ref.AttentionLayer(*Wl), x, 10.0), (X[0],)),
        "generate_naive": (lambda x: ref.generate_naive(ref.AttentionLayer(*Wl), x, 10.0), (X[0],)),
    }


FUNCTIONS = list(calls(np.random.default_rng(0)))


@pytest.mark.parametrize("name", FUNCTIONS)
def test_function_does_not_modify_its_inputs(name):
    fn, args = calls(np.random.default_rng(6))[name]
    copies = [np.array(a, copy=True) for a in args]
    for a in args:
        a.flags.writeable = False  # an in-place write would raise
    fn(*args)
    for a, c in zip(args, copies):
        np.testing.assert_array_equal(a, c)


def test_kv_cache_keeps_its_own_copy_of_appended_rows():
    k, v = np.ones(3), np.ones(2)
    cache = ref.KVCache()
    cache.append(k, v)
    k[:] = 5.0
    v[:] = 5.0
    assert (cache.keys == 1.0).all() and (cache.values == 1.0).all()


def as_tuple(result):
    return result if isinstance(result, tuple) else (result,)


@pytest.mark.parametrize("name", FUNCTIONS)
def test_function_accepts_float32_inputs(name):
    fn, args = calls(np.random.default_rng(7))[name]
    want = as_tuple(fn(*args))
    got = as_tuple(fn(*(a.astype(np.float32) for a in args)))
    assert len(got) == len(want)
    for g, w in zip(got, want):
        if w is None:  # KVCache.append returns nothing
            assert g is None
            continue
        assert isinstance(g, np.ndarray) and g.shape == w.shape
        np.testing.assert_allclose(g, w, rtol=1e-5, atol=1e-5)


BATCHED = {
    "qkv_project": lambda X, M: ref.qkv_project(X, M[0], M[1], M[2]),
    "attention_scores": lambda X, M: ref.attention_scores(X, X[..., ::-1, :]),
    "softmax_last_axis": lambda X, M: ref.softmax(X),
    "softmax_row_axis": lambda X, M: ref.softmax(X, axis=-2, temperature=3.0),
    "scaled_dot_product_attention": lambda X, M: ref.scaled_dot_product_attention(
        X, X, X[..., :3], mask=M[3]
    ),
    "multi_head_attention": lambda X, M: ref.multi_head_attention(X, M[0], M[1], M[2], M[2].T, 2, mask=M[3]),
    "rope": lambda X, M: ref.rope(X, np.array([0.0, 1.5, 2.0, 7.0, -3.0])),
}


@pytest.mark.parametrize("name", list(BATCHED))
def test_batched_call_equals_the_loop_over_the_batch(name):
    rng = np.random.default_rng(8)
    X = rng.normal(size=(2, 3, 5, 6))
    W = [rng.normal(size=(6, 6)) for _ in range(3)]
    masks = rng.random((2, 3, 5, 5)) < 0.5
    fn = BATCHED[name]
    got = as_tuple(fn(X, [*W, masks]))
    for a in range(2):
        for b in range(3):
            one = as_tuple(fn(X[a, b], [*W, masks[a, b]]))
            assert len(one) == len(got)
            for g, o in zip(got, one):
                np.testing.assert_allclose(g[a, b], o, rtol=0, atol=1e-12)
