"""What the diagnosis knows of the attention homework: the hooks ``autograder.suite.graded.hooks`` reads.

Stateful cases (Part F) run with the grader's layer and cache (``stateful.py``); a wrong output is explained by the
chain of evidence in ``explain.py`` (stored mistakes, masks, scales and RoPE read off the output, then probes on
rewritten inputs the oracle answers); a raise only by a probe that makes the call right; random-shape tests by the
shape property the failures share (``shapes.py``).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np

from autograder.api import Case, Mistakes, StudentError

from . import crashes, inference, objects, stateful
from . import explain as _explain
from .scales import budget
from .shapes import probe_evidence, shape_evidence

__all__ = ["COVERS", "KEYWORDS", "SERVED_OBJECTS", "answer_of", "budget", "crash_properties", "describe_object",
           "explain", "explain_error", "probe_evidence", "run_case", "shape_evidence"]

# A correct object served for the student's class in a probe (Check first: "with a correct KVCache standing in").
SERVED_OBJECTS = {"KVCache": objects.Cache}

# Arguments shown as keywords in a call (and every argument after the first of them).
KEYWORDS = {"axis", "temperature", "n_k", "mask", "scale", "num_heads", "base", "rope_base"}


def run_case(student: Any, stored: Case) -> tuple[str | None, Any] | None:
    """Part F's cases: the student's KVCache, or decode_step / generate_* with the grader's layer (and cache)."""
    if stored.function == "KVCache":
        return stateful.run_kv_cache(student, stored)
    if isinstance(stored.expected, Mapping):
        return stateful.run_with_layer(student, stored)
    return None


explain = _explain.explain


def explain_error(student: Any, stored: Case, args: list[Any], names: list[str], batched: bool,
                  error: StudentError) -> tuple[Mistakes, str] | None:
    """A raise is evidence only through a probe that makes the call right (or the probe search's answer)."""
    mistake = _explain.probed(student, stored, args, names, batched, None)
    if mistake:
        return _explain.refined(student, stored, mistake), _explain.PROBED
    type_error = error.kind == "exception" and f"{stored.function} raised TypeError" in error.message
    return inference.search(student, stored, None, type_error=type_error) or None


def answer_of(function: str, inputs: dict[str, Any], actual: Any) -> tuple[tuple[str, ...], str] | None:
    """Which answer a rewritten call returned: the contract's, or the contract's but for a mask or scale of the
    code's own (``inference.answer_for``), or for several mistakes at once (``inference.decomposed``)."""
    return inference.answer_for(function, inputs, actual) or inference.decomposed(function, inputs, actual,
                                                                                  fitted=True)


def crash_properties(stored: Case, named: dict[str, Any], error: StudentError) -> list[tuple]:
    """What a line of the student's that raised on this case may have assumed (``crashes.py``)."""
    return crashes.properties(stored, named, f"{stored.function} raised TypeError" in error.message, error.message)


# A mistake whose sentence already says what another's says: the other is not said beside it (at most two sentences
# per test). "D // H" names d_v and the scale too, and "every weight square" D // H; "exactly one leading axis" and
# "one fixed number" imply "fails without"; "Q, K and V of one shape" says n_q = n_k and d_v = d_k; "treats its
# input as one 2-D matrix" implies "works only with 2-D inputs"; every wrong scale is "another constant than the
# scale asked for".
COVERS = {
    "mha_head_width_model": ("mha_value_width", "scale_other"),
    "mha_square_weights": ("mha_head_width_model", "mha_value_width", "scale_other"),
    "batch_first_only": ("needs_leading_axis",),
    "needs_same_shape": ("needs_square", "needs_equal_widths"),
    "needs_leading_axes": ("needs_leading_axis",),
    "no_batch_support": ("matrix_input_only",),
    **{scale: ("scale_other",) for scale in ("scale_d_v", "scale_wrong_dim", "scale_argument_ignored", "no_scale",
                                              "sqrt_missing", "scale_inverted", "scale_d_model")},
}


def describe_object(name: str, parts: Mapping[str, Any]) -> str:
    """The grader's layer or cache, as a call shows it."""
    if name == "layer":
        D, d_k = np.shape(parts["W_Q"])
        return f"layer projecting D = {D} to d_k = {d_k}, d_v = {np.shape(parts['W_V'])[1]} (counted by the grader)"
    return f"cache holding {len(parts['keys'])} earlier tokens (the grader's correct cache)"
