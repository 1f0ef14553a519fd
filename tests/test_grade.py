"""autograder/runner.py and grade.py: the notes a submission gets, their order, and what `grade` shows a TA."""

from __future__ import annotations

import json
from pathlib import Path

import nbformat
import pytest
from nbformat import v4

from autograder import runner
from autograder.commands import grade

CAUSAL_MASK = (
    "import numpy as np\n\n\ndef causal_mask(n_q, n_k=None):\n    n_k = n_q if n_k is None else n_k\n"
    "    return np.arange(n_k)[None, :] <= np.arange(n_q)[:, None] + (n_k - n_q)\n"
)
NONE_DEFINED = "defines none of the graded functions (`qkv_project`, `attention_scores`, `softmax`,"


def notebook(*cells: str) -> str:
    return nbformat.writes(v4.new_notebook(cells=[v4.new_code_cell(c) for c in cells]))


def grade_files(tmp_path: Path, files: dict[str, str]) -> dict:
    folder = tmp_path / "submission"
    for name, text in files.items():
        (folder / name).parent.mkdir(parents=True, exist_ok=True)
        (folder / name).write_text(text)
    return runner.grade_folder(folder)


# ----------------------------------------------------------------------------- none of the graded names


NOTHING_GRADED = {
    "comments only": ({"attention.py": "# I could not finish\nimport numpy as np\n"}, "attention.py", None),
    "all under main": (
        {"attention.py": 'import numpy as np\nif __name__ == "__main__":\n    def softmax(Z):\n        return Z\n'},
        "attention.py",
        None,
    ),
    "other names": (
        {"hw/attention.py": "def Softmax(Z):\n    return Z\n\nclass Cache:\n    pass\n\nX = 1\n"},
        "hw/attention.py",
        "Top-level functions and classes found: `Softmax`, `Cache`.",
    ),
    "notebook": ({"attention.ipynb": notebook("import numpy as np", "x = 1")}, "attention.ipynb", "of a code cell"),
}


@pytest.mark.parametrize("files, path, part", NOTHING_GRADED.values(), ids=NOTHING_GRADED.keys())
def test_a_submission_defining_none_of_the_graded_names_is_told_so_at_the_top(
    tmp_path: Path, files: dict, path: str, part: str | None
) -> None:
    data = grade_files(tmp_path, files)
    (note,) = [n for n in data["extra_data"]["notes"] if NONE_DEFINED in n]
    assert note.startswith(f"`{path}` {NONE_DEFINED}") and "`generate_naive`)" in note
    assert part in note if part else "It defines no top-level function or class at all." in note
    assert "Did you upload the right file?" in note and '`if __name__ == "__main__":`' in note
    assert data["output"].startswith(note) and data["score"] == 0


def test_defining_some_graded_names_needs_no_such_note(tmp_path: Path) -> None:
    data = grade_files(tmp_path, {"attention.py": CAUSAL_MASK})
    assert data["extra_data"]["notes"] == [] and data["score"] > 0


# ----------------------------------------------------------------------------- intake failures


def test_an_unreadable_submission_is_explained_once_at_the_top(tmp_path: Path) -> None:
    data = grade_files(tmp_path, {"attention.py": "import numpy as np\n\ndef softmax(Z:\n    return Z\n"})
    (note,) = data["extra_data"]["notes"]
    assert note.startswith("`attention.py` has a syntax error on line 3") and "```\ndef softmax(Z:" in note
    assert data["output"].startswith(note)
    pointer = f"{runner.NOT_GRADED}: {note.splitlines()[0]}"
    for test in data["tests"]:
        assert pointer in test["output"] and "```" not in test["output"], test["name"]


@pytest.mark.parametrize(
    "message, shown",
    [
        ("`attention.py` is empty.", f"{runner.NOT_GRADED}: `attention.py` is empty."),
        ("`a.py` has a syntax error.\n\n```\nx(\n```", f"{runner.NOT_GRADED}: `a.py` has a syntax error."),
        ("No `attention.py` (found: " + "`x.txt`, " * 60 + ").", f"{runner.NOT_GRADED}."),
    ],
    ids=["one line", "first line only", "too long to repeat"],
)
def test_each_test_of_an_unreadable_submission_points_to_the_top(message: str, shown: str) -> None:
    assert runner.not_graded(message) == shown


# ----------------------------------------------------------------------------- order of the notes


def test_notebook_notes_follow_the_cells_whoever_wrote_them(tmp_path: Path) -> None:
    cells = [
        "%matplotlib inline\nimport numpy as np",  # intake: IPython line
        "1 / 0",  # worker: raised
        "x = 1\n!ls",  # intake: IPython line
        "import not_a_module_ag",  # worker: import failed
        "%%bash\nls",  # intake: skipped
        CAUSAL_MASK,
    ]
    data = grade_files(tmp_path, {"hw/attention (1).ipynb": notebook(*cells)})
    notes = data["extra_data"]["notes"]
    assert notes[0].startswith("Your file is named `attention (1).ipynb`; it was graded as `attention.ipynb`.")
    places = [(1, 1), (2, 1), (3, 2), (4, 1), (5, 1)]
    assert [n.split(":")[0] for n in notes[1:]] == [f"code cell {cell}, line {line}" for cell, line in places]
    assert data["score"] > 0


ORDER = {
    "cells and lines": (
        ["code cell 10, line 1: a", "code cell 2, line 5: b"],
        ["code cell 2, line 3: c", "code cell 1, line 9: d"],
        ["code cell 1, line 9: d", "code cell 2, line 3: c", "code cell 2, line 5: b", "code cell 10, line 1: a"],
    ),
    "general notes around them": (
        ["Your file is named `x`.", "code cell 3, lines 4, 6: a", "`attention.ipynb` uses notebook format 3."],
        ["code cell 1, line 2: b", "... and 4 more top-level statements did not run cleanly."],
        ["Your file is named `x`.", "`attention.ipynb` uses notebook format 3.", "code cell 1, line 2: b",
         "code cell 3, lines 4, 6: a", "... and 4 more top-level statements did not run cleanly."],
    ),
    "a .py file": (
        ["hw/attention.py, lines 7, 8: a"],
        ["hw/attention.py, line 30: b", "hw/attention.py, line 2: c", "not a line 1: d"],
        ["hw/attention.py, line 2: c", "hw/attention.py, lines 7, 8: a", "hw/attention.py, line 30: b",
         "not a line 1: d"],
    ),
}


@pytest.mark.parametrize("first, later, expected", ORDER.values(), ids=ORDER.keys())
def test_notes_are_ordered_by_place_in_the_code(first: list[str], later: list[str], expected: list[str]) -> None:
    place = lambda note: runner.note_place(note, "hw/attention.py")  # noqa: E731
    assert runner.ordered_notes(first, later, place) == expected


# ----------------------------------------------------------------------------- grade: direct paths, isolation


@pytest.mark.parametrize(
    "name, graded_as",
    [("loops.py", "attention.py"), ("My HW.IPYNB", "attention.ipynb"), ("attention.py", None), ("notes.txt", None)],
)
def test_a_file_given_directly_is_graded_under_the_contract_name(tmp_path: Path, name: str, graded_as: str) -> None:
    source = tmp_path / name
    source.write_text("x = 1\n")
    notes = grade.copy_submission(source, tmp_path / "submission")
    assert [p.name for p in (tmp_path / "submission").iterdir()] == [graded_as or name]
    assert notes == ([f"Your file is named `{name}`; it was graded as `{graded_as}`."] if graded_as else [])


@pytest.mark.parametrize("text, encoding, comes", [
    ("from helpers import softmax\n", "utf-8", True),
    ("# -*- coding: latin-1 -*-\n# é\nimport helpers\n", "latin-1", True),
    ("import numpy as np  # nothing of its own\n", "utf-8", False),
    ("x = 'helpers'  # the name, but no import\n", "utf-8", False),
])
def test_grade_brings_the_modules_beside_a_file_that_it_imports_and_no_other(
        tmp_path: Path, text: str, encoding: str, comes: bool) -> None:
    (tmp_path / "helpers.py").write_text("def softmax(x):\n    return x\n")
    (tmp_path / "unrelated.py").write_text("y = 2\n")
    source = tmp_path / "attention.py"
    source.write_bytes(text.encode(encoding))
    grade.copy_submission(source, tmp_path / "submission")
    assert sorted(p.name for p in (tmp_path / "submission").iterdir()) == sorted(
        ["attention.py", *(["helpers.py"] if comes else [])])


def test_grade_takes_a_direct_path_whatever_its_name(tmp_path: Path) -> None:
    path = tmp_path / "my_loops.py"
    path.write_text(CAUSAL_MASK)
    data = grade.grade(path)
    note = "Your file is named `my_loops.py`; it was graded as `attention.py`."
    assert data["extra_data"]["notes"] == [note] and data["output"].startswith(note + "\n\n")
    assert data["score"] > 0  # causal_mask's tests pass


def test_the_runner_records_reduced_isolation_for_grade_not_for_students(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("AUTOGRADER_SANDBOX_USER", "no_such_user_ag")  # as root: no such user; otherwise: not root
    data = grade_files(tmp_path, {"attention.py": CAUSAL_MASK})
    assert data["extra_data"]["isolation"].startswith("Isolation reduced: ")
    assert "Isolation" not in data["output"] and not any("Isolation" in t["output"] for t in data["tests"])


@pytest.mark.parametrize("isolation", ["Isolation reduced: the grader is not root.", ""])
def test_grade_always_prints_reduced_isolation(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture, isolation: str
) -> None:
    data = {"score": 0, "output": "", "tests": [], "extra_data": {"notes": [], "isolation": isolation}}
    monkeypatch.setattr(grade, "grade", lambda path, **options: data)
    assert grade.main([str(tmp_path), "--json"]) == 0
    out, err = capsys.readouterr()
    assert json.loads(out) == data
    assert err == (f"grade: {isolation}\n" if isolation else "")


def test_grade_prints_which_isolation_layers_were_active(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture
) -> None:
    layers = ["user agsandbox", "rlimits", "namespaces: mount, pid, net, ipc, uts"]
    data = {"score": 0, "output": "", "tests": [], "extra_data": {"notes": [], "isolation_layers": layers}}
    monkeypatch.setattr(grade, "grade", lambda path, **options: data)
    assert grade.main([str(tmp_path), "--json"]) == 0
    err = capsys.readouterr().err
    assert err == "grade: isolation: user agsandbox; rlimits; namespaces: mount, pid, net, ipc, uts\n"


def test_a_session_from_a_config_prepared_ahead_grades_like_pytest_main(tmp_path: Path) -> None:
    """A batch's fork server prepares the pytest config once (runner.prepare_pytest); a grading from it gives what
    ``pytest.main`` gives: every score and every feedback text of a submission with a mistake in it."""
    from tests.submissions import REFERENCE

    folder = tmp_path / "submission"
    folder.mkdir()
    right = "total = np.sum(E, axis=axis, keepdims=True)"
    source = REFERENCE.read_text().replace(right, right.replace("axis=axis", "axis=0"))  # softmax sums over axis 0
    assert source != REFERENCE.read_text()
    (folder / "attention.py").write_text(source)
    runner.prepare_pytest()
    prepared = runner.grade_folder(folder)
    assert not runner._prepared  # used once
    fresh = runner.grade_folder(folder)
    assert 0 < prepared["score"] < 100
    assert [(t["name"], t["score"], t["output"]) for t in prepared["tests"]] == [
        (t["name"], t["score"], t["output"]) for t in fresh["tests"]]
