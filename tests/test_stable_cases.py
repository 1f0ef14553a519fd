"""Stable cases: a case's seed comes from its id, so adding or removing a case changes no other one,
and ``regen`` says what it changed (cases added, removed, changed; known mistakes dropped or newly caught)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from autograder.suite import changes, regen, stored
from autograder.suite.cases import Case, case_seed, load_cases
from tests.homework import HOMEWORK
from tests.homework import module as homework_module

graded_cases = homework_module('cases.graded')
public_cases = homework_module('cases.public')
random_cases = homework_module('cases.random')

REPO = Path(__file__).resolve().parent.parent
STORED = {"graded": HOMEWORK.cases_file, "public": REPO / "student_template/public_cases.npz"}


def test_a_seed_is_a_stable_hash_of_the_set_and_the_id() -> None:
    # the same in another interpreter, whatever its hash seed (Python's hash() would not be)
    code = "from autograder.suite.cases import case_seed; print(case_seed('graded', 'softmax-rows'))"
    for hash_seed in ("1", "2"):
        out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=REPO, check=True,
                             env={"PYTHONHASHSEED": hash_seed, "PATH": "/usr/bin:/bin"})
        assert int(out.stdout) == case_seed("graded", "softmax-rows")
    assert case_seed("graded", "softmax-rows") != case_seed("public", "softmax-rows")  # no shared draws
    assert 0 <= case_seed("graded", "x") < 2**32


def test_every_stored_seed_is_its_ids() -> None:
    for name, path in STORED.items():
        for case in load_cases(path).values():
            assert case.seed in (None, case_seed(name, case.id)), case.id


def _extra_spec(module) -> tuple:
    """A new random case in the module's spec format."""
    make = lambda r: {"Z": r.standard_normal((3, 3)), "axis": -1, "temperature": 1.0}  # noqa: E731
    if module is public_cases:
        return ("softmax", "added-by-a-test", "a new case", make)
    return ("softmax-added-by-a-test", "softmax", "a new case", make)


@pytest.mark.parametrize("module", [graded_cases, public_cases], ids=["graded", "public"])
def test_adding_and_removing_a_case_changes_no_other_cases_stored_inputs(module, monkeypatch) -> None:
    old = load_cases(STORED[module.SET])
    specs = list(module.SPECS)
    removed = specs.pop(len(specs) // 2)
    monkeypatch.setattr(module, "SPECS", [_extra_spec(module), *specs])  # added first: every position moves
    new = {case.id: case for case in module.build_cases()}
    (added,) = set(new) - set(old)
    assert "added-by-a-test" in added and len(set(old) - set(new)) == 1
    assert removed[0] in (set(old) - set(new)).pop()
    for case_id, case in new.items():
        if case_id != added:
            assert case.seed == old[case_id].seed, case_id
            assert stored.same_values(case.inputs, old[case_id].inputs), case_id
            assert stored.same_values(case.expected, old[case_id].expected), case_id
            assert list(case.mistakes) == list(old[case_id].mistakes), case_id

    found = changes.compare_sets(old, new)
    assert (found.added, found.changed, found.dropped, found.caught) == ([added], {}, {}, {})
    (gone,) = found.removed
    assert set(found.lost) <= {old[gone].function}  # mistakes only the removed case caught, if any
    lines = changes.describe(found, old, new)
    assert lines[0] == "cases: 1 added, 1 removed, 0 changed"
    assert f"  added: {added}" in lines


def test_more_random_cases_change_none_of_the_drawn_ones(monkeypatch) -> None:
    old = load_cases(STORED["graded"])
    monkeypatch.setattr(random_cases, "CASES", random_cases.CASES + 1)
    new = {case.id: case for case in random_cases.build_cases()}
    assert len(set(new) - set(old)) == len(random_cases.RANDOM_SPECS)
    for case_id in set(new) & set(old):
        assert stored.same_values(new[case_id].inputs, old[case_id].inputs), case_id


def _case(case_id: str, Z: np.ndarray, **mistakes: np.ndarray) -> Case:
    return Case(case_id, "softmax", {"Z": Z}, np.zeros(3), dict(mistakes), seed=case_seed("t", case_id))


def test_regen_names_a_mistake_now_within_tolerance_a_newly_caught_one_and_one_no_case_catches() -> None:
    Z = np.arange(3.0)
    old = {"a": _case("a", Z, softmax_wrong_axis=np.full(3, 1e-7), temperature_ignored=np.ones(3)),
           "b": _case("b", Z)}
    new = {"a": _case("a", Z, temperature_ignored=np.ones(3)), "b": _case("b", Z, sqrt_missing=np.ones(3)),
           "c": _case("c", Z + 1)}
    found = changes.compare_sets(old, new)
    lines = changes.describe(found, old, new)
    assert lines[0] == "cases: 1 added, 0 removed, 0 changed"
    assert "stored known-mistake outputs: 2 -> 2" in lines
    assert "  dropped in a: softmax_wrong_axis (now within tolerance of the expected output)" in lines
    assert "  newly caught in b: sqrt_missing" in lines
    assert "  no case of softmax catches any more: softmax_wrong_axis" in lines


def test_changed_inputs_are_reported_and_rounding_is_not() -> None:
    Z = np.arange(3.0)
    old = {"a": _case("a", Z), "b": _case("b", Z)}
    new = {"a": _case("a", Z * (1 + 1e-15)), "b": _case("b", Z + 1)}
    found = changes.compare_sets(old, new)
    assert found.changed == {"b": ["inputs"]}
    assert changes.describe(changes.compare_sets(old, old), old, old) == ["no case changed"]


def test_regen_prints_what_it_changes(tmp_path, monkeypatch, capsys) -> None:
    public = regen.CaseSet("public", str(tmp_path / "p.npz"), "cases.public:build_cases")
    monkeypatch.setattr(regen, "case_sets", lambda: [public])
    (tmp_path / "p.npz").write_bytes(STORED["public"].read_bytes())
    only = ["--only", "public"]  # one set: the homework's stamp (a whole regen's record) is left alone
    assert regen.main(["--check", *only]) == 0
    assert "no case changed" in capsys.readouterr().out
    monkeypatch.setattr(public_cases, "SPECS", [_extra_spec(public_cases), *public_cases.SPECS[1:]])
    assert regen.main(["--check", *only]) == 1
    out = capsys.readouterr().out
    assert "cases: 1 added, 1 removed, 0 changed" in out and "added: softmax-added-by-a-test" in out
    assert "stale (run `autograder regen`)" in out
    assert regen.main(only) == 0
    assert "cases: 1 added" in capsys.readouterr().out
    assert regen.main(only) == 0
    assert "no case changed" in capsys.readouterr().out
