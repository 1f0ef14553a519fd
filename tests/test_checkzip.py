"""``autograder check-zip``: catches broken zips before an instructor uploads them.

The layout checks and the results.json validation are fast; running a built zip
through setup.sh and run_autograder like Gradescope (a venv is built) is slow.
"""

from __future__ import annotations

import os
import shutil
import tempfile
import zipfile
from pathlib import Path

import pytest

from autograder.commands import build, checkzip, pythons
from tests.homework import HOMEWORK, TOTAL, TOTAL_TEXT

REPO = build.REPO
GOOD_TEST = {
    "name": "softmax: rows sum to one",
    "score": 0.0,
    "max_score": 2.0,
    "status": "failed",
    "tags": ["softmax"],
    "visibility": "visible",
    "output": "`softmax` raised NotImplementedError",
    "output_format": "md",
}
GOOD_RESULTS = {
    "score": 0.0,
    "execution_time": 1.5,
    "output": "summary",
    "output_format": "md",
    "stdout_visibility": "hidden",
    "tests": [GOOD_TEST],
}


def rezip(
    source: Path,
    target: Path,
    *,
    drop: set[str] = frozenset(),
    add: dict[str, bytes] | None = None,
    mode: dict[str, int] | None = None,
    prefix: str = "",
    replace: dict[str, bytes] | None = None,
) -> Path:
    """A copy of the zip ``source`` with members dropped, added, re-moded or moved under ``prefix``."""
    with zipfile.ZipFile(source) as zin, zipfile.ZipFile(target, "w") as zout:
        for info in zin.infolist():
            if info.filename in drop:
                continue
            data = (replace or {}).get(info.filename, zin.read(info))
            new = zipfile.ZipInfo(prefix + info.filename, date_time=info.date_time)
            new.external_attr = (0o100000 | (mode or {}).get(info.filename, (info.external_attr >> 16) & 0o777)) << 16
            zout.writestr(new, data)
        for name, data in (add or {}).items():
            zout.writestr(name, data)
    return target


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return build.build_zip(tmp_path_factory.mktemp("dist") / "autograder.zip")


def layout(path: Path) -> tuple[bool, dict[str, checkzip.Check]]:
    report = checkzip.Report()
    runnable = checkzip.check_layout(path, report)
    return runnable, {c.name: c for c in report.checks}


def has_graded_suite() -> bool:
    return any(HOMEWORK.tests.glob("test_*.py"))


def test_the_built_zip_passes_the_layout_checks(built: Path) -> None:
    runnable, checks = layout(built)
    assert runnable
    assert checks["layout"].status == "PASS"
    assert checks["up to date"].status == "PASS"
    if has_graded_suite():
        assert checks["contents"].status == "PASS", checks["contents"].detail


def test_a_zipped_folder_instead_of_its_contents_is_caught(built: Path, tmp_path: Path) -> None:
    runnable, checks = layout(rezip(built, tmp_path / "nested.zip", prefix="autograder_folder/"))
    assert not runnable
    assert "zip the folder's contents" in checks["layout"].detail


def test_scripts_must_be_executable_with_unix_line_endings(built: Path, tmp_path: Path) -> None:
    runnable, checks = layout(rezip(built, tmp_path / "mode.zip", mode={"run_autograder": 0o644}))
    assert not runnable and "run_autograder is not executable" in checks["layout"].detail
    crlf = (REPO / "setup.sh").read_bytes().replace(b"\n", b"\r\n")
    runnable, checks = layout(rezip(built, tmp_path / "crlf.zip", replace={"setup.sh": crlf}))
    assert not runnable and "Windows line endings" in checks["layout"].detail


def test_reference_tests_venv_git_and_solutions_must_not_ship(built: Path, tmp_path: Path) -> None:
    extra = {
        "reference/attention.py": (REPO / "reference" / "attention.py").read_bytes(),
        "tests/test_x.py": b"",
        ".venv/bin/python": b"",
        ".git/HEAD": b"",
        "autograder/__pycache__/x.cpython-310.pyc": b"",
        "autograder/helper.py": b"def f():\n    # BEGIN SOLUTION\n    return 1\n",
    }
    _, checks = layout(rezip(built, tmp_path / "leaky.zip", add=extra))
    detail = checks["contents"].detail
    assert checks["contents"].status == "FAIL"
    for part in ("reference/", "tests/", ".venv/", ".git/", "__pycache__/"):
        assert part in detail
    assert "solution code inside" in detail and "autograder/helper.py" in detail
    assert checks["up to date"].status == "WARN"


def test_missing_engine_and_stale_zip(built: Path, tmp_path: Path) -> None:
    _, checks = layout(rezip(built, tmp_path / "noengine.zip", drop={"autograder/runner.py"}))
    assert checks["contents"].status == "FAIL" and "autograder/runner.py" in checks["contents"].detail
    assert checks["up to date"].status == "WARN"


def test_not_a_zip(tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    (tmp_path / "x.zip").write_text("not a zip")
    assert checkzip.main([str(tmp_path / "x.zip")]) == 1
    assert "RESULT: FAIL" in capsys.readouterr().out
    assert checkzip.main([str(tmp_path / "missing.zip")]) == 2


def test_results_validation_catches_what_gradescope_rejects() -> None:
    assert checkzip.validate(GOOD_RESULTS) == []
    bad = dict(GOOD_RESULTS, score=None, tests=[dict(GOOD_TEST, status="ok", visibility="public", tags=[1])])
    problems = "\n".join(checkzip.validate(bad))
    assert "null at $.score" in problems
    assert "status 'ok'" in problems and "visibility 'public'" in problems and "tags" in problems
    inconsistent = dict(GOOD_RESULTS, score=5.0)
    assert any("not the sum" in p for p in checkzip.validate(inconsistent))
    if checkzip.SCHEMA.is_file() and checkzip._jsonschema():
        assert any(p.startswith("schema:") for p in checkzip.validate(dict(GOOD_RESULTS, bogus=1)))


def test_expectations_for_reference_and_template() -> None:
    full = dict(GOOD_TEST, score=float(TOTAL), max_score=float(TOTAL), status="passed")
    assert checkzip.expectations("reference", dict(GOOD_RESULTS, score=float(TOTAL), tests=[full]), []) == []
    zero = dict(GOOD_TEST, max_score=float(TOTAL))
    assert checkzip.expectations("template", dict(GOOD_RESULTS, tests=[zero]), [zero["name"]]) == []
    silent = dict(zero, output="")
    problems = checkzip.expectations("template", dict(GOOD_RESULTS, tests=[silent]), [zero["name"], "other"])
    assert any("1 tests reported" in p for p in problems) and any("say nothing" in p for p in problems)
    assert checkzip.expectations("reference", dict(GOOD_RESULTS, tests=[]), []) == [
        "no tests in results.json (the grading engine failed?)"
    ]


@pytest.mark.parametrize(
    ("extra_data", "problem"),
    [
        ({}, None),
        ({"isolation": "Isolation reduced: the sandbox user `x` cannot run /p (denied), so student code runs as root."},
         "ran with reduced isolation: Isolation reduced: the sandbox user `x` cannot run /p"),
        ({"isolation": "Isolation reduced: the grader is not root, so student code runs as its user (uid 1000)"},
         "runs as its user"),
    ],
    ids=["full isolation", "student code as root", "not root"],
)
def test_reduced_isolation_recorded_in_results_fails_the_check(extra_data: dict, problem: str | None) -> None:
    found = checkzip.isolation_problems(dict(GOOD_RESULTS, extra_data=extra_data))
    assert (found == []) if problem is None else (len(found) == 1 and problem in found[0])


def test_without_a_python_310_check_zip_says_loudly_it_is_not_testing_310(monkeypatch) -> None:
    monkeypatch.setattr(pythons, "find_python310", lambda: None)
    warnings: list[str] = []
    assert pythons.choose(None, warn=warnings.append) is None
    assert len(warnings) == 1 and "NOT TESTING PYTHON 3.10" in warnings[0]
    assert pythons.choose("/some/python", warn=warnings.append) == "/some/python" and len(warnings) == 1


def test_a_python_310_is_picked_when_there_is_one() -> None:
    found = [c for c in pythons.candidates() if (pythons.version_of(c) or ("", ""))[1] == "3.10"]
    picked = pythons.find_python310()
    if not found:
        assert picked is None
        pytest.skip("no Python 3.10 on this machine")
    assert picked is not None and pythons.version_of(picked)[1] == "3.10"


def test_a_python_everybody_can_run_is_preferred(monkeypatch, tmp_path: Path) -> None:
    private, public = tmp_path / "private" / "bin" / "python3.10", tmp_path / "public" / "bin" / "python3.10"
    monkeypatch.setattr(pythons, "candidates", lambda: [str(private), str(public)])
    monkeypatch.setattr(pythons, "version_of", lambda python: (python, "3.10"))
    monkeypatch.setattr(pythons, "runnable_by_anyone", lambda python: python == str(public))
    assert pythons.find_python310() == str(public)


def test_runnable_by_anyone_needs_every_folder_above_to_be_enterable() -> None:
    root = Path(tempfile.mkdtemp(dir="/tmp"))  # pytest's tmp_path sits in a private folder
    try:
        python = root / "a" / "bin" / "python3.10"
        python.parent.mkdir(parents=True)
        python.write_text("#!/bin/sh\n")
        for path in (root, root / "a", python.parent, python):
            path.chmod(0o755)
        assert pythons.runnable_by_anyone(str(python))
        (root / "a").chmod(0o700)
        assert not pythons.runnable_by_anyone(str(python))
    finally:
        shutil.rmtree(root)


def test_an_unusable_python_is_reported_before_setup(built: Path, capsys: pytest.CaptureFixture) -> None:
    status = checkzip.main([str(built), "--python", "/nonexistent/python3.10"])
    out = capsys.readouterr().out
    assert status == 1 and "cannot build a venv" in out


@pytest.mark.slow
@pytest.mark.skipif(not os.environ.get("AUTOGRADER_SLOW"), reason="set AUTOGRADER_SLOW=1 (builds a venv: ~1 min)")
def test_check_zip_end_to_end(built: Path, capsys: pytest.CaptureFixture) -> None:
    """Build a venv with Python 3.10 like Gradescope's image (found by itself) and grade the reference and the
    template; as root, with full isolation (a reduced one fails the check)."""
    if pythons.find_python310() is None or not has_graded_suite() or os.geteuid() != 0:
        pytest.skip("needs python3.10, the graded suite and root")
    status = checkzip.main([str(built)])
    out = capsys.readouterr().out
    assert status == 0, out
    assert "venv built with Python 3.10" in out
    assert f"PASS  reference: {TOTAL_TEXT}/{TOTAL_TEXT} points" in out
    assert f"PASS  template: 0/{TOTAL_TEXT} points" in out
