"""Mutation testing of the graded suite: our buggy solutions lose points exactly where they should.

Every mutant in ``tests/mutants`` (the reference or the independent loops oracle with one
mistake) is graded by the real engine (intake, sandboxed worker, graded pytest suite,
results plugin) and must
  * lose points on at least one test of the function it breaks,
  * lose points on no test other than those of that function and of the functions that
    call it in that code (declared per mutant),
  * name its mistake: the sentence ``compare.MISTAKES[id]`` appears in a failing test
    of the broken function (a visible one when any visible test fails).
Every correct solution (the reference as .py and as a notebook with scratch cells,
float32, einsum, the independent loops oracle, and the student-style solution the
``student_*`` mutants start from) scores exactly 100.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from autograder import contract, runner
from autograder.feedback import compare
from tests.homework import on_what_it_has
from tests.mutants import BASES, MUTANTS, REPO, Mutant
from tests.submissions import REFERENCE, einsum_source, float32_source, notebook_from_source

ORACLE = REPO / "tests" / "oracle_independent.py"


def grade_source(source: str, folder: Path, name: str = "attention.py") -> dict:
    """Grade one submission in-process, as run_autograder does (without writing results.json)."""
    folder.mkdir(parents=True, exist_ok=True)
    (folder / name).write_text(source)
    return runner.grade_folder(folder)


def lost_points(data: dict) -> list[dict]:
    return [t for t in data["tests"] if t["score"] < t["max_score"]]


def describe(tests: list[dict]) -> list[str]:
    return [f"{t.get('number', '')} {t['name']} {t['tags']}" for t in tests]


CORRECT = {
    "reference.py": lambda: (REFERENCE.read_text(), "attention.py"),
    "reference-notebook-with-scratch-cells": lambda: (
        notebook_from_source(REFERENCE.read_text(), scratch=True), "attention.ipynb"),
    "float32": lambda: (float32_source(), "attention.py"),
    "einsum": lambda: (einsum_source(), "attention.py"),
    "independent-loops-oracle": lambda: (ORACLE.read_text(), "attention.py"),
    "student-style": lambda: (BASES["student"].read_text(), "attention.py"),
}
WRITTEN_BEFORE = {"independent-loops-oracle", "student-style"}  # solutions of their own, not the reference's


@pytest.mark.parametrize("variant", sorted(CORRECT))
def test_a_correct_solution_gets_full_marks(variant: str, tmp_path: Path) -> None:
    source, name = CORRECT[variant]()
    data = grade_source(source, tmp_path / "submission", name)
    assert sum(t["max_score"] for t in data["tests"]) == contract.TOTAL_POINTS
    if variant in WRITTEN_BEFORE:  # written for the homework as it was: graded on the functions it has
        data = on_what_it_has(data, REFERENCE.read_text() if name.endswith(".ipynb") else source)
    assert not lost_points(data), describe(lost_points(data))
    assert sum(t["score"] for t in data["tests"]) == sum(t["max_score"] for t in data["tests"]) > 0


def test_every_mutant_applies_and_the_corpus_covers_every_function() -> None:
    assert len({m.name for m in MUTANTS}) == len(MUTANTS)
    for mutant in MUTANTS:
        compile(mutant.source(), mutant.name, "exec")
        assert mutant.function in contract.FUNCTIONS
        assert set(mutant.also) <= set(contract.FUNCTIONS) - {mutant.function}
        assert mutant.mistake is None or mutant.mistake in compare.MISTAKES
    assert {m.function for m in MUTANTS} <= set(contract.FUNCTIONS)


@pytest.mark.parametrize("mutant", MUTANTS, ids=lambda m: m.name)
def test_a_mutant_loses_points_only_where_it_should_and_is_named(mutant: Mutant, tmp_path: Path) -> None:
    data = on_what_it_has(grade_source(mutant.source(), tmp_path / "submission"), mutant.source())
    lost = lost_points(data)
    allowed = {mutant.function, *mutant.also}
    elsewhere = [t for t in lost if not set(t["tags"]) <= allowed]
    assert not elsewhere, f"{mutant.name} lost points outside {sorted(allowed)}: {describe(elsewhere)}"
    own = [t for t in lost if mutant.function in t["tags"]]
    assert own, f"{mutant.name} lost no points on {mutant.function}'s tests"
    hidden_numbers = {t["number"] for t in data["tests"] if t["visibility"] != contract.VISIBLE}
    for t in lost:
        cited = set(re.findall(r"\b[A-F]\.\d+\b", t["output"].split("**Check first:**")[-1].split("\n\n")[0]))
        if "**Check first:**" in t["output"] and t["visibility"] == contract.VISIBLE:
            assert not cited & hidden_numbers, f"{t['name']} cites hidden tests {sorted(cited & hidden_numbers)}"
    if mutant.mistake is not None:
        sentence = compare.MISTAKES[mutant.mistake]
        shown = [t for t in own if t["visibility"] == contract.VISIBLE] or own
        assert any(sentence in t["output"] for t in shown), (
            f"{mutant.name}: no failing test of {mutant.function} names {mutant.mistake!r}:\n"
            + "\n\n".join(f"{t['name']}:\n{t['output']}" for t in shown)
        )


def test_a_failing_callee_is_named_first_in_its_callers_feedback(tmp_path: Path) -> None:
    mutant = next(m for m in MUTANTS if m.name == "scores_scaled")  # SDPA then double-scales: not its own bug
    data = grade_source(mutant.source(), tmp_path / "submission")
    scores_failed = [t["number"] for t in lost_points(data) if t["tags"] == ["attention_scores"]
                     and t["visibility"] == contract.VISIBLE]
    sdpa = [t for t in lost_points(data) if t["tags"] == ["scaled_dot_product_attention"]
            and t["visibility"] == contract.VISIBLE]
    assert scores_failed and sdpa
    for t in sdpa:
        assert "**Check first:** your `attention_scores` fails its own test" in t["output"], t["output"]
        assert all(number in t["output"] for number in scores_failed)
    untouched = [t for t in data["tests"] if t["tags"] == ["softmax"]]
    assert all(t["status"] == "passed" for t in untouched)


def test_a_mistake_only_hidden_tests_see_stays_hidden_until_their_visibility_allows(tmp_path: Path) -> None:
    mutant = next(m for m in MUTANTS if m.name == "mask_finite_fill")  # only a fully masked row shows it
    data = grade_source(mutant.source(), tmp_path / "submission")
    lost = lost_points(data)
    assert lost and {t["visibility"] for t in lost} == {contract.HIDDEN}
    sentence = compare.MISTAKES[mutant.mistake]
    assert any(sentence in t["output"] for t in lost)
    visible = [t for t in data["tests"] if t["visibility"] == contract.VISIBLE]
    assert all(t["status"] == "passed" and t["output"] == "" for t in visible)
    assert sentence not in data["output"] and not any(t["name"] in data["output"] for t in lost)
