"""Intake as students upload, end to end: a renamed notebook, a renamed ``.py`` and a correct ``attention.py`` that
imports its own module get full marks with a note on Gradescope's layout (the built zip, its own scripts), with
``grade`` (a folder, or the file itself) and in ``batch`` (Gradescope's export folders and loose per-student files).
"""

from __future__ import annotations

import csv
import json
from pathlib import Path

import pytest

from autograder import batch, contract
from autograder.batch import state
from autograder.commands import grade
from tests.submissions import REFERENCE, notebook_from_source
from tests.test_gradescope_e2e import grade_on_gradescope, gradescope_root  # noqa: F401 (a fixture)
from tests.test_intake_modules import split_reference

RENAMED_NOTE = "Your file is named `{name}`; it was graded as `{proper}`. Please name it `{proper}`."


def uploads() -> dict[str, dict[str, str]]:
    """Submissions as students upload them: file name -> text, per submission."""
    reference = REFERENCE.read_text()
    return {
        "renamed notebook": {"hw4_final (1).ipynb": notebook_from_source(reference, scratch=True)},
        "renamed py": {"Attn_final.py": reference, "test_attention.py": "def test_nothing():\n    pass\n"},
        "own module": split_reference(),
    }


def note_for(files: dict[str, str]) -> str:
    graded = next(iter(files))
    proper = "attention" + Path(graded).suffix
    return RENAMED_NOTE.format(name=graded, proper=proper) if graded != proper else ""


def full_marks_with_note(data: dict, files: dict[str, str]) -> None:
    failing = [t["name"] for t in data["tests"] if t["status"] != "passed"]
    assert data["score"] == contract.TOTAL_POINTS, failing
    note = note_for(files)
    if note:
        assert note in data["output"], data["output"][:500]
    assert "intake" not in data.get("extra_data", {})


def write(folder: Path, files: dict[str, str]) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    for name, text in files.items():
        (folder / name).write_text(text)
    return folder


@pytest.mark.slow
@pytest.mark.parametrize("which", list(uploads()))
def test_on_gradescope_as_students_upload(gradescope_root: Path, which: str) -> None:  # noqa: F811
    files = uploads()[which]
    data = grade_on_gradescope(gradescope_root, {name: text.encode() for name, text in files.items()})
    full_marks_with_note(data, files)


@pytest.mark.parametrize("which", list(uploads()))
def test_grade_of_a_folder_as_students_upload(tmp_path: Path, which: str) -> None:
    files = uploads()[which]
    full_marks_with_note(grade.grade(write(tmp_path / "upload", files)), files)


def test_grade_of_a_file_takes_the_modules_it_imports_from_beside_it(tmp_path: Path) -> None:
    files = split_reference()
    folder = write(tmp_path / "mine", {**files, "scratch.py": "raise SystemExit('never loaded')\n"})
    data = grade.grade(folder / "attention.py")
    assert data["score"] == contract.TOTAL_POINTS, [t["name"] for t in data["tests"] if t["status"] != "passed"]


def test_grade_of_a_file_of_another_name_never_takes_the_files_beside_it(tmp_path: Path) -> None:
    """`grade class/alice.py` beside `class/bob.py`: alice's `import bob` must not read bob's work."""
    files = split_reference()
    folder = write(tmp_path / "class", {"alice.py": files["attention.py"], "helpers.py": files["helpers.py"],
                                        "consts.py": files["consts.py"]})
    data = grade.grade(folder / "alice.py")
    notes = "\n".join(data["extra_data"]["notes"])
    assert data["score"] < contract.TOTAL_POINTS and "No module named 'helpers'" in notes, notes


def read_csv(path: Path) -> dict[str, dict[str, str]]:
    with open(path, newline="", encoding="utf-8") as f:
        return {row["submission_id"]: row for row in csv.DictReader(f)}


def test_batch_of_export_folders_and_loose_files_as_students_upload(tmp_path: Path) -> None:
    """One folder holding Gradescope-style submission folders and loose per-student files: each is a submission."""
    reference = REFERENCE.read_text()
    export = tmp_path / "class"
    for i, files in enumerate(uploads().values()):
        write(export / f"submission_{100 + i}", files)
    write(export, {"alice.py": reference, "dave.ipynb": notebook_from_source(reference), "erin.pdf": "%PDF-1.4",
                   "frank.py": "\n", "gus.py": "import numpy as np\nX = np.zeros(3)\n"})
    out = tmp_path / "out"
    status = batch.run(export, out, jobs=2, plain=True)
    rows = read_csv(out / "scores.csv")
    assert status == 0, rows
    for i, files in enumerate(uploads().values()):
        data = json.loads(state.results_path(out, str(100 + i)).read_text())
        full_marks_with_note(data, files)
        assert rows[str(100 + i)]["status"] == "graded"
    for sid, name in (("alice", "alice.py"), ("dave", "dave.ipynb")):
        data = json.loads(state.results_path(out, sid).read_text())
        full_marks_with_note(data, {name: ""})
        assert rows[sid]["total"] == str(contract.TOTAL_POINTS) and rows[sid]["status"] == "graded"
    assert rows["erin"]["total"] == "0" and rows["erin"]["status"] == "not graded: misnamed"
    assert rows["frank"]["total"] == "0" and rows["frank"]["status"] == "not graded: empty"
    assert rows["gus"]["total"] == "0" and rows["gus"]["status"] == "graded: defines none of the graded functions"
    html = (out / "report.html").read_text()
    assert "Scored 0 by intake: 2" in html
