"""An internal error costs only its test (issue 28): one guard for every value a probe or a fit reads from student
code (``student.answer``), and a test the grader could not finish on an odd value the student's code returned is
that test's failure, said to the student, while the rest of the submission is graded as usual."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from autograder import runner
from autograder.sandbox import values  # the guard: answer, oddity
from tests import fuzz_misbehaving
from tests.homework import module as homework_module
from tests.hostile import REFERENCE

explain = homework_module("diagnosis.explain")

ARRAY = np.ones((2, 3))


@pytest.mark.parametrize("odd", [[[1.0, 2.0], [3.0]], (ARRAY, None), [ARRAY, [1.0]], None, 3.0, "text", (),
                                 np.zeros((1001, 1000)), np.array(["a"]), ARRAY.view(np.matrix)])
def test_the_guard_reads_no_odd_value_as_an_answer(odd: object) -> None:
    assert values.answer(odd) is None
    assert values.oddity(odd)


def test_the_guard_reads_answers_of_the_expected_form() -> None:
    assert values.answer(ARRAY) is ARRAY and values.answer(ARRAY, like=np.zeros((2, 3))) is ARRAY
    assert values.answer(ARRAY, like=np.zeros((3, 2))) is None and values.answer(ARRAY, like=(ARRAY, ARRAY)) is None
    pair = values.answer([ARRAY, ARRAY], like=(ARRAY, ARRAY))
    assert isinstance(pair, tuple) and len(pair) == 2  # a list of arrays stands for a tuple
    assert values.answer((ARRAY,), like=(ARRAY, ARRAY)) is None  # a tuple of the wrong length
    nan = np.full((2, 3), np.nan)
    assert values.answer(nan) is nan and values.answer(nan, finite=True) is None
    assert values.oddity(nan) and not values.oddity(ARRAY) and not values.oddity((ARRAY, ARRAY > 0))


def grade_source(tmp_path: Path, source: str) -> dict:
    folder = tmp_path / "submission"
    folder.mkdir(parents=True)
    (folder / "attention.py").write_text(source)
    return runner.grade_folder(folder)


def test_a_probe_answered_with_a_ragged_value_is_not_the_answer(tmp_path: Path) -> None:
    """A submission of our fuzz (seed 28020 of its first draw): scaled_dot_product_attention answers every other call
    (the probe of ``inference.leading_axes_optional`` among them) with (out, None); it was a grader error on every
    test of it."""
    plan = {"causal_mask": ("random 0.7", "_first(out)[..., :1]"),
            "scaled_dot_product_attention": ("every 2", "(out, None)"),
            "qkv_project": ("after 3", "_first(out) * 1e-320")}
    data = grade_source(tmp_path, fuzz_misbehaving.from_plan(28020, plan, odd_keys="_first(out) * 1e-320"))
    assert "grader_error" not in data["extra_data"], data["extra_data"]
    assert 0 < data["score"] < 100
    assert not any("could not read" in t["output"] for t in data["tests"])  # the guard read it, no test failed on it


RAGGED_ROPE = "\n\ndef rope(x, positions, base=10000.0):\n    return [[1.0, 2.0], [3.0]]\n"


def test_a_test_the_grader_cannot_finish_on_an_odd_value_is_the_students_failure(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """A fit that fails on the ragged list rope returned (a grader bug only such a value reaches) costs the rope
    tests, with a sentence naming the value; every other test is graded as for the reference."""
    def broken(expected: object, actual: object) -> object:
        if not isinstance(actual, np.ndarray):
            raise KeyError("a check that reads only arrays")
        return None

    monkeypatch.setattr(explain, "type_mistake", broken)
    data = grade_source(tmp_path, REFERENCE.read_text() + RAGGED_ROPE)
    assert "grader_error" not in data["extra_data"], data["extra_data"]
    blamed = [t for t in data["tests"] if "could not read" in t["output"]]
    assert blamed and all(t["tags"] == ["rope"] and t["score"] == 0 for t in blamed)
    assert "Your `rope` returned a value the grader could not read: a list (ragged" in blamed[0]["output"]
    others = [t for t in data["tests"] if not {"rope", "decode_step", "generate_cached", "generate_naive"}
              & set(t["tags"])]
    assert others and all(t["status"] == "passed" for t in others)
    assert "on a value the student's code returned: those tests failed" in capsys.readouterr().err
