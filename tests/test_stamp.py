"""Nothing grades with a stale homework: the hash stamp (autograder/suite/stamp.py) that template and regen write,
and grade, batch, check-zip and demo refusing a homework whose sources changed since."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from autograder.suite import stamp
from tests.homework import HOMEWORK
from tests.homework_copy import autograder, copy_repo, edit


def test_the_committed_homework_is_fresh() -> None:
    assert stamp.problems() == []
    recorded = json.loads(stamp.PATH(HOMEWORK).read_text())
    assert set(recorded) == {"template", "regen"}
    assert "attention.py" in recorded["template"]["inputs"] and "cases/graded.py" in recorded["regen"]["inputs"]
    assert "generated/oracle.py" in recorded["template"]["outputs"]
    assert "generated/cases/graded.npz" in recorded["regen"]["outputs"]


@pytest.fixture(scope="module")
def stale(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A copy whose solution changed after its zip was built, and was not regenerated."""
    copy = copy_repo(tmp_path_factory.mktemp("stale") / "repo")
    done = autograder(copy, "build", "-o", str(copy / "dist" / "autograder.zip"))
    assert done.returncode == 0, done.stdout[-2000:]
    edit(copy / "reference" / "attention.py", "    return np.tril(np.ones((n_q, n_k), dtype=bool), k=n_k - n_q)",
         "    return np.tril(np.ones((n_q, n_k), dtype=bool), k=n_k - n_q)  # bottom-right")
    return copy


@pytest.mark.parametrize("command", [
    ["grade", "reference/attention.py"],
    ["batch", "student_template", "-o", "out"],
    ["check-zip", "dist/autograder.zip", "--layout-only"],
    ["demo"],
])
def test_every_command_that_grades_refuses_a_stale_homework_naming_what_to_run(stale: Path, command: list[str]) -> None:
    done = autograder(stale, *command)
    assert done.returncode == 3, done.stdout[-2000:]
    assert "the homework reference is stale" in done.stdout
    assert "reference/attention.py changed since the last `autograder template`: run `autograder template`" \
        in done.stdout
    assert "reference/attention.py changed since the last `autograder regen`: run `autograder regen`" in done.stdout
    assert not (stale / "out").exists()


def test_a_student_file_edited_by_hand_makes_the_template_stale(tmp_path: Path) -> None:
    copy = copy_repo(tmp_path / "repo")
    readme = copy / "reference" / "student" / "README.md"
    readme.write_text(readme.read_text() + "\nOne more line.\n")
    done = autograder(copy, "grade", "reference/attention.py")
    assert done.returncode == 3 and "reference/student/README.md changed since the last `autograder template`" \
        in done.stdout
    assert autograder(copy, "template").returncode == 0
    done = autograder(copy, "grade", "reference/attention.py")
    assert done.returncode == 0, done.stdout[-2000:]
