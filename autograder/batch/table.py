"""The class's results as one table, and the statistics the CSV, report and plots show."""

from __future__ import annotations

import statistics
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from pathlib import Path

from autograder.batch import state
from autograder.batch.export import Submission
from autograder.results import document

MAX_MISTAKE_ID = 100  # characters of a mistake id (ids are short names like "no_scale")


@dataclass
class Row:
    """One submission: who, how it went, and its results.json (None if never graded)."""

    submission: Submission
    record: state.Record | None
    results: dict | None

    @property
    def graded(self) -> bool:
        return self.record is not None and self.record.graded and self.results is not None

    @property
    def total(self) -> float | None:
        return float(self.results.get("score", 0)) if self.graded else None

    def tests(self) -> list[dict]:
        return list(self.results.get("tests", [])) if self.graded else []

    @property
    def intake(self) -> tuple[str, str] | None:
        """(why, message) when the score comes from intake, not from running the code: the submission was
        missing, misnamed, empty, did not compile or could not be read (``extra_data.intake``, by the runner)."""
        extra = self.results.get("extra_data") if self.graded else None
        found = extra.get("intake") if isinstance(extra, dict) else None
        if not isinstance(found, dict):
            return None
        return str(found.get("status") or "unreadable"), str(found.get("message") or "")

    @property
    def status(self) -> str:
        """``graded``, ``graded: defines none of the graded functions`` (it ran: the wrong file?), ``not graded:
        <why>`` (its score comes from intake), ``grader error`` (no score; a rerun retries it) or ``not graded
        yet`` (an interrupted run, a shard not merged)."""
        if self.record is None:
            return "not graded yet"
        if not self.graded:
            return "grader error"
        if self.intake:
            return f"not graded: {self.intake[0]}"
        extra = self.results.get("extra_data")
        return "graded: defines none of the graded functions" if isinstance(extra, dict) and extra.get(
            "defines_none") is True else "graded"


def load_rows(outdir: Path, submissions: list[Submission], version: str,
              contents: dict[str, str] | None = None) -> list[Row]:
    """Join each submission with its latest record of this autograder version (and, with ``contents``, of the
    content it has now: ``state.current``) and its results."""
    records = state.load_records(outdir)
    rows = []
    for submission in submissions:
        record = records.get(submission.id)
        if not state.current(record, version, None if contents is None else contents.get(submission.id, "")):
            record = None
        results = None
        if record is not None and (outdir / record.results).is_file():
            results = state.read_json(outdir / record.results)
        rows.append(Row(submission, record, results))
    return rows


def test_key(test: dict, seen: Counter) -> str:
    """A test's column name: its number (``A.1``; its name when it has none), made unique within one results.json.
    Its title is in the key file (``scores.KEY_FILE``) and the report."""
    name = str(test.get("number") or test.get("name") or "?")
    seen[name] += 1
    return name if seen[name] == 1 else f"{name} ({seen[name]})"


def keyed_tests(row: Row) -> dict[str, dict]:
    seen: Counter = Counter()
    return {test_key(test, seen): test for test in row.tests()}


def passed(test: dict) -> bool:
    status = test.get("status")
    if status in {"passed", "failed"}:
        return status == "passed"
    return float(test.get("score", 0)) >= float(test.get("max_score", 0))


def grader_side(test: dict) -> bool:
    """Whether a test failed because of the grader, not the submission (the engine's own markers)."""
    name, output = str(test.get("name", "")), str(test.get("output", ""))
    return name.startswith("Grader error") or output.startswith((document.INTERNAL, document.NOT_RUN))


def function_of(test: dict) -> str:
    """The contract function a test grades: its first tag naming one, else "other"."""
    from autograder import contract

    for tag in test.get("tags") or []:
        if tag in contract.FUNCTIONS:
            return tag
    return "other"


@dataclass
class TestStats:
    name: str  # the column's key (``test_key``: the test's number)
    function: str
    max_score: float
    visibility: str
    title: str = ""  # the test's name, as the student reads it
    submissions: int = 0
    passed: int = 0
    points: float = 0.0

    @property
    def pass_rate(self) -> float:
        return self.passed / self.submissions if self.submissions else 0.0

    @property
    def label(self) -> str:
        """Its number and title, as the report and plots name it."""
        return f"{self.name} {self.title}" if self.title and self.title != self.name else self.name


@dataclass
class Summary:
    rows: list[Row]
    columns: list[str] = field(default_factory=list)  # test columns, in suite order
    tests: dict[str, TestStats] = field(default_factory=dict)
    functions: dict[str, tuple[int, int, float, float]] = field(default_factory=dict)  # passed, n, points, max
    # mistake id, submissions, functions, submissions where an exact output match shows it (``exactly_shown``)
    mistakes: list[tuple[str, int, list[str], int]] = field(default_factory=list)
    max_points: float = 0.0

    @property
    def graded(self) -> list[Row]:
        return [row for row in self.rows if row.graded]

    @property
    def errors(self) -> list[Row]:
        """Submissions the grader itself could not grade (a rerun retries them)."""
        return [row for row in self.rows if row.record is not None and not row.graded]

    @property
    def pending(self) -> list[Row]:
        """Submissions not graded yet (an interrupted run, a shard not merged)."""
        return [row for row in self.rows if row.record is None]

    @property
    def intake_zeros(self) -> list[Row]:
        """Graded submissions whose score comes from intake (nothing of the code ran): see ``Row.intake``."""
        return [row for row in self.graded if row.intake]

    def totals(self) -> list[float]:
        return [row.total for row in self.graded]

    def describe(self) -> dict[str, float]:
        totals = self.totals()
        if not totals:
            return {}
        return {
            "mean": statistics.fmean(totals),
            "median": statistics.median(totals),
            "min": min(totals),
            "max": max(totals),
            "full": sum(t >= self.max_points for t in totals),
            "zero": sum(t == 0 for t in totals),
        }

    def histogram(self, bins: int = 10) -> list[tuple[float, float, int]]:
        """(low, high, count) bins over [0, max_points]; the last bin includes full marks."""
        top = self.max_points or max(self.totals(), default=0) or 1.0
        width = top / bins
        counts = [0] * bins
        for total in self.totals():
            counts[min(bins - 1, max(0, int(total // width)))] += 1
        return [(i * width, (i + 1) * width, counts[i]) for i in range(bins)]

    def engine_problems(self) -> list[tuple[Row, list[str]]]:
        """Graded submissions with tests the grader itself could not run, and those tests."""
        found = []
        for row in self.graded:
            names = [name for name, test in keyed_tests(row).items() if grader_side(test)]
            if names:
                found.append((row, names))
        return found

    def hardest_first(self) -> list[TestStats]:
        """The tests by pass rate, lowest first; equal rates in suite order (the sort is stable)."""
        return sorted(self.tests.values(), key=lambda t: t.pass_rate)

    def slowest(self, n: int = 10) -> list[Row]:
        timed = [row for row in self.rows if row.record is not None]
        return sorted(timed, key=lambda row: -row.record.seconds)[:n]

    def changed(self) -> list[Row]:
        """Graded submissions whose total differs from the score recorded in the export."""
        return [
            row
            for row in self.graded
            if row.submission.export_score is not None and abs(row.total - row.submission.export_score) > 1e-9
        ]


def summarize(rows: list[Row]) -> Summary:
    summary = Summary(rows)
    columns: dict[str, None] = {}
    for row in sorted(summary.graded, key=lambda r: -len(r.tests())):  # the fullest results fix the order
        columns.update(dict.fromkeys(keyed_tests(row)))
    summary.columns = list(columns)
    functions: dict[str, list[float]] = defaultdict(lambda: [0, 0, 0.0, 0.0])
    mistakes: dict[str, set[str]] = defaultdict(set)
    exact: dict[str, set[str]] = defaultdict(set)
    mistake_functions: dict[str, set[str]] = defaultdict(set)
    max_points = 0.0
    for row in summary.graded:
        per_function: dict[str, bool] = {}
        max_points = max(max_points, sum(float(t.get("max_score", 0)) for t in row.tests()))
        for key, test in keyed_tests(row).items():
            fn = function_of(test)
            stats = summary.tests.setdefault(key, TestStats(
                key, fn, float(test.get("max_score", 0)), str(test.get("visibility", "")), str(test.get("name", ""))))
            stats.submissions += 1
            stats.passed += passed(test)
            stats.points += float(test.get("score", 0))
            per_function[fn] = per_function.get(fn, True) and passed(test)
            functions[fn][2] += float(test.get("score", 0))
            functions[fn][3] += float(test.get("max_score", 0))
            for mistake in diagnosed(test):
                mistakes[mistake].add(row.submission.id)
                mistake_functions[mistake].add(fn)
                if exactly_shown(test, mistake):
                    exact[mistake].add(row.submission.id)
        for fn, ok in per_function.items():
            functions[fn][0] += ok
            functions[fn][1] += 1
    summary.tests = {key: summary.tests[key] for key in summary.columns}
    summary.functions = {fn: tuple(values) for fn, values in sorted(functions.items(), key=_contract_order)}
    summary.mistakes = sorted(  # the ones an exact output match shows in most submissions first
        ((s, len(ids), sorted(mistake_functions[s]), len(exact[s])) for s, ids in mistakes.items()),
        key=lambda m: (-m[3], -m[1], m[0]),
    )
    summary.max_points = max_points
    return summary


def diagnosed(test: dict) -> list[str]:
    """The ids of the known mistakes the grader named in this test: its ``extra_data["mistakes"]``, written by the
    grader. Never read from the test's output text, which quotes what a student's code printed or raised."""
    extra = test.get("extra_data")
    found = extra.get("mistakes") if isinstance(extra, dict) else None
    if not isinstance(found, list):
        return []
    return list(dict.fromkeys(m for m in found if isinstance(m, str) and 0 < len(m) <= MAX_MISTAKE_ID))


def exactly_shown(test: dict, mistake: str) -> bool:
    """Whether the grader's evidence for ``mistake`` in this test (``extra_data["evidence"]``: the mistake ids of
    each sentence, and whether an exact output match shows it) is an exact output match, rather than a probe or the
    error alone."""
    extra = test.get("extra_data")
    listed = extra.get("evidence") if isinstance(extra, dict) else None
    return isinstance(listed, list) and any(
        isinstance(item, dict) and item.get("exact") is True and mistake in str(item.get("sentence", "")).split(",")
        for item in listed)


def _contract_order(item: tuple[str, object]) -> tuple[int, str]:
    from autograder import contract

    names = list(contract.FUNCTIONS)
    return (names.index(item[0]) if item[0] in names else len(names), item[0])
