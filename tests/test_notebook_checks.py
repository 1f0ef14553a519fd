"""The notebook's part checks run in a real Jupyter kernel (nbclient), as a student runs them.

On the blank template every check cell runs without error and says, in a few lines, that the part's
tests fail because its functions are not implemented yet; on a solved copy each says that all its
tests pass; with the test files missing (a notebook moved to Colab alone), each says what to upload.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import nbclient
import nbformat
import pytest

from autograder import contract
from autograder.commands import notebook, template

REPO = Path(__file__).resolve().parent.parent
STUDENT = REPO / "student_template"
REFERENCE = REPO / "reference" / "attention.py"


def execute(folder: Path) -> dict[str, str]:
    """Run attention.ipynb in ``folder`` like Jupyter; each check cell's source -> its printed output."""
    nb = nbformat.read(folder / "attention.ipynb", as_version=4)
    client = nbclient.NotebookClient(nb, timeout=120, kernel_name="python3",
                                     resources={"metadata": {"path": str(folder)}})
    client.execute()  # raises CellExecutionError if any cell fails
    return {cell.source: "".join(o.get("text", "") for o in cell.outputs if o.get("output_type") == "stream")
            for cell in nb.cells if cell.cell_type == "code" and cell.source.startswith("check(")}


def student_folder(folder: Path, *, solved: bool = False, with_tests: bool = True) -> Path:
    shutil.copytree(STUDENT, folder, ignore=shutil.ignore_patterns("__pycache__", ".pytest_cache"))
    if solved:  # the same notebook generator, on the reference's code
        reference = REFERENCE.read_text()
        support = ["test_attention.py", *template.feedback_copies(), "public_cases.npz"]
        text = notebook.notebook(reference, reference, support, template.given_names(reference))
        (folder / "attention.ipynb").write_text(text)
    if not with_tests:
        for name in ("test_attention.py", "public_cases.npz"):
            (folder / name).unlink()
    (folder / "attention.py").unlink()  # the checks test the notebook's own functions, never this file
    return folder


CHECKS = [notebook.check_call(part) for part in contract.PARTS]


def test_on_the_template_every_check_fails_cleanly_and_briefly(tmp_path: Path) -> None:
    outputs = execute(student_folder(tmp_path / "s"))
    assert list(outputs) == [*CHECKS, "check()"]
    for part, call in zip(contract.PARTS, CHECKS):
        names = [n for n, (p, _) in contract.FUNCTIONS.items() if p == part]
        said = outputs[call]
        assert said.startswith(f"{', '.join(names)}: 0 of "), said
        for name in names:
            assert f"{name} is not implemented yet (hint: " in said, said
        assert len(said.splitlines()) <= 2 + 2 * len(names) + 1 and "Traceback" not in said, said
    assert outputs["check()"].startswith("every function: 0 of ")
    assert len(outputs["check()"].splitlines()) <= 14  # not one screen per failing test


def test_on_a_solved_copy_every_check_passes(tmp_path: Path) -> None:
    outputs = execute(student_folder(tmp_path / "s", solved=True))
    for part, call in zip(contract.PARTS, CHECKS):
        names = [n for n, (p, _) in contract.FUNCTIONS.items() if p == part]
        assert outputs[call].startswith(f"{', '.join(names)}: all "), outputs[call]
        assert outputs[call].rstrip().endswith("public tests pass.")
    assert outputs["check()"].startswith("every function: all ")


def test_without_the_test_files_each_check_says_what_to_upload(tmp_path: Path) -> None:
    outputs = execute(student_folder(tmp_path / "s", with_tests=False))
    for said in outputs.values():
        assert said.startswith("Cannot check yet: test_attention.py, public_cases.npz must be in this notebook's")
        assert "attention_feedback.py" in said and "feedback_format.py" in said and "On Colab" in said


@pytest.mark.parametrize("edit", ["Z /= temperature"])
def test_an_in_place_edit_fails_the_check_as_the_grader_would(tmp_path: Path, edit: str) -> None:
    folder = student_folder(tmp_path / "s", solved=True)
    nb = nbformat.read(folder / "attention.ipynb", as_version=4)
    cell = next(c for c in nb.cells if c.cell_type == "code" and c.source.startswith("def softmax("))
    cell.source = cell.source.replace("Z = np.asarray(Z) / temperature", edit)
    nbformat.write(nb, folder / "attention.ipynb")
    said = execute(folder)['check("softmax")']
    assert said.startswith("softmax: 0 of ") and "tried to change one of its input arrays in place" in said
