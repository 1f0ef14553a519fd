"""Every path of docs/changing-the-homework.md, followed on a temporary copy of the repository:
change, regenerate, build (which grades the reference and the template itself), then grade the
reference with `autograder grade` to full marks under the new total."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from autograder import contract
from tests.homework_copy import REPO, autograder, copy_repo, edit

GUIDE = REPO / "docs" / "changing-the-homework.md"


@pytest.fixture
def copy(tmp_path: Path) -> Path:
    return copy_repo(tmp_path / "repo")


def run(copy: Path, *args: str) -> str:
    done = autograder(copy, *args)
    assert done.returncode == 0, f"autograder {' '.join(args)}:\n{done.stdout[-4000:]}"
    return done.stdout


def regenerate_build_and_grade(copy: Path) -> tuple[str, dict]:
    """The guide's loop: template, regen, build, grade the reference; (regen's output, the results)."""
    run(copy, "template")
    regen = run(copy, "regen")
    run(copy, "build", "-o", str(copy / "dist" / "autograder.zip"))
    assert (copy / "dist" / "autograder.zip").is_file()
    run(copy, "grade", str(copy / "reference" / "attention.py"), "--all", "-o", str(copy / "results.json"))
    return regen, json.loads((copy / "results.json").read_text())


def assert_full_marks(data: dict, total: float) -> None:
    tests = data["tests"]
    assert sum(t["max_score"] for t in tests) == pytest.approx(total)
    assert data["score"] == pytest.approx(total)
    assert all(t["status"] == "passed" and t["score"] == t["max_score"] for t in tests)


def test_the_guide_covers_each_path_and_names_the_one_place_of_each() -> None:
    text = GUIDE.read_text()
    for section in ("## Points", "## Visibility", "## Tolerance", "## Adding a case", "## Adding a function"):
        assert section in text
    for place in ("autograder/contract.py", "POINTS", "HIDDEN", "hidden=True", "autograder/feedback/compare.py",
                  "RTOL", "ATOL", "graded_cases.py", "public_cases.py", "reference/attention.py",
                  "# BEGIN SOLUTION hint:", "tests/test_changing_the_homework.py"):
        assert place in text, place


def test_points_changed_in_the_one_place_give_full_marks_under_the_new_total(copy: Path) -> None:
    edit(copy / "autograder" / "contract.py", '"B.1": 2,', '"B.1": 4.5,')
    done = autograder(copy, "build", "-o", str(copy / "dist" / "autograder.zip"))
    assert done.returncode == 1 and "README.md is stale: run `autograder template`" in done.stdout
    _, data = regenerate_build_and_grade(copy)
    total = contract.TOTAL_POINTS + 2.5
    assert_full_marks(data, total)
    assert next(t for t in data["tests"] if t["number"] == "B.1")["max_score"] == 4.5
    readme = (copy / "README.md").read_text()
    assert f"| B | `softmax` {contract.FUNCTIONS['softmax'][1] + 2.5:g} |" in readme
    assert f"| | **total** | **{total:g}** |" in readme


def test_visibility_is_set_once_for_hidden_tests_and_per_test_by_its_decorator(copy: Path) -> None:
    edit(copy / "autograder" / "contract.py", 'HIDDEN = "after_due_date"', 'HIDDEN = "after_published"')
    edit(copy / "autograder" / "suite" / "graded" / "test_b_softmax.py", '@graded("B.6", "softmax", hidden=True)',
         '@graded("B.6", "softmax")')
    _, data = regenerate_build_and_grade(copy)
    assert_full_marks(data, contract.TOTAL_POINTS)
    shown = {t["number"]: t["visibility"] for t in data["tests"]}
    assert shown["B.6"] == "visible" and shown["B.5"] == "after_published"
    assert set(shown.values()) == {"visible", "after_published"}


def test_a_new_tolerance_reaches_the_students_copy_and_the_stored_mistakes(copy: Path) -> None:
    compare_py = copy / "autograder" / "feedback" / "compare.py"
    edit(compare_py, "RTOL = 1e-5\nATOL = 1e-6", "RTOL = 1e-2\nATOL = 1e-3")  # loose: some mistakes now pass
    edit(copy / "README.md", "`|yours - expected| <= 1e-6 + 1e-5 |expected|`",
         "`|yours - expected| <= 1e-3 + 1e-2 |expected|`")
    edit(copy / "docs" / "assignment.md", "`rtol=1e-5, atol=1e-6`", "`rtol=1e-2, atol=1e-3`")
    done = autograder(copy, "build", "-o", str(copy / "dist" / "autograder.zip"))
    assert done.returncode == 1
    assert "student_template/attention_feedback.py is stale: run `autograder template`" in done.stdout
    regen, data = regenerate_build_and_grade(copy)
    assert_full_marks(data, contract.TOTAL_POINTS)
    assert (copy / "student_template" / "attention_feedback.py").read_text() == compare_py.read_text()
    counts = [tuple(map(int, m)) for m in re.findall(r"stored known-mistake outputs: (\d+) -> (\d+)", regen)]
    assert counts and all(after < before for before, after in counts), regen
    dropped = re.findall(r"dropped in ([\w-]+): (\w+) \(now within tolerance of the expected output\)", regen)
    assert len(dropped) == sum(before - after for before, after in counts), regen


def test_a_new_case_changes_no_other_case_and_must_be_named_by_a_test(copy: Path) -> None:
    edit(copy / "autograder" / "suite" / "graded_cases.py", "    # --- Part C: causal_mask ---",
         '    ("softmax-wide", "softmax", "a 2 x 9 matrix along the last axis",\n'
         '     lambda r: {"Z": _n(r, 2, 9), "axis": -1, "temperature": 1.0}),\n'
         "    # --- Part C: causal_mask ---")
    regen = run(copy, "regen")
    assert "graded: " in regen and "cases: 1 added, 0 removed, 0 changed" in regen.split("graded: ")[1]
    assert "added: softmax-wide" in regen
    done = autograder(copy, "build", "-o", str(copy / "dist" / "autograder.zip"))
    assert done.returncode == 1 and "graded case softmax-wide is in no graded test" in done.stdout
    edit(copy / "autograder" / "suite" / "graded" / "test_b_softmax.py",
         '"softmax-rows", "softmax-square")', '"softmax-rows", "softmax-square", "softmax-wide")')
    regen, data = regenerate_build_and_grade(copy)
    assert_full_marks(data, contract.TOTAL_POINTS)
    assert "no case changed" in regen


NEW_FUNCTION = '''


def scaled_scores(Q, K):
    """Attention scores divided by sqrt(d_k).

    Args:
        Q: (..., N_q, d_k) queries.
        K: (..., N_k, d_k) keys.

    Returns:
        (..., N_q, N_k): attention_scores(Q, K) / sqrt(d_k).
    """
    # BEGIN SOLUTION hint: divide attention_scores(Q, K) by sqrt(d_k)
    return attention_scores(Q, K) / np.sqrt(Q.shape[-1])
    # END SOLUTION
'''

NEW_TESTS = '''

# ---- scaled_scores ---------------------------------------------------------------------------------------


@graded("A.10", "scaled_scores")
def test_scaled_scores(student):
    """scaled_scores: 3 queries against 6 keys, divided by sqrt(d_k)"""
    check(student, "scaled-more-keys")


@graded("A.11", "scaled_scores", hidden=True)
def test_scaled_scores_batch(student):
    """scaled_scores: a leading batch axis"""
    check(student, "scaled-batch")
'''


def test_a_new_function_is_graded_templated_and_checked_in_the_notebook(copy: Path) -> None:
    edit(copy / "reference" / "attention.py", "    return Q @ np.swapaxes(K, -1, -2)\n    # END SOLUTION\n",
         "    return Q @ np.swapaxes(K, -1, -2)\n    # END SOLUTION\n" + NEW_FUNCTION)
    edit(copy / "autograder" / "contract.py", '    "attention_scores": {',
         '    "scaled_scores": {"A.10": 2, "A.11": 1},\n    "attention_scores": {')
    edit(copy / "autograder" / "suite" / "graded_cases.py", "    # --- Part B: softmax ---",
         '    ("scaled-more-keys", "scaled_scores", "3 queries against 6 keys, d_k = 4",\n'
         '     lambda r: {"Q": _n(r, 3, 4), "K": _n(r, 6, 4)}),\n'
         '    ("scaled-batch", "scaled_scores", "a batch of 2; 4 queries, 5 keys, d_k = 9",\n'
         '     lambda r: {"Q": _n(r, 2, 4, 9), "K": _n(r, 2, 5, 9)}),\n'
         "    # --- Part B: softmax ---")
    edit(copy / "autograder" / "suite" / "public_cases.py", "    # Part B",
         '    ("scaled_scores", "more-keys", "2 queries against 5 keys, d_k = 3",\n'
         '     lambda r: {"Q": _n(r, 2, 3), "K": _n(r, 5, 3)}),\n    # Part B')
    tests = copy / "autograder" / "suite" / "graded" / "test_a_projections.py"
    tests.write_text(tests.read_text() + NEW_TESTS)
    regen, data = regenerate_build_and_grade(copy)
    assert_full_marks(data, contract.TOTAL_POINTS + 3)
    assert {t["number"] for t in data["tests"] if t["tags"] == ["scaled_scores"]} == {"A.10", "A.11"}
    assert "cases: 1 added" in regen.split("graded: ")[0] and "cases: 2 added" in regen.split("graded: ")[1]
    student = (copy / "student_template" / "attention.py").read_text()
    assert 'raise NotImplementedError("divide attention_scores(Q, K) by sqrt(d_k)")' in student
    notebook = (copy / "student_template" / "attention.ipynb").read_text()
    assert 'check(\\"qkv_project\\", \\"scaled_scores\\", \\"attention_scores\\")' in notebook
    # the public tests test it too (its public case), on the reference and on the template
    def public_tests(**env: str) -> subprocess.CompletedProcess:
        return subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-k", "scaled_scores"],
                              cwd=copy / "student_template", capture_output=True, text=True, check=False,
                              env={**{k: v for k, v in os.environ.items() if k != "ATTENTION_IMPL"}, **env})

    public = public_tests(ATTENTION_IMPL=str(copy / "reference" / "attention.py"))
    assert public.returncode == 0 and re.search(r"^1 passed", public.stdout, re.M), public.stdout[-2000:]
    public = public_tests()
    assert "scaled_scores is not implemented yet (hint: divide attention_scores(Q, K) by sqrt(d_k))" in public.stdout
