"""A pytest plugin turning gradescope-utils-decorated tests into Gradescope results.

Usage: ``collector = ResultsPlugin(expected_points={...}); pytest.main(args, plugins=[collector])``,
then ``results.build_results(collector.tests, ...)``.

Graded tests are plain pytest tests carrying gradescope-utils' attributes: ``@weight``
(max score), ``@partial_credit`` (max score; the test calls ``set_score(x)``),
``@visibility``, ``@number``, ``@tags`` (the contract names). For each test:

* name: the first line of its docstring, ``str.format``-ed with the parametrize values
  when it has ``{placeholders}`` (a parametrized test without placeholders gets
  `` [param-id]`` appended); no docstring: pytest's name (``test_softmax[case1]``).
* number: ``@number("2.1")``; a parametrized test gets ``"2.1.k"``, k = 1, 2, ... its
  position among that function's collected parameter combinations (for one
  ``@parametrize``: the parameter's index + 1). No ``@number``: no number key.
* score: full weight when setup, call and teardown pass. ``set_score`` partial credit
  is honoured (clamped to [0, weight]) when the call passes or fails; status is
  "passed" only with the full weight. Errors, skips, xfail and xpass: 0, "failed".
* extra_data: ``{"mistakes": [ids]}``, the known mistakes the test's feedback names, as the
  graded test recorded them in ``__mistakes__`` (never parsed from the output); [] otherwise.
* output (markdown, student-facing): for ``AssertionError`` (pytest's rewritten
  explanation removed), ``pytest.fail`` and exceptions with ``student_facing = True``
  (StudentError, IntakeError) the exception's message only; for anything else a fixed
  sentence, the traceback going to stderr (the instructor's log).

Internal errors (anything else) are recorded apart (``internal_errors``): the runner then marks
the whole submission as a grader error, never as failed tests, unless the test read an odd value the
student's code returned (``blame_student``: that test fails for the student, saying which value). A test
whose exception has ``retry_test`` (the engine lost the worker for a reason outside the student's code)
is run once more from a fresh setup, and only that second run counts.

Nothing is dropped: a collected test that never ran scores 0 with its weight, and when
fewer points than ``expected_points[tag]`` were collected for a tag (a graded module
failed to import), a failed "Grader error" test makes up the difference. The plugin also
turns on ``--continue-on-collection-errors`` so one broken module does not stop the rest.
"""

from __future__ import annotations

import math
import sys
import traceback
from collections import Counter
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import Any

import pytest

from autograder.results.document import INTERNAL, NOT_RUN, VISIBILITIES, GradedTest

GENERIC_ASSERT = "A check in this test failed."


@dataclass
class _Phase:
    when: str  # "setup" | "call" | "teardown"
    outcome: str  # pytest's final outcome: "passed" | "failed" | "skipped"
    message: str  # student-facing markdown ("" when passed)
    xfail: bool  # xfail or xpass


class ResultsPlugin:
    """Collects one GradedTest per collected test; see the module docstring for the rules."""

    def __init__(self, expected_points: Mapping[str, float] | None = None) -> None:
        self.expected_points = dict(expected_points or {})
        self.collection_errors: list[str] = []
        self._items: dict[str, pytest.Item] = {}
        self._order: list[str] = []
        self._numbers: dict[str, str] = {}
        self._phases: dict[str, list[_Phase]] = {}
        self._scores: dict[str, float] = {}
        self._mistakes: dict[str, list[str]] = {}  # the mistake ids a test's feedback names (support.graded)
        self._evidence: dict[str, list[dict]] = {}  # what backs each of its sentences (support.record_evidence)
        self.internal: dict[str, str] = {}  # nodeid -> the phase whose exception was the grader's, not the student's
        self._retry: set[str] = set()  # tests to run once more (lost worker); cleared once they have been
        self._retried: set[str] = set()

    # ------------------------------------------------------------------------- hooks

    def pytest_configure(self, config: pytest.Config) -> None:
        config.option.continue_on_collection_errors = True

    def pytest_collectreport(self, report: pytest.CollectReport) -> None:
        if report.failed:
            text = f"[grader] collection error in {report.nodeid or '<session>'}:\n{report.longreprtext}"
            self.collection_errors.append(text)
            print(text, file=sys.stderr)

    def pytest_collection_modifyitems(self, session: pytest.Session, config: pytest.Config,
                                      items: list[pytest.Item]) -> None:
        """Run every visible test before any hidden one (results keep collection order).

        The student's process lives through the whole session, so a hidden test's inputs
        reach it only after every visible test's feedback has been written: a submission
        cannot echo them in a visible test's output.
        """
        self._order = [item.nodeid for item in items]
        items.sort(key=lambda item: _visibility(item) != "visible")

    def pytest_collection_finish(self, session: pytest.Session) -> None:
        by_id = {item.nodeid: item for item in session.items}
        order = [nodeid for nodeid in self._order if nodeid in by_id] if self._order else list(by_id)
        self._items = {nodeid: by_id[nodeid] for nodeid in order + [n for n in by_id if n not in order]}
        position: Counter[tuple[str, str]] = Counter()
        for item in self._items.values():
            number = str(_attribute(item, "__number__", "") or "")
            if number and hasattr(item, "callspec"):
                key = (item.parent.nodeid if item.parent else "", getattr(item, "originalname", item.name))
                position[key] += 1
                number = f"{number}.{position[key]}"
            self._numbers[item.nodeid] = number

    @pytest.hookimpl(tryfirst=True)
    def pytest_runtest_protocol(self, item: pytest.Item, nextitem: pytest.Item | None) -> bool:
        """Run the test; once more, from a fresh setup, when the engine lost its worker from outside."""
        from _pytest.runner import runtestprotocol

        item.ihook.pytest_runtest_logstart(nodeid=item.nodeid, location=item.location)
        reports = runtestprotocol(item, nextitem=nextitem, log=False)
        if item.nodeid in self._retry:
            print(f"[grader] {item.nodeid}: the worker was lost from outside; running the test once more",
                  file=sys.stderr)
            self._retry.discard(item.nodeid)
            self._retried.add(item.nodeid)
            for record in (self._phases, self._scores, self.internal):
                record.pop(item.nodeid, None)
            if hasattr(item, "_initrequest"):
                item._initrequest()  # fresh fixture values, as for a first run
            reports = runtestprotocol(item, nextitem=nextitem, log=False)
        for report in reports:
            item.ihook.pytest_runtest_logreport(report=report)
        item.ihook.pytest_runtest_logfinish(nodeid=item.nodeid, location=item.location)
        return True

    @pytest.hookimpl(wrapper=True)
    def pytest_runtest_call(self, item: pytest.Item) -> Iterator[None]:
        namespaces = [getattr(fn, "__dict__", {}) for fn in _wrapped_chain(getattr(item, "obj", None))]
        for namespace in namespaces:  # a stale score from another parameter must not leak into this one
            namespace.pop("__score__", None)
            namespace.pop("__mistakes__", None)
            namespace.pop("__evidence__", None)
        try:
            return (yield)
        finally:
            score = next((ns["__score__"] for ns in namespaces if ns.get("__score__") is not None), None)
            if score is not None:
                self._scores[item.nodeid] = score
            named = next((ns["__mistakes__"] for ns in namespaces if isinstance(ns.get("__mistakes__"), list)), [])
            self._mistakes[item.nodeid] = [str(m) for m in named]
            backing = next((ns["__evidence__"] for ns in namespaces if isinstance(ns.get("__evidence__"), list)), [])
            self._evidence[item.nodeid] = [dict(e) for e in backing if isinstance(e, dict)]

    @pytest.hookimpl(wrapper=True, tryfirst=True)
    def pytest_runtest_makereport(self, item: pytest.Item, call: pytest.CallInfo[None]) -> Iterator[Any]:
        report = yield  # outermost wrapper: the skipping plugin has already marked xfail/xpass
        try:
            self._record(item, call, report)
        except Exception:  # never let the results collector break the run
            print(f"[grader] results plugin failed on {item.nodeid}:", file=sys.stderr)
            traceback.print_exc()
        return report

    def pytest_sessionfinish(self, session: pytest.Session) -> None:
        collected = _points_by_tag(self._collected_tests())
        for tag, points in self.expected_points.items():
            if collected.get(tag, 0.0) > points + 1e-9:
                print(
                    f"[grader] warning: tests for {tag} are worth {collected[tag]:g} points, "
                    f"the contract says {points:g}",
                    file=sys.stderr,
                )

    # ------------------------------------------------------------------------- results

    @property
    def tests(self) -> list[GradedTest]:
        """The graded tests in collection order, then any "Grader error" make-up tests."""
        tests = self._collected_tests()
        collected = _points_by_tag(tests)
        for tag, points in self.expected_points.items():
            missing = points - collected.get(tag, 0.0)
            if missing > 1e-9:
                tests.append(
                    GradedTest(
                        name=f"Grader error: tests worth {missing:g} points for {tag} could not be run",
                        score=0.0,
                        max_score=missing,
                        output=(
                            f"Some tests of `{tag}` could not be run because of a problem in the grader, "
                            "not in your code. Your instructor will see the details in the logs; "
                            "please tell your course staff."
                        ),
                        tags=[tag],
                    )
                )
        return tests

    @property
    def internal_errors(self) -> list[str]:
        """Names of the tests that hit an internal error of the grader (their retry included), and of the
        "Grader error" make-up tests: when not empty, the submission is a grader error, not graded."""
        named = [_display_name(self._items[nodeid]) for nodeid in self._items if nodeid in self.internal]
        return named + [test.name for test in self.tests if test.name.startswith("Grader error: ")]

    def blame_student(self, nodeid: str, message: str) -> bool:
        """The internal error of test ``nodeid`` came from a value the student's code returned (``message`` says
        which, for the student): the test fails with that message, and is no longer an internal error. Whether it
        had one."""
        when = self.internal.pop(nodeid, None)
        if when is None:
            return False
        self._phases[nodeid] = [_Phase(p.when, p.outcome, message, p.xfail) if p.when == when else p
                                for p in self._phases.get(nodeid, [])]
        return True

    def _collected_tests(self) -> list[GradedTest]:
        return [self._graded(nodeid, item) for nodeid, item in self._items.items()]

    def _record(self, item: pytest.Item, call: pytest.CallInfo[None], report: pytest.TestReport) -> None:
        xfail = hasattr(report, "wasxfail")
        exc = call.excinfo.value if call.excinfo is not None else None
        if report.outcome == "failed" and exc is not None and not xfail and is_internal(exc):
            self.internal.setdefault(item.nodeid, call.when)
            if getattr(exc, "retry_test", False) is True and item.nodeid not in self._retried:
                self._retry.add(item.nodeid)
        message = ""
        if report.outcome != "passed" or xfail:
            message = _phase_message(item, call, report, xfail)
        self._phases.setdefault(item.nodeid, []).append(_Phase(call.when, report.outcome, message, xfail))
        self._items.setdefault(item.nodeid, item)  # e.g. if collection_finish never ran

    def _graded(self, nodeid: str, item: pytest.Item) -> GradedTest:
        weight = _weight(item)
        phases = self._phases.get(nodeid, [])
        ran = any(p.when == "call" for p in phases) or any(p.outcome != "passed" for p in phases)
        problems = [p for p in phases if p.outcome != "passed" or p.xfail]
        score = 0.0
        if not ran:
            messages = [NOT_RUN]
        else:
            messages = [p.message for p in problems if p.message]
            call_failed_plainly = all(p.when == "call" and p.outcome == "failed" and not p.xfail for p in problems)
            partial = self._scores.get(nodeid)
            if partial is not None and call_failed_plainly:
                score = _clamp(partial, weight)
            elif not problems:
                score = weight
        status = "passed" if ran and not problems and score >= weight - 1e-9 else "failed"
        if status == "failed" and not messages:
            messages = [f"Partial credit: {score:g} / {weight:g} points."]
        return GradedTest(
            name=_display_name(item),
            score=score,
            max_score=weight,
            status=status,
            output="\n\n".join(messages),
            number=self._numbers.get(nodeid, ""),
            tags=[str(tag) for tag in (_attribute(item, "__tags__", ()) or ())],
            visibility=_visibility(item),
            mistakes=self._mistakes.get(nodeid, []) if status == "failed" else [],
            evidence=self._evidence.get(nodeid, []) if status == "failed" else [],
        )


def _points_by_tag(tests: list[GradedTest]) -> dict[str, float]:
    totals: dict[str, float] = {}
    for test in tests:
        for tag in set(test.tags):
            totals[tag] = totals.get(tag, 0.0) + test.max_score
    return totals


# ----------------------------------------------------------------------------- messages


def _phase_message(item: pytest.Item, call: pytest.CallInfo[None], report: pytest.TestReport, xfail: bool) -> str:
    if xfail:
        reason = str(getattr(report, "wasxfail", "") or "").strip()
        return "This test is marked as expected to fail" + (f" ({reason})" if reason else "") + "; it earns no points."
    exc = call.excinfo.value if call.excinfo is not None else None
    if report.outcome == "skipped":
        reason = str(getattr(exc, "msg", "") or "").strip() if exc is not None else ""
        if not reason and isinstance(report.longrepr, tuple) and len(report.longrepr) == 3:
            reason = str(report.longrepr[2]).removeprefix("Skipped: ").strip()
        return "This test was skipped" + (f": {reason}" if reason else ".")
    if exc is None:  # e.g. strict xpass: pytest fails the test without an exception
        return "This test failed."
    return student_message(exc, where=f"{item.nodeid} ({call.when})", detail=report.longreprtext)


def student_message(exc: BaseException, *, where: str = "", detail: str = "") -> str:
    """What the student sees for an exception; an internal error's ``detail`` (default: its
    traceback) goes to stderr, the instructor's log, never to the student."""
    if isinstance(exc, pytest.fail.Exception):
        return str(getattr(exc, "msg", "") or "").strip() or "This test failed."
    if isinstance(exc, AssertionError):
        return _assertion_text(exc)
    if getattr(exc, "student_facing", False) is True:
        return str(exc).strip() or "This test failed."
    detail = detail or "".join(traceback.format_exception(type(exc), exc, exc.__traceback__))
    print(f"[grader] internal error in {where or 'a test'}:\n{detail}", file=sys.stderr)
    return INTERNAL


def is_internal(exc: BaseException) -> bool:
    """Whether an exception of a test is the grader's problem (not a verdict about the student's code)."""
    if isinstance(exc, (pytest.fail.Exception, pytest.skip.Exception, AssertionError)):
        return False
    return getattr(exc, "student_facing", False) is not True


def _assertion_text(exc: AssertionError) -> str:
    """The assert's own message, without pytest's rewritten explanation (grader source)."""
    text = str(exc)
    tb = exc.__traceback__
    while tb is not None and tb.tb_next is not None:
        tb = tb.tb_next
    if tb is not None and "@pytest_ar" in tb.tb_frame.f_globals:  # raised by a rewritten assert
        lines = text.split("\n")
        cut = next((i for i, line in enumerate(lines) if line == "assert" or line.startswith("assert ")), None)
        if cut == 0:  # a bare `assert expr`: its explanation is grader source
            text = ""
        elif cut is not None:  # pytest indents the message's continuation lines by two spaces
            text = "\n".join([lines[0], *(line.removeprefix("  ") for line in lines[1:cut])])
    return text.strip() or GENERIC_ASSERT


# ----------------------------------------------------------------------------- attributes


def _attribute(item: pytest.Item, name: str, default: Any) -> Any:
    for fn in _wrapped_chain(getattr(item, "obj", None)):
        value = getattr(fn, name, None)
        if value is not None:
            return value
    return default


def _wrapped_chain(fn: Any) -> Iterator[Any]:
    """``fn`` (a bound method's function), then what it wraps (functools.wraps), at most 10 deep."""
    fn = getattr(fn, "__func__", fn)
    for _ in range(10):
        if fn is None:
            return
        yield fn
        fn = getattr(fn, "__wrapped__", None)


def _weight(item: pytest.Item) -> float:
    value = _attribute(item, "__weight__", 0.0)
    try:
        weight = float(value)
    except (TypeError, ValueError):
        weight = math.nan
    if not math.isfinite(weight) or weight < 0:
        print(f"[grader] warning: {item.nodeid} has an invalid weight {value!r}; using 0", file=sys.stderr)
        return 0.0
    return weight


def _clamp(score: Any, weight: float) -> float:
    try:
        value = float(score)
    except (TypeError, ValueError):
        return 0.0
    return min(max(value, 0.0), weight) if math.isfinite(value) else 0.0


def _visibility(item: pytest.Item) -> str:
    value = _attribute(item, "__visibility__", "visible")
    if value not in VISIBILITIES:
        print(f"[grader] warning: {item.nodeid} has an invalid visibility {value!r}; using hidden", file=sys.stderr)
        return "hidden"
    return str(value)


def _display_name(item: pytest.Item) -> str:
    doc = getattr(getattr(item, "obj", None), "__doc__", None)
    first = next((line.strip() for line in (doc or "").strip().splitlines() if line.strip()), "")
    callspec = getattr(item, "callspec", None)
    if not first:
        return item.name
    if callspec is None:
        return first
    if "{" in first:
        try:
            return first.format(**callspec.params)[:300]
        except (KeyError, IndexError, ValueError, AttributeError, TypeError):
            pass
    return f"{first} [{callspec.id}]"
