"""A rerun of ``batch`` into the same output folder: it regrades what changed (a submission's content, the grader's
version), keeps every run, and says what changed since the previous one, for whom and why.

The batch machinery runs for real with ``fixtures_export.fake_grade`` in place of the engine (as in test_batch.py);
``test_a_rerun_with_the_real_engine_regrades_the_changed_student_only`` runs the real engine.
"""

from __future__ import annotations

import json
from pathlib import Path

from autograder import batch
from autograder.batch import history, state
from tests import fixtures_export as fx
from tests.homework import TOTAL, TOTAL_TEXT
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
    regraded, loses points, and changes.csv says so; the first run's scores stay readable."""
    correct = fx.REFERENCE.read_text()
    path, ids = three_students(tmp_path, [correct] * 3)
    out = tmp_path / "out"
    assert batch.run(path, out, jobs=2, plain=True) == 0
    assert [row["total"] for row in read_csv(out / "scores.csv")] == [TOTAL_TEXT] * 3
    (path / f"submission_{ids[0]}" / "attention.py").write_text(fx.buggy_sources()["softmax_unstable"])
    assert batch.run(path, out, jobs=2, plain=True) == 0
    assert graded_ids(out)[3:] == [ids[0]]
    totals = [float(row["total"]) for row in read_csv(out / "scores.csv")]
    assert totals[0] < TOTAL and totals[1:] == [TOTAL, TOTAL]
    (change,) = read_csv(out / "changes.csv")
    assert (change["submission_id"], change["old_total"]) == (ids[0], TOTAL_TEXT)
    assert change["reason"] == "the submission changed"
    assert float(change["new_total"]) == totals[0] and change["tests_changed"]
    assert [row["total"] for row in read_csv(out / "runs" / "1" / "scores.csv")] == [TOTAL_TEXT] * 3


def test_each_run_is_kept_and_the_report_says_what_changed_since_the_previous_run(tmp_path: Path) -> None:
    path, ids = three_students(tmp_path, [GOOD, GOOD, GOOD])
    out = tmp_path / "out"
    assert run_fake(path, out) == 0
    assert read_csv(out / "changes.csv") == [] and "no earlier run to compare with" in (out / "report.html").read_text()
    (path / f"submission_{ids[1]}" / "attention.py").write_text(HALF)
    assert run_fake(path, out) == 0
    change = {"submission_id": ids[1], "old_total": "30", "new_total": "10", "old_status": "graded",
              "new_status": "graded", "tests_changed": "2: 10 -> 0; 3: 10 -> 0", "reason": "the submission changed"}
    changes = read_csv(out / "changes.csv")
    assert [{k: c[k] for k in change} for c in changes] == [change] and changes[0]["names"]
    assert read_csv(out / "runs" / "2" / "changes.csv") == changes
    assert [r["total"] for r in read_csv(out / "runs" / "1" / "scores.csv")] == ["30", "30", "30"]  # still readable
    assert [r["total"] for r in read_csv(out / "runs" / "2" / "scores.csv")] == ["30", "10", "30"]
    html = (out / "report.html").read_text()
    section = html[html.index("Changes since the previous run"):]
    assert "run 1 ended" in section and "runs/1/scores.csv" in section and "1 submission changed" in section
    assert f"<td>{ids[1]}</td>" in section and "2: 10 -&gt; 0; 3: 10 -&gt; 0" in section
    assert f"<td>{ids[0]}</td>" not in section.split("</table>")[0]
    # A new grader, and one student's file changed too: that student's reason is both; the others' same scores
    # are no change.
    (path / f"submission_{ids[2]}" / "attention.py").write_text(fx.fake_source("softmax", "causal_mask"))
    assert run_fake(path, out, version="w" * 64) == 0
    assert len(graded_ids(out)) == 4 + 3
    changes = read_csv(out / "changes.csv")
    assert [c["submission_id"] for c in changes] == [ids[2]]
    assert changes[0]["reason"].startswith("both: the submission changed; the grader changed (vvvvvvvvvvvv -> www")
    assert json.loads((out / "runs" / "3" / "run.json").read_text())["version"] == "w" * 64


def test_a_grader_change_names_the_files_that_changed() -> None:
    def run(version: str, files: dict, total: float, content: str = "c1") -> dict:
        tests = {"1": total, "2": 0.0}
        student = {"names": "Ada", "content": content, "status": "graded", "total": total, "tests": tests}
        return {"version": version, "grader_files": files, "submissions": {"7": student}}

    old = run("a" * 64, {"x.py": "1", "y.py": "2"}, 10.0)
    new = run("b" * 64, {"x.py": "1", "y.py": "3", "z.npz": "4"}, 0.0)
    (change,) = history.compare(old, new)
    assert (change.old_total, change.new_total, change.tests) == (10.0, 0.0, [("1", 10.0, 0.0)])
    assert change.reason == "the grader changed (aaaaaaaaaaaa -> bbbbbbbbbbbb: y.py, z.npz)"
    assert history.compare(old, run("a" * 64, {"x.py": "1", "y.py": "2"}, 10.0)) == []  # nothing changed
    (same_score,) = history.compare(old, run("a" * 64, old["grader_files"], 10.0, content="c2"))
    assert same_score.reason == "the submission changed" and same_score.tests == []
    gone = history.compare(old, {"version": "a" * 64, "grader_files": {}, "submissions": {}})
    assert [(c.id, c.old_total, c.new_total, c.reason) for c in gone] == [("7", 10.0, None, "no longer in the export")]
