"""The graded cases of the layernorm homework (dev-time only; ``autograder regen`` stores them with the solution's
outputs and every known mistake's, in ``generated/cases/graded.npz``).

Inputs are drawn from ``np.random.default_rng(case_seed("graded", id))``: adding a case changes no other. Each
function gets cases with leading axes, and cases where its known mistakes show: a small variance or a large eps
(eps outside the square root), few features (the unbiased variance), batches of different sizes and means
(RunningStats's merge).
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from autograder.devapi import Case, case_seed, make_case

Inputs = dict[str, object]
SET = "graded"


def build_cases() -> list[Case]:
    """Every graded case, each drawing its inputs with the seed of its id."""
    return cases_of(SET, SPECS)


def cases_of(case_set: str, specs: list[tuple[str, str, str, Callable[[np.random.Generator], Inputs]]]) -> list[Case]:
    cases = []
    for case_id, function, description, make_inputs in specs:
        seed = case_seed(case_set, case_id)
        inputs = make_inputs(np.random.default_rng(seed))
        cases.append(make_case(case_id, function, inputs, seed=seed, description=description))
    return cases


# ---- input generators (public.py uses them too) ------------------------------------------------------------


def normal(rng: np.random.Generator, *shape: int, scale: float = 1.0, offset: float = 0.0) -> np.ndarray:
    return offset + scale * rng.standard_normal(shape)


def affine(rng: np.random.Generator, d: int) -> Inputs:
    """gamma near 1 and beta near 0, one per feature."""
    return {"gamma": normal(rng, d, scale=0.5, offset=1.0), "beta": normal(rng, d, scale=0.3)}


def mlp(rng: np.random.Generator, d: int, hidden: int, d_out: int) -> Inputs:
    return {"W1": normal(rng, d, hidden, scale=d**-0.5), "b1": normal(rng, hidden, scale=0.5),
            "W2": normal(rng, hidden, d_out, scale=hidden**-0.5), "b2": normal(rng, d_out, scale=0.5)}


def layer_norm_inputs(rng: np.random.Generator, *shape: int, scale: float = 1.0, offset: float = 0.0,
                      **options: float) -> Inputs:
    return {"x": normal(rng, *shape, scale=scale, offset=offset), **affine(rng, shape[-1]), **options}


def ff_inputs(rng: np.random.Generator, *shape: int, hidden: int, d_out: int) -> Inputs:
    return {"x": normal(rng, *shape), **mlp(rng, shape[-1], hidden, d_out)}


def block_inputs(rng: np.random.Generator, *shape: int, hidden: int, offset: float = 0.0) -> Inputs:
    d = shape[-1]
    return {"x": normal(rng, *shape, offset=offset), **affine(rng, d), **mlp(rng, d, hidden, d)}


def stats_inputs(rng: np.random.Generator, d: int, batch_shapes: list[tuple[int, ...]], *,
                 spread: float = 2.0, **options: float) -> Inputs:
    """RunningStats(d) updated with one batch of each shape (each batch with a mean of its own), then normalize."""
    batches = tuple(normal(rng, *shape, d, scale=rng.uniform(0.5, 2.0), offset=spread * rng.standard_normal())
                    for shape in batch_shapes)
    return {"num_features": d, **options, "batches": batches, "x": normal(rng, 3, d, scale=2.0)}


def relu_inputs(rng: np.random.Generator, *shape: int) -> Inputs:
    x = normal(rng, *shape)
    x.flat[::5] = 0.0  # exact zeros stay zero
    return {"x": x}


SPECS: list[tuple[str, str, str, Callable[[np.random.Generator], Inputs]]] = [
    # Part A: layer_norm
    ("ln-rows", "layer_norm", "4 rows of 6 features", lambda r: layer_norm_inputs(r, 4, 6)),
    ("ln-one-row", "layer_norm", "a single row of 5 features", lambda r: layer_norm_inputs(r, 1, 5)),
    ("ln-leading-axes", "layer_norm", "leading axes (2, 3) before 5 features",
     lambda r: layer_norm_inputs(r, 2, 3, 5)),
    ("ln-four-axes", "layer_norm", "x of shape (2, 1, 3, 4)", lambda r: layer_norm_inputs(r, 2, 1, 3, 4)),
    ("ln-large-eps", "layer_norm", "rows with a small spread and eps = 0.1",
     lambda r: layer_norm_inputs(r, 3, 4, scale=0.05, eps=0.1)),
    ("ln-small-scale", "layer_norm", "entries near 1e-3 (the variance is smaller than eps)",
     lambda r: layer_norm_inputs(r, 3, 8, scale=1e-3)),
    ("ln-offset", "layer_norm", "rows far from zero (mean near 10), 3 features",
     lambda r: layer_norm_inputs(r, 5, 3, offset=10.0)),
    ("ln-square", "layer_norm", "as many rows as features (4 x 4)", lambda r: layer_norm_inputs(r, 4, 4)),
    # Part B: relu
    ("relu-matrix", "relu", "a 3 x 4 matrix with some exact zeros", lambda r: relu_inputs(r, 3, 4)),
    ("relu-3d", "relu", "x of shape (2, 3, 4)", lambda r: relu_inputs(r, 2, 3, 4)),
    ("relu-negative", "relu", "every entry negative", lambda r: {"x": -np.abs(normal(r, 4, 3)) - 0.1}),
    # Part B: feed_forward
    ("ff-rows", "feed_forward", "4 rows, D = 3, H = 5, D_out = 2", lambda r: ff_inputs(r, 4, 3, hidden=5, d_out=2)),
    ("ff-batch", "feed_forward", "x of shape (2, 3, 4), H = 6, D_out = 4",
     lambda r: ff_inputs(r, 2, 3, 4, hidden=6, d_out=4)),
    ("ff-wide", "feed_forward", "5 rows, D = 6, H = 8, D_out = 6", lambda r: ff_inputs(r, 5, 6, hidden=8, d_out=6)),
    # Part B: pre_norm_block
    ("block-rows", "pre_norm_block", "4 rows of 6 features, H = 8", lambda r: block_inputs(r, 4, 6, hidden=8)),
    ("block-batch", "pre_norm_block", "x of shape (2, 3, 4), H = 5", lambda r: block_inputs(r, 2, 3, 4, hidden=5)),
    ("block-one-token", "pre_norm_block", "one row of 5 features, H = 3", lambda r: block_inputs(r, 1, 5, hidden=3)),
    ("block-offset", "pre_norm_block", "rows far from zero (mean near 5), H = 6",
     lambda r: block_inputs(r, 3, 4, hidden=6, offset=5.0)),
    # Part C: RunningStats
    ("stats-one-batch", "RunningStats", "one batch of 5 rows, 3 features", lambda r: stats_inputs(r, 3, [(5,)])),
    ("stats-unequal-batches", "RunningStats", "batches of 2, 5 and 1 rows with different means, 4 features",
     lambda r: stats_inputs(r, 4, [(2,), (5,), (1,)])),
    ("stats-two-equal", "RunningStats", "two batches of 4 rows with different means, 2 features",
     lambda r: stats_inputs(r, 2, [(4,), (4,)])),
    ("stats-leading-axes", "RunningStats", "batches of shapes (2, 3, 4), (1, 4) and (5, 4): leading axes are rows",
     lambda r: stats_inputs(r, 4, [(2, 3), (1,), (5,)])),
    ("stats-many-batches", "RunningStats", "six batches of 1 to 4 rows, 3 features",
     lambda r: stats_inputs(r, 3, [(1,), (3,), (2,), (4,), (1,), (2,)])),
    ("stats-eps", "RunningStats", "eps = 0.5, batches with a small spread",
     lambda r: stats_inputs(r, 3, [(3,), (2,)], spread=0.1, eps=0.5)),
]
