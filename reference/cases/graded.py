"""The graded cases: the inputs of every graded test (dev-time only; imports the reference via regen).

``python -m autograder regen`` calls ``build_cases`` and stores the result, with the
reference's outputs and the outputs of every known mistake (``reference/mistakes.py``,
plus a few other spellings of the same mistakes, ``extra_variants``) on the same inputs,
in ``autograder/suite/cases/graded.npz`` plus ``manifest.json``. The graded suite
(``autograder/suite/graded/``) reads only that file: the zip carries no reference code.

Two kinds of cases:
  * seeded random ones (``np.random.default_rng(seed)``, the seed derived from the case's id by
    ``cases.case_seed("graded", id)``, so adding or removing a case changes no other case;
    different shapes and seeds from the public cases, whose seeds are salted "public"), covering
    batch and head axes, n_q != n_k, masks, temperature, real-valued and offset RoPE
    positions, KV caches with and without RoPE;
  * the worksheets' numbers (seed None): Dis 10 Q1, PS4 Q3 (the seed's arithmetic
    slips are not used: the reference's numbers are the truth), Dis 11 Q1-Q3 and the
    Q&A's previous-token head.

Values that a float32 solution must reproduce within rtol=1e-5 are kept moderate:
large logits are exactly representable (integers and halves), scores stay small.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from autograder.devapi import Case, case_seed, make_case

from .random import build_cases as build_random_cases
from .variants import extra_variants, with_extra_mistakes

Inputs = dict[str, object]
SET = "graded"  # the salt of these cases' seeds (cases.case_seed)
INF = np.inf

# ---------------------------------------------------------------------------------------------------------
# Worksheet numbers
# ---------------------------------------------------------------------------------------------------------

# CS 189 Dis 10 Q1: three tokens of width 2 (rows), d_k = 3, d_v = 2. q_2 = [-1, 0, -2], z_3 = [2, 8, -20].
DIS10 = {
    "X": np.array([[2.0, 3.0], [-1.0, 0.0], [1.0, -2.0]]),
    "W_Q": np.array([[1.0, 0.0, 2.0], [0.0, 1.0, -3.0]]),
    "W_K": np.array([[0.0, 0.0, -1.0], [-2.0, 0.0, 1.0]]),
    "W_V": np.array([[8.0, 0.0], [0.0, 9.0]]),
}
DIS10_Q = DIS10["X"] @ DIS10["W_Q"]  # [[2, 3, -5], [-1, 0, -2], [1, -2, 8]]
DIS10_K = DIS10["X"] @ DIS10["W_K"]  # [[-6, 0, 1], [0, 0, 1], [4, 0, -3]]
DIS10_V = DIS10["X"] @ DIS10["W_V"]  # [[16, 27], [-8, 0], [8, -18]]

# CSCI 5922 PS4 Q3: I (3 x 4), unscaled attention. Exact: Q = [[1, 3], [-2, 1], [3, -2]],
# K = [[3, -1/2], [2, -3/2], [-5/2, 7/2]], V = [[5/2, -3/2], [-1, 3], [-2, -3]] (the seed's Q, K are wrong).
PS4 = {
    "X": np.array([[1.0, -1.0, 0.0, 2.0], [0.0, -1.0, 2.0, 1.0], [-2.0, 2.0, -1.0, 0.0]]),
    "W_Q": np.array([[0.0, 1.0], [1.0, 0.0], [-1.0, 0.0], [1.0, 1.0]]),
    "W_K": np.array([[1.0, -0.5], [0.0, 1.0], [0.5, -0.5], [1.0, 0.5]]),
    "W_V": np.array([[1.0, 0.5], [-0.5, 0.0], [-1.0, 2.0], [0.5, -1.0]]),
}
PS4_Q, PS4_K, PS4_V = (PS4["X"] @ PS4[w] for w in ("W_Q", "W_K", "W_V"))

# CS 189 Dis 11 Q2: the four 4 x 4 pre-softmax matrices.
DIS11_A = np.full((4, 4), 2.0)
DIS11_B = np.ones((4, 4)) + 9.0 * np.eye(4)
DIS11_C = np.where(np.tril(np.ones((4, 4), dtype=bool)), 5.0, -INF)
DIS11_D = np.where(np.roll(np.eye(4, dtype=bool), 1, axis=1), 5.0, -INF)
DIS11_THETA = 0.7  # Dis 11 Q1: RoPE(x_n, n) = R(n theta) x_n, tokens counted from 1

# The Q&A's previous-token head: residual = [one-hot token | one-hot position]; W_K reads the
# position, W_Q the shifted position (position n asks for n - 1), W_V the token.
VOCAB = ["Hello", "World", ".", "!", "Bye"]
SENTENCE = ["Hello", "World", ".", "Hello", "!", "Bye", "World"]


def previous_token_head() -> dict[str, np.ndarray]:
    """X (7 tokens) and the head's W_Q, W_K, W_V."""
    n_tok, n_pos = len(VOCAB), len(SENTENCE)
    tokens = np.eye(n_tok)[[VOCAB.index(t) for t in SENTENCE]]
    return {
        "X": np.hstack([tokens, np.eye(n_pos)]),
        "W_Q": np.vstack([np.zeros((n_tok, n_pos)), np.eye(n_pos, k=-1)]),
        "W_K": np.vstack([np.zeros((n_tok, n_pos)), np.eye(n_pos)]),
        "W_V": np.vstack([np.eye(n_tok), np.zeros((n_pos, n_tok))]),
    }


PREV = previous_token_head()
PREV_SHARPNESS = 60.0  # scores 60 vs 0: the softmax is one-hot to ~1e-26


def _prev_sdpa(_: np.random.Generator) -> Inputs:
    Q, K, V = (PREV["X"] @ PREV[w] for w in ("W_Q", "W_K", "W_V"))
    return {"Q": Q, "K": K, "V": V, "mask": np.tril(np.ones((7, 7), dtype=bool)), "scale": PREV_SHARPNESS}


def _prev_layer(_: np.random.Generator) -> Inputs:
    d_k = PREV["W_K"].shape[1]  # decode_step scales by 1/sqrt(d_k): scale W_Q up to get 60
    return {"layer.W_Q": PREV["W_Q"] * PREV_SHARPNESS * np.sqrt(d_k), "layer.W_K": PREV["W_K"],
            "layer.W_V": PREV["W_V"], "X": PREV["X"]}


def _dis10_decode(_: np.random.Generator) -> Inputs:
    """Token 3 of Dis 10 Q1 decoded over the cached tokens 1 and 2."""
    layer = {f"layer.{w}": DIS10[w] for w in ("W_Q", "W_K", "W_V")}
    return {**layer, "x": DIS10["X"][2], "cache.keys": DIS10_K[:2], "cache.values": DIS10_V[:2]}


# ---------------------------------------------------------------------------------------------------------
# Random inputs
# ---------------------------------------------------------------------------------------------------------


def _n(rng: np.random.Generator, *shape: int, scale: float = 1.0) -> np.ndarray:
    return scale * rng.standard_normal(shape)


def _weights(rng: np.random.Generator, D: int, d_k: int, d_v: int) -> Inputs:
    return {"W_Q": _n(rng, D, d_k), "W_K": _n(rng, D, d_k), "W_V": _n(rng, D, d_v)}


def _layer(rng: np.random.Generator, D: int, d_k: int, d_v: int) -> Inputs:
    return {f"layer.{name}": W for name, W in _weights(rng, D, d_k, d_v).items()}


def _rope_rows(M: np.ndarray, start: int, base: float | None) -> np.ndarray:
    """Rows of M rotated at positions start, start + 1, ... (how a correct cache holds keys)."""
    if base is None or len(M) == 0:
        return M
    from ..attention import rope

    return rope(M, np.arange(start, start + len(M), dtype=float), base=base)


def _cache(rng: np.random.Generator, rows: int, d_k: int, d_v: int, base: float | None = None) -> Inputs:
    return {"cache.keys": _rope_rows(_n(rng, rows, d_k), 0, base), "cache.values": _n(rng, rows, d_v)}


def _large_logits(_: np.random.Generator) -> np.ndarray:
    # exactly representable in float32, so a float32 solution is exact here too
    return np.array([[1000.0, 1001.0, 999.5, 1002.0, 998.0],
                     [-1000.0, -1003.0, -999.0, -1001.5, -1000.0],
                     [800.0, -800.0, 0.0, 5.0, 799.0]])


def _near_1000(rng: np.random.Generator, *shape: int) -> np.ndarray:
    """Logits 1000 + k/2 (exact in float32): without the max subtracted, exp() overflows."""
    return 1000.0 + np.round(_n(rng, *shape, scale=4.0)) / 2


def _all_neginf_rows(rng: np.random.Generator) -> np.ndarray:
    Z = _near_1000(rng, 4, 5)
    Z[1, :] = -INF
    Z[2, [0, 2, 4]] = -INF
    Z[3, :4] = -INF
    return Z


def _masked_rows(rng: np.random.Generator) -> Inputs:
    mask = rng.random((4, 5)) < 0.6
    mask[3, 4] = True
    mask[0, :] = False  # nothing to attend to: zero weights and zero output
    mask[2, :] = False
    mask[1, :] = True  # every key: a mask of the opposite polarity leaves this row nothing
    return {"Q": _n(rng, 4, 3), "K": _n(rng, 5, 3), "V": _n(rng, 5, 2), "mask": mask}


def _masked_heads(rng: np.random.Generator) -> Inputs:
    mask = rng.random((2, 1, 3, 5)) < 0.7
    mask[..., 0] = True  # every row keeps at least one key ...
    mask[1, 0, 2, :] = False  # ... except one, in the second batch, shared by both heads
    return {"Q": _n(rng, 2, 2, 3, 4), "K": _n(rng, 2, 2, 5, 4), "V": _n(rng, 2, 2, 5, 3), "mask": mask, "scale": 0.8}


def _padding_masks(rng: np.random.Generator) -> Inputs:
    causal = np.tril(np.ones((5, 5), dtype=bool))
    padded = np.ones((5, 5), dtype=bool)  # the second sequence attends both ways ...
    padded[:, 3:] = False  # ... and its last two tokens are padding
    padded[3:, 3:] = np.eye(2, dtype=bool)  # (padding tokens still see themselves: no empty rows)
    return {"X": _n(rng, 2, 5, 6), "W_Q": _n(rng, 6, 6), "W_K": _n(rng, 6, 6), "W_V": _n(rng, 6, 9),
            "W_O": _n(rng, 9, 4), "num_heads": 3, "mask": np.stack([causal, padded])}


def _kv(rng: np.random.Generator, rows: list[int | None], d_k: int, d_v: int) -> Inputs:
    """KVCache appends: None = one token (d,), T = a block (T, d)."""
    ks = tuple(_n(rng, d_k) if t is None else _n(rng, t, d_k) for t in rows)
    vs = tuple(_n(rng, d_v) if t is None else _n(rng, t, d_v) for t in rows)
    return {"k": ks, "v": vs}


# ---------------------------------------------------------------------------------------------------------
# The cases: (id, function, description, inputs). Inputs are positional, in order (see autograder.cases).
# ---------------------------------------------------------------------------------------------------------

Spec = tuple[str, str, str, Callable[[np.random.Generator], Inputs]]
W = ("W_Q", "W_K", "W_V")

SPECS: list[Spec] = [
    # --- Part A: qkv_project ---
    ("qkv-rect", "qkv_project", "5 tokens of width 3; d_k = 4, d_v = 2",
     lambda r: {"X": _n(r, 5, 3), **_weights(r, 3, 4, 2)}),
    ("qkv-square", "qkv_project", "square weights (D = d_k = d_v = 4)",
     lambda r: {"X": _n(r, 3, 4), **_weights(r, 4, 4, 4)}),
    ("qkv-batch", "qkv_project", "X with batch and head axes (3, 2, 4, 5); d_k = 2, d_v = 3",
     lambda r: {"X": _n(r, 3, 2, 4, 5), **_weights(r, 5, 2, 3)}),
    ("qkv-dis10", "qkv_project", "Dis 10 Q1: x_1, x_2, x_3 and W_Q, W_K, W_V",
     lambda r: {"X": DIS10["X"], **{w: DIS10[w] for w in W}}),
    ("qkv-ps4", "qkv_project", "PS4 Q3: I and W_Q, W_K, W_V",
     lambda r: {"X": PS4["X"], **{w: PS4[w] for w in W}}),
    # --- Part A: attention_scores ---
    ("scores-more-keys", "attention_scores", "3 queries against 6 keys, d_k = 4",
     lambda r: {"Q": _n(r, 3, 4), "K": _n(r, 6, 4)}),
    ("scores-square-k", "attention_scores", "5 queries against 4 keys of width 4",
     lambda r: {"Q": _n(r, 5, 4), "K": _n(r, 4, 4)}),
    ("scores-batch", "attention_scores", "batch and head axes (2, 3); 4 queries, 6 keys, d_k = 5",
     lambda r: {"Q": _n(r, 2, 3, 4, 5), "K": _n(r, 2, 3, 6, 5)}),
    ("scores-dis10", "attention_scores", "Dis 10 Q1: Q and K of the three tokens",
     lambda r: {"Q": DIS10_Q, "K": DIS10_K}),
    ("scores-ps4", "attention_scores", "PS4 Q3: Q and K", lambda r: {"Q": PS4_Q, "K": PS4_K}),
    # --- Part B: softmax ---
    ("softmax-rows", "softmax", "a 4 x 6 matrix along the last axis",
     lambda r: {"Z": _n(r, 4, 6, scale=2.0), "axis": -1, "temperature": 1.0}),
    ("softmax-square", "softmax", "a 5 x 5 matrix along the last axis",
     lambda r: {"Z": _n(r, 5, 5, scale=2.0), "axis": -1, "temperature": 1.0}),
    ("softmax-axis1", "softmax", "a (3, 4, 5) array along axis=1",
     lambda r: {"Z": _n(r, 3, 4, 5, scale=2.0), "axis": 1, "temperature": 1.0}),
    ("softmax-axis0", "softmax", "a 5 x 3 matrix along axis=0 (columns sum to 1)",
     lambda r: {"Z": _n(r, 5, 3, scale=2.0), "axis": 0, "temperature": 1.0}),
    ("softmax-large", "softmax", "logits near +1000, -1000 and a row spanning -800..800",
     lambda r: {"Z": _large_logits(r), "axis": -1, "temperature": 1.0}),
    ("softmax-dis11-A", "softmax", "Dis 11 Q2 matrix A (all 2)",
     lambda r: {"Z": DIS11_A, "axis": -1, "temperature": 1.0}),
    ("softmax-dis11-B", "softmax", "Dis 11 Q2 matrix B (10 on the diagonal, 1 elsewhere)",
     lambda r: {"Z": DIS11_B, "axis": -1, "temperature": 1.0}),
    ("softmax-dis11-C", "softmax", "Dis 11 Q2 matrix C (causal: 5, -inf above the diagonal)",
     lambda r: {"Z": DIS11_C, "axis": -1, "temperature": 1.0}),
    ("softmax-dis11-D", "softmax", "Dis 11 Q2 matrix D (a cyclic shift, -inf elsewhere)",
     lambda r: {"Z": DIS11_D, "axis": -1, "temperature": 1.0}),
    ("softmax-dis11-cold", "softmax", "Dis 11 Q2c: matrix B at T = 0.001 (one-hot)",
     lambda r: {"Z": DIS11_B, "axis": -1, "temperature": 1e-3}),
    ("softmax-dis11-warm", "softmax", "Dis 11 Q2c: matrix B at T = 3",
     lambda r: {"Z": DIS11_B, "axis": -1, "temperature": 3.0}),
    ("softmax-dis11-hot", "softmax", "Dis 11 Q2c: matrix B at T = 1e6 (uniform)",
     lambda r: {"Z": DIS11_B, "axis": -1, "temperature": 1e6}),
    ("softmax-neginf-rows", "softmax", "logits near 1000; rows with some, all but one, and all entries -inf",
     lambda r: {"Z": _all_neginf_rows(r), "axis": -1, "temperature": 1.0}),
    ("softmax-neginf-column", "softmax", "logits near 1000 along axis=0; column 2 is all -inf",
     lambda r: {"Z": np.where(np.arange(4) == 2, -INF, _near_1000(r, 3, 4)), "axis": 0, "temperature": 1.0}),
    ("softmax-temperature-batch", "softmax", "a (2, 3, 4) array along the last axis at T = 0.5",
     lambda r: {"Z": _n(r, 2, 3, 4), "axis": -1, "temperature": 0.5}),
    ("softmax-temperature-axis0", "softmax", "a 4 x 5 matrix along axis=0 at T = 2.5",
     lambda r: {"Z": _n(r, 4, 5, scale=3.0), "axis": 0, "temperature": 2.5}),
    # --- Part C: causal_mask ---
    ("mask-square", "causal_mask", "6 queries, n_k left at its default", lambda r: {"n_q": 6}),
    ("mask-more-keys", "causal_mask", "3 new queries over 7 keys", lambda r: {"n_q": 3, "n_k": 7}),
    ("mask-dis11-C", "causal_mask", "Dis 11 Q2 matrix C: 4 queries over 4 keys", lambda r: {"n_q": 4, "n_k": 4}),
    ("mask-one-query", "causal_mask", "1 query (the newest token) over 7 keys", lambda r: {"n_q": 1, "n_k": 7}),
    ("mask-more-queries", "causal_mask", "6 queries over 4 keys", lambda r: {"n_q": 6, "n_k": 4}),
    # --- Part C: scaled_dot_product_attention ---
    ("sdpa-default-scale", "scaled_dot_product_attention", "3 queries, 5 keys, d_k = 4, d_v = 2, no mask",
     lambda r: {"Q": _n(r, 3, 4), "K": _n(r, 5, 4), "V": _n(r, 5, 2)}),
    ("sdpa-explicit-scale", "scaled_dot_product_attention", "4 queries and keys, mask None, scale = 0.5",
     lambda r: {"Q": _n(r, 4, 3), "K": _n(r, 4, 3), "V": _n(r, 4, 2), "mask": None, "scale": 0.5}),
    ("sdpa-causal", "scaled_dot_product_attention", "5 tokens with the causal mask, d_k = 4, d_v = 3",
     lambda r: {"Q": _n(r, 5, 4), "K": _n(r, 5, 4), "V": _n(r, 5, 3), "mask": np.tril(np.ones((5, 5), bool))}),
    ("sdpa-batch", "scaled_dot_product_attention", "batch and head axes (2, 3), 4 queries, 6 keys, a (4, 6) mask",
     lambda r: {"Q": _n(r, 2, 3, 4, 8), "K": _n(r, 2, 3, 6, 8), "V": _n(r, 2, 3, 6, 5),
                "mask": np.tril(np.ones((4, 6), bool), k=2)}),
    ("sdpa-dis10", "scaled_dot_product_attention", "Dis 10 Q1: Q, K, V of the three tokens, scale=1.0",
     lambda r: {"Q": DIS10_Q, "K": DIS10_K, "V": DIS10_V, "mask": None, "scale": 1.0}),
    ("sdpa-ps4", "scaled_dot_product_attention", "PS4 Q3: Q, K, V, unscaled (scale=1.0)",
     lambda r: {"Q": PS4_Q, "K": PS4_K, "V": PS4_V, "mask": None, "scale": 1.0}),
    ("sdpa-previous-token", "scaled_dot_product_attention",
     "Q&A previous-token head over 'Hello World . Hello ! Bye World', causal, scale=60", _prev_sdpa),
    ("sdpa-fully-masked", "scaled_dot_product_attention",
     "a (4, 5) mask whose rows 0 and 2 are all False and row 1 all True", _masked_rows),
    ("sdpa-mask-heads", "scaled_dot_product_attention", "a (2, 1, 3, 5) mask broadcast over 2 heads, scale = 0.8",
     _masked_heads),
    # --- Part D: multi_head_attention ---
    ("mha-two-heads", "multi_head_attention", "5 tokens, 2 heads, d_k = 3, d_v = 2, D_out = 5",
     lambda r: {"X": _n(r, 5, 6), **_weights(r, 6, 6, 4), "W_O": _n(r, 4, 5), "num_heads": 2}),
    ("mha-one-head", "multi_head_attention", "1 head: scaled dot-product attention, then W_O",
     lambda r: {"X": _n(r, 4, 5), **_weights(r, 5, 3, 2), "W_O": _n(r, 2, 4), "num_heads": 1}),
    ("mha-causal", "multi_head_attention", "6 tokens, 4 heads of width 2, the causal mask",
     lambda r: {"X": _n(r, 6, 8), **_weights(r, 8, 8, 8), "W_O": _n(r, 8, 8), "num_heads": 4,
                "mask": np.tril(np.ones((6, 6), bool))}),
    ("mha-batch", "multi_head_attention", "a batch of 2, 4 heads, d_k = 3, d_v = 2, D_out = 6",
     lambda r: {"X": _n(r, 2, 5, 8), **_weights(r, 8, 12, 8), "W_O": _n(r, 8, 6), "num_heads": 4}),
    ("mha-batch-masks", "multi_head_attention", "a batch of 2 with its own (5, 5) mask each, 3 heads",
     _padding_masks),
    # --- Part E: rotation_matrix ---
    ("rotation-quarter", "rotation_matrix", "a quarter turn, pi/2", lambda r: {"angle": np.pi / 2}),
    ("rotation-small", "rotation_matrix", "0.4 radians", lambda r: {"angle": 0.4}),
    ("rotation-negative", "rotation_matrix", "-1.2 radians", lambda r: {"angle": -1.2}),
    ("rotation-dis11-2theta", "rotation_matrix", "Dis 11 Q1: R(2 theta), theta = 0.7", lambda r: {"angle": 1.4}),
    ("rotation-dis11-5theta", "rotation_matrix", "Dis 11 Q1: R(5 theta), theta = 0.7", lambda r: {"angle": 3.5}),
    ("rotation-dis11-big", "rotation_matrix", "10 radians (more than a full turn)", lambda r: {"angle": 10.0}),
    # --- Part E: rope ---
    ("rope-d2", "rope", "d = 2, positions 0..4, default base",
     lambda r: {"x": _n(r, 5, 2), "positions": np.arange(5.0)}),
    ("rope-d8", "rope", "d = 8, positions 0..5, base 100",
     lambda r: {"x": _n(r, 6, 8), "positions": np.arange(6.0), "base": 100.0}),
    ("rope-batch", "rope", "x with batch and head axes (2, 3, 4, 6), positions 0..3, base 10000",
     lambda r: {"x": _n(r, 2, 3, 4, 6), "positions": np.arange(4.0), "base": 10000.0}),
    ("rope-real-positions", "rope", "d = 4, positions 0.5, -1.25, 3.7, 10, base 50",
     lambda r: {"x": _n(r, 4, 4), "positions": np.array([0.5, -1.25, 3.7, 10.0]), "base": 50.0}),
    ("rope-dis11", "rope", "Dis 11 Q1: d = 2, positions n * theta for n = 1..5, theta = 0.7",
     lambda r: {"x": _n(r, 5, 2), "positions": DIS11_THETA * np.arange(1.0, 6.0)}),
    ("rope-offset", "rope", "d = 6, positions 7..10 (a later chunk of a sequence), base 100",
     lambda r: {"x": _n(r, 4, 6), "positions": np.arange(7.0, 11.0), "base": 100.0}),
    ("rope-one-token", "rope", "one token (1, 4) at position 12, default base",
     lambda r: {"x": _n(r, 1, 4), "positions": np.array([12.0])}),
    # --- Part F: KVCache ---
    ("kv-tokens", "KVCache", "four appends of one token (d_k = 3, d_v = 2)",
     lambda r: _kv(r, [None, None, None, None], 3, 2)),
    ("kv-blocks", "KVCache", "a block of 3 tokens, one token, then a block of 2 (d_k = 2, d_v = 4)",
     lambda r: _kv(r, [3, None, 2], 2, 4)),
    ("kv-mixed", "KVCache", "one token, a block of 1, a block of 4, two tokens (d_k = 5, d_v = 1)",
     lambda r: _kv(r, [None, 1, 4, None, None], 5, 1)),
    ("kv-pairs", "KVCache", "three blocks of 2 tokens (d_k = 3, d_v = 3)", lambda r: _kv(r, [2, 2, 2], 3, 3)),
    # --- Part F: decode_step ---
    ("decode-three-cached", "decode_step", "a cache of 3 tokens; D = 5, d_k = 3, d_v = 4",
     lambda r: {**_layer(r, 5, 3, 4), "x": _n(r, 5), **_cache(r, 3, 3, 4)}),
    ("decode-rope", "decode_step", "RoPE base 100 at position len(cache) = 4; d_k = 4",
     lambda r: {**_layer(r, 4, 4, 3), "x": _n(r, 4), **_cache(r, 4, 4, 3, base=100.0), "rope_base": 100.0}),
    ("decode-empty", "decode_step", "the first token: an empty cache",
     lambda r: {**_layer(r, 3, 2, 2), "x": _n(r, 3), **_cache(r, 0, 2, 2)}),
    ("decode-rope-long", "decode_step", "RoPE base 10000 at position len(cache) = 9; d_k = 6",
     lambda r: {**_layer(r, 4, 6, 2), "x": _n(r, 4), **_cache(r, 9, 6, 2, base=10000.0), "rope_base": 10000.0}),
    ("decode-rope-first", "decode_step", "RoPE base 100 on an empty cache (position 0)",
     lambda r: {**_layer(r, 3, 4, 3), "x": _n(r, 3), **_cache(r, 0, 4, 3), "rope_base": 100.0}),
    ("decode-dis10", "decode_step", "Dis 10 Q1: token 3 over the cached tokens 1 and 2", _dis10_decode),
    # --- Part F: generate_cached ---
    ("cached-six", "generate_cached", "6 tokens; D = 5, d_k = 3, d_v = 2",
     lambda r: {**_layer(r, 5, 3, 2), "X": _n(r, 6, 5)}),
    ("cached-one", "generate_cached", "Dis 11 Q3: a single token", lambda r: {**_layer(r, 3, 2, 2), "X": _n(r, 1, 3)}),
    ("cached-previous-token", "generate_cached", "Dis 11 Q3 and the Q&A previous-token head, 7 tokens",
     _prev_layer),
    ("cached-rope", "generate_cached", "8 tokens, RoPE base 10000; d_k = 4, d_v = 3",
     lambda r: {**_layer(r, 4, 4, 3), "X": _n(r, 8, 4), "rope_base": 10000.0}),
    # --- Part F: generate_naive ---
    ("naive-six", "generate_naive", "6 tokens; D = 5, d_k = 3, d_v = 2",
     lambda r: {**_layer(r, 5, 3, 2), "X": _n(r, 6, 5)}),
    ("naive-rope", "generate_naive", "5 tokens, RoPE base 100; d_k = 4, d_v = 2",
     lambda r: {**_layer(r, 3, 4, 2), "X": _n(r, 5, 3), "rope_base": 100.0}),
    ("naive-one", "generate_naive", "Dis 11 Q3: N = 1", lambda r: {**_layer(r, 3, 2, 2), "X": _n(r, 1, 3)}),
    ("naive-two", "generate_naive", "Dis 11 Q3: N = 2", lambda r: {**_layer(r, 3, 2, 3), "X": _n(r, 2, 3)}),
    ("naive-seven", "generate_naive", "Dis 11 Q3: N = 7", lambda r: {**_layer(r, 4, 3, 2), "X": _n(r, 7, 4)}),
    ("naive-rope-long", "generate_naive", "8 tokens, RoPE base 10000; d_k = 6, d_v = 3",
     lambda r: {**_layer(r, 4, 6, 3), "X": _n(r, 8, 4), "rope_base": 10000.0}),
]


def build_cases() -> list[Case]:
    """Every graded case, in SPECS order; each draws its random inputs with the seed of its id.

    Worksheet cases (whose inputs are fixed numbers) record seed None. The random-shape cases
    (``random_cases``, seeded the same way) come last.
    """
    cases, extra = [], extra_variants()
    for case_id, function, description, make_inputs in SPECS:
        seed = case_seed(SET, case_id)
        rng = np.random.default_rng(seed)
        inputs = make_inputs(rng)
        used = rng.bit_generator.state != np.random.default_rng(seed).bit_generator.state
        case = make_case(case_id, function, inputs, seed=seed if used else None, description=description)
        cases.append(with_extra_mistakes(case, extra.get(function, {})))
    return cases + build_random_cases()
