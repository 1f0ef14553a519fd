"""What every graded test does: load stored cases, run them on the student's code, explain failures.

A graded test names the stored cases it runs (``autograder/suite/cases/graded.npz``, written by
``python -m autograder regen``; no reference code is shipped) and calls ``check``::

    @graded("B.1", "softmax", 2)
    def test_softmax_rows(student):
        \"\"\"softmax: each row sums to 1 along the last axis\"\"\"
        check(student, "softmax-rows")

``check`` runs every case with the grader's own inputs (so a bug elsewhere in the
submission cannot fail this test, except through the student's own calls), and on a
mismatch fails the test with feedback: the case and the call, shape/dtype problems,
how many entries differ, the largest errors and where, an excerpt (and a heatmap for
attention weights), then the likely mistake when the output matches a stored
known-wrong variant, the call counts say so (Part F), an input was written to, or the
code works on each 2-D slice but not with batch axes. When a function this one usually
calls (``contract.CALLS``) failed its own tests earlier in the session, the feedback says
to fix that one first.

Part F's stateful cases live in ``stateful.py``; how a call is described, in ``calls.py``.
"""

from __future__ import annotations

import contextvars
import functools
import weakref
from collections.abc import Callable, Collection, Mapping, Sequence
from pathlib import Path
from typing import Any, NamedTuple

import numpy as np
import pytest
from gradescope_utils.autograder_utils.decorators import number, partial_credit, tags, visibility, weight

from autograder import contract
from autograder.feedback import compare
from autograder.sandbox.student import StudentError
from autograder.suite.cases import Case, call_arguments, load_cases
from autograder.suite.graded import stateful
from autograder.suite.graded.calls import (
    NOT_IMPLEMENTED,
    case_header,
    describe_call,
    error_mistake,
    error_text,
    type_mistake,
)
from autograder.suite.graded.shapes import probe_evidence, shape_evidence

CASES_FILE = Path(__file__).resolve().parent.parent / "cases" / "graded.npz"
LIKELY = "**Likely mistake:**"
OUTPUT_NAMES = {"qkv_project": ("Q", "K", "V"), "scaled_dot_product_attention": ("out", "weights")}
HEATMAPS: dict[str, bool | Collection[str]] = {"softmax": True, "scaled_dot_product_attention": {"weights"}}


# ----------------------------------------------------------------------------
# Declaring a graded test
# ----------------------------------------------------------------------------


def graded(test_number: str, function: str, points: float, *, hidden: bool = False, partial: bool = False) -> Callable:
    """gradescope-utils' decorators in one: number, weight (or partial credit), the function's tag, visibility.

    Hidden tests get ``contract.HIDDEN`` (one place for the instructor to change it). A
    failing test is remembered for the session (see ``callee_note``).
    """
    if function not in contract.FUNCTIONS:
        raise ValueError(f"unknown contract function {function!r}")
    shown = contract.HIDDEN if hidden else contract.VISIBLE

    def decorate(test: Callable) -> Callable:
        @functools.wraps(test)
        def remembered(student: Any, *args: Any, **kwargs: Any) -> None:
            token = _current.set(Failed(function, test_number, shown))
            try:
                test(student, *args, **kwargs)
            except BaseException:
                _failed.setdefault(student, []).append(Failed(function, test_number, shown))
                raise
            finally:
                _current.reset(token)

        marked = number(test_number)(tags(function)(visibility(shown)(remembered)))
        return partial_credit(points)(marked) if partial else weight(points)(marked)

    return decorate


class Failed(NamedTuple):
    """A graded test: the contract function it tags, its number, its visibility."""

    function: str
    number: str
    shown: str


# The test running now, and the tests that failed so far, per Student (one grading session each).
_current: contextvars.ContextVar[Failed | None] = contextvars.ContextVar("current_graded_test", default=None)
_failed: weakref.WeakKeyDictionary[Any, list[Failed]] = weakref.WeakKeyDictionary()


def callee_note(student: Any, function: str) -> str | None:
    """Fix-this-first advice when functions that ``function`` usually calls failed their own tests.

    Only failures the student may already see are cited: visible tests, or tests shown
    at the same time as the current one.
    """
    current = _current.get()
    shown_now = current[2] if current else contract.VISIBLE
    failing: dict[str, list[str]] = {}
    for callee, test_number, shown in _failed.get(student, []):
        if callee in contract.callees(function) and shown in (contract.VISIBLE, shown_now):
            failing.setdefault(callee, [])
            if test_number not in failing[callee]:
                failing[callee].append(test_number)
    if not failing:
        return None
    said = [f"`{name}` fails its own test{'s' if len(ns) > 1 else ''} {', '.join(ns)}" for name, ns in failing.items()]
    them = "it" if len(failing) == 1 else "them"
    return (f"**Check first:** your {' and your '.join(said)}. `{function}` usually calls {them}, so that bug "
            f"shows here too: fix {them} first, then look at this test again.")


@functools.lru_cache(maxsize=1)
def all_cases() -> dict[str, Case]:
    """Every stored graded case, by id (read once per process)."""
    return load_cases(CASES_FILE)


def case(case_id: str) -> Case:
    """One stored case; a KeyError names the missing id (the stored cases are stale: run regen)."""
    try:
        return all_cases()[case_id]
    except KeyError:
        raise KeyError(f"no stored case {case_id!r}: run `python -m autograder regen`") from None


# ----------------------------------------------------------------------------
# Checking
# ----------------------------------------------------------------------------


def check(
    student: Any, *case_ids: str, batched: bool = False, set_score: Callable | None = None, points: float = 0.0,
    shapes: bool = False,
) -> None:
    """Run the cases on the student's code; fail the test with feedback on the first that differs.

    ``batched``: the cases have leading batch/head axes; when the student's output is
    wrong for no known reason but right on each case's first 2-D slice, say so.
    ``set_score`` (from ``@partial_credit``) and the test's ``points``: credit the
    fraction of the cases that pass. ``shapes``: the cases differ in shape (random-shape tests);
    when one shape property tells the passing cases from the failing ones, say so (``shapes.py``).
    """
    failures: list[tuple[Case, str, str | None]] = []
    for case_id in case_ids:
        stored = case(case_id)
        problem, mistake = run_case(student, stored, batched=batched)
        if problem is not None:
            failures.append((stored, problem, mistake))
    if set_score is not None:
        set_score(points * (len(case_ids) - len(failures)) / len(case_ids))
    if failures:
        function = failures[0][0].function
        attempted = student.has(function) and not all(NOT_IMPLEMENTED in text for _, text, _ in failures)
        note = callee_note(student, function) if attempted else None
        # a guess from an error alone is likelier the callee's fault; random shapes break every guess's premise
        if note or shapes:
            failures = [(c, text, None if m in GUESSES_FROM_ERRORS else m) for c, text, m in failures]
        failed = {c.id for c, _, _ in failures}
        evidence = None
        if shapes and attempted and not note:
            evidence = shape_evidence([case(i) for i in case_ids], failed) or probe_evidence(
                failures[0][0], lambda probe: run_case(student, probe)[0] is None)
        pytest.fail(failure_message(failures, len(case_ids), note, evidence), pytrace=False)


GUESSES_FROM_ERRORS = ("mha_value_width",)


def failure_message(
    failures: Sequence[tuple[Case, str, str | None]], total: int, note: str | None = None, evidence: str | None = None
) -> str:
    """The first failing case in full, fix-first advice, the likely mistake, shape evidence, the other failing cases."""
    _, text, mistake = failures[0]
    mistake = mistake or next((m for _, _, m in failures if m), None)
    parts = [text]
    if note:
        parts.append(note)
    if mistake:
        parts.append(f"{LIKELY} {sentence(mistake)}")
    if evidence:
        parts.append(evidence)
    if len(failures) > 1:
        others = "\n".join(f"- {c.description}" for c, _, _ in failures[1:])
        parts.append(f"{len(failures)} of the {total} cases of this test fail; the others are:\n{others}")
    return "\n\n".join(parts)


def sentence(mistake_id: str) -> str:
    """The one-sentence explanation of a mistake; "<id>.<how>" (another spelling of it) shares its id's."""
    base = mistake_id.split(".", maxsplit=1)[0]
    return compare.MISTAKES.get(base, base)


def run_case(student: Any, stored: Case, *, batched: bool = False) -> tuple[str | None, str | None]:
    """(None, None) when the student's code reproduces the case, else (feedback, mistake id or None)."""
    if stored.function == "KVCache":
        return stateful.run_kv_cache(student, stored)
    if isinstance(stored.expected, Mapping):
        return stateful.run_with_layer(student, stored)
    return _run_plain(student, stored, batched=batched)


def _run_plain(student: Any, stored: Case, *, batched: bool) -> tuple[str | None, str | None]:
    args = [value for _, value in call_arguments(stored.inputs)]
    header = case_header(stored, describe_call(stored.function, stored.inputs))
    try:
        actual = student.call(stored.function, *args)
    except StudentError as error:
        mistake = error_mistake(error)
        if mistake is None and batched and _works_on_a_slice(student, stored, args):
            mistake = "no_batch_support"
        mistake = mistake or _shape_error_mistake(stored, error)
        return f"{header}\n\n{error_text(stored.function, error)}", mistake
    text = compare.compare(
        f"{stored.function}(...)", stored.expected, actual,
        heatmap=HEATMAPS.get(stored.function, False), names=OUTPUT_NAMES.get(stored.function),
    )
    if text is None:
        return None, None
    mistake = type_mistake(stored.expected, actual) or diagnose(actual, stored.mistakes, stored.expected)
    if mistake is None and stored.function == "softmax":
        mistake = softmax_mistake(actual, stored)
    if mistake is None and batched and _works_on_a_slice(student, stored, args):
        mistake = "no_batch_support"
    return f"{header}\n\n{text}", mistake


# When several stored mistakes give the same output on a case, the first of these that matches is named:
# NaN only in the all -inf rows is explained by the missing guard, not by a missing max subtraction.
PREFERRED = ("softmax_nan_fully_masked",)


def diagnose(actual: Any, mistakes: Mapping[str, Any], expected: Any) -> str | None:
    """The stored mistake whose output ``actual`` matches (PREFERRED ones first on a tie)."""
    matching = [m for m in mistakes if compare.diagnose(actual, {m: mistakes[m]}, expected=expected)]
    return next((m for m in PREFERRED if m in matching), matching[0] if matching else None)


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


def _works_on_a_slice(student: Any, stored: Case, args: list[Any]) -> bool:
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


def _shape_error_mistake(stored: Case, error: StudentError) -> str | None:
    """A shape error in multi-head attention on a case where d_v != d_k: V was split with d_k."""
    if stored.function != "multi_head_attention" or error.kind != "exception" or "NotImplementedError" in str(error):
        return None
    widths = {np.shape(stored.inputs[name])[-1] for name in ("W_Q", "W_V")}
    return "mha_value_width" if len(widths) > 1 else None
