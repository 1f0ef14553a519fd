"""What a wrong output evidences, and how: the chain of evidence a failing case is explained by.

Output evidence first (its type; a stored mistake's output, on the rows the mask determines; a mask's pattern as
numbers; what a softmax sums to; an exact fit; the contract's answer for another mask or scale; several mistakes of
attention at once (``decompose.py``); the output rounded to some decimal places; extra leading axes; a last axis split
into several, read joined), then probes (``evidence.probe``, the 2-D slices), then the probe search, then low
precision. Each step returns ``(mistakes, how, exact)``; ``how`` goes to results.json's evidence.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from autograder.api import Case, Mistakes, StudentError, diagnose, matches, mistake_ids, precision, type_mistake

from ..generated import oracle
from . import decompose, evidence, fits, inference, masks, scales

PROBED = "a probe: the same call on an input without the suspected cause gives the expected output"


def refined(student: Any, stored: Case, mistake: Mistakes) -> Mistakes:
    """batch_first_only (passes with exactly one leading axis) becomes needs_leading_axis when a case without
    leading axes also passes with two: the code needs some leading axis, not exactly one."""
    mistake = one_head(stored, mistake)
    ids = mistake_ids(mistake)
    if "batch_first_only" not in ids or not inference.leading_axes_optional(student, stored):
        return mistake
    return tuple("needs_leading_axis" if m == "batch_first_only" else m for m in ids)


def one_head(stored: Case, mistake: Mistakes) -> Mistakes:
    """With one head, 1/sqrt(D) is also 1/sqrt(D // H), a per-head width taken from the model's, which no output of
    the case tells apart: scale_d_model is then said as scale_other (another constant than asked)."""
    ids = mistake_ids(mistake)
    if "scale_d_model" not in ids or stored.function != "multi_head_attention" or int(np.asarray(
            stored.inputs.get("num_heads", 0))) != 1:
        return mistake
    return tuple(dict.fromkeys("scale_other" if m == "scale_d_model" else m for m in ids))


def explain(student: Any, stored: Case, args: list[Any], names: list[str], batched: bool,
            actual: Any) -> tuple[Mistakes, str, bool]:
    """The mistakes a wrong output evidences, how (for extra_data.evidence), and whether the output itself equals
    the mistake's (``exact``, for the TA reading extra_data.evidence); (None, "", False) when none."""
    if found := _read(stored, actual, student):
        return one_head(stored, confirmed_scale(student, stored, found[0])), *found[1:]
    if found := precision.rounded(stored.expected, actual, stored.mistakes):  # np.round(out, 4): exactly so
        return (*found, True)
    if (squeezed := masks.without_extra_axes(stored.expected, actual)) is not None:
        removed = "its leading axes of length 1 removed"
        if matches(squeezed, stored.expected):
            return "extra_leading_axes", f"the output, {removed}, equals the expected one", True
        if found := _read(stored, squeezed):  # the values read as if the axes were not there, named with them
            mistakes, how, exact = found
            return (*mistake_ids(one_head(stored, mistakes)), "extra_leading_axes"), f"{how}, {removed}", exact
    if (joined := masks.with_last_axis_joined(stored.expected, actual)) is not None:
        joined_how = "its last axes joined into one"
        if matches(joined, stored.expected):
            return "last_axis_split", f"the output, {joined_how}, equals the expected one", True
        if found := _read(stored, joined):  # the values, read with the axes joined, named with them
            mistakes, how, exact = found
            return (*mistake_ids(one_head(stored, mistakes)), "last_axis_split"), f"{how}, {joined_how}", exact
    if mistake := probed(student, stored, args, names, batched, actual):
        return refined(student, stored, mistake), PROBED, False
    if found := inference.search(student, stored, actual):
        return (*found, False)
    if precision.low_precision(stored.expected, actual):  # (a rounding to k decimals was read above)
        return precision.LOW
    return None, "", False


# scales named by what they equal on the case (1/d_k, 1/sqrt(d_v), 1/sqrt(n), the default one): a constant of the
# code's own may equal one of them by chance on one case
FORMULA_SCALES = ("sqrt_missing", "scale_inverted", "scale_d_v", "scale_wrong_dim", "scale_argument_ignored")


def confirmed_scale(student: Any, stored: Case, mistake: Mistakes) -> Mistakes:
    """A scale of scaled dot-product attention named by what it equals on this case, kept only when the same call
    on the case with every size doubled (zero columns for d_k and d_v, each query and key twice: the contract's
    answer the same but for the weights' halves) is read as that same mistake; else said as another constant
    (scale_other), which the fit shows either way. One probe call."""
    ids = mistake_ids(mistake)
    formula = [m for m in ids if m in FORMULA_SCALES]
    if stored.function != "scaled_dot_product_attention" or not formula:
        return mistake
    named = inference._plain_arguments(stored)
    again = None
    if named is not None and scales.probe_allowed():
        bigger = _doubled(named)
        try:
            actual = student.call(stored.function, *bigger.values())
            with np.errstate(all="ignore"):
                expected = oracle.scaled_dot_product_attention(**bigger)
            again = _read(Case(stored.id, stored.function, bigger, expected), actual)
        except (StudentError, ValueError, TypeError, IndexError):
            again = None
    if again is not None and set(formula) <= set(mistake_ids(again[0])):
        return mistake
    return tuple(dict.fromkeys("scale_other" if m in FORMULA_SCALES else m for m in ids))


def _doubled(named: dict[str, Any]) -> dict[str, Any]:
    Q, K, V = (np.asarray(named[n], float) for n in ("Q", "K", "V"))
    n_q, n_k = Q.shape[-2], K.shape[-2]
    out = dict(named)
    out["Q"] = np.concatenate([Q, np.zeros(Q.shape)], axis=-1).repeat(2, axis=-2)
    out["K"], out["V"] = (np.concatenate([A, np.zeros(A.shape)], axis=-1).repeat(2, axis=-2) for A in (K, V))
    mask = named.get("mask")
    if mask is not None:
        out["mask"] = masks.full(mask, n_q, n_k).repeat(2, axis=-2).repeat(2, axis=-1)
    return out


def _read(stored: Case, actual: Any, student: Any = None) -> tuple[Mistakes, str, bool] | None:
    """What the output alone shows, or None; with ``student``, one probe may settle a reading two explanations fit
    (``fits.infer``)."""
    if mistake := type_mistake(stored.expected, actual):
        return mistake, "the output's type", False
    if mistake := diagnose(actual, stored.mistakes, stored.expected):
        if _answered_otherwise(stored, actual, mistake):  # two explanations of one output: neither is named (a
            return None, "two explanations give this output", False  # probe on an input this special may agree
        return mistake, "the output equals this mistake's output on the case", True
    if mistake := masks.masked_rows(stored, actual):
        how = "the output equals it on the rows the mask determines; the fully masked rows show the fill"
        return mistake, how, True
    if mistake := masks.causal_form(stored, actual):
        return mistake, "the mask's pattern, written as numbers", False
    if stored.function == "softmax" and (mistake := evidence.softmax_mistake(actual, stored)):
        return mistake, "what the output sums to, along which axis", False
    if found := fits.infer(stored, actual, student):
        return (*found, False)
    if found := inference.answered(stored, actual):
        return (*found, True)
    if found := decompose.combined(stored, actual):
        return (*found, True)
    return None


def _answered_otherwise(stored: Case, actual: Any, mistake: Mistakes) -> bool:
    """Whether the output a stored mistake's equals is also the contract's answer for another mask or scale
    (``inference.answered``) that names none of its mistakes (nor one whose sentence says one of them): a case whose
    scores are 0 or 1 gives the same weights unscaled and softmaxed twice, for example."""
    found = inference.answered(stored, actual)
    if not found:
        return False
    from . import COVERS  # (the package's, defined after this module is imported)

    ids, other = set(mistake_ids(mistake)), set(mistake_ids(found[0]))
    return not (ids & other or any(set(COVERS.get(m, ())) & other for m in ids)
                or any(set(COVERS.get(m, ())) & ids for m in other))


def probed(student: Any, stored: Case, args: list[Any], names: list[str], batched: bool,
           original: Any) -> Mistakes:
    """no_batch_support when every 2-D slice of the case is right (matrix_input_only when the call raised: what
    it mixes is not seen, only that it works on 2-D inputs); but a slice of a per-sequence mask is a shared one, so
    when a probe on the whole batch (its mask given a head axis, say) removes another cause, that one."""
    if batched and evidence.works_on_a_slice(student, stored, args):
        per_sequence = np.ndim(dict(zip(names, args)).get("mask")) > 2
        return (per_sequence and evidence.probe(student, stored, args, names, original)) or (
            "no_batch_support" if original is not None else "matrix_input_only")
    return evidence.probe(student, stored, args, names, original) or None
