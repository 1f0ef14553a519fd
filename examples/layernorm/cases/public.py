"""The public cases: small examples students test against before submitting (``regen`` stores them in the
student template's ``public_cases.npz``). Their seeds are salted "public": other draws than the graded cases'."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from autograder.devapi import Case

from .graded import block_inputs, cases_of, ff_inputs, layer_norm_inputs, relu_inputs, stats_inputs

Inputs = dict[str, object]
SET = "public"


def build_cases() -> list[Case]:
    return cases_of(SET, SPECS)


SPECS: list[tuple[str, str, str, Callable[[np.random.Generator], Inputs]]] = [
    ("layer_norm-rows", "layer_norm", "3 rows of 4 features", lambda r: layer_norm_inputs(r, 3, 4)),
    ("layer_norm-leading-axes", "layer_norm", "x of shape (2, 2, 5)", lambda r: layer_norm_inputs(r, 2, 2, 5)),
    ("layer_norm-eps", "layer_norm", "a small spread and eps = 0.2",
     lambda r: layer_norm_inputs(r, 2, 3, scale=0.1, eps=0.2)),
    ("relu-matrix", "relu", "a 2 x 5 matrix with some exact zeros", lambda r: relu_inputs(r, 2, 5)),
    ("feed_forward-rows", "feed_forward", "3 rows, D = 4, H = 6, D_out = 2",
     lambda r: ff_inputs(r, 3, 4, hidden=6, d_out=2)),
    ("pre_norm_block-rows", "pre_norm_block", "3 rows of 4 features, H = 5",
     lambda r: block_inputs(r, 3, 4, hidden=5)),
    ("pre_norm_block-batch", "pre_norm_block", "x of shape (2, 2, 3), H = 4",
     lambda r: block_inputs(r, 2, 2, 3, hidden=4)),
    ("RunningStats-two-batches", "RunningStats", "batches of 3 and 2 rows with different means, 3 features",
     lambda r: stats_inputs(r, 3, [(3,), (2,)])),
    ("RunningStats-leading-axes", "RunningStats", "batches of shapes (2, 2, 2) and (3, 2)",
     lambda r: stats_inputs(r, 2, [(2, 2), (3,)])),
]
