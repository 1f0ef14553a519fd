"""The random-shape hidden tests (issue 14): one per contract function, on shapes drawn by a seeded generator.

* the suite lists 12 of them, hidden, one per function; the total stays 100 and the visible
  points are what they were before they came;
* their stored cases are the seeded draws of ``autograder/suite/random_cases.py`` (seed in
  the case and its description) and cover what the issue asks for: 0 to 3 leading axes,
  lengths 1 to 12 with n_q != n_k, widths up to 16 with d_k != d_v, 1 to 6 heads whose
  width is not D // H, masks of every rank, RoPE on real positions, caches of 0 to 10 tokens;
* a solution with a silent shape assumption (a 3-D batch-first input, head width D // H,
  d_k = d_v: ``tests/mutants/shape_assumptions.py``) fails exactly the stored cases of its
  function that break the assumption, and so loses points on that function's random-shape test.
"""

from __future__ import annotations

import ast
import types
from pathlib import Path

import numpy as np
import pytest

from autograder import contract, runner
from autograder.suite import regen
from autograder.suite.cases import Case, case_seed, load_cases
from tests.homework import GRADED_MODULES, HOMEWORK
from tests.homework import module as homework_module
from tests.mutants import MUTANTS
from tests.mutants.shape_assumptions import SHAPE_ASSUMPTIONS

random_cases = homework_module('cases.random')
shapes = homework_module('diagnosis.shapes')

REPO = Path(__file__).resolve().parent.parent
CASES = load_cases(HOMEWORK.cases_file)
SPECS = {function: prefix for prefix, function, _ in random_cases.RANDOM_SPECS}

def random_cases_of(function: str) -> list[Case]:
    prefix = SPECS[function]
    return [CASES[case_id] for case_id in random_cases.random_case_ids(prefix)]


# ----------------------------------------------------------------------------
# The tests in the suite
# ----------------------------------------------------------------------------


def test_one_hidden_random_shape_test_per_function_with_random_specs(suite: list[dict]) -> None:
    """Random shapes take hidden points only: one test for each function the random specs draw cases for (a
    function added later may have none)."""
    randomized = [t for t in suite if ": random " in t["name"]]
    assert sorted(t["tags"][0] for t in randomized) == sorted(SPECS)
    assert set(SPECS) <= set(contract.FUNCTIONS)
    assert {t["visibility"] for t in randomized} == {contract.HIDDEN}
    assert all(t["max_score"] >= 1 for t in randomized)


def test_each_function_has_six_seeded_random_cases() -> None:
    # (that the suite runs every stored case is tests/test_graded_suite.py's business)
    for _, function, _ in random_cases.RANDOM_SPECS:
        cases = random_cases_of(function)
        assert len(cases) == random_cases.CASES >= 6
        for case in cases:
            assert case.function == function and case.seed == case_seed("graded", case.id)
            assert case.description.startswith(f"random shapes (seed {case.seed}): ")


def test_the_case_builder_stays_out_of_the_zip_and_the_graded_suite() -> None:
    from autograder.commands import build

    assert "autograder/suite/random_cases.py" not in build.zip_members()
    for path in GRADED_MODULES:
        imports = [n for n in ast.walk(ast.parse(path.read_text())) if isinstance(n, (ast.Import, ast.ImportFrom))]
        names = [getattr(n, "module", None) or n.names[0].name for n in imports]
        assert "autograder.suite.random_cases" not in names, path.name


def test_the_stored_random_cases_are_the_seeded_draws() -> None:
    for drawn in random_cases.build_cases():
        stored = CASES[drawn.id]
        assert stored.seed == drawn.seed and stored.description == drawn.description
        assert regen.same_output(stored.expected, drawn.expected)
        assert stored.inputs.keys() == drawn.inputs.keys()


def test_a_float32_solution_stays_well_within_the_tolerance_on_every_drawn_case() -> None:
    from autograder.feedback import compare
    from tests.submissions import float32_source

    module = types.ModuleType("float32_solution")
    exec(compile(float32_source(), "float32_solution", "exec"), module.__dict__)

    def worst(expected: object, actual: object) -> float:
        if isinstance(expected, dict):
            return max(worst(expected[k], actual[k]) for k in expected)
        if isinstance(expected, tuple):
            return max(worst(e, a) for e, a in zip(expected, actual))
        e, a = np.asarray(expected, dtype=float), np.asarray(actual, dtype=float)
        assert e.shape == a.shape
        return float(np.max(np.abs(e - a) / (compare.ATOL + compare.RTOL * np.abs(e)), initial=0.0))

    for prefix, function, _ in random_cases.RANDOM_SPECS:
        for case_id in random_cases.random_case_ids(prefix):
            output = regen.run(function, getattr(module, function), CASES[case_id].inputs)
            assert worst(CASES[case_id].expected, output) < 0.5, case_id  # half the tolerance at most


# ----------------------------------------------------------------------------
# What the draws cover
# ----------------------------------------------------------------------------


def _lead(case: Case, name: str) -> int:
    return np.ndim(case.inputs[name]) - 2


@pytest.mark.parametrize(("function", "name"), [
    ("qkv_project", "X"), ("attention_scores", "Q"), ("scaled_dot_product_attention", "Q"),
    ("multi_head_attention", "X"), ("rope", "x"),
])
def test_zero_to_three_leading_axes_and_lengths_1_to_12(function: str, name: str) -> None:
    cases = random_cases_of(function)
    assert {_lead(c, name) for c in cases} == {0, 1, 2, 3}
    assert all(1 <= np.shape(c.inputs[name])[-2] <= 12 and np.shape(c.inputs[name])[-1] <= 16 for c in cases)


def test_queries_and_keys_differ_in_number_and_d_k_differs_from_d_v() -> None:
    for c in random_cases_of("attention_scores") + random_cases_of("scaled_dot_product_attention"):
        assert np.shape(c.inputs["Q"])[-2] != np.shape(c.inputs["K"])[-2]
    for c in random_cases_of("scaled_dot_product_attention"):
        assert np.shape(c.inputs["Q"])[-1] != np.shape(c.inputs["V"])[-1]
    for c in random_cases_of("qkv_project"):
        assert np.shape(c.inputs["W_Q"])[-1] != np.shape(c.inputs["W_V"])[-1]
    for c in random_cases_of("KVCache"):
        assert np.shape(c.inputs["k"][0])[-1] != np.shape(c.inputs["v"][0])[-1]
    for function in ("decode_step", "generate_cached", "generate_naive"):
        for c in random_cases_of(function):
            assert np.shape(c.inputs["layer.W_Q"])[-1] != np.shape(c.inputs["layer.W_V"])[-1]
    masks = [c for c in random_cases_of("causal_mask")]
    assert any("n_k" not in c.inputs for c in masks) and all(c.inputs["n_q"] != c.inputs.get("n_k") for c in masks)


def test_heads_are_not_d_over_h_wide_and_masks_take_every_rank() -> None:
    mha = random_cases_of("multi_head_attention")
    for c in mha:
        H, D = c.inputs["num_heads"], np.shape(c.inputs["X"])[-1]
        d_k, d_v = np.shape(c.inputs["W_Q"])[-1] // H, np.shape(c.inputs["W_V"])[-1] // H
        assert 1 <= H <= 6 and H * d_k != D and d_k != d_v
        assert np.shape(c.inputs["W_Q"])[-1] == H * d_k and np.shape(c.inputs["W_V"])[-1] == H * d_v
    assert len({c.inputs["num_heads"] for c in mha}) >= 3
    for function, name in (("scaled_dot_product_attention", "Q"), ("multi_head_attention", "X")):
        cases = random_cases_of(function)
        ranks = {np.ndim(c.inputs["mask"]) for c in cases if c.inputs.get("mask") is not None}
        assert ranks == {1, 2, 3, 4, 5}, function
        for c in cases:  # within the contract: broadcastable to (..., N_q, N_k), every row keeps a key
            if c.inputs.get("mask") is not None:
                mask, queries = c.inputs["mask"], c.inputs[name]
                n_k = np.shape(c.inputs["K"])[-2] if "K" in c.inputs else np.shape(queries)[-2]
                full = (*np.shape(queries)[:-1], n_k)
                assert np.broadcast_shapes(np.shape(mask), full) == full
                assert np.broadcast_to(mask, full).any(axis=-1).all()
    per_sequence = [c for c in mha if c.inputs.get("mask") is not None and np.shape(c.inputs["mask"]) ==
                    (*np.shape(c.inputs["X"])[:-1], np.shape(c.inputs["X"])[-2]) and _lead(c, "X") >= 1]
    assert per_sequence


def test_rope_on_real_positions_and_caches_of_0_to_10_tokens() -> None:
    for c in random_cases_of("rope"):
        d = np.shape(c.inputs["x"])[-1]
        assert d % 2 == 0 and 2 <= d <= 16
        positions = c.inputs["positions"]
        assert positions.shape == (np.shape(c.inputs["x"])[-2],)
        assert np.array_equal(positions.astype(np.float32), positions)  # exact in float32
    assert any((c.inputs["positions"] % 1 != 0).any() for c in random_cases_of("rope"))
    cached = [len(c.inputs["cache.keys"]) for c in random_cases_of("decode_step")]
    assert min(cached) == 0 and max(cached) >= 5 and max(cached) <= 10
    assert any("rope_base" in c.inputs for c in random_cases_of("decode_step"))
    blocks = [np.ndim(k) == 2 and len(k) > 1 for c in random_cases_of("KVCache") for k in c.inputs["k"]]
    assert any(blocks) and not all(blocks)


# ----------------------------------------------------------------------------
# Shape assumptions lose points where, and only where, they break
# ----------------------------------------------------------------------------


def mutant_module(name: str) -> types.ModuleType:
    mutant = next(m for m in MUTANTS if m.name == name)
    module = types.ModuleType(name)
    exec(compile(mutant.source(), name, "exec"), module.__dict__)  # our own test mutant, not student code
    return module


def reproduces(function: str, implementation: object, case: Case) -> bool:
    try:
        return regen.same_output(regen.run(function, implementation, case.inputs), case.expected)
    except Exception:  # a shape error is a failure of the case
        return False


@pytest.mark.parametrize("name", sorted(SHAPE_ASSUMPTIONS))
def test_a_shape_assumption_fails_exactly_the_cases_that_break_it(name: str) -> None:
    mutant = next(m for m in MUTANTS if m.name == name)
    words, holds = SHAPE_ASSUMPTIONS[name]
    implementation = getattr(mutant_module(name), mutant.function)
    cases = [c for c in CASES.values() if c.function == mutant.function]
    failing = {c.id for c in cases if not reproduces(mutant.function, implementation, c)}
    breaking = {c.id for c in cases if not holds(c.inputs)}
    assert failing == breaking, f"{name} ({words}): fails {sorted(failing ^ breaking)} unexpectedly"
    assert breaking & {c.id for c in random_cases_of(mutant.function)}, f"no random case breaks {words!r}"


@pytest.mark.parametrize("name", sorted(SHAPE_ASSUMPTIONS))
def test_a_shape_assumption_loses_points_on_its_functions_random_shape_test(name: str, tmp_path: Path) -> None:
    mutant = next(m for m in MUTANTS if m.name == name)
    folder = tmp_path / "submission"
    folder.mkdir()
    (folder / "attention.py").write_text(mutant.source())
    data = runner.grade_folder(folder)
    (randomized,) = [t for t in data["tests"] if t["tags"] == [mutant.function] and ": random " in t["name"]]
    assert randomized["score"] < randomized["max_score"]
    assert "**Case:** random shapes (seed " in randomized["output"] and "**Call:** `" in randomized["output"]
    # the evidence of the assumption: the Shapes sentence, or a named mistake that states the same cause (one
    # sentence per cause), with the shape evidence recorded for the TA either way
    shapes = [e for e in randomized["extra_data"].get("evidence", []) if e.get("sentence") == "shapes"]
    assert shapes, randomized["extra_data"]
    assert "**Shapes:** " in randomized["output"] or randomized["extra_data"]["mistakes"], randomized["output"]
    lost = {t["tags"][0] for t in data["tests"] if t["score"] < t["max_score"]}
    assert lost <= {mutant.function, *mutant.also}


# ----------------------------------------------------------------------------
# The evidence in the feedback (autograder/suite/graded/shapes.py)
# ----------------------------------------------------------------------------


@pytest.mark.parametrize(("function", "holds", "words"), [
    ("qkv_project", lambda c: np.ndim(c.inputs["X"]) == 3, "`X` is 3-D"),
    ("attention_scores", lambda c: np.ndim(c.inputs["Q"]) == 2, "`Q` is 2-D"),
    ("rope", lambda c: np.shape(c.inputs["x"])[-2] > 1, "more than one token"),
    ("scaled_dot_product_attention", lambda c: c.inputs.get("mask") is None or np.ndim(c.inputs["mask"]) == 2
     + np.ndim(c.inputs["Q"]) - 2, "the mask (if any) has as many axes"),
])
def test_a_shape_property_that_splits_passing_from_failing_cases_is_named(function, holds, words) -> None:
    cases = random_cases_of(function)
    failed = {c.id for c in cases if not holds(c)}
    assert failed and len(failed) < len(cases)
    text = shapes.shape_evidence(cases, failed)
    assert text is not None and words in text and f"exactly the {len(cases) - len(failed)} where" in text
    assert shapes.shape_evidence(cases, {c.id for c in cases}) is None  # nothing passes: no evidence
    assert shapes.shape_evidence(cases, set()) is None


def test_no_evidence_when_no_shape_property_splits_the_cases() -> None:
    cases = random_cases_of("softmax")
    assert shapes.shape_evidence(cases, {cases[0].id, cases[3].id}) is None


@pytest.mark.parametrize("function", sorted(shapes.PROBES))
def test_a_probe_is_the_same_attention_with_the_assumption_made_true(function: str) -> None:
    ref = homework_module("attention")

    probed = 0
    for stored in [c for c in CASES.values() if c.function == function]:
        for kind, probe in shapes.PROBES[function](stored):
            output = regen.run(function, getattr(ref, function), probe.inputs)
            assert regen.same_output(output, probe.expected), (stored.id, kind)
            if kind == "head_width":
                H, W_Q = probe.inputs["num_heads"], probe.inputs["W_Q"]
                assert np.shape(probe.inputs["X"])[-1] == np.shape(W_Q)[-1] == H * (np.shape(W_Q)[-1] // H)
            elif kind in ("divisible", "undivided"):  # X wider, by a multiple of H or not, at no width of the heads'
                H, D = probe.inputs["num_heads"], np.shape(probe.inputs["X"])[-1]
                assert D > np.shape(stored.inputs["X"])[-1] and (D % H == 0) == (kind == "divisible")
                assert D not in {np.shape(probe.inputs[w])[-1] for w in ("W_Q", "W_V", "W_O")}
            else:
                prefix = "layer." if "layer.W_Q" in probe.inputs else ""
                assert np.shape(probe.inputs[f"{prefix}W_Q"])[-1] == np.shape(probe.inputs[f"{prefix}W_V"])[-1]
            probed += 1
    assert probed >= 3
