"""Confirming probes, and the evidence a test's other calls give.

A diagnosis is stated only with evidence: the output equals a mistake's output on the part of
it the mistake determines (``masks.py``), the errors look like lost precision (``precision.py``),
what the output sums to names the softmax's axis (``softmax_mistake``), or a confirming probe
flips the outcome: the same call, re-run on a variant input that removes one suspected cause,
gives the expected output (``probe``), or each 2-D slice alone gives it (``works_on_a_slice``).
An exception alone is never evidence.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Mapping
from itertools import combinations
from typing import Any

import numpy as np

from autograder.api import Case, StudentError, answer, compare, diagnose, matches, quiet

from . import inference
from .masks import masked_rows
from .probe_inputs import (
    Variant,
    batch_first,
    batch_lead,
    divisible,
    divisible_applies,
    full_mask,
    has_bool_mask,
    head_axis,
    inverted,
    is_mha,
    mask_broadcasts,
    mha_widths,
    model_scale,
    model_width,
    model_width_applies,
    output_width,
    output_width_applies,
    two_axes,
    value_width,
    wider_than_model,
)

# ----------------------------------------------------------------------------
# Probes: the same call on a variant input that removes one suspected cause (or two, or three)
# ----------------------------------------------------------------------------

MAX_COMBINED = 3  # suspected causes removed at once
WIDTH_CAUSES = {"out_width_is_input", "mha_value_width", "mha_head_width_model",  # what the heads' widths show
                "mha_needs_divisible_width"}
WIDTHS = {"mha_value_width", "mha_head_width_model"}  # probes that make d_k = d_v or D = H * d_k
MAX_PROBES = 36  # probe calls per case


@quiet(())
def probe(student: Any, stored: Case, args: list[Any], names: list[str], original: Any = None) -> tuple[str, ...]:
    """The mistakes confirming probes show, or ().

    Each probe removes one or more suspected causes from the input (without changing the
    expected output, except the mask inversion, which tests the polarity hypothesis) and calls
    the student's function again. The smallest set of removed causes after which the output is
    right, or is a stored mistake's, or is right on the rows the mask determines, is named with
    what remains; when several sets of that size flip it, only what they all show. A probe whose output
    equals the original output flipped nothing: no evidence.
    """
    named = dict(zip(names, args))
    causes = [c for c in CAUSES if c[1](stored, named)]
    outcomes = [(frozenset(), _ruled_out(stored, named, set()), False)]  # (removed, ruled out, flipped or not)
    calls = 0
    flipped_by: dict[str, tuple] = {}  # the first combination with this cause that flipped the outcome
    for size in range(1, min(MAX_COMBINED, len(causes)) + 1):
        shown: list[tuple[tuple[str, ...], tuple[str, ...]]] = []  # each probe of this size that flipped it
        tried: list[frozenset[str]] = []
        for combo in combinations(causes, size):
            removed = frozenset(name for name, _, _ in combo)
            if len(removed) < size or ("out_width_is_input" in removed and removed & WIDTHS):
                continue  # another width probe would make d_k = d_v, which the output-width probe must keep apart
            variant = Variant(dict(named))
            for _, _, apply in combo:
                variant = apply(stored, variant)
            if calls >= MAX_PROBES:
                return _consistent(shown, tried, outcomes)
            calls += 1
            tried.append(removed)
            try:
                raw = student.call(stored.function, *(variant.named[n] for n in names))
                if (raw := answer(raw)) is None:  # ragged, huge, not arrays: not the answer
                    raise StudentError("invalid_output", "not an answer")
            except StudentError:
                outcomes.append((removed, _ruled_out(stored, variant.named, removed), False))
                continue
            actual = variant.unwrap(raw)
            if original is not None and matches(actual, original):
                continue
            rest = _explained(stored, actual, functools.partial(answered, stored.function, variant.contract, raw))
            outcomes.append((removed, _ruled_out(stored, variant.named, removed), rest is not None))
            if rest is not None:
                shown.append((tuple(dict.fromkeys(name for name, _, _ in combo)), rest))
                for name in {name for name, _, _ in combo} & set(TIE_BREAKS):
                    flipped_by.setdefault(name, combo)
        if shown:
            found = _consistent(shown, tried, outcomes)
            for name, tie_break in TIE_BREAKS.items():
                if name in found and name in flipped_by and calls < MAX_PROBES:
                    calls += 1
                    found = tie_break(student, stored, named, names, flipped_by[name], original, found)
            return found
    return ()


def _rerun(student: Any, stored: Case, named: dict[str, Any], names: list[str], combo: tuple, instead: str,
           other: Callable[[Case, Variant], Variant]) -> bool:
    """Whether the probe ``combo`` flips the outcome with ``other`` applied in place of the removal ``instead``."""
    variant = Variant(dict(named))
    for name, _, apply in combo:
        variant = other(stored, variant) if name == instead else apply(stored, variant)
    try:
        raw = answer(student.call(stored.function, *(variant.named[n] for n in names)))
    except StudentError:
        return False
    return raw is not None and _explained(stored, variant.unwrap(raw), functools.partial(
        answered, stored.function, variant.contract, raw)) is not None


def _scale_or_width(student: Any, stored: Case, named: dict[str, Any], names: list[str], combo: tuple,
                    original: Any, found: tuple[str, ...]) -> tuple[str, ...]:
    """Heads widened to D // H fix code split by D // H, and equally code that only scales by 1/sqrt(D) when that
    makes D // H = d_k (one head): the same probe with the queries scaled by sqrt(D / d_k) instead fixes only the
    scale. When it flips the outcome too, the heads' width was never the cause: scale_d_model is. Otherwise the
    same probe with heads of a width D // H never gives (``wider_than_model``): when that flips it too, what the
    width probe fixed was not a split by D // H (a check of the code's own on d_k and D), and it is not named."""
    if _rerun(student, stored, named, names, combo, "mha_head_width_model", model_scale):
        return tuple(dict.fromkeys("scale_d_model" if m == "mha_head_width_model" else m for m in found))
    if _rerun(student, stored, named, names, combo, "mha_head_width_model", wider_than_model):
        return tuple(m for m in found if m != "mha_head_width_model")
    return found


def _leading_axes(student: Any, stored: Case, named: dict[str, Any], names: list[str], combo: tuple, original: Any,
                  found: tuple[str, ...]) -> tuple[str, ...]:
    """batch_first_only shown on a masked case (the batch-first probe reshapes the mask with the inputs): first the
    same call without a mask, the inputs as given. When that returns the contract's answer (without the mask), the
    code takes these leading axes, and what the probe fixed was the mask's form (a mask helper's own checks of its
    rank): neither leading-axis sentence is named. Otherwise ``_one_or_more``."""
    if named.get("mask") is not None and inference.right_without_mask(
            student, stored.function, {n: named[n] for n in names}):
        return tuple(m for m in found if m != "batch_first_only")
    return _one_or_more(student, stored, named, names, combo, original, found)


def _one_or_more(student: Any, stored: Case, named: dict[str, Any], names: list[str], combo: tuple, original: Any,
                 found: tuple[str, ...]) -> tuple[str, ...]:
    """A 2-D case that one added leading axis fixes: with two added axes as well, the code does not need exactly
    one. Then its output either carries an extra leading axis of length 1 (extra_leading_axes: it adds one and never
    removes it) or it fails without one (needs_leading_axis).

    When the probe that fixed it gave a 2-D mask the axis too (the inputs' axis alone did not), two axes are also
    tried with the mask given the batch's axis or both: one that passes shows code that takes any number of leading
    axes but a mask of one rank only (a mask helper's own checks), which neither sentence says: neither is named."""
    if batch_lead(stored, named) != ():
        return found
    mask_too = any(apply is BATCH_FIRST_WITH_MASK for _, _, apply in combo) and np.ndim(named.get("mask")) == 2
    forms = [two_axes] + [functools.partial(two_axes, mask_axes=k) for k in (1, 2) if mask_too]
    if not any(_rerun(student, stored, named, names, combo, "batch_first_only", form) for form in forms):
        return found
    if mask_too:
        return tuple(m for m in found if m != "batch_first_only")
    first = original[0] if isinstance(original, (tuple, list)) and original else original
    expected = stored.expected[0] if isinstance(stored.expected, tuple) else stored.expected
    extra = isinstance(first, np.ndarray) and first.ndim == np.ndim(expected) + 1 and first.shape[0] == 1
    which = "extra_leading_axes" if extra else "needs_leading_axis"
    return tuple(dict.fromkeys(which if m == "batch_first_only" else m for m in found))


def _ruled_out(stored: Case, named: Mapping[str, Any], removed: frozenset[str] | set[str]) -> frozenset[str]:
    """The suspected causes an input rules out: those its probe removed, and for the heads' widths whatever its
    widths rule out (a probe that widens the values to d_k may also make D = H*d_v, ruling out that cause too)."""
    if not is_mha(stored, named):
        return frozenset(removed)
    H, d_k, d_v, D = mha_widths(named)
    widths = {name for name, holds in (("out_width_is_input", D == H * d_v), ("mha_value_width", d_k == d_v),
                                       ("mha_head_width_model", D == H * d_k),
                                       ("mha_needs_divisible_width", D % H == 0)) if holds}
    return frozenset((set(removed) - WIDTH_CAUSES) | widths)


def _consistent(shown: list[tuple[tuple[str, ...], tuple[str, ...]]], tried: list[frozenset[str]],
                outcomes: list[tuple[frozenset[str], frozenset[str], bool]]) -> tuple[str, ...]:
    """What the probes show: the causes of every set of causes (among those tried) that explains every outcome (an
    input flips the outcome exactly when it rules out the whole set), with the mistakes every flipped output
    shows; when no set explains them all, only what every flipped probe shows. One form of a removal that
    flipped it suffices: another form of the same removal that did not (e.g. the mask left as it was) is no
    counter-evidence."""
    if not shown:
        return ()
    sufficed = {frozenset(removed) for removed, _ in shown}  # (another form of the same removal may have failed)
    consistent = [t for t in dict.fromkeys(tried) if all(
        (t <= out) == flipped for removed, out, flipped in outcomes if flipped or removed not in sufficed)]
    if not consistent:
        return _common([(*removed, *rest) for removed, rest in shown])
    first = next(((*removed, *rest) for removed, rest in shown if frozenset(removed) in consistent), shown[0][0])
    rests = [set(rest) for _, rest in shown]
    return tuple(m for m in dict.fromkeys(first) if all(m in t for t in consistent) or all(m in r for r in rests))


def _common(shown: list[tuple[str, ...]]) -> tuple[str, ...]:
    """The mistakes every one of these probes shows: two probes that remove different causes and both flip the
    outcome do not tell those causes apart (e.g. when the answer they reach does not depend on what they changed)."""
    return tuple(m for m in shown[0] if all(m in other for other in shown[1:])) if shown else ()


def _explained(stored: Case, actual: Any, other: Callable[[], tuple[str, ...] | None] = lambda: None
               ) -> tuple[str, ...] | None:
    """() when right; the stored mistake it matches; the contract's answer for another mask or scale (``other``);
    the fill shown on its dead rows; else None."""
    if matches(actual, stored.expected):
        return ()
    live = {m: out for m, out in stored.mistakes.items() if out is not None and not matches(out, stored.expected)}
    found = diagnose(actual, live, stored.expected)  # PREFERRED first: NaN in all -inf rows is the missing guard
    if found:
        return (found,) if isinstance(found, str) else (found[0],)
    if shown := other():
        return shown
    return masked_rows(stored, actual) or None


def answered(function: str, named: Mapping[str, Any], raw: Any) -> tuple[str, ...] | None:
    """The mistakes whose contract answer ``raw`` is on these inputs (its own causal mask, the mask or the scale
    ignored: inference._target), or None."""
    found = inference.answer_for(function, dict(named), raw)
    return found[0] if found and found[0] else None


def _divisible_only(student: Any, stored: Case, named: dict[str, Any], names: list[str], combo: tuple,
                    original: Any, found: tuple[str, ...]) -> tuple[str, ...]:
    """X padded to a multiple of num_heads fixes code that needs D % num_heads == 0, and equally code that needs a
    wider input: the same probe padded to the next width num_heads does not divide tells them apart. When it flips
    the outcome too, divisibility was never the cause, and nothing is named."""
    if _rerun(student, stored, named, names, combo, "mha_needs_divisible_width", UNDIVIDED):
        return ()
    return found


BATCH_FIRST_WITH_MASK = functools.partial(batch_first, with_mask=True)  # the batch-first probe, a 2-D mask moved too
UNDIVIDED = functools.partial(divisible, control=True)  # the divisible probe's control

# a named cause -> a probe more that tells it from another cause the same probe removes (one call of MAX_PROBES each)
TIE_BREAKS: dict[str, Callable[..., tuple[str, ...]]] = {"mha_head_width_model": _scale_or_width,
                                                         "batch_first_only": _leading_axes,
                                                         "mha_needs_divisible_width": _divisible_only}

# (mistake named when removing this cause confirms it, applies to (case, arguments), remove it); applied in this order
CAUSES: list[tuple[str, Callable[[Case, Mapping[str, Any]], bool], Callable[[Case, Variant], Variant]]] = [
    ("mha_needs_divisible_width", divisible_applies, divisible),
    ("out_width_is_input", output_width_applies, output_width),
    ("mha_value_width", lambda c, n: is_mha(c, n) and mha_widths(n)[1] != mha_widths(n)[2], value_width),
    ("mha_head_width_model", model_width_applies, model_width),
    ("mask_full_shape", lambda c, n: has_bool_mask(c, n) and np.ndim(n["mask"]) >= 2 and mask_broadcasts(c, n),
     full_mask),
    ("batch_first_only", lambda c, n: batch_lead(c, n) is not None, batch_first),
    ("batch_first_only", lambda c, n: batch_lead(c, n) is not None and np.ndim(n.get("mask")) == 2,
     BATCH_FIRST_WITH_MASK),
    ("mha_mask_head_axis", lambda c, n: is_mha(c, n) and np.ndim(n.get("mask")) >= 3, head_axis),
    ("mask_inverted", has_bool_mask, inverted),
]


def softmax_mistake(actual: Any, stored: Case) -> str | None:
    """Name a softmax mistake by what the output sums to: the whole array, or slices along another axis."""
    expected = np.asarray(stored.expected)
    if not isinstance(actual, np.ndarray) or actual.shape != expected.shape or not np.isfinite(actual).all():
        return None
    axis = stored.inputs.get("axis", -1) % expected.ndim
    if actual.ndim and expected.size > expected.shape[axis] and np.isclose(actual.sum(), 1.0):
        return "softmax_global_sum"
    live = np.isfinite(np.asarray(stored.inputs["Z"])).all()  # -inf entries leave slices that sum to 0
    for other in range(actual.ndim):
        if other != axis and live and np.allclose(actual.sum(axis=other), 1.0):
            return "softmax_ignores_axis" if other == actual.ndim - 1 else "softmax_wrong_axis"
    return None


MAX_SLICES = 12


def works_on_a_slice(student: Any, stored: Case, args: list[Any]) -> bool:
    """Whether the student's function is right on every 2-D slice of the case (batch axes dropped one by one).

    Right on each slice but wrong on the whole: the batch axes are not supported.
    """
    first = stored.expected[0] if isinstance(stored.expected, tuple) else stored.expected
    lead = np.shape(first)[:-2]
    if not lead or int(np.prod(lead)) > MAX_SLICES:
        return False

    def cut(value: Any, index: tuple[int, ...]) -> Any:
        if isinstance(value, tuple):
            return tuple(cut(v, index) for v in value)
        if not isinstance(value, np.ndarray) or value.ndim <= 2:
            return value
        own = value.shape[:-2]
        return value[tuple(0 if n == 1 else i for n, i in zip(own, index[len(index) - len(own):]))]

    for index in np.ndindex(*lead):
        try:
            actual = student.call(stored.function, *(cut(a, index) for a in args))
        except StudentError:
            return False
        if compare.compare("slice", cut(stored.expected, index), actual) is not None:
            return False
    return True
