"""Running one stored case on the student's code, and what a failure of it shows.

``run_case`` calls the student's function on the case's own inputs (or lets the homework's ``run_case`` hook do it,
for cases that need state) and compares with the stored answer; on a difference, the homework's diagnosis and the
engine's readings name what the output or a probe shows (``hooks.explain``), and a raise in the student's own code
is explained at their line (``callees.explain_crash``; ``crash_feedback`` for a homework's own runner).
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from typing import Any

from autograder import contract
from autograder.feedback import compare
from autograder.sandbox.student import StudentError
from autograder.suite.cases import Case, call_arguments
from autograder.suite.graded import callees, hooks, precision, probing
from autograder.suite.graded.calls import case_header, describe_call, error_mistake, error_text, type_mistake
from autograder.suite.graded.crashes import Crash
from autograder.suite.graded.evidence import OWN_LINE, record_evidence
from autograder.suite.graded.evidence import recorded as _evidence
from autograder.suite.graded.naming import Candidates, Mistakes, diagnose, mistake_ids

OUTPUT_NAMES: Mapping[str, Sequence[str]] = contract.HOMEWORK.OUTPUT_NAMES  # a tuple output's item names
HEATMAPS: Mapping[str, bool | Collection[str]] = contract.HOMEWORK.HEATMAPS  # outputs drawn as heatmaps


def run_case(student: Any, stored: Case, *, batched: bool = False) -> tuple[str | None, Mistakes]:
    """(None, None) when the student's code reproduces the case, else (feedback, mistake id(s) or None)."""
    before = len((recorded := _evidence.get()) or ())
    if (ran := hooks.run_case(student, stored)) is None:
        return _run_plain(student, stored, batched=batched)
    problem, mistake = ran
    if mistake and not any(e.get("case") == stored.id for e in (recorded or [])[before:]):  # unless the hook's own
        record_evidence({"sentence": ",".join(mistake_ids(mistake)), "case": stored.id, "exact": True,
                         "by": "the outputs, the objects' state afterwards and the grader's counts of their calls"})
    return problem, mistake


def _run_plain(student: Any, stored: Case, *, batched: bool) -> tuple[str | None, Mistakes]:
    with hooks.budget():
        return _run_and_explain(student, stored, batched=batched)


def _run_and_explain(student: Any, stored: Case, *, batched: bool) -> tuple[str | None, Mistakes]:
    named = call_arguments(stored.inputs)
    args, names = [value for _, value in named], [name for name, _ in named]
    header = case_header(stored, describe_call(stored.function, stored.inputs))
    try:
        actual = student.call(stored.function, *args)
    except StudentError as error:  # an exception alone is no evidence: only a probe that makes it right
        unimplemented = error.kind == "exception" and "NotImplementedError" in str(error)
        mistake, how, crash = error_mistake(error), "the error", None
        if not mistake and not unimplemented:  # the student's own line, and what it assumed (a bounded search)
            crash = callees.explain_crash(student, stored, dict(named), error)
        if not mistake and not unimplemented and (found := hooks.explain_error(
                probing.probing(student), stored, args, names, batched, error)):
            mistake, how = found
        if mistake:
            record_evidence({"sentence": ",".join(mistake_ids(mistake)), "case": stored.id, "by": how, "exact": False})
        text = f"{header}\n\n{error_text(stored.function, error)}"
        if crash is None:
            return text, mistake
        own = _recorded(stored, crash)
        return f"{header}\n\n{crash.text}\n\n{error_text(stored.function, error)}", _first(own, mistake)
    text = compare.compare(
        f"{stored.function}(...)", stored.expected, actual,
        heatmap=HEATMAPS.get(stored.function, False), names=OUTPUT_NAMES.get(stored.function),
    )
    if text is None:
        return None, None
    mistake, how, exact = (hooks.explain(probing.probing(student), stored, args, names, batched, actual)
                           or _explain(stored, actual))
    if mistake:
        record_evidence({"sentence": ",".join(mistake_ids(mistake)), "case": stored.id, "by": how, "exact": exact})
    return f"{header}\n\n{text}", mistake


def _first(own: Sequence[str], others: Mistakes) -> Mistakes:
    """``own`` (what the student's line that raised assumed, then what the call where that holds shows) first, then
    the others named on the case."""
    if not own:
        return others
    rest = list(others) if isinstance(others, tuple) and not isinstance(others, Candidates) else (
        [others] if others else [])
    named = mistake_ids(others)
    first = []
    for mistake in own:
        if any(mistake in hooks.covers().get(m, ()) for m in named):
            continue  # a sentence that says more says it already
        first += [m for m in rest if isinstance(m, str) and m.split(".", maxsplit=1)[0] == mistake] or [mistake]
    return (*first, *(m for m in rest if m not in first)) if first else others


def _explain(stored: Case, actual: Any) -> tuple[Mistakes, str, bool]:
    """What a wrong output evidences without the homework's own diagnosis: a list where an array is due, a stored
    mistake's output, an output rounded to some decimal places, low precision."""
    if mistake := type_mistake(stored.expected, actual):
        return mistake, "the output's type", False
    if mistake := diagnose(actual, stored.mistakes, stored.expected):
        return mistake, "the output equals this mistake's output on the case", True
    if found := precision.reading(stored.expected, actual, stored.mistakes):
        return found
    return None, "", False


def crash_feedback(student: Any, stored: Case, named: Mapping[str, Any], error: StudentError) -> \
        tuple[str, tuple[str, ...]] | None:
    """A raise on ``stored`` explained at the student's own line, for a homework that runs its case itself (its
    ``run_case`` hook): the text that quotes the line and says what it assumed, and the mistakes it names (its
    evidence recorded), or None when there is nothing to say. ``student`` calls the function with ``named``'s
    values as the homework passes them (its objects made afresh for each call)."""
    if error.kind != "exception" or error_mistake(error) or "NotImplementedError" in str(error) \
            or callees.in_served_probe():  # a fix-first probe only asks whether the case passes
        return None
    crash = callees.explain_crash(student, stored, dict(named), error)
    return None if crash is None else (crash.text, _recorded(stored, crash))


def _recorded(stored: Case, crash: Crash) -> tuple[str, ...]:
    """The mistakes a crash's explanation names (its line's, then what the call where it holds shows), recorded."""
    own = tuple(m for m in (crash.mistake, *crash.more) if m)
    record_evidence({"sentence": ",".join(own) or OWN_LINE, "case": stored.id, "by": crash.how, "exact": False})
    return own
