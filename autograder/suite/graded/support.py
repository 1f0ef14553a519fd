"""What every graded test does: load stored cases, run them on the student's code, explain failures.

A graded test names the stored cases it runs (``autograder/suite/cases/graded.npz``, written by
``python -m autograder regen``; no reference code is shipped) and calls ``check``::

    @graded("B.1", "softmax")
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

Running one case and explaining its failure lives in ``running.py``; what backs each sentence, in ``evidence.py``;
how a call is described, in ``calls.py``.
"""

from __future__ import annotations

import contextvars
import functools
import os
import weakref
from collections.abc import Callable, Collection, Sequence
from typing import Any, NamedTuple

import pytest
from gradescope_utils.autograder_utils.decorators import number, partial_credit, tags, visibility, weight

from autograder import contract
from autograder.feedback import compare
from autograder.suite.cases import Case, load_cases
from autograder.suite.graded import callees, hooks, probing, raises
from autograder.suite.graded.calls import NOT_IMPLEMENTED
from autograder.suite.graded.evidence import OWN_LINE, record_evidence
from autograder.suite.graded.evidence import recorded as _evidence
from autograder.suite.graded.naming import Mistakes, mistake_ids, resolve
from autograder.suite.graded.running import crash_feedback, run_case

__all__ = ["OWN_LINE", "check", "crash_feedback", "graded", "record_evidence", "run_case"]

LIKELY = "**Likely mistake:**"


# ----------------------------------------------------------------------------
# Declaring a graded test
# ----------------------------------------------------------------------------


def graded(test_number: str, function: str, *, hidden: bool = False, partial: bool = False) -> Callable:
    """gradescope-utils' decorators in one: number, weight (or partial credit), the function's tag, visibility.

    The weight is the test's entry in ``contract.POINTS`` (the one place points are set).
    Hidden tests get ``contract.HIDDEN`` (one place for the instructor to change it). A
    failing test is remembered for the session (see ``callees.callee_note``).
    """
    if function not in contract.FUNCTIONS:
        raise ValueError(f"unknown contract function {function!r}")
    points = contract.points_of_test(test_number, function)
    shown = contract.HIDDEN if hidden else contract.VISIBLE

    def decorate(test: Callable) -> Callable:
        @functools.wraps(test)
        def remembered(student: Any, *args: Any, **kwargs: Any) -> None:
            token, named = _current.set(Failed(function, test_number, shown)), _named.set([])
            backing = _evidence.set([])
            remembered.__mistakes__, remembered.__evidence__ = [], []
            try:
                with probing.per_test():
                    try:
                        test(student, *args, **kwargs)
                    finally:
                        probes = probing.used()
            except BaseException as error:
                if student_facing(error):  # a test that hit an internal error is never cited (Check first)
                    remembered.__mistakes__ = list(_named.get() or [])
                    _failed.setdefault(student, []).append(Failed(function, test_number, shown,
                                                                  tuple(remembered.__mistakes__)))
                    remembered.__evidence__ = ([{"sentence": "probes", "calls": probes, "budget": probing.PROBE_CALLS}]
                                               if probes else []) + list(_evidence.get() or [])
                raise
            finally:
                _current.reset(token)
                _named.reset(named)
                _evidence.reset(backing)

        marked = number(test_number)(tags(function)(visibility(shown)(remembered)))
        return partial_credit(points)(marked) if partial else weight(points)(marked)

    return decorate


class Failed(NamedTuple):
    """A graded test: the contract function it tags, its number, its visibility (and, once it failed, the mistakes
    its feedback named)."""

    function: str
    number: str
    shown: str
    named: tuple[str, ...] = ()


# The test running now, the mistakes its feedback names, and the tests that failed so far, per Student
# (one grading session each). The plugin reads a test's ``__mistakes__`` into results.json's extra_data.
_current: contextvars.ContextVar[Failed | None] = contextvars.ContextVar("current_graded_test", default=None)
_named: contextvars.ContextVar[list[str] | None] = contextvars.ContextVar("named_mistakes", default=None)
_failed: weakref.WeakKeyDictionary[Any, list[Failed]] = weakref.WeakKeyDictionary()


def seen_failures(student: Any) -> list[Failed]:
    """The tests that failed so far that the student sees beside the current one: visible tests, or tests shown at
    the same time (a hidden test's failure never shapes a visible test's feedback)."""
    current = _current.get()
    shown_now = current.shown if current else contract.VISIBLE
    return [failed for failed in _failed.get(student, []) if failed.shown in (contract.VISIBLE, shown_now)]


def named_earlier(student: Any, function: str) -> list[str]:
    """The mistakes the earlier failed tests of ``function`` named, of those the student sees with the current one."""
    return [m for failed in seen_failures(student) if failed.function == function for m in failed.named]


def student_facing(error: BaseException) -> bool:
    """Whether a test's exception is a verdict on the student's code (pytest.fail, an assert, a StudentError),
    not an internal error of the grader (which the results plugin reports as such)."""
    return isinstance(error, (pytest.fail.Exception, AssertionError)) or getattr(error, "student_facing", False) is True


def failing_callees(student: Any, function: str, *, unused: Collection[str] = ()) -> dict[str, list[str]]:
    """The functions ``function`` usually calls that failed their own tests, with those tests' numbers.

    Only failures the student may already see are candidates (visible tests, or tests shown at the
    same time as the current one), and none of ``unused`` (callees the case's inputs do not bring in:
    ``contract.unused_callees``); whether a candidate is cited is for the served probe to show
    (``callees.callee_note``).
    """
    failing: dict[str, list[str]] = {}
    for failed in seen_failures(student):
        if failed.function not in contract.callees(function) or failed.function in unused:
            continue
        numbers = failing.setdefault(failed.function, [])
        if failed.number not in numbers:
            numbers.append(failed.number)
    return failing


@functools.lru_cache(maxsize=32)
def callees_mistakes(functions: tuple[str, ...]) -> frozenset[str]:
    """The known mistakes of these functions: those their own stored cases hold."""
    return frozenset(m for c in all_cases().values() if c.function in functions for m in c.mistakes)


@functools.lru_cache(maxsize=1)
def all_cases() -> dict[str, Case]:
    """Every stored graded case, by id (read once per process)."""
    return load_cases(contract.HOMEWORK.cases_file)


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
    failures: list[tuple[Case, str, Mistakes]] = []
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
        unused = set.intersection(*(contract.unused_callees(function, c.inputs) for c, _, _ in failures))
        # every callee that failed its own tests is a candidate, entered or not (a call that raised in one callee
        # never reached the next): the served probe decides, and only the fewest that make the case pass are cited
        failing = failing_callees(student, function, unused=unused) if attempted else {}
        note = callees.callee_note(probing.probing(student), [c for c, _, _ in failures], failing,
                                   record_evidence) if failing else None
        if note is None and attempted and (failing or any(m for _, _, m in failures)):
            # a mistake of its own is named only if the case fails with every callee correct too: a callee whose
            # failures are hidden, or not graded yet, may be what the output shows. When it passes so, the fewest
            # callees whose stand-ins make it pass are cited by this case alone (none: nothing is said of them)
            servable = [c for c in contract.callees(function) if c not in unused]
            if callees.passes_with_all(probing.probing(student), failures[0][0], servable, record_evidence):
                note = callees.culprit_note(probing.probing(student), failures[0][0], servable, failing,
                                            record_evidence) or callees.Note("")
        evidence = None
        if shapes and attempted and note is None:
            failed = {c.id for c, _, _ in failures}
            evidence = hooks.shape_evidence([case(i) for i in case_ids], failed)
            how = "the cases that pass are exactly those with this shape property"
            if not evidence:
                evidence = hooks.probe_evidence(failures[0][0],
                                                lambda probe: run_case(probing.probing(student), probe)[0] is None)
                how = f"a probe: case {failures[0][0].id} rewritten so the property holds, with the same answer, passes"
            if evidence:
                record_evidence({"sentence": "shapes", "by": how})
        resolved = resolve(failures, named_earlier(student, function))
        cited = None if note is None else {m.split(".")[0] for c in note.cited for m in named_earlier(student, c)}
        pytest.fail(failure_message(resolved, len(case_ids), note, evidence, cited), pytrace=False)


def failure_message(
    failures: Sequence[tuple[Case, str, Mistakes]], total: int, note: callees.Note | None = None,
    evidence: str | None = None, cited: Collection[str] | None = None,
) -> str:
    """The diagnosis first (every evidenced mistake and the shape evidence, else the fix-first advice), then
    the first failing case in full, then the other failing cases by name. Records the mistakes named for
    results.json. ``cited``: the mistakes the note's callees' own failed tests named."""
    named = mistake_ids(failures[0][2]) or next((mistake_ids(m) for _, _, m in failures if m), [])
    if note is not None:  # the case passes with correct callees standing in: its own code is right on it, so only
        own = callees_mistakes(note.cited)  # the case's cited callees' own mistakes stay named (a rope that
        # pairs halves), not the function's ("RoPE not applied"), and only those their own tests said: a callee
        # wrong through a callee of its own is not said to have a mistake its feedback does not name
        named = [m for m in named if m.split(".")[0] in own and (cited is None or m.split(".")[0] in cited)]
    shapes = bool(evidence) and not set(getattr(evidence, "same_as", ())) & set(named)  # one sentence per cause
    backing = _evidence.get()
    unnamed_line = any(e.get("sentence") == OWN_LINE and e.get("case") == failures[0][0].id for e in backing or ())
    named = [] if probing.spent() else said(named, MAX_SENTENCES - shapes)
    quoted = not unnamed_line or len(named) + shapes < MAX_SENTENCES  # a named mistake before a line that names none
    first = failures[0][1] if quoted else raises.without_line(failures[0][1])
    parts = [f"{LIKELY} {sentence(m)}" for m in named]
    if probing.spent():  # a search cut short may have read a refused probe as a failing one: nothing is named
        parts.append(f"_(The grader's probes of this test reached their limit of {probing.PROBE_CALLS} calls, so "
                     "no likely mistake is named.)_")
    if shapes and evidence:
        parts.append(evidence)
    if note:
        parts.append(note)
    if len(failures) > 1:
        others = "\n".join(f"- {c.description}" for c, _, _ in failures[1:])
        parts.append(f"{len(failures)} of the {total} cases of this test fail; the others are:\n{others}")
    fixed = sum(len(part.splitlines()) + 1 for part in parts)
    parts.insert(len(parts) - (len(failures) > 1), shorten(first, MAX_LINES - fixed))
    recorded = _named.get()
    if recorded is not None:
        recorded[:] = named
    if backing is not None:  # only what backs a sentence that is said (and the fix-first probes tried)
        backing[:] = [e for e in backing if e.get("sentence") in ("check_first", "own_code", "shapes")
                      or (quoted and e.get("sentence") == OWN_LINE and e.get("case") == failures[0][0].id)
                      or set(str(e.get("sentence")).split(",")) & set(named)]
    return "\n\n".join(parts)


MAX_SENTENCES = 2  # named causes on one test, the most important first


def said(named: Sequence[str], most: int) -> list[str]:
    """The mistakes a test's feedback says: none whose sentence another one named already says (the homework's
    COVERS), then at most ``most``, in order (the first is what the displayed case shows first)."""
    covered = {c for m in named for c in hooks.covers().get(m, ())}
    return [m for m in named if m not in covered][:max(most, 1)]


MAX_LINES = 24  # a failing test's feedback, about; AUTOGRADER_FULL_FEEDBACK=1 keeps every excerpt and heatmap
DETAILS = ("Around index", "Heatmap")  # blocks of compare()'s report that may be left out, the last first


def shorten(text: str, budget: int) -> str:
    """``text`` without its excerpts and heatmaps (the last first) while it is longer than ``budget`` lines."""
    if os.environ.get("AUTOGRADER_FULL_FEEDBACK") == "1":
        return text
    blocks = text.split("\n\n")
    droppable = [i for i, block in enumerate(blocks) if block.startswith(DETAILS)]
    dropped: set[int] = set()
    while droppable and sum(len(b.splitlines()) + 1 for i, b in enumerate(blocks) if i not in dropped) > budget:
        dropped.add(droppable.pop())
    if not dropped:
        return text
    kept = [b for i, b in enumerate(blocks) if i not in dropped]
    return "\n\n".join([*kept, "_(Excerpts and heatmaps are left out to keep this short.)_"])


def sentence(mistake_id: str) -> str:
    """The one-sentence explanation of a mistake; "<id>.<how>" (another spelling of it) shares its id's."""
    base = mistake_id.split(".", maxsplit=1)[0]
    return compare.MISTAKES.get(base, base)
