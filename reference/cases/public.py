"""The public cases: small examples of our own that students test against before submitting.

None of them uses the worksheets' numbers (those are kept for the hidden tests): the
inputs are drawn from ``np.random.default_rng(seed)``, the seed derived from the case's id
(``cases.case_seed("public", id)``: adding a case changes no other), and the few
hand-written ones (large logits, a fully masked row) are not from any worksheet.
Together they cover batch/head axes, n_q != n_k, a fully masked row, large logits,
temperature, real-valued RoPE positions, and a KV cache with RoPE. ``regen`` stores
them in ``student_template/public_cases.npz``.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from autograder.devapi import Case, case_seed, make_case

from .graded import _cache, _layer, _n  # the same input generators

Inputs = dict[str, object]
SET = "public"  # the salt of these cases' seeds (cases.case_seed)


def build_cases() -> list[Case]:
    """Every public case, in contract order; each draws its inputs with the seed of its id."""
    cases = []
    for function, slug, description, make_inputs in SPECS:
        case_id = f"{function}-{slug}"
        seed = case_seed(SET, case_id)
        inputs = make_inputs(np.random.default_rng(seed))
        cases.append(make_case(case_id, function, inputs, seed=seed, description=description))
    return cases


def _masked_logits(rng: np.random.Generator) -> np.ndarray:
    Z = _n(rng, 4, 5, scale=2.0)
    Z[0, [1, 3]] = -np.inf  # some keys hidden
    Z[2, :] = -np.inf  # a row with nothing to attend to: all zeros
    Z[3, :4] = -np.inf  # one key left: weight 1
    return Z


def _fully_masked_row(rng: np.random.Generator) -> Inputs:
    mask = rng.random((3, 4)) < 0.6
    mask[0, 0] = mask[2, 3] = True
    mask[1, :] = False  # query 1 may attend to nothing: zero weights, zero output
    return {"Q": _n(rng, 3, 2), "K": _n(rng, 4, 2), "V": _n(rng, 4, 3), "mask": mask}


SPECS: list[tuple[str, str, str, Callable[[np.random.Generator], Inputs]]] = [
    # Part A
    ("qkv_project", "one-sequence", "4 tokens of width 3; d_k = 2, d_v = 3",
     lambda r: {"X": _n(r, 4, 3), "W_Q": _n(r, 3, 2), "W_K": _n(r, 3, 2), "W_V": _n(r, 3, 3)}),
    ("qkv_project", "batch-and-heads", "X with leading batch and head axes (2, 3, 4, 5)",
     lambda r: {"X": _n(r, 2, 3, 4, 5), "W_Q": _n(r, 5, 3), "W_K": _n(r, 5, 3), "W_V": _n(r, 5, 2)}),
    ("qkv_project", "square-weights", "square weight matrices (D = d_k = d_v = 3)",
     lambda r: {"X": _n(r, 5, 3), "W_Q": _n(r, 3, 3), "W_K": _n(r, 3, 3), "W_V": _n(r, 3, 3)}),
    ("attention_scores", "more-keys-than-queries", "3 queries against 5 keys (n_q != n_k)",
     lambda r: {"Q": _n(r, 3, 4), "K": _n(r, 5, 4)}),
    ("attention_scores", "batch-and-heads", "leading batch and head axes (2, 2, ...)",
     lambda r: {"Q": _n(r, 2, 2, 3, 4), "K": _n(r, 2, 2, 5, 4)}),
    ("attention_scores", "square", "as many keys as the key width (3 x 3)",
     lambda r: {"Q": _n(r, 4, 3), "K": _n(r, 3, 3)}),
    # Part B
    ("softmax", "rows", "each row of a 3 x 5 matrix",
     lambda r: {"Z": _n(r, 3, 5, scale=2.0), "axis": -1, "temperature": 1.0}),
    ("softmax", "large-logits", "logits near +1000 and -1000: exp() would overflow",
     lambda r: {"Z": np.round(_n(r, 2, 4, scale=3.0)) + np.array([[1000.0], [-1000.0]]), "axis": -1,
                "temperature": 1.0}),
    ("softmax", "axis-0", "normalised along axis 0 (columns sum to 1)",
     lambda r: {"Z": _n(r, 4, 3), "axis": 0, "temperature": 1.0}),
    ("softmax", "low-temperature", "temperature 0.5 sharpens the weights (4 x 4)",
     lambda r: {"Z": _n(r, 4, 4), "axis": -1, "temperature": 0.5}),
    ("softmax", "high-temperature-3d", "a (2, 3, 4) array along axis 1, temperature 4",
     lambda r: {"Z": _n(r, 2, 3, 4, scale=3.0), "axis": 1, "temperature": 4.0}),
    ("softmax", "minus-infinity", "-inf entries get weight 0; an all -inf row becomes zeros",
     lambda r: {"Z": _masked_logits(r), "axis": -1, "temperature": 1.0}),
    # Part C
    ("causal_mask", "square", "5 queries, n_k left at its default (5 keys)", lambda r: {"n_q": 5}),
    ("causal_mask", "more-keys", "2 new queries over 6 keys (n_k > n_q)", lambda r: {"n_q": 2, "n_k": 6}),
    ("causal_mask", "more-queries", "5 queries over 3 keys (n_q > n_k)", lambda r: {"n_q": 5, "n_k": 3}),
    ("scaled_dot_product_attention", "more-keys-default-scale", "2 queries, 5 keys, no mask, default scale",
     lambda r: {"Q": _n(r, 2, 4), "K": _n(r, 5, 4), "V": _n(r, 5, 3)}),
    ("scaled_dot_product_attention", "causal-batch", "a batch of 2 sequences of 4 tokens with a causal mask",
     lambda r: {"Q": _n(r, 2, 4, 3), "K": _n(r, 2, 4, 3), "V": _n(r, 2, 4, 2), "mask": np.tril(np.ones((4, 4), bool))}),
    ("scaled_dot_product_attention", "explicit-scale", "scale = 0.3 given explicitly, mask None",
     lambda r: {"Q": _n(r, 3, 4), "K": _n(r, 4, 4), "V": _n(r, 4, 2), "mask": None, "scale": 0.3}),
    ("scaled_dot_product_attention", "fully-masked-row", "a mask whose row 1 is all False",
     _fully_masked_row),
    ("scaled_dot_product_attention", "large-logits", "scores in the thousands: the softmax must stay finite",
     lambda r: {"Q": _n(r, 3, 4, scale=40.0), "K": _n(r, 3, 4, scale=40.0), "V": _n(r, 3, 2)}),
    # Part D
    ("multi_head_attention", "two-heads", "2 heads, d_k = 2, d_v = 3, D_out = 5, no mask",
     lambda r: {"X": _n(r, 4, 6), "W_Q": _n(r, 6, 4), "W_K": _n(r, 6, 4), "W_V": _n(r, 6, 6),
                "W_O": _n(r, 6, 5), "num_heads": 2}),
    ("multi_head_attention", "three-heads-causal-batch", "3 heads, a batch of 2, causal mask",
     lambda r: {"X": _n(r, 2, 5, 6), "W_Q": _n(r, 6, 6), "W_K": _n(r, 6, 6), "W_V": _n(r, 6, 3),
                "W_O": _n(r, 3, 4), "num_heads": 3, "mask": np.tril(np.ones((5, 5), bool))}),
    # Part E
    ("rotation_matrix", "positive-angle", "0.7 radians", lambda r: {"angle": 0.7}),
    ("rotation_matrix", "negative-angle", "-2.5 radians (clockwise)", lambda r: {"angle": -2.5}),
    ("rope", "pairs-integer-positions", "d = 2 (theta_0 = 1), positions 0..3, default base",
     lambda r: {"x": _n(r, 4, 2), "positions": np.arange(4.0)}),
    ("rope", "real-positions-batch", "d = 6, real-valued positions, batch axis, base 100",
     lambda r: {"x": _n(r, 2, 3, 6), "positions": np.array([0.5, 1.75, 3.2]), "base": 100.0}),
    ("rope", "shifted-positions-d8", "d = 8, positions 3..7, default base",
     lambda r: {"x": _n(r, 5, 8), "positions": np.arange(3.0, 8.0)}),
    # Part F
    ("KVCache", "one-token-at-a-time", "three appends of one token (d_k = 2, d_v = 3)",
     lambda r: {"k": tuple(_n(r, 2) for _ in range(3)), "v": tuple(_n(r, 3) for _ in range(3))}),
    ("KVCache", "blocks-and-tokens", "a block of 2 tokens, one token, then a block of 3",
     lambda r: {"k": (_n(r, 2, 2), _n(r, 2), _n(r, 3, 2)), "v": (_n(r, 2, 4), _n(r, 4), _n(r, 3, 4))}),
    ("decode_step", "empty-cache", "the first token: the cache is empty",
     lambda r: {**_layer(r, 4, 2, 3), "x": _n(r, 4), **_cache(r, 0, 2, 3)}),
    ("decode_step", "three-cached-tokens", "a cache holding 3 earlier tokens",
     lambda r: {**_layer(r, 4, 2, 3), "x": _n(r, 4), **_cache(r, 3, 2, 3)}),
    ("decode_step", "with-rope", "RoPE with base 100 at position len(cache) = 2",
     lambda r: {**_layer(r, 3, 4, 2), "x": _n(r, 3), **_cache(r, 2, 4, 2), "rope_base": 100.0}),
    ("generate_cached", "five-tokens", "5 tokens, no RoPE",
     lambda r: {**_layer(r, 4, 2, 3), "X": _n(r, 5, 4)}),
    ("generate_cached", "with-rope", "4 tokens, RoPE with base 100",
     lambda r: {**_layer(r, 3, 4, 2), "X": _n(r, 4, 3), "rope_base": 100.0}),
    ("generate_naive", "five-tokens", "5 tokens, no RoPE",
     lambda r: {**_layer(r, 4, 2, 3), "X": _n(r, 5, 4)}),
    ("generate_naive", "with-rope", "4 tokens, RoPE with base 100",
     lambda r: {**_layer(r, 3, 4, 2), "X": _n(r, 4, 3), "rope_base": 100.0}),
]
