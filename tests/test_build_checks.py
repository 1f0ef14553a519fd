"""``build`` refuses an inconsistent homework, saying what is wrong; check-zip says why the reference loses points."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from autograder import contract
from autograder.commands import checkzip, consistency
from tests.homework_copy import autograder, copy_repo, edit

LOSING = {"name": "softmax: each row sums to 1", "number": "B.1", "score": 0.0, "max_score": 2.0, "status": "failed",
          "output": "**Case:** a 4 x 6 matrix.\n\nsoftmax raised ValueError: boom\nmore\nmore\nmore"}


def results(*tests: dict) -> dict:
    return {"score": sum(t["score"] for t in tests), "tests": list(tests), "extra_data": {}}


def full_marks() -> list[dict]:
    return [{"name": f"test {n}", "number": n, "score": p, "max_score": p, "status": "passed", "output": ""}
            for n, (_, p) in contract.TESTS.items()]


def test_the_committed_homework_is_consistent() -> None:
    assert consistency.problems(progress=lambda _: None) == []


def test_a_reference_that_loses_points_is_explained_test_by_test_with_the_head_of_its_output() -> None:
    tests = [t for t in full_marks() if t["number"] != "B.1"] + [LOSING]
    found = consistency.reference_problems(results(*tests))
    assert found[0] == f"the reference scores {contract.TOTAL_POINTS - 2:g}/{contract.TOTAL_POINTS:g}"
    assert found[1].startswith("  B.1 softmax: each row sums to 1: 0/2\n      | **Case:** a 4 x 6 matrix.")
    assert "softmax raised ValueError: boom" in found[1] and found[1].count("\n") == consistency.OUTPUT_HEAD
    assert checkzip.expectations("reference", results(*tests), []) == found  # check-zip says the same
    assert consistency.reference_problems(results(*full_marks())) == []


def test_a_grading_that_could_not_finish_says_why() -> None:
    fallback = {"name": "Autograder", "score": 0.0, "max_score": float(contract.TOTAL_POINTS), "status": "failed",
                "output": "**The autograder could not finish grading**"}
    data = dict(results(fallback), extra_data={"grader_error": "internal error in 1 tests: B.9"})
    found = consistency.reference_problems(data)
    assert found[-1] == "  the grader could not finish: internal error in 1 tests: B.9"
    assert "could not finish" in consistency.template_problems_of(results(fallback))[0]


def test_a_template_that_scores_is_named() -> None:
    zero = [dict(t, score=0.0, status="failed") for t in full_marks()]
    zero[0] = dict(zero[0], score=1.0)
    found = consistency.template_problems_of(results(*zero))
    assert found[0].startswith("the blank template scores 1, expected 0") and zero[0]["number"] in found[1]


def test_graded_tests_and_contract_points_must_agree(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    suite = tmp_path / "graded"
    shutil.copytree(consistency.SUITE, suite)
    assert consistency.graded_tests(suite) == {n: f for n, (f, _) in contract.TESTS.items()}
    assert consistency.points_problems(suite) == []
    edit(suite / "test_b_softmax.py", '@graded("B.1", "softmax")', '@graded("B.1", "rope")')
    edit(suite / "test_b_softmax.py", '@graded("B.2", "softmax")', '@graded("B.42", "softmax")')
    found = consistency.points_problems(suite)
    assert "graded test B.1 tests rope, but POINTS in reference/homework.py lists it under softmax" in found
    assert "graded test B.42 (softmax) has no points in reference/homework.py: add it to POINTS['softmax']" in found
    assert any(p.startswith("POINTS['softmax'] in reference/homework.py gives points to test B.2, which the graded")
               for p in found)


def test_a_stored_case_no_test_names_is_reported(tmp_path: Path) -> None:
    suite = tmp_path / "graded"
    shutil.copytree(consistency.SUITE, suite)
    assert consistency.unused_case_problems(suite) == []
    edit(suite / "test_b_softmax.py", '"softmax-rows", "softmax-square"', '"softmax-rows"')
    assert consistency.unused_case_problems(suite) == [
        "graded case softmax-square is in no graded test: name it in a test's check(...) in reference/tests/, "
        "or remove it from the case specs"]


def test_public_tests_that_fail_on_the_reference_are_named(tmp_path: Path) -> None:
    reference = consistency.REPO / "reference" / "attention.py"
    assert consistency.public_test_problems(reference, consistency.REPO / "student_template") == []
    broken = tmp_path / "attention.py"
    broken.write_text(reference.read_text().replace("Z = np.asarray(Z) / temperature", "Z /= temperature"))
    found = consistency.public_test_problems(broken, consistency.REPO / "student_template")
    assert found[0].startswith("the public tests (student_template/test_attention.py) fail on the reference")
    assert found[1].startswith("      | FAILED test_attention.py::test_softmax_") and len(found) == 6


@pytest.fixture(scope="module")
def copy(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return copy_repo(tmp_path_factory.mktemp("homework") / "repo")


def test_build_refuses_a_stale_case_and_a_stale_points_table_and_writes_no_zip(copy: Path) -> None:
    zip_path = copy / "dist" / "autograder.zip"
    edit(copy / "reference" / "cases" / "graded.py", '("softmax-square", "softmax", "a 5 x 5 matrix',
         '("softmax-square", "softmax", "a 5 x 5 matrix (edited)')
    edit(copy / "reference" / "homework.py", '"B.1": 2,', '"B.1": 3,')
    done = autograder(copy, "build", "-o", str(zip_path))
    assert done.returncode == 1, done.stdout
    assert "build: refused, the homework is inconsistent" in done.stdout and not zip_path.exists()
    assert "- reference/generated/cases/graded.npz is stale (softmax-square: stored description" in done.stdout
    assert "run `autograder regen`" in done.stdout
    assert "- README.md is stale: run `autograder template`" in done.stdout

    assert autograder(copy, "regen").returncode == 0
    assert autograder(copy, "template").returncode == 0
    done = autograder(copy, "build", "-o", str(zip_path))
    assert done.returncode == 0 and zip_path.is_file(), done.stdout
