"""A rerun of ``batch`` into the same output folder: it regrades what changed (a submission's content, the grader's
version), keeps every run, and says what changed since the previous one, for whom and why.

The batch machinery runs for real with ``fixtures_export.fake_grade`` in place of the engine (as in test_batch.py);
``test_a_rerun_with_the_real_engine_regrades_the_changed_student_only`` runs the real engine.
"""

from __future__ import annotations

import json
from pathlib import Path

from autograder import batch
from autograder.batch import state
from tests import fixtures_export as fx
from tests.test_batch import GOOD, HALF, read_csv, run_fake


def graded_ids(out: Path) -> list[str]:
    """The submissions each line of state.jsonl records a grading of, in order."""
    return [json.loads(line)["id"] for line in (out / "state.jsonl").read_text().splitlines()]


def three_students(tmp_path: Path, sources: list[str]) -> tuple[Path, list[str]]:
    path, ids = fx.write_export(tmp_path / "in", sources)
    return path, sorted(ids, key=int)


def test_a_rerun_regrades_the_student_whose_file_changed_and_only_them(tmp_path: Path) -> None:
    path, ids = three_students(tmp_path, [GOOD, GOOD, GOOD])
    out = tmp_path / "out"
    assert run_fake(path, out) == 0
    assert sorted(graded_ids(out)) == sorted(ids)
    (path / f"submission_{ids[1]}" / "attention.py").write_text(HALF)  # a late resubmission, in a new export
    assert run_fake(path, out) == 0
    assert graded_ids(out)[3:] == [ids[1]]
    assert [row["total"] for row in read_csv(out / "scores.csv")] == ["30", "10", "30"]
    assert run_fake(path, out) == 0  # nothing changed: nothing regraded
    assert len(graded_ids(out)) == 4
    (path / f"submission_{ids[2]}" / "helpers.py").write_text("x = 1\n")  # a file beside it is read too
    assert run_fake(path, out) == 0
    assert graded_ids(out)[4:] == [ids[2]]


def test_the_content_hash_is_what_intake_reads(tmp_path: Path) -> None:
    folder = tmp_path / "s"
    folder.mkdir()
    (folder / "attention.py").write_text(GOOD)
    first = state.content_hash(folder)
    (folder / ".DS_Store").write_text("finder")  # hidden: intake never reads it
    (folder / "__pycache__").mkdir()
    (folder / "__pycache__" / "attention.cpython-310.pyc").write_bytes(b"\0")
    assert state.content_hash(folder) == first
    (folder / "attention.py").write_text(GOOD + "\n# edited\n")
    assert state.content_hash(folder) != first
    assert state.content_hash(None) == "" and state.content_hash(tmp_path / "absent") == ""


def test_a_rerun_with_the_real_engine_regrades_the_changed_student_only(tmp_path: Path) -> None:
    """The issue's case: three students at 100, one's softmax then broken, a rerun: that student only is
    regraded, and loses points."""
    correct = fx.REFERENCE.read_text()
    path, ids = three_students(tmp_path, [correct] * 3)
    out = tmp_path / "out"
    assert batch.run(path, out, jobs=2, plain=True) == 0
    assert [row["total"] for row in read_csv(out / "scores.csv")] == ["100"] * 3
    (path / f"submission_{ids[0]}" / "attention.py").write_text(fx.buggy_sources()["softmax_unstable"])
    assert batch.run(path, out, jobs=2, plain=True) == 0
    assert graded_ids(out)[3:] == [ids[0]]
    totals = [float(row["total"]) for row in read_csv(out / "scores.csv")]
    assert totals[0] < 100 and totals[1:] == [100, 100]
