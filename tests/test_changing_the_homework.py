"""Every path of docs/changing-the-homework.md, followed on a temporary copy of the repository as an instructor
would: change the homework folder, then the guide's loop (template, regen, build, which grades the reference and
the template itself), then grade the reference with `autograder grade` to full marks under the new total, then
the tests of ours that read the homework (they follow it: no total, function or test list is written in them)."""

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
# Our tests that read the homework's contract, cases and tests: run again on each changed copy.
FOLLOWING = ("tests/test_template.py", "tests/test_cases.py",
             "tests/test_stamp.py::test_the_committed_homework_is_fresh",
             "tests/test_build_checks.py::test_the_committed_homework_is_consistent",
             "tests/test_graded_suite.py::test_every_test_gets_exactly_its_contract_points_and_nothing_else_is_graded",
             "tests/test_graded_suite.py::test_at_least_30_tests_and_every_function_has_visible_and_hidden_tests",
             "tests/test_graded_suite.py::test_every_stored_case_is_used_and_every_used_case_is_stored",
             "tests/test_random_shapes.py::test_one_hidden_random_shape_test_per_function_with_random_specs",
             "tests/test_mutations.py::test_a_correct_solution_gets_full_marks",
             "tests/test_engine_knows_no_homework.py")


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


def our_tests_pass(copy: Path, *tests: str) -> None:
    """Our own tests that follow the homework, run in the copy (its homework, its tests)."""
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "AUTOGRADER_HOMEWORK")}
    done = subprocess.run([sys.executable, "-m", "pytest", "-q", "-x", "-p", "no:cacheprovider", *(tests or FOLLOWING)],
                          cwd=copy, env={**env, "PYTHONPATH": str(copy)}, capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stdout[-4000:] + done.stderr[-2000:]


def assert_full_marks(data: dict, total: float) -> None:
    tests = data["tests"]
    assert sum(t["max_score"] for t in tests) == pytest.approx(total)
    assert data["score"] == pytest.approx(total)
    assert all(t["status"] == "passed" and t["score"] == t["max_score"] for t in tests)


def test_the_guide_covers_each_path_and_names_the_one_place_of_each() -> None:
    text = GUIDE.read_text()
    for section in ("## Points", "## Visibility", "## Tolerance", "## Adding a case", "## Adding a function",
                    "## Adding a part", "## Fixing the solution", "## A new homework", "## A new year",
                    "## Time limit of a call"):
        assert section in text
    for place in ("homework.py", "POINTS", "HIDDEN", "hidden=True", "TOLERANCE", "PARTS", "cases/graded.py",
                  "cases/public.py", "sentences.py", "mistakes.py", "# BEGIN SOLUTION hint:", "--homework",
                  "tests/test_changing_the_homework.py", "student/notebook/part_", "SEED", "CALL_SECONDS"):
        assert place in text, place


def test_points_changed_in_the_one_place_give_full_marks_under_the_new_total(copy: Path) -> None:
    points = contract.POINTS["causal_mask"]["C.1"]
    edit(copy / "reference" / "homework.py", f'"C.1": {points},', f'"C.1": {points + 1},')
    done = autograder(copy, "build", "-o", str(copy / "dist" / "autograder.zip"))
    assert done.returncode == 1 and "README.md is stale: run `autograder template`" in done.stdout
    _, data = regenerate_build_and_grade(copy)
    total = contract.TOTAL_POINTS + 1
    assert_full_marks(data, total)
    assert next(t for t in data["tests"] if t["number"] == "C.1")["max_score"] == points + 1
    assert f"| | **total** | **{total:g}** |" in (copy / "README.md").read_text()
    our_tests_pass(copy)


def test_visibility_is_set_once_for_hidden_tests_and_per_test_by_its_decorator(copy: Path) -> None:
    edit(copy / "reference" / "homework.py", 'HIDDEN = "after_due_date"', 'HIDDEN = "after_published"')
    edit(copy / "reference" / "tests" / "test_b_softmax.py", '@graded("B.6", "softmax", hidden=True)',
         '@graded("B.6", "softmax")')
    _, data = regenerate_build_and_grade(copy)
    assert_full_marks(data, contract.TOTAL_POINTS)
    shown = {t["number"]: t["visibility"] for t in data["tests"]}
    assert shown["B.6"] == "visible" and shown["B.5"] == "after_published"
    assert set(shown.values()) == {"visible", "after_published"}


def test_a_new_tolerance_reaches_the_students_copy_and_the_stored_mistakes(copy: Path) -> None:
    edit(copy / "reference" / "homework.py", 'TOLERANCE = {"rtol": 1e-5, "atol": 1e-6}',
         'TOLERANCE = {"rtol": 1e-2, "atol": 1e-3}')  # loose: some mistakes now pass
    edit(copy / "README.md", "`|yours - expected| <= 1e-6 + 1e-5 |expected|`",
         "`|yours - expected| <= 1e-3 + 1e-2 |expected|`")
    edit(copy / "docs" / "assignment.md", "`rtol=1e-5, atol=1e-6`", "`rtol=1e-2, atol=1e-3`")
    done = autograder(copy, "build", "-o", str(copy / "dist" / "autograder.zip"))
    assert done.returncode == 1
    assert "student_template/attention_feedback.py is stale: run `autograder template`" in done.stdout
    regen, data = regenerate_build_and_grade(copy)
    assert_full_marks(data, contract.TOTAL_POINTS)
    students_copy = (copy / "student_template" / "attention_feedback.py").read_text()
    assert "\nRTOL = 0.01\nATOL = 0.001\n" in students_copy
    counts = [tuple(map(int, m)) for m in re.findall(r"stored known-mistake outputs: (\d+) -> (\d+)", regen)]
    assert counts and all(after < before for before, after in counts), regen
    dropped = re.findall(r"dropped in ([\w-]+): (\w+) \(now within tolerance of the expected output\)", regen)
    assert len(dropped) == sum(before - after for before, after in counts), regen


SLOW_SOFTMAX = """
import time as _time

_softmax, _first = softmax, [True]


def softmax(Z, axis=-1, temperature=1.0):
    if _first[0]:  # correct, and slow once (a warm-up): 1.5 s of the student's time
        _first[0] = False
        _time.sleep(1.5)
    return _softmax(Z, axis=axis, temperature=temperature)
"""


@pytest.mark.parametrize("seconds", [1, 5])
def test_the_call_limit_set_in_the_one_place_decides_when_a_call_is_an_infinite_loop(copy: Path, seconds: int) -> None:
    homework = copy / "reference" / "homework.py"
    homework.write_text(re.sub(r"(?m)^CALL_SECONDS = .*$", f"CALL_SECONDS = {seconds}", homework.read_text()))
    done = autograder(copy, "build", "-o", str(copy / "dist" / "autograder.zip"))
    assert done.returncode == 1 and "run `autograder regen`" in done.stdout, done.stdout[-2000:]
    run(copy, "template")
    run(copy, "regen")
    slow = copy / "slow" / "attention.py"
    slow.parent.mkdir()
    slow.write_text((copy / "reference" / "attention.py").read_text() + SLOW_SOFTMAX)
    run(copy, "grade", str(slow), "--all", "-o", str(copy / "results.json"))
    tests = [t for t in json.loads((copy / "results.json").read_text())["tests"] if t["tags"] == ["softmax"]]
    if seconds == 1:  # 1.5 s is past the limit: its first call times out, and softmax is not run again
        assert all(t["score"] == 0 for t in tests)
        assert "softmax did not return within 1 s (infinite loop?)" in tests[0]["output"]
    else:
        assert all(t["score"] == t["max_score"] for t in tests)


def test_a_new_seed_draws_every_case_anew_and_the_solution_keeps_full_marks(copy: Path) -> None:
    homework = copy / "reference" / "homework.py"
    homework.write_text(homework.read_text() + '\nSEED = "2027"  # a new year: every case drawn anew\n')
    done = autograder(copy, "grade", str(copy / "reference" / "attention.py"))
    assert done.returncode == 3 and "homework.py changed since the last `autograder regen`" in done.stdout
    regen, data = regenerate_build_and_grade(copy)
    assert_full_marks(data, contract.TOTAL_POINTS)
    graded = regen.split("graded: ")[1]
    counted = re.search(r"(\d+) cases of .*\n\s*cases: 0 added, 0 removed, (\d+) changed", "graded: " + graded)
    assert counted and int(counted.group(2)) >= int(counted.group(1)) // 2, graded[:2000]  # most are drawn
    our_tests_pass(copy)


def test_a_new_case_changes_no_other_case_and_must_be_named_by_a_test(copy: Path) -> None:
    edit(copy / "reference" / "cases" / "graded.py", "    # --- Part C: causal_mask ---",
         '    ("softmax-wide", "softmax", "a 2 x 9 matrix along the last axis",\n'
         '     lambda r: {"Z": _n(r, 2, 9), "axis": -1, "temperature": 1.0}),\n'
         "    # --- Part C: causal_mask ---")
    regen = run(copy, "regen")
    assert "graded: " in regen and "cases: 1 added, 0 removed, 0 changed" in regen.split("graded: ")[1]
    assert "added: softmax-wide" in regen
    done = autograder(copy, "grade", str(copy / "reference" / "attention.py"))
    assert done.returncode == 0, done.stdout[-2000:]  # the stamp holds: regen recorded the new spec
    done = autograder(copy, "build", "-o", str(copy / "dist" / "autograder.zip"))
    assert done.returncode == 1 and "graded case softmax-wide is in no graded test" in done.stdout
    edit(copy / "reference" / "tests" / "test_b_softmax.py",
         '"softmax-rows", "softmax-square")', '"softmax-rows", "softmax-square", "softmax-wide")')
    regen, data = regenerate_build_and_grade(copy)
    assert_full_marks(data, contract.TOTAL_POINTS)
    assert "no case changed" in regen
    our_tests_pass(copy)


SLIDING = '''


def sliding_window_mask(n_q, n_k, window):
    """Boolean causal mask that also forgets keys more than ``window - 1`` tokens back, bottom-right aligned.

    Args:
        n_q: number of queries.
        n_k: number of keys.
        window: how many keys each query sees at most (itself included).

    Returns:
        (n_q, n_k) bool array; mask[i, j] is True iff i + (n_k - n_q) - window < j <= i + (n_k - n_q).
    """
    # BEGIN SOLUTION hint: the causal mask, and also j > i + (n_k - n_q) - window
    offset = n_k - n_q
    i, j = np.arange(n_q)[:, None], np.arange(n_k)[None, :]
    return (j <= i + offset) & (j > i + offset - window)
    # END SOLUTION
'''

SLIDING_TESTS = '''

@graded("{visible}", "sliding_window_mask")
def test_sliding_window_square(student):
    """sliding_window_mask: 5 queries and keys, a window of 2"""
    check(student, "sliding-square")


@graded("{hidden}", "sliding_window_mask", hidden=True)
def test_sliding_window_more_keys(student):
    """sliding_window_mask: 3 queries, 7 keys, a window of 3"""
    check(student, "sliding-more-keys")
'''

SLIDING_CASES = ('    ("sliding-square", "sliding_window_mask", "5 queries and 5 keys, window 2",\n'
                 '     lambda r: {"n_q": 5, "n_k": 5, "window": 2}),\n'
                 '    ("sliding-more-keys", "sliding_window_mask", "3 queries and 7 keys, window 3",\n'
                 '     lambda r: {"n_q": 3, "n_k": 7, "window": 3}),\n')


def _add_sliding_window(copy: Path, part: str, visible: str, hidden: str) -> None:
    """The guide's steps for a new function: solution (in Part C's section, or a new section of its own),
    points, cases (graded and public), tests."""
    attention = copy / "reference" / "attention.py"
    if part == "C":
        sdpa = "\n\n\ndef scaled_dot_product_attention"
        edit(attention, sdpa, SLIDING.rstrip("\n") + sdpa)
    else:
        attention.write_text(attention.read_text().rstrip("\n") + f"\n\n\n# Part {part}: sliding windows" + SLIDING)
    edit(copy / "reference" / "homework.py", '    "multi_head_attention": {',
         f'    "sliding_window_mask": {{"{visible}": 2, "{hidden}": 1}},\n    "multi_head_attention": {{')
    edit(copy / "reference" / "cases" / "graded.py", "    # --- Part D: multi_head_attention ---",
         SLIDING_CASES + "    # --- Part D: multi_head_attention ---")
    edit(copy / "reference" / "cases" / "public.py", "    # Part D",
         '    ("sliding_window_mask", "window", "4 queries and keys, window 2",\n'
         '     lambda r: {"n_q": 4, "n_k": 4, "window": 2}),\n    # Part D')
    tests = copy / "reference" / "tests" / ("test_c_attention.py" if part == "C" else "test_g_sliding.py")
    header = '"""Part G."""\n\nfrom autograder.api import check, graded\n' if part != "C" else tests.read_text()
    tests.write_text(header + SLIDING_TESTS.format(visible=visible, hidden=hidden))


def _assert_sliding_window_graded(copy: Path, regen: str, data: dict, numbers: set[str]) -> None:
    assert_full_marks(data, contract.TOTAL_POINTS + 3)
    assert {t["number"] for t in data["tests"] if t["tags"] == ["sliding_window_mask"]} == numbers
    assert "cases: 2 added" in regen.split("graded: ")[1]
    student = (copy / "student_template" / "attention.py").read_text()
    assert "the causal mask, and also j > i + (n_k - n_q) - window" in student
    notebook = json.loads((copy / "student_template" / "attention.ipynb").read_text())
    checks = ["".join(c["source"]) if isinstance(c["source"], list) else c["source"] for c in notebook["cells"]]
    assert any('"sliding_window_mask"' in source for source in checks)
    public = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-k", "sliding"],
                            cwd=copy / "student_template", capture_output=True, text=True, check=False,
                            env={**{k: v for k, v in os.environ.items() if k != "ATTENTION_IMPL"},
                                 "ATTENTION_IMPL": str(copy / "reference" / "attention.py")})
    assert public.returncode == 0 and re.search(r"^1 passed", public.stdout, re.M), public.stdout[-2000:]


def test_a_new_function_in_an_existing_part_is_graded_templated_and_checked(copy: Path) -> None:
    _add_sliding_window(copy, "C", "C.14", "C.15")
    regen, data = regenerate_build_and_grade(copy)
    _assert_sliding_window_graded(copy, regen, data, {"C.14", "C.15"})
    our_tests_pass(copy)


def test_a_new_part_needs_its_title_only(copy: Path) -> None:
    _add_sliding_window(copy, "G", "G.1", "G.2")
    done = autograder(copy, "template")  # the contract names a part it does not have: said, not a traceback
    assert done.returncode == 2 and "Traceback" not in done.stdout, done.stdout[-2000:]
    assert "reference/homework.py: POINTS['sliding_window_mask']: test G.1 is in no part of PARTS" in done.stdout
    edit(copy / "reference" / "homework.py", '    "F": "KV caching (Dis 11 Q3)",\n',
         '    "F": "KV caching (Dis 11 Q3)",\n    "G": "Sliding windows",\n')
    (copy / "reference" / "student" / "notebook" / "part_G.md").write_text("Each query sees its last few keys.\n")
    regen, data = regenerate_build_and_grade(copy)
    _assert_sliding_window_graded(copy, regen, data, {"G.1", "G.2"})
    notebook = (copy / "student_template" / "attention.ipynb").read_text()
    assert "## Part G: Sliding windows" in notebook and "Each query sees its last few keys." in notebook
    our_tests_pass(copy)


def test_a_solution_change_is_refused_until_regenerated_and_a_contradicted_sentence_is_named(copy: Path) -> None:
    attention = copy / "reference" / "attention.py"
    edit(attention, "    return np.tril(np.ones((n_q, n_k), dtype=bool), k=n_k - n_q)",
         "    return np.tril(np.ones((n_q, n_k), dtype=bool), k=0)")  # the rule changes: top-left aligned
    done = autograder(copy, "grade", str(attention))
    assert done.returncode == 3 and "stale" in done.stdout and "reference/attention.py changed" in done.stdout
    regen = run(copy, "regen")
    assert "REVIEW causal_top_left: the solution now gives its output" in regen, regen
    assert "next: run `autograder template`: reference/attention.py changed" in regen
    done = autograder(copy, "grade", str(attention))
    assert done.returncode == 3  # the oracle is still the old rule's
    run(copy, "template")
    done = autograder(copy, "grade", str(attention), "-o", str(copy / "results.json"))
    assert done.returncode == 0, done.stdout[-2000:]
    assert_full_marks(json.loads((copy / "results.json").read_text()), contract.TOTAL_POINTS)


def test_a_rewritten_solution_with_the_same_answers_changes_no_case(copy: Path) -> None:
    attention = copy / "reference" / "attention.py"
    edit(attention, "    return np.tril(np.ones((n_q, n_k), dtype=bool), k=n_k - n_q)",
         "    return np.arange(n_k)[None, :] <= np.arange(n_q)[:, None] + (n_k - n_q)")
    regen, data = regenerate_build_and_grade(copy)
    assert "no case changed" in regen and "REVIEW" not in regen
    assert_full_marks(data, contract.TOTAL_POINTS)
    our_tests_pass(copy)
