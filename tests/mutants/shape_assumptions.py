"""What each shape-assumption mutant in ``tests/mutants`` assumes, as a test of a case's inputs.

``tests/test_random_shapes.py`` checks that each of these mutants fails exactly the stored
cases of its function whose inputs break the assumption, and loses points on that
function's random-shape test.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np


def _ndim(case_inputs: dict, name: str) -> int:
    return len(np.shape(case_inputs[name]))


def _widths(case_inputs: dict, prefix: str = "") -> tuple[int, int]:
    """(d_k, d_v) of a case: per head for multi_head_attention, of the layer for Part F."""
    heads = case_inputs.get("num_heads", 1)
    return (np.shape(case_inputs[f"{prefix}W_Q"])[-1] // heads, np.shape(case_inputs[f"{prefix}W_V"])[-1] // heads)


# mutant name -> (the assumption in words, whether a case's inputs satisfy it).
SHAPE_ASSUMPTIONS: dict[str, tuple[str, Callable[[dict], bool]]] = {
    "qkv_3d_batch_first": ("X is 3-D (B, N, D)", lambda c: _ndim(c, "X") == 3),
    "scores_3d_batch_first": ("Q and K are 3-D (B, N, d)", lambda c: _ndim(c, "K") == 3),
    "mha_3d_batch_first": ("X is 3-D (B, N, D)", lambda c: _ndim(c, "X") == 3),
    "mha_head_width_D_over_H": ("the head width d_k is D // H",
                                lambda c: np.shape(c["X"])[-1] // c["num_heads"] == _widths(c)[0]),
    "value_heads_of_width_d_k": ("d_v = d_k", lambda c: _widths(c)[0] == _widths(c)[1]),
    "student_decode_dv_equals_dk": ("d_v = d_k", lambda c: _widths(c, "layer.")[0] == _widths(c, "layer.")[1]),
    "student_naive_dv_equals_dk": ("d_v = d_k", lambda c: _widths(c, "layer.")[0] == _widths(c, "layer.")[1]),
}
