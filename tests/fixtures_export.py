"""Synthetic Gradescope exports for the batch tests and benchmark, and a fake grader.

``class_export`` writes what Gradescope's "Export Submissions" gives: a
``submission_metadata.yml`` in Ruby's YAML style (symbol keys, a group submission,
names that need escaping) next to one ``submission_<id>/`` folder per submission,
each holding the student's ``attention.py``: a copy of the reference (correct), the
reference with one of ``examples/buggy.json``'s bugs (buggy), the blank template, or
the hostile infinite loop of ``examples/hostile/``.

``fake_grade`` stands in for ``runner.grade_folder`` in tests of the batch machinery
that must not depend on the grading engine (pool, resume, shards, merge, reports).
"""

from __future__ import annotations

import os
import re
import time
import zipfile
from pathlib import Path

from tests.homework import HOMEWORK

REPO = Path(__file__).resolve().parent.parent
REFERENCE = REPO / "reference" / "attention.py"
TEMPLATE = REPO / "student_template" / "attention.py"
HOSTILE = HOMEWORK.folder / "examples" / "hostile" / "infinite_loop" / "attention.py"

FIRST = ["Ada", "Alan", "Grace", "Edsger", "Barbara", "Donald", "Frances", "John", "Radia", "Ken", "Zoë", "José"]
LAST = ["Lovelace", "Turing", "Hopper", "Dijkstra", "Liskov", "Knuth", "Allen", "McCarthy", "Perlman", "Thompson"]
# Student-provided strings a report must escape and a spreadsheet must not execute.
NASTY_NAMES = ["<script>alert('x')</script>", 'O\'Brien & Søn "Jr"', '=HYPERLINK("http://x")',
               "\u202eevil\u202c Mallory", "\uff1dSUM(A1)"]  # a right-to-left override, a full-width formula


def blank_source() -> str:
    """The blank student template (generated from the reference when not generated yet)."""
    if TEMPLATE.is_file():
        return TEMPLATE.read_text()
    return re.sub(r"# BEGIN SOLUTION.*?# END SOLUTION", "raise NotImplementedError", REFERENCE.read_text(), flags=re.S)


def buggy_sources() -> dict[str, str]:
    """name -> source of each example mistake of examples/buggy.json."""
    from autograder.commands import demo

    source = REFERENCE.read_text()
    return {
        name: demo.apply_replacements(source, spec["replace"], name) for name, spec in demo.load_buggy_specs().items()
    }


def class_plan(n: int = 60, *, hostile: bool = True) -> list[tuple[str, str]]:
    """(kind, source) for ``n`` submissions: about half correct, a third buggy, the rest blank."""
    correct = REFERENCE.read_text()
    bugs = sorted(buggy_sources().items())
    blank = blank_source()
    plan: list[tuple[str, str]] = []
    for i in range(n - int(hostile)):
        if i % 6 in (0, 2, 4):
            plan.append(("correct", correct))
        elif i % 6 in (1, 5):
            name, source = bugs[(i // 6) % len(bugs)]
            plan.append((f"buggy:{name}", source))
        else:
            plan.append(("blank", blank))
    if hostile:
        plan.insert(min(7, len(plan)), ("hostile:infinite_loop", HOSTILE.read_text()))
    return plan


def class_export(
    folder: Path, n: int = 60, *, hostile: bool = True, as_zip: bool = False
) -> tuple[Path, dict[str, str]]:
    """A Gradescope export of ``n`` submissions in ``folder``; returns its path and {id: kind}."""
    plan = class_plan(n, hostile=hostile)
    return write_export(folder, [source for _, source in plan], kinds=[kind for kind, _ in plan], as_zip=as_zip)


def write_export(
    folder: Path,
    sources: list[str],
    *,
    kinds: list[str] | None = None,
    as_zip: bool = False,
    metadata: bool = True,
    first_id: int = 240_000_001,
    filename: str = "attention.py",
) -> tuple[Path, dict[str, str]]:
    """Write one submission per source (ids from ``first_id``, stepping irregularly)."""
    kinds = kinds or ["?"] * len(sources)
    top = folder / "assignment_4242_export"
    top.mkdir(parents=True, exist_ok=True)
    ids: dict[str, str] = {}
    entries = []
    for i, (source, kind) in enumerate(zip(sources, kinds)):
        sid = str(first_id + 7 * i * i + 3 * i)  # distinct, irregular, different lengths sort numerically
        (top / f"submission_{sid}").mkdir()
        (top / f"submission_{sid}" / filename).write_text(source)
        ids[sid] = kind
        entries.append(_entry(sid, i))
    if metadata:
        (top / "submission_metadata.yml").write_text("".join(entries))
    if not as_zip:
        return top, ids
    path = folder / "assignment_4242_export.zip"
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as zf:
        for file in sorted(top.rglob("*")):
            zf.write(file, file.relative_to(folder).as_posix())
    return path, ids


def student(i: int) -> tuple[str, str, str]:
    """(name, email, sid) of the i-th student."""
    if i < len(NASTY_NAMES) * 10 and i % 10 == 9:
        name = NASTY_NAMES[i // 10]
    else:
        name = f"{FIRST[i % len(FIRST)]} {LAST[(i * 7) % len(LAST)]}"
    email = f"student{i}@example.edu" if i != 19 else "=cmd|' /C calc'!A0"
    return name, email, str(3030000000 + i)


def _entry(submission_id: str, i: int) -> str:
    """One submission's metadata, as Gradescope's Ruby YAML writes it."""
    people = [student(i)] + ([student(1000 + i)] if i % 11 == 4 else [])  # some group submissions
    lines = [f"submission_{submission_id}:", "  :submitters:"]
    for name, email, sid in people:
        lines += [f"  - :name: {_quote(name)}", f"    :sid: '{sid}'", f"    :email: {_quote(email)}"]
    lines += [
        f"  :created_at: 2024-03-{1 + i % 28:02d} 20:{i % 60:02d}:42.123456000 -08:00",
        f"  :score: {float((i * 37) % 101)}",
        "  :history: []",
        "  :results:",
        "    score: 12.0",
        "    tests:",
        "    - name: 'softmax: rows sum to one'",
        "      score: 0.0",
        "      output: |-",
        "        :name: not a submitter",
        "        some: output",
    ]
    return "\n".join(lines) + "\n"


def _quote(text: str) -> str:
    if re.fullmatch(r"[A-Za-z][A-Za-z0-9 .@_-]*", text):
        return text
    return "'" + text.replace("'", "''") + "'"


# ---------------------------------------------------------------- a fake grader (no engine needed)

FAKE_FUNCTIONS = ("softmax", "causal_mask", "rope")


def fake_source(*good: str, mistake: str = "", extra: str = "") -> str:
    """A "submission" for ``fake_grade``: which functions pass, which mistake (an id) the grader diagnoses."""
    return "\n".join([*(f"# good_{fn}" for fn in good), f"# mistake {mistake}" if mistake else "", extra]) + "\n"


def fake_grade(submission: Path) -> dict:
    """A stand-in for runner.grade_folder: grades marker comments; can hang, die or raise."""
    text = "\n".join(p.read_text(errors="replace") for p in sorted(submission.rglob("*")) if p.is_file())
    print(f"fake grader: {submission} ({len(text)} chars), pid {os.getpid()}", flush=True)
    if "FAKE_HANG" in text:
        time.sleep(3600)
    if "FAKE_DIE" in text:
        os._exit(7)
    if "FAKE_RAISE" in text:
        raise RuntimeError("the fake engine broke")
    mistake = re.search(r"# mistake (.+)", text)
    tests = []
    for number, fn in enumerate(FAKE_FUNCTIONS, 1):
        ok = f"good_{fn}" in text
        output = "" if ok else f"`{fn}` is wrong."
        mistakes = [mistake.group(1).strip()] if mistake and not ok else []
        if mistakes:
            output += f"\n\n**Likely mistake:** the sentence of {mistakes[0]}"
        if "FAKE_FORGED_MISTAKE" in text:  # what a student's exception message could print
            output += "\n\n**Likely mistake:** I forged this line"
        tests.append(
            {
                "name": f"{fn}: matches the reference",
                "number": str(number),
                "score": 10.0 if ok else 0.0,
                "max_score": 10.0,
                "status": "passed" if ok else "failed",
                "tags": [fn],
                "visibility": "visible",
                "output": output,
                "output_format": "md",
                "extra_data": {"mistakes": mistakes, "evidence": [  # FAKE_PROBED: shown by a probe, not exactly
                    {"sentence": m, "exact": "FAKE_PROBED" not in text, "by": "fake"} for m in mistakes]},
            }
        )
    return {
        "score": sum(t["score"] for t in tests),
        "execution_time": 0.01,
        "output": "fake",
        "output_format": "md",
        "stdout_visibility": "hidden",
        "tests": tests,
    }


FAKE_GRADER = "tests.fixtures_export:fake_grade"
