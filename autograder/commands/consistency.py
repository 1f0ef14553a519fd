"""Is the homework consistent? What ``build`` checks before it writes a zip, and how check-zip explains a score.

An instructor's change can leave the homework inconsistent in ways a zip would ship silently:
student files or the README's points table not regenerated (``autograder template``), stored
cases not regenerated (``autograder regen``), graded tests and ``contract.POINTS`` that disagree,
a reference that no longer gets full marks (or fails a public test), or a template that scores.
``problems()`` finds each, in words that say what to run or change; ``build`` refuses the zip
while there is one.
"""

from __future__ import annotations

import ast
import contextlib
import io
import math
import os
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

from autograder import contract

REPO = Path(__file__).resolve().parents[2]
HOMEWORK = contract.HOMEWORK
SUITE = HOMEWORK.tests
MANIFEST = HOMEWORK.relative(HOMEWORK.folder / "homework.py")
OUTPUT_HEAD = 4  # lines of a failing test's output shown in a reason


def problems(*, progress: Callable[[str], None] = print) -> list[str]:
    """Everything that makes this homework inconsistent ([] when it is not); ``progress`` narrates."""
    found: list[str] = []
    progress("checking the student files and the README's points table (autograder template --check)")
    found += template_problems()
    progress("checking the stored cases (autograder regen --check)")
    found += stored_case_problems()
    progress(f"checking the graded tests against POINTS ({MANIFEST}) and the stored cases")
    found += points_problems(SUITE)
    found += unused_case_problems(SUITE)
    progress("grading the reference (full marks expected) and the blank template (0 expected)")
    found += grading_problems(HOMEWORK.solution, HOMEWORK.template / f"{contract.UPLOAD}.py")
    if (HOMEWORK.template / f"test_{contract.UPLOAD}.py").is_file():
        progress("running the students' public tests on the reference (all pass expected)")
        found += public_test_problems(HOMEWORK.solution, HOMEWORK.template)
    if not found:
        from autograder.suite import stamp

        found += stamp.problems()
    return found


def template_problems() -> list[str]:
    from autograder.commands import template

    try:
        stale = template.stale_files()
    except Exception as error:  # an unbalanced marker, a missing hint, ...
        return [f"the student template cannot be generated: {error}"]
    return [f"{path} is stale: run `autograder template`" for path in stale]


def stored_case_problems() -> list[str]:
    from autograder.suite import regen

    found = []
    for case_set in regen.case_sets():
        if case_set.optional and not regen._builder_exists(case_set.builder):
            continue
        try:
            stale = regen.stale_files(case_set, regen.render(case_set))
        except Exception as error:  # a case builder that fails
            found.append(f"the {case_set.name} cases cannot be built: {type(error).__name__}: {error}")
            continue
        found += [f"{HOMEWORK.relative(Path(path))} is stale ({_first(why)}): run `autograder regen`"
                  for path, why in stale.items()]
    return found


def _first(why: str) -> str:
    """The first of the reasons ``regen`` gives ("a; b; c"), and how many more."""
    reasons = why.split("; ")
    return reasons[0] + (f"; and {len(reasons) - 1} more differences" if len(reasons) > 1 else "")


def graded_tests(suite: Path = SUITE) -> dict[str, str]:
    """Every graded test of the suite's files, read without importing them: number -> the function it tags."""
    found: dict[str, str] = {}
    for path in sorted(suite.glob("test_*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call) and getattr(node.func, "id", getattr(node.func, "attr", "")) == "graded":
                args = [a.value for a in node.args[:2] if isinstance(a, ast.Constant)]
                if len(args) == 2:
                    found[str(args[0])] = str(args[1])
    return found


def points_problems(suite: Path = SUITE) -> list[str]:
    """Where the graded suite and the homework's POINTS disagree (each a test number and what to change)."""
    tests, found = graded_tests(suite), []
    for number, function in tests.items():
        if number not in contract.TESTS:
            found.append(f"graded test {number} ({function}) has no points in {MANIFEST}: "
                         f"add it to POINTS[{function!r}]")
        elif contract.TESTS[number][0] != function:
            found.append(f"graded test {number} tests {function}, but POINTS in {MANIFEST} lists it under "
                         f"{contract.TESTS[number][0]}")
    for number, (function, _) in contract.TESTS.items():
        if number not in tests:
            found.append(f"POINTS[{function!r}] in {MANIFEST} gives points to test {number}, which the graded "
                         "suite does not have: remove it there, or add the test")
    return found


def unused_case_problems(suite: Path = SUITE) -> list[str]:
    """Stored graded cases that no graded test names (a case added to the specs but to no test's ``check``)."""
    from autograder.suite import regen
    from autograder.suite.cases import load_cases

    graded = next((s for s in regen.case_sets() if s.name == "graded"), None)
    if graded is None or not (REPO / graded.npz).is_file():
        return []
    named = {node.value for path in suite.glob("*.py") for node in ast.walk(ast.parse(path.read_text("utf-8")))
             if isinstance(node, ast.Constant) and isinstance(node.value, str)}
    unused = [case_id for case_id in load_cases(REPO / graded.npz) if case_id not in named]
    return [f"graded case {case_id} is in no graded test: name it in a test's check(...) in "
            f"{HOMEWORK.relative(SUITE)}/, or remove it from the case specs" for case_id in unused]


def grading_problems(reference: Path, template: Path) -> list[str]:
    """Grade the reference (every test at full marks) and the blank template (0), each in a fresh folder."""
    from autograder import runner

    found = []
    for label, path, check in (("reference", reference, reference_problems), ("template", template,
                                                                              template_problems_of)):
        with tempfile.TemporaryDirectory(prefix=f"ag-build-{label}-") as folder:
            (Path(folder) / f"{contract.UPLOAD}{path.suffix}").write_bytes(path.read_bytes())
            said = io.StringIO()  # pytest's report of every test: the problems below say what matters
            try:
                with contextlib.redirect_stdout(said), contextlib.redirect_stderr(said):
                    data = runner.grade_folder(Path(folder))
            except Exception as error:
                found.append(f"grading the {label} failed: {type(error).__name__}: {error}")
                found += [f"      | {line}" for line in said.getvalue().strip().splitlines()[-OUTPUT_HEAD:]]
                continue
            found += check(data)
    return found


def public_test_problems(reference: Path, student_template: Path) -> list[str]:
    """The public tests (``test_<UPLOAD>.py``, as a student runs them) must all pass on the reference."""
    with tempfile.TemporaryDirectory(prefix="ag-build-public-") as folder:
        copy = Path(folder) / "student_template"
        shutil.copytree(student_template, copy, ignore=shutil.ignore_patterns("__pycache__", ".pytest_cache"))
        env = {k: v for k, v in os.environ.items() if not k.startswith("PYTHON")}
        env |= {f"{contract.UPLOAD.upper()}_IMPL": str(reference), "PYTHONDONTWRITEBYTECODE": "1", "COLUMNS": "200"}
        try:
            done = subprocess.run([sys.executable, "-m", "pytest", "-q", "-rf", "-p", "no:cacheprovider"], cwd=copy,
                                  env=env, capture_output=True, text=True, timeout=600, check=False)
        except subprocess.TimeoutExpired:
            return ["the public tests did not finish on the reference within 10 minutes"]
    if done.returncode == 0:
        return []
    failed = [line for line in done.stdout.splitlines() if line.startswith(("FAILED", "ERROR"))]
    head = failed[:5] or done.stdout.strip().splitlines()[-5:]
    tests = f"{HOMEWORK.relative(student_template)}/test_{contract.UPLOAD}.py"
    return [f"the public tests ({tests}) fail on the reference (pytest exit "
            f"{done.returncode})", *(f"      | {line[:300]}" for line in head)]


def reference_problems(data: dict) -> list[str]:
    """Why the reference's results are not full marks: each test that loses points, with its output's head."""
    tests = [t for t in data.get("tests", []) if isinstance(t, dict)]
    score, top = totals(data)
    found = []
    if not math.isclose(top, contract.TOTAL_POINTS):
        found.append(f"the reference's tests are worth {top:g} points, {MANIFEST} says {contract.TOTAL_POINTS:g}")
    losing = [t for t in tests if t.get("status") == "failed" or _num(t.get("score")) < _num(t.get("max_score"))]
    if losing or not math.isclose(score, top):
        found.append(f"the reference scores {score:g}/{top:g}")
        found += [f"  {describe(t)}" for t in losing[:8]]
        if len(losing) > 8:
            found.append(f"  ... and {len(losing) - 8} more tests")
    error = (data.get("extra_data") or {}).get("grader_error") if isinstance(data.get("extra_data"), dict) else None
    if error:
        found.append(f"  the grader could not finish: {error}")
    return found


def template_problems_of(data: dict) -> list[str]:
    """Why the blank template's results are not 0 with every test reported."""
    score, _ = totals(data)
    tests = [t for t in data.get("tests", []) if isinstance(t, dict)]
    found = []
    if score:
        found.append(f"the blank template scores {score:g}, expected 0: its tests that give points:")
        found += [f"  {describe(t)}" for t in tests if _num(t.get("score")) > 0][:8]
    if not (set(contract.TESTS) <= {t.get("number") for t in tests}):
        found.append(f"the blank template's results have {len(tests)} tests, POINTS in {MANIFEST} lists "
                     f"{len(contract.TESTS)}: the grader could not finish")
    return found


def describe(test: dict[str, Any]) -> str:
    """One test of a results.json: number, name, points, and the head of its output."""
    head = [line for line in str(test.get("output", "")).strip().splitlines() if line.strip()][:OUTPUT_HEAD]
    said = "".join(f"\n      | {line[:200]}" for line in head)
    number = f"{test['number']} " if test.get("number") else ""
    return f"{number}{test.get('name', '?')}: {_num(test.get('score')):g}/{_num(test.get('max_score')):g}{said}"


def totals(data: dict) -> tuple[float, float]:
    """(score, maximum) of a results.json."""
    tests = [t for t in data.get("tests", []) if isinstance(t, dict)]
    score = data.get("score", sum(_num(t.get("score")) for t in tests))
    return _num(score), sum(_num(t.get("max_score")) for t in tests)


def _num(value: Any) -> float:
    return float(value) if isinstance(value, (int, float)) and not isinstance(value, bool) else 0.0
