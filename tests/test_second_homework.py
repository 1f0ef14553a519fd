"""A second homework on the same engine: examples/layernorm/ (upload ``layernorm``), graded end to end by the
engine unchanged, on a temporary copy of the checkout: ``template --check``, ``regen --check``, ``build``,
``check-zip``, ``grade`` (the solution at full marks, the blank template at 0, a buggy submission losing exactly
the points of its bug, with its sentence) and ``batch``; and ``autograder/`` is the attention homework's engine,
byte for byte, naming nothing of the second homework."""

from __future__ import annotations

import csv
import json
import os
import re
import zipfile
from pathlib import Path

import pytest

from autograder.commands import demo, pythons
from autograder.homework import ENGINE, Homework
from tests.fixtures_export import write_export
from tests.homework_copy import REPO, autograder, copy_repo

FOLDER = Path("examples") / "layernorm"
LAYERNORM = Homework(REPO / FOLDER)  # its contract, read without making it this process's homework
TOTAL = sum(points for tests in LAYERNORM.POINTS.values() for points in tests.values())
BUG = "no_residual"  # examples/buggy.json: pre_norm_block forgets the residual
BUG_MISTAKE = "block_no_residual"


@pytest.fixture(scope="module")
def copy(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return copy_repo(tmp_path_factory.mktemp("second") / "repo")


def run(copy: Path, *args: str) -> str:
    """``autograder ARGS --homework examples/layernorm`` in the copy; its output (it must succeed)."""
    done = autograder(copy, *args, "--homework", str(FOLDER))
    assert done.returncode == 0, f"autograder {' '.join(args)}:\n{done.stdout[-4000:]}"
    return done.stdout


def grade(copy: Path, submission: Path, results: Path) -> dict:
    run(copy, "grade", str(submission), "--all", "-o", str(results))
    return json.loads(results.read_text())


def buggy_source() -> str:
    spec = json.loads((LAYERNORM.folder / "examples" / "buggy.json").read_text())[BUG]
    return demo.apply_replacements(LAYERNORM.solution.read_text(), spec["replace"], BUG)


# ---- the engine names nothing of the second homework --------------------------------------------------------


def names_of(homework: Homework) -> set[str]:
    """What the engine must never name: the homework's graded functions and classes, its upload and the files
    derived from it."""
    upload = homework.UPLOAD
    return {*homework.POINTS, homework.NAME, upload, f"{upload}.py", f"{upload}.ipynb", f"{upload}_feedback",
            f"test_{upload}"}


def test_no_file_of_the_engine_names_a_function_or_file_of_the_second_homework() -> None:
    names = names_of(LAYERNORM)
    pattern = re.compile(r"\b(" + "|".join(re.escape(n) for n in sorted(names, key=len, reverse=True)) + r")\b",
                         re.IGNORECASE)
    found = []
    for path in sorted(ENGINE.rglob("*")):
        if path.is_file() and "__pycache__" not in path.parts:
            text = path.read_bytes().decode("utf-8", errors="replace")
            found += [f"{path.relative_to(REPO)}: {m[0]}" for m in pattern.finditer(text)]
    assert not found, found


def test_the_second_homework_is_small_and_its_own() -> None:
    assert LAYERNORM.NAME == LAYERNORM.UPLOAD == "layernorm"
    assert TOTAL != 100
    assert LAYERNORM.CALLS["pre_norm_block"] == ["layer_norm", "feed_forward"]
    assert LAYERNORM.template == (REPO / FOLDER / "student_template").resolve()
    assert not LAYERNORM.README


# ---- end to end, on a copy ---------------------------------------------------------------------------------


def test_its_generated_files_are_fresh(copy: Path) -> None:
    assert "up to date" in run(copy, "template", "--check")
    said = run(copy, "regen", "--check")
    assert "public: 9 cases" in said and "graded: " in said and "stale" not in said


def test_its_zip_carries_the_attention_homeworks_engine_byte_for_byte(copy: Path) -> None:
    ours, attention = copy / "dist" / "layernorm.zip", copy / "dist" / "attention.zip"
    run(copy, "build", "-o", str(ours))
    done = autograder(copy, "build", "-o", str(attention))  # the default homework: reference/
    assert done.returncode == 0, done.stdout[-4000:]

    def members(path: Path, under: str) -> dict[str, bytes]:
        with zipfile.ZipFile(path) as archive:
            return {n: archive.read(n) for n in archive.namelist() if n.startswith(under)}

    engine = members(ours, "autograder/")
    assert engine and engine == members(attention, "autograder/")
    shipped = members(ours, "homework/")
    assert "homework/homework.py" in shipped and "homework/diagnosis/stateful.py" in shipped
    assert not any(n.endswith(("layernorm.py", "mistakes.py")) or "/cases/__init__" in n for n in shipped)
    said = run(copy, "check-zip", "--layout-only", str(ours))
    assert "RESULT: PASS" in said and "FAIL" not in said


@pytest.mark.slow
@pytest.mark.skipif(not os.environ.get("AUTOGRADER_SLOW"), reason="set AUTOGRADER_SLOW=1 (builds a venv: ~30 s)")
def test_its_zip_passes_the_full_check_zip(copy: Path) -> None:
    if pythons.find_python310() is None or os.geteuid() != 0:
        pytest.skip("needs python3.10 and root")
    zip_path = copy / "dist" / "layernorm-full.zip"
    run(copy, "build", "-o", str(zip_path))
    said = run(copy, "check-zip", str(zip_path))
    assert f"PASS  reference: {TOTAL:g}/{TOTAL:g} points" in said and f"PASS  template: 0/{TOTAL:g} points" in said


def test_grade_full_marks_zero_and_a_bug_named_by_its_sentence(copy: Path, tmp_path: Path) -> None:
    homework = copy / FOLDER
    data = grade(copy, homework / "layernorm.py", tmp_path / "reference.json")
    tests = data["tests"]
    assert {t["number"] for t in tests} == {n for points in LAYERNORM.POINTS.values() for n in points}
    assert data["score"] == pytest.approx(TOTAL) and sum(t["max_score"] for t in tests) == pytest.approx(TOTAL)
    assert all(t["status"] == "passed" for t in tests)

    blank = grade(copy, homework / "student_template" / "layernorm.py", tmp_path / "blank.json")
    assert blank["score"] == 0 and len(blank["tests"]) == len(tests)
    assert all("not implemented yet" in t["output"] for t in blank["tests"])

    buggy = tmp_path / "buggy" / "layernorm.py"
    buggy.parent.mkdir()
    buggy.write_text(buggy_source())
    data = grade(copy, buggy, tmp_path / "buggy.json")
    lost = {t["number"] for t in data["tests"] if t["score"] < t["max_score"]}
    assert lost == set(LAYERNORM.POINTS["pre_norm_block"])
    assert data["score"] == pytest.approx(TOTAL - sum(LAYERNORM.POINTS["pre_norm_block"].values()))
    for test in data["tests"]:
        if test["number"] in lost:
            assert f"**Likely mistake:** {LAYERNORM.sentences[BUG_MISTAKE]}" in test["output"]
            assert test["extra_data"]["mistakes"] == [BUG_MISTAKE]


# a line of RunningStats.update -> (its buggy version, the mistake named, what the feedback says); C.1's one batch
# needs no merge
STATS_BUGS = {
    "variance_not_merged": ("        m2 = self.var * self.count + batch_var * n + delta**2 * self.count * n / total\n",
                            "        m2 = self.var * self.count + batch_var * n\n",
                            "stats_variance_not_merged", "stats.var after update number 2"),
    "writes_its_input": ("        n = rows.shape[0]\n", "        rows -= 0.0\n        n = rows.shape[0]\n",
                         "modified_input", "RunningStats.update modified one of its input arrays in place"),
}


@pytest.mark.parametrize("bug", sorted(STATS_BUGS))
def test_a_stateful_bug_is_named_from_the_objects_history(copy: Path, tmp_path: Path, bug: str) -> None:
    """RunningStats runs in the worker (student.new) through the homework's diagnosis hook, update after update."""
    line, buggy_line, mistake, said = STATS_BUGS[bug]
    source = LAYERNORM.solution.read_text()
    assert source.count(line) == 1
    buggy = tmp_path / bug / "layernorm.py"
    buggy.parent.mkdir()
    buggy.write_text(source.replace(line, buggy_line))
    data = grade(copy, buggy, tmp_path / "stats.json")
    failed = [t for t in data["tests"] if t["status"] == "failed"]
    one_batch = {"C.1"} if mistake == "stats_variance_not_merged" else set()
    assert {t["number"] for t in failed} == set(LAYERNORM.POINTS["RunningStats"]) - one_batch
    for test in failed:
        assert f"**Likely mistake:** {LAYERNORM.sentences[mistake]}" in test["output"] and said in test["output"]
        assert test["extra_data"]["mistakes"] == [mistake]


def test_batch_grades_a_tiny_export(copy: Path, tmp_path: Path) -> None:
    homework = copy / FOLDER
    sources = [(homework / "layernorm.py").read_text(), (homework / "student_template" / "layernorm.py").read_text(),
               buggy_source()]
    export, ids = write_export(tmp_path / "export", sources, kinds=["correct", "blank", "buggy"],
                               filename="layernorm.py")
    out = tmp_path / "out"
    said = run(copy, "batch", str(export), "-o", str(out), "--jobs", "2", "--plain")
    assert "3 graded" in said
    with (out / "scores.csv").open(newline="") as f:
        totals = {row["submission_id"]: float(row["total"]) for row in csv.DictReader(f)}
    wanted = {"correct": TOTAL, "blank": 0.0, "buggy": TOTAL - sum(LAYERNORM.POINTS["pre_norm_block"].values())}
    assert totals == {sid: pytest.approx(wanted[kind]) for sid, kind in ids.items()}
