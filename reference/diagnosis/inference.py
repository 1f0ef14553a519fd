"""Mechanisms that name a mistake no stored output shows: a probe search, and which answer an output is.

* ``search`` re-runs a failing case on inputs rewritten so that properties hold (no leading
  axes, one, two; as many queries as keys; d_v = d_k; a mask of 0/1 numbers; integer positions;
  the contract's default arguments given explicitly),
  with the contract's answer for the rewritten input computed by the grader's oracle. The fewest
  properties (up to three) whose rewriting makes the case pass are named: "works only when ...";
  the answer may also be the contract's for the code's own causal mask, or without the mask or
  the given scale (``answer_for``).
* ``answer_for`` says which answer an output is: the contract's, or the contract's for another mask or scale.

What the output alone shows by an exact fit is ``fits.py``'s. Each returns ``(mistake id, how it was shown)`` or
None; ``how`` goes to results.json's evidence.
"""

from __future__ import annotations

from itertools import combinations
from typing import Any

import numpy as np

from autograder.api import Case, StudentError, answer, call_arguments, compare, matches

from ..generated import oracle
from . import masks, probe_inputs, scales, variants
from .rewritings import ATTENTION, TOKENS, _lead_to, first_slices, heads_of_width, rewritings
from .shapes import divisible_widths, model_to

Found = tuple[Any, str] | None  # (a mistake id, or several in a tuple; how it was shown)


# ----------------------------------------------------------------------------
# A probe search: the same case rewritten so that properties hold, its answer from the oracle
# ----------------------------------------------------------------------------

MAX_SEARCH = 24  # probe calls per failing case
MAX_COMBINED = 3  # properties made to hold at once


def search(student: Any, stored: Case, original: Any, *, type_error: bool = False) -> Found:
    """The fewest properties whose rewriting makes the case pass ("works only when ..."), with what the output
    then shows instead of the contract's answer (its own causal mask, the mask or the scale ignored, another
    scale), or None. A probe whose output equals the original one (``original``, None when the call raised) flipped
    nothing. ``type_error``: the call raised a TypeError, so the contract's default arguments given explicitly are
    a property too (code that requires one of them)."""
    named = _plain_arguments(stored)
    if named is None:
        return None
    candidates = list(rewritings(stored.function, named, defaults=type_error))
    calls, without = 0, None  # without: whether the call without a mask is right (asked once, when needed)
    for size in range(1, min(MAX_COMBINED, len(candidates)) + 1):
        for combo in combinations(candidates, size):
            if len({m for m, _, _ in combo}) < size or sum(m in LEAD_MISTAKES for m, _, _ in combo) > 1:
                continue  # one rewriting per mistake; one number of leading axes (the last alone, tried already)
            inputs = dict(named)
            try:
                for _, _, rewrite in combo:
                    inputs = rewrite(inputs)
            except (ValueError, IndexError):
                continue
            if _one_key_per_row(stored.function, inputs):  # every softmax of one key gives 1: a pass says nothing
                continue  # of the scores (their scale, the softmax, how the mask meets them)
            if calls >= MAX_SEARCH or not scales.probe_allowed():
                return None
            calls += 1
            try:
                actual = student.call(stored.function, *inputs.values())
            except StudentError:
                continue
            if (actual := answer(actual)) is None:  # ragged, huge, not arrays: not the answer
                continue
            if original is not None and matches(actual, original):
                continue
            found = answer_for(stored.function, inputs, actual) or _answer_without_extra_axes(
                stored.function, inputs, actual) or decomposed(stored.function, inputs, actual, fitted=False)
            if found is not None:
                mistakes = tuple(dict.fromkeys((*(m for m, _, _ in combo), *found[0])))
                if named.get("mask") is not None and set(mistakes) & set(LEAD_MISTAKES):
                    without = right_without_mask(student, stored.function, named) if without is None else without
                    if without:  # the code takes these axes without a mask: what fails is its mask's handling
                        continue
                if _data_not_rank(student, stored.function, named, combo):
                    continue  # the rank's rewriting passes for the data it kept, not for the rank
                if "needs_square" in mistakes and ("always_causal" in mistakes or (
                        _causal(inputs.get("mask")) and not _honours_mask(student, stored.function, inputs))):
                    continue  # a causal mask of the code's own, right only on square cases, fits as well
                # a case without leading axes that passes with one (two) passes with two (one) too: the code needs
                # some leading axis, not a fixed number of them
                if "batch_first_only" in mistakes and (leading_axes_optional(student, stored) or (
                        len(combo) > 1 and _with_lead(student, stored.function, named, combo, 2, charged=True))):
                    mistakes = _some_lead(mistakes, "batch_first_only")
                if "needs_leading_axes" in mistakes and _with_lead(student, stored.function, named, combo, 1,
                                                                   charged=True):
                    mistakes = _some_lead(mistakes, "needs_leading_axes")
                elif "needs_leading_axes" in mistakes and _with_lead(student, stored.function, named, combo, 3,
                                                                     charged=True, any_rank=True):
                    continue  # right with three leading axes too, not with one: the code needs two or more (a
                    # layout read tokens first, its two leading axes swapped harmlessly), not one fixed number
                if original is None:  # a raise mixed no axes: a pass without them says only that it needs none
                    mistakes = tuple("matrix_input_only" if m == "no_batch_support" else m for m in mistakes)
                if {"mha_head_width_model", "mha_needs_divisible_width"} & set(mistakes) and _width_control(
                        student, stored.function, named, combo):
                    continue  # right at a width D // H never gives (or num_heads does not divide) too
                hows = " and ".join(how for _, how, _ in combo)
                return (mistakes[0] if len(mistakes) == 1 else mistakes), (
                    f"a probe: the same case {hows} gives the contract's answer {found[1]}".rstrip())
    return None


def _data_not_rank(student: Any, function: str, named: dict[str, Any], combo: tuple) -> bool:
    """Whether a combination that drops leading axes (it keeps their first slices) passes with those same slices at
    the case's own rank too: then what the rank's rewriting changed that mattered is the data it kept (a fully
    masked row left out, say), not the number of axes (True too when the budget refuses the call)."""
    tokens = [n for n in TOKENS.get(function, ()) if isinstance(named.get(n), np.ndarray)]
    lead = np.ndim(named[tokens[0]]) - 2 if tokens else 0
    ks = [rewrite.keywords["k"] for m, _, rewrite in combo if m in LEAD_MISTAKES]
    if not ks or ks[0] >= lead:
        return False
    inputs = first_slices(named, tokens, ks[0])
    try:
        for mistake, _, rewrite in combo:
            inputs = inputs if mistake in LEAD_MISTAKES else rewrite(inputs)
    except (ValueError, IndexError):
        return False
    # refused by the case's budget, the rank is not shown either
    return not scales.probe_allowed() or _answer_to(student, function, inputs, partial=True) is not None


def _width_control(student: Any, function: str, named: dict[str, Any], combo: tuple) -> bool:
    """Whether the combination passes with heads of a width D // H never gives for D = H * d_k (no D // H split),
    or, for a D that num_heads divides, with a wider D that it does not divide (the code needs a wider input, not a
    multiple of num_heads)."""
    _, d_k, d_v, D = probe_inputs.mha_widths(named)
    controls = {"mha_head_width_model": lambda n: heads_of_width(n, probe_inputs.past_model_width(d_k, D), d_v),
                "mha_needs_divisible_width": lambda n: model_to(n, divisible_widths(named)[1])}
    inputs = dict(named)
    for mistake, _, rewrite in combo:  # each applied once already, by the search
        inputs = controls[mistake](inputs) if mistake in controls else rewrite(inputs)
    return scales.probe_allowed() and _answer_to(student, function, inputs) is not None


def decomposed(function: str, inputs: dict[str, Any], actual: Any, *, fitted: bool) -> tuple | None:
    """The contract's answer but for several mistakes at once (``decompose.on_inputs``), as ``answer_for`` says it;
    ``fitted``: or at a fitted scale (not in the probe search: on a case it rewrote, a fitted scale may just sharpen a
    softmax into the rows the code happened to pick)."""
    from . import decompose  # decompose reads cases through this module

    found = decompose.on_inputs(function, inputs, actual)
    if found is None or (not fitted and "scaled by" in found[1]):
        return None
    mistakes, how = found
    return ((mistakes,) if isinstance(mistakes, str) else tuple(mistakes)), how.replace(decompose.MATCHED, "")


def _one_key_per_row(function: str, inputs: dict[str, Any]) -> bool:
    """Whether the mask of these attention inputs leaves every query at most one key."""
    mask = inputs.get("mask")
    if function not in ATTENTION or mask is None:
        return False
    n_q, n_k = _lengths(function, inputs)
    try:
        allowed = masks.full(mask, n_q, n_k) != 0
    except ValueError:
        return False
    return bool((allowed.sum(axis=-1) <= 1).all())


def _some_lead(mistakes: tuple[str, ...], lead: str) -> tuple[str, ...]:
    return tuple(dict.fromkeys("needs_leading_axis" if m == lead else m for m in mistakes))


def _with_lead(student: Any, function: str, named: dict[str, Any], combo: tuple, k: int, *, partial: bool = False,
               charged: bool = False, any_rank: bool = False) -> bool:
    """Whether a case without leading axes (``any_rank``: or with some), given ``k`` of them (in place of
    ``combo``'s rewriting of the leading axes, its other rewritings kept), gives a known answer (``_answer_to``;
    ``partial``: or one right where it is finite). One probe call; ``charged``: counted against the case's probe
    budget (False when it refuses it)."""
    tokens = [n for n in TOKENS.get(function, ()) if isinstance(named.get(n), np.ndarray)]
    if not tokens or (np.ndim(named[tokens[0]]) != 2 and not any_rank) or (charged and not scales.probe_allowed()):
        return False
    try:
        inputs = dict(named) if any(m in LEAD_MISTAKES for m, _, _ in combo) else _lead_to(named, tokens, k)
        for mistake, _, rewrite in combo:
            inputs = _lead_to(inputs, tokens, k) if mistake in LEAD_MISTAKES else rewrite(inputs)
    except (ValueError, IndexError):
        return False
    return _answer_to(student, function, inputs, partial=partial) is not None


def _answer_without_extra_axes(function: str, inputs: dict[str, Any], actual: Any) -> tuple | None:
    """``answer_for`` of the output read without its extra leading axes of length 1, with extra_leading_axes."""
    try:
        with np.errstate(all="ignore"):
            squeezed = masks.without_extra_axes(getattr(oracle, function)(**inputs), actual)
    except Exception:  # the contract has no answer for these inputs (answer_for reads none either)
        return None
    found = None if squeezed is None else answer_for(function, inputs, squeezed)
    return None if found is None else ((*found[0], "extra_leading_axes"),
                                       f"{found[1]}, its leading axes of length 1 removed".lstrip(", "))


def _causal(mask: Any) -> bool:
    """Whether a mask is the square causal pattern (on every slice of its leading axes; as 0/1 numbers too)."""
    if not isinstance(mask, np.ndarray) or mask.dtype.kind not in "biuf" or mask.ndim < 2 or (
            mask.shape[-2] != mask.shape[-1]):
        return False
    return bool(np.all((mask != 0) == oracle.causal_mask(mask.shape[-1], mask.shape[-1])))


def _honours_mask(student: Any, function: str, inputs: dict[str, Any]) -> bool:
    """Whether the same call with an all-True mask instead gives the contract's answer: the code does not put a
    causal mask of its own in place of the given one (one probe call; False when the budget refuses it)."""
    mask = np.ones(np.shape(inputs["mask"])[-2:], bool)
    found = _answer_to(student, function, dict(inputs, mask=mask)) if scales.probe_allowed() else None
    return found is not None and "always_causal" not in found[0]


def answered(stored: Case, actual: Any) -> Found:
    """The output is the contract's answer for another mask or scale than the case's (``answer_for``), or None."""
    named = _plain_arguments(stored)
    if named is not None and (found := answer_for(stored.function, named, actual)) and found[0]:
        return (found[0][0] if len(found[0]) == 1 else found[0]), f"the output equals the contract's answer {found[1]}"
    return None


def _plain_arguments(stored: Case) -> dict[str, Any] | None:
    """The case's arguments by name, or None when one is not a plain array or number (an object, a cache)."""
    named = dict(call_arguments(stored.inputs))
    return None if any(not isinstance(v, (np.ndarray, int, float, type(None))) for v in named.values()) else named


LEAD_MISTAKES = ("needs_leading_axes", "batch_first_only", "no_batch_support")  # the rewritings of the leading axes


def right_without_mask(student: Any, function: str, named: dict[str, Any]) -> bool:
    """Whether the call with no mask (the rest as in ``named``) returns the contract's answer without one, or that
    answer but for its scale (``answer_for``): the code takes these inputs' leading axes, whatever it requires of a
    mask (one probe call, within the case's budget; True when the budget refuses it: the axes are then not shown)."""
    return not scales.probe_allowed() or _answer_to(student, function, dict(named, mask=None)) is not None


def leading_axes_optional(student: Any, stored: Case) -> bool:
    """For a case without leading axes that passes with one: whether it also passes with two (the code needs some
    leading axis, not exactly one)."""
    return _with_lead(student, stored.function, dict(call_arguments(stored.inputs)), (), 2, partial=True)


def _answer_to(student: Any, function: str, inputs: dict[str, Any], *, partial: bool = False) -> tuple | None:
    """Which answer the call on ``inputs`` returns (``answer_for``: the contract's, (), first; or the contract's for
    its own mask or scale); ``partial``: or ((), ...) when it is right where it is finite; None when none."""
    try:
        with np.errstate(all="ignore"):
            expected = getattr(oracle, function)(**inputs)
        actual = answer(student.call(function, *inputs.values()), like=expected)  # None: ragged, huge, another shape
    except (StudentError, ValueError, IndexError, TypeError):
        return None
    if actual is None:
        return None
    found = answer_for(function, inputs, actual)
    return found if found or not partial or not _close_where_finite(actual, expected) else ((), "where finite")


def _close_where_finite(actual: Any, expected: Any) -> bool:
    """Right on every entry it computed, with NaN only where another mistake (an all -inf row) leaves it."""
    pairs = list(zip(actual, expected)) if isinstance(expected, tuple) and isinstance(actual, (tuple, list)) else [
        (actual, expected)]
    if len(pairs) != (len(expected) if isinstance(expected, tuple) else 1):
        return False
    for mine, theirs in pairs:
        a, e = np.asarray(mine), np.asarray(theirs)
        if a.shape != e.shape or a.dtype.kind not in "f":
            return False
        finite = np.isfinite(a)
        if finite.mean() < 0.5 or not np.allclose(a[finite], e[finite], rtol=compare.RTOL, atol=compare.ATOL):
            return False
    return True


def answer_for(function: str, inputs: dict[str, Any], actual: Any) -> tuple[tuple[str, ...], str] | None:
    """Which answer ``actual`` is: the contract's (()), or the contract's for the mask or scale this code uses
    instead of the given one (always_causal, mask_ignored, scale_argument_ignored), or with a 0/1 pattern added to
    the scores (``variants.added``: mask_bool_added), or any of the first at a scale fitted to the output
    (``scales.fit``: the scale's mistake is named with it); None when none."""
    answers: list[tuple[tuple[str, ...], str, dict[str, Any]]] = [((), "", inputs)]
    if function in ATTENTION:
        n_q, n_k = _lengths(function, inputs)
        mask = inputs.get("mask")
        causal = oracle.causal_mask(n_q, n_k)
        answers.append((("always_causal",), "with a causal mask instead of the one given", dict(inputs, mask=causal)))
        if n_q != n_k:  # query i sees keys 0..i (the triangle's corner at the first key, not the last)
            answers.append((("always_causal", "causal_top_left"), "with a causal mask aligned top-left instead of the "
                            "one given", dict(inputs, mask=np.tril(np.ones((n_q, n_k), bool)))))
        if mask is not None:
            answers.append((("mask_ignored",), "without the mask", dict(inputs, mask=None)))
        if (padding := masks.key_padding(function, mask)) is not None:
            answers.append((("mask_key_padding",), masks.KEY_PADDING, dict(inputs, mask=padding)))
        if inputs.get("scale") is not None:
            answers.append((("scale_argument_ignored",), "with the default scale", dict(inputs, scale=None)))
    for mistakes, how, candidate in answers:
        try:
            with np.errstate(all="ignore"):
                expected = getattr(oracle, function)(**candidate)
        except Exception:
            continue
        if matches(actual, expected):
            return mistakes, how
        if mistakes == ("mask_key_padding",) and matches(actual, _unit_axes_as(expected, actual)):
            return mistakes, f"{how}, but for where its axes of length 1 stand"
    if function in ATTENTION:
        for mistakes, how, expected in variants.added(function, inputs, *_lengths(function, inputs)):
            if matches(actual, expected):
                return mistakes, how
    for mistakes, how, candidate in answers if function in ATTENTION else ():
        if "scale_argument_ignored" in mistakes or (c := scales.fit(function, candidate, actual)) is None:
            continue
        if scale := scales.named_for(function, candidate, c):
            wanted = variants.asked(function, candidate)
            return (scale, *mistakes), ", ".join(h for h in (how, f"with its scores scaled by {c:.6g} instead of "
                                                               f"{wanted:.6g}") if h)
    return None


def _unit_axes_as(expected: Any, actual: Any) -> Any:
    """``expected`` with its axes of length 1 placed as ``actual``'s are, where the two differ only there (the
    key-padding reading's ``mask[:, None, None, :]`` adds a head and a query axis; code written for 3-D scores adds
    the query axis alone, and before 2-D scores either gives the first axis of the mask a new axis of its own)."""
    if isinstance(expected, tuple):
        return tuple(_unit_axes_as(e, a) for e, a in zip(expected, actual)) if isinstance(actual, (tuple, list)) and \
            len(actual) == len(expected) else expected
    if not isinstance(expected, np.ndarray) or not isinstance(actual, np.ndarray):  # whatever the code returned
        return expected
    shape, like = expected.shape, actual.shape
    if shape == like or [n for n in shape if n != 1] != [n for n in like if n != 1]:
        return expected
    return np.reshape(expected, like)


def _lengths(function: str, inputs: dict[str, Any]) -> tuple[int, int]:
    if function == "multi_head_attention":
        n = np.shape(inputs["X"])[-2]
        return n, n
    return np.shape(inputs["Q"])[-2], np.shape(inputs["K"])[-2]
