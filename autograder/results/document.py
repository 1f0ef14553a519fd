"""Gradescope's results.json: the model, the student-facing summary, atomic writing, a fallback.

The format (https://gradescope-autograders.readthedocs.io/en/latest/specs/) is checked by
``tests/schema/gradescope_results.schema.json``. Everything produced here is complete:
no null anywhere, every string a string, every number finite.

Only the standard library is imported at module level (``contract`` is imported lazily),
so ``write_results`` and ``fallback_results`` work even when the rest of the engine is
broken.
"""

from __future__ import annotations

import json
import math
import os
import tempfile
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from autograder.results.hygiene import visible

VISIBILITIES = ("hidden", "after_due_date", "after_published", "visible")
# What a test that is not the student's verdict says (the plugin writes them; grade and batch look for them here,
# without importing pytest)
INTERNAL = "The grader hit an internal error in this test; your instructor will see it in the logs."
NOT_RUN = "This test did not run (grading stopped early); your instructor will see why in the logs."
MAX_OUTPUT = 20_000  # characters of feedback per test; more is cut with a marker
MAX_NOTES = 30  # notes shown at the top; more are counted, not shown
MAX_NOTE = 4_000  # characters of one note
MAX_BYTES = 1_000_000  # bytes of results.json, whatever the submission (``bound_size``)
WHEN_SHOWN = {
    "after_due_date": "shown after the due date",
    "after_published": "shown when grades are published",
    "hidden": "not shown to students",
}
OTHER = "Other"


@dataclass
class GradedTest:
    """One graded test as Gradescope shows it. ``number`` "" means none (the key is omitted)."""

    name: str
    score: float
    max_score: float
    status: str = "failed"
    output: str = ""
    number: str = ""
    tags: list[str] = field(default_factory=list)
    visibility: str = "visible"
    mistakes: list[str] = field(default_factory=list)  # ids of the known mistakes its output names (the grader's)
    evidence: list[dict] = field(default_factory=list)  # what backs each sentence: the match or the probe (for TAs)

    def to_json(self) -> dict[str, Any]:
        """The test as a results.json entry (cleaned: finite numbers, valid enums, bounded text)."""
        entry: dict[str, Any] = {
            "name": _text(self.name, 300) or "Unnamed test",
            "score": _number(self.score),
            "max_score": _number(self.max_score),
            "status": "passed" if self.status == "passed" else "failed",
            "tags": [_text(tag, 100) for tag in self.tags],
            "visibility": self.visibility if self.visibility in VISIBILITIES else "hidden",
            "output": _text(self.output, MAX_OUTPUT),
            "output_format": "md",
            "extra_data": {"mistakes": [_text(m, 100) for m in self.mistakes[:20]]},
        }
        if self.evidence:
            entry["extra_data"]["evidence"] = [_evidence_item(e) for e in self.evidence[:20]]
        if self.number:
            entry["number"] = _text(self.number, 50)
        return entry

    @classmethod
    def from_mapping(cls, data: Mapping[str, Any]) -> GradedTest:
        """Accept a results.json-style dict (missing keys get defaults)."""
        return cls(
            name=str(data.get("name", "")),
            score=data.get("score", 0.0),
            max_score=data.get("max_score", 0.0),
            status=str(data.get("status", "failed")),
            output=str(data.get("output", "")),
            number=str(data.get("number", "")),
            tags=[str(tag) for tag in data.get("tags", ())],
            visibility=str(data.get("visibility", "visible")),
            mistakes=_mistakes(data.get("extra_data")),
            evidence=_evidence_list(data.get("extra_data")),
        )


def _evidence_item(item: Mapping[str, Any]) -> dict[str, Any]:
    """One evidence record, cleaned: string keys, values text, finite numbers or booleans."""
    out: dict[str, Any] = {}
    for key, value in list(item.items())[:10]:
        if isinstance(value, bool) or (isinstance(value, int) and abs(value) < 2**53):
            out[_text(str(key), 50)] = value
        elif isinstance(value, float):
            out[_text(str(key), 50)] = _number(value)
        else:
            out[_text(str(key), 50)] = _text(str(value), 500)
    return out


def _evidence_list(extra: Any) -> list[dict]:
    listed = extra.get("evidence") if isinstance(extra, Mapping) else None
    return [dict(e) for e in listed if isinstance(e, Mapping)] if isinstance(listed, list) else []


def _mistakes(extra: Any) -> list[str]:
    listed = extra.get("mistakes") if isinstance(extra, Mapping) else None
    return [str(m) for m in listed] if isinstance(listed, list) else []


def build_results(
    tests: Iterable[GradedTest | Mapping[str, Any]],
    *,
    execution_time: float,
    notes: list[str],
    extra_output: str = "",
) -> dict[str, Any]:
    """Gradescope's results dict: the tests, their total, and a markdown summary.

    The summary (top-level ``output``) holds the notes, then points by part for VISIBLE
    tests only, then one line per kind of non-visible test giving only their count and
    points, never their outcome. ``extra_data.notes`` keeps the notes for ``summary_text``.
    """
    entries = [(t if isinstance(t, GradedTest) else GradedTest.from_mapping(t)).to_json() for t in tests]
    notes = [_text(note, MAX_NOTE) for note in notes if str(note).strip()]
    if len(notes) > MAX_NOTES:
        notes = [*notes[:MAX_NOTES], f"... and {len(notes) - MAX_NOTES} more notes not shown."]
    sections = [*notes, _summary_markdown(entries)]
    if extra_output.strip():
        sections.append(extra_output.strip())
    return {
        "score": _number(sum(entry["score"] for entry in entries)),
        "execution_time": _number(execution_time, digits=3),
        "output": _text("\n\n".join(sections), 4 * MAX_OUTPUT),
        "output_format": "md",
        "stdout_visibility": "hidden",
        "extra_data": {"notes": notes},
        "tests": entries,
    }


def write_results(path: Path, data: Mapping[str, Any]) -> None:
    """Write ``data`` as JSON to ``path`` atomically (see ``atomic_write_text``), at most ``MAX_BYTES``."""
    atomic_write_text(Path(path), _dumps(bound_size(data)))


def _dumps(data: Mapping[str, Any]) -> str:
    return json.dumps(data, indent=2, ensure_ascii=False, allow_nan=False) + "\n"


def bound_size(data: Mapping[str, Any], limit: int = MAX_BYTES) -> Mapping[str, Any]:
    """``data`` if its JSON fits in ``limit`` bytes; else a copy whose longest texts (test outputs, the summary,
    notes) are cut to a common length, each with a marker, until it fits."""
    size = len(_dumps(data).encode())
    if size <= limit:
        return data
    data = json.loads(_dumps(data))
    for _ in range(8):
        fields = _text_fields(data)
        sizes = [len(json.dumps(get(), ensure_ascii=False).encode()) for get, _ in fields]
        excess = size - limit + 4096
        cap = _cap(sorted(sizes, reverse=True), excess)
        for (get, put), n in zip(fields, sizes):
            if n > cap:
                text = get()
                put(_text(text, max(0, int(len(text) * cap / n) - 40)))
        size = len(_dumps(data).encode())
        if size <= limit:
            return data
    return fallback_results("**Your results were too large to show** (more than 1 MB of feedback).")


def _cap(sizes: list[int], excess: int) -> int:
    """The largest length c such that cutting every size above c down to c removes at least ``excess``."""
    removed, cap = 0, sizes[0] if sizes else 0
    for i, n in enumerate(sizes):
        following = sizes[i + 1] if i + 1 < len(sizes) else 0
        step = (i + 1) * (n - following)
        if removed + step >= excess:
            return max(following, n - -(-(excess - removed) // (i + 1)))
        removed, cap = removed + step, following
    return cap


def _text_fields(data: dict[str, Any]) -> list[tuple[Any, Any]]:
    """(getter, setter) of every free text of a results dict: the summary, the notes, each test's output."""
    def item(container: Any, key: Any) -> tuple[Any, Any]:
        return (lambda: str(container[key])), (lambda value: container.__setitem__(key, value))

    fields = [item(data, "output")] if "output" in data else []
    notes = data.get("extra_data", {}).get("notes") if isinstance(data.get("extra_data"), dict) else None
    fields += [item(notes, i) for i in range(len(notes))] if isinstance(notes, list) else []
    return fields + [item(test, "output") for test in data.get("tests", []) if isinstance(test, dict)]


def atomic_write_text(path: Path, text: str) -> None:
    """Write ``text`` to ``path`` so that readers see the old file or the new one, never half:
    a temp file in the same folder, fsync, rename (mode 0600), then fsync of the folder (best effort)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(text)
            f.flush()
            os.fsync(f.fileno())
        os.chmod(tmp, 0o600)  # the grader's alone (root on Gradescope and in a root batch)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    try:  # make the rename itself durable; best effort
        dir_fd = os.open(path.parent, os.O_RDONLY)
        try:
            os.fsync(dir_fd)
        finally:
            os.close(dir_fd)
    except OSError:
        pass


def fallback_results(message: str, max_score: float | None = None) -> dict[str, Any]:
    """0 points out of ``max_score`` (the contract's total by default) with ``message`` shown to the student:
    for when nothing else worked (stdlib only)."""
    message = str(message).strip() or "The autograder failed."
    if max_score is None:
        max_score = _total_points()
    return {
        "score": 0.0,
        "execution_time": 0.0,
        "output": message,
        "output_format": "md",
        "stdout_visibility": "hidden",
        "tests": [
            {
                "name": "Autograder",
                "score": 0.0,
                "max_score": _number(max_score),
                "status": "failed",
                "tags": [],
                "visibility": "visible",
                "output": message,
                "output_format": "md",
            }
        ],
    }


def _total_points() -> float:
    """The homework's total (contract.py), or 0 when even the contract cannot be read."""
    try:
        from autograder import contract

        return float(contract.TOTAL_POINTS)
    except Exception:  # the fallback must work whatever is broken
        return 0.0


def summary_text(data: Mapping[str, Any], *, show_hidden: bool = False) -> str:
    """Plain text for a terminal: notes, points by part, then each failing test's feedback.

    By default only visible tests are detailed (what a student sees before the due
    date); ``show_hidden`` includes every test (what an instructor sees).
    """
    tests = [t for t in data.get("tests", []) if isinstance(t, Mapping)]
    shown = [t for t in tests if show_hidden or t.get("visibility", "visible") == "visible"]
    extra = data.get("extra_data")
    notes = extra.get("notes", []) if isinstance(extra, Mapping) else []
    lines = []
    if notes:
        lines += ["Notes:", *(_indent(f"- {note}", "  ") for note in notes), ""]
    scope = "all tests" if show_hidden else "visible tests"
    rows = _part_rows(shown)
    got, total = sum(r[2] for r in rows), sum(r[3] for r in rows)
    lines.append(f"Score ({scope}): {_fmt(got)} / {_fmt(total)}")
    width = max((len(f"{part}  {topic}") for part, topic, _, _ in rows), default=0)
    lines += [f"  {f'{part}  {topic}':<{width}}  {_fmt(s):>5} / {_fmt(m)}" for part, topic, s, m in rows]
    if not show_hidden:
        lines += [f"  {line}" for line in _hidden_lines(tests)]
    failing = [t for t in shown if t.get("status") != "passed"]
    if failing:
        lines += ["", f"Failing tests ({len(failing)}):"]
        for t in failing:
            number = f"[{t['number']}] " if t.get("number") else ""
            hidden = "" if t.get("visibility", "visible") == "visible" else f" ({t.get('visibility')})"
            lines.append(
                f"\n{number}{t.get('name', '')}{hidden}: {_fmt(t.get('score', 0))} / {_fmt(t.get('max_score', 0))}"
            )
            lines.append(_indent(str(t.get("output", "")).strip() or "(no feedback)", "    "))
    elif shown:
        lines += ["", "All shown tests passed."]
    return "\n".join(lines)


# ----------------------------------------------------------------------------- helpers


def _summary_markdown(entries: list[dict[str, Any]]) -> str:
    visible = [e for e in entries if e["visibility"] == "visible"]
    lines = []
    rows = _part_rows(visible)
    if rows:
        lines += ["| Part | Topic | Points |", "|:-:|:--|--:|"]
        lines += [f"| {part} | {topic} | {_fmt(s)} / {_fmt(m)} |" for part, topic, s, m in rows]
        got, total = sum(r[2] for r in rows), sum(r[3] for r in rows)
        lines.append(f"| | **Visible tests** | **{_fmt(got)} / {_fmt(total)}** |")
    elif not entries:
        lines.append("No tests were run.")
    hidden = _hidden_lines(entries)
    if hidden:
        lines += ["", *hidden]
    return "\n".join(lines).strip()


def _part_rows(tests: list[Mapping[str, Any]]) -> list[tuple[str, str, float, float]]:
    """(part, topic, score, max) per part in contract order, parts with tests only; then Other."""
    try:
        from autograder import contract

        parts, functions = dict(contract.PARTS), contract.FUNCTIONS
    except Exception:
        parts, functions = {}, {}
    totals: dict[str, list[float]] = {}
    for test in tests:
        tags = test.get("tags", [])
        part = next((functions[tag][0] for tag in tags if tag in functions), OTHER)
        acc = totals.setdefault(part, [0.0, 0.0])
        acc[0] += _number(test.get("score", 0.0))
        acc[1] += _number(test.get("max_score", 0.0))
    order = [p for p in parts if p in totals] + ([OTHER] if OTHER in totals else [])
    return [(p, parts.get(p, "Other checks"), totals[p][0], totals[p][1]) for p in order]


def _hidden_lines(tests: list[Mapping[str, Any]]) -> list[str]:
    """One sentence per non-visible visibility: how many tests, how many points. No outcomes."""
    lines = []
    for visibility, when in WHEN_SHOWN.items():
        group = [t for t in tests if t.get("visibility", "visible") == visibility]
        if group:
            points = sum(_number(t.get("max_score", 0.0)) for t in group)
            tests_are = f"{len(group)} hidden tests" if len(group) != 1 else "1 hidden test"
            verb = "are" if len(group) != 1 else "is"
            lines.append(f"{tests_are} worth {_fmt(points)} point{'' if points == 1 else 's'} {verb} {when}.")
    return lines


def _number(value: Any, digits: int = 6) -> float:
    try:
        number = float(value)
    except (TypeError, ValueError):
        return 0.0
    return round(number, digits) if math.isfinite(number) else 0.0


def _fmt(value: Any) -> str:
    return f"{_number(value):.2f}".rstrip("0").rstrip(".")


def _text(value: Any, limit: int) -> str:
    """A JSON-safe string a person may read: lone surrogates replaced, control characters (but newline and tab)
    and bidi controls shown as escapes (``hygiene.visible``), at most ``limit`` characters."""
    text = visible(str(value).encode("utf-8", "replace").decode("utf-8"))
    if len(text) > limit:
        text = text[:limit]
        if text.count("```") % 2:
            text += "\n```"
        text += "\n\n*(output truncated)*"
    return text


def _indent(text: str, prefix: str) -> str:
    return "\n".join(prefix + line if line else line for line in text.splitlines())
