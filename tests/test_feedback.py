"""autograder/feedback/compare.py: comparison reports, diagnosis, and self-containment."""

from __future__ import annotations

import importlib.util
import re
import shutil
import sys
from pathlib import Path

import numpy as np
import pytest

from autograder.feedback.compare import ATOL, MISTAKES, RTOL, compare, diagnose, report
from tests.homework import module as homework_module

ref = homework_module('attention')
mistakes = homework_module('mistakes')

ROOT = Path(__file__).resolve().parents[1]
RNG = np.random.default_rng(7)


def _weights(*shape: int) -> np.ndarray:
    W = RNG.random(shape)
    return W / W.sum(-1, keepdims=True)


# ----------------------------------------------------------------------------
# compare(): equal within tolerance
# ----------------------------------------------------------------------------


def test_the_documented_tolerance_is_the_one_compared_with():
    # the constants are changed in one place (docs/changing-the-homework.md); the documents that state them follow
    def short(x: float) -> str:  # 1e-05 -> 1e-5, as the documents write it
        mantissa, exponent = f"{x:e}".split("e")
        return f"{float(mantissa):g}e{int(exponent)}"

    repo = Path(__file__).resolve().parent.parent
    assert f"`|yours - expected| <= {short(ATOL)} + {short(RTOL)} |expected|`" in (repo / "README.md").read_text()
    assert f"`rtol={short(RTOL)}, atol={short(ATOL)}`" in (repo / "docs" / "assignment.md").read_text()
    assert 0 < ATOL and 0 < RTOL < 1e-2


def test_equal_within_tolerance_is_none():
    E = RNG.normal(size=(3, 4))
    assert compare("x", E, E.copy()) is None
    assert compare("x", E, E * (1 + 0.9 * RTOL)) is None
    assert compare("x", E, E.astype(np.float32)) is None
    assert compare("x", np.zeros(3), np.full(3, 0.9 * ATOL)) is None


def test_just_outside_tolerance_fails():
    E = np.ones(3)
    assert compare("x", E, E + 2 * (ATOL + RTOL)) is not None


def test_infinities_equal_themselves_but_not_each_other():
    E = np.array([1.0, np.inf, -np.inf])
    assert compare("x", E, E.copy()) is None
    text = compare("x", E, np.array([1.0, -np.inf, -np.inf]))
    assert "1 entry is inf where a number was expected (first at (1,))" in text


def test_nan_never_equals_nan():
    assert compare("x", np.array([np.nan]), np.array([np.nan])) is not None


def test_bool_arrays_compare_exactly():
    mask = ref.causal_mask(3, 5)
    assert compare("mask", mask, mask.copy()) is None
    wrong = mask.copy()
    wrong[0, 4] = True
    text = compare("mask", mask, wrong)
    assert "1 of 15 entries differ" in text
    assert "First difference at index (0, 4): expected False, yours True." in text


def test_scalar_expected_accepts_a_plain_number():
    assert compare("len", np.array(3), 3) is None
    assert "- Expected 3, yours is 4." in compare("len", np.array(3), 4)
    assert "- Expected 0.5, yours is 0.25." in compare("x", np.array(0.5), np.float64(0.25))


# ----------------------------------------------------------------------------
# compare(): value reports
# ----------------------------------------------------------------------------


def test_value_report_has_count_worst_index_and_excerpt():
    E = RNG.normal(size=(2, 4, 5))
    E[0, 0, 0] = 0.002
    A = E.copy()
    A[1, 2, 3] += 0.5
    A[0, 0, 0] += 0.01
    A[1, 3, 4] *= 1 + 1e-7  # within tolerance: not counted
    text = compare("attention_scores(Q, K)", E, A)
    assert text.startswith("**attention_scores(Q, K)** does not match the expected result.")
    assert "2 of 40 entries differ (5.0%)" in text
    assert "shape (2, 4, 5) is right" in text
    assert f"Largest absolute error 0.5 at index (1, 2, 3): expected {E[1, 2, 3]:.8g}, yours {A[1, 2, 3]:.8g}." in text
    assert f"Largest relative error 5 at index (0, 0, 0): expected 0.002, yours {A[0, 0, 0]:.8g}." in text
    assert "Around index (1, 2, 3) (rows 0-3, columns 0-4 of slice [1, :, :]; * = differs):" in text
    assert f"{A[1, 2, 3]:.6f}*" in text
    assert "Heatmap" not in text
    assert text.count("```") % 2 == 0


def test_excerpt_is_small_for_large_arrays():
    E = RNG.normal(size=(40, 50))
    A = E.copy()
    A[20, 30] = 99.0
    block = compare("x", E, A).split("```text\n")[1].split("```")[0].splitlines()
    assert len(block) == 2 + 5  # two header lines, five rows
    assert "[30]" in block[1] and "[20]" in block[4]


def test_one_dimensional_excerpt():
    E = np.arange(10.0)
    A = E.copy()
    A[7] = -1
    text = compare("decode_step", E, A)
    assert "Around index (7,) (entries 5-9; * = differs)" in text
    assert "-1.000000*" in text


def test_nan_report_counts_and_first_index():
    Z = np.array([[1000.0, 999.0], [1.0, 2.0], [-np.inf, -np.inf]])
    with np.errstate(all="ignore"):
        naive = np.exp(Z) / np.exp(Z).sum(-1, keepdims=True)
    text = compare("softmax(Z)", ref.softmax(Z), naive)
    assert "4 entries are NaN where a number was expected (first at (0, 0))" in text
    assert "4 of 6 entries differ" in text
    assert "nan*" in text


def test_heatmap_for_weights():
    E = _weights(4, 6)
    A = np.roll(E, 1, axis=-1)
    text = compare("weights", E, A, heatmap=True)
    heat = text.split("Heatmap")[1]
    assert "rows = queries, columns = keys" in heat
    assert any(shade in heat for shade in "░▒▓█")
    rows = [line for line in heat.split("```text\n")[1].split("```")[0].splitlines()[1:]]
    assert len(rows) == 4 and all(" | " in row for row in rows)
    assert compare("weights", E, A, heatmap=False).count("Heatmap") == 0


def test_heatmap_is_at_most_12_by_12():
    E = _weights(30, 40)
    text = compare("weights", E, E[:, ::-1].copy(), heatmap=True)
    body = text.split("Heatmap")[1].split("```text\n")[1].split("```")[0].splitlines()[1:]
    assert len(body) == 12
    assert "(sampled evenly)" in text
    assert all(len(row.split(" | ")[1]) == 2 * 12 for row in body)


def test_heatmap_of_batched_weights_shows_the_worst_slice():
    E = _weights(2, 3, 4, 4)
    A = E.copy()
    A[1, 2] = A[1, 2, :, ::-1]
    assert "Heatmap of slice [1, 2, :, :]" in compare("weights", E, A, heatmap=True)


def test_heatmap_by_element_name():
    out, weights = ref.scaled_dot_product_attention(*(RNG.normal(size=(3, 4)) for _ in range(3)))
    bad = (out + 1, np.roll(weights, 1, axis=-1))
    text = compare("sdpa", (out, weights), bad, names=["out", "weights"], heatmap={"weights"})
    assert text.count("Heatmap") == 1
    assert text.index("Heatmap") > text.index("`weights` (item 1 of the returned tuple):")


# ----------------------------------------------------------------------------
# compare(): structural problems
# ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    "expected_shape, got_shape, hint",
    [
        ((2, 4, 6), (2, 6, 4), "The last two axes are swapped: your result looks transposed."),
        ((2, 3, 4, 5), (3, 2, 4, 5), "The same axes in a different order"),
        ((2, 3, 4, 5), (4, 5), "The leading axes (2, 3) are missing"),
        ((4,), (1, 4), "You have extra leading axes (1,)"),
        ((4,), (1, 4), "drop them (e.g. with [0])"),
        ((5, 3), (5, 5, 3), "You have extra leading axes (5,): something broadcast your result up to them"),
        ((4, 5), (4, 1, 5), "They differ only by axes of length 1"),
        ((4, 6), (3, 8), "Same number of entries, arranged differently"),
    ],
)
def test_shape_mismatch_hints(expected_shape, got_shape, hint):
    text = compare("f(x)", np.zeros(expected_shape), np.zeros(got_shape))
    assert f"- Shape: expected {expected_shape}, yours is {got_shape}." in text
    assert hint in text
    assert "entries differ" not in text


def test_tuple_in_wrong_order_is_recognised():
    out, weights = np.zeros((3, 2)), _weights(3, 5)
    text = compare("sdpa", (out, weights), (weights, out), names=["out", "weights"])
    assert "`out` (item 0 of the returned tuple):" in text
    assert "That is the shape of `weights`: are the returned items in the wrong order?" in text


def test_named_outputs():
    expected = {"out": np.ones((2, 3)), "calls.key": 3, "calls.value": 3}
    assert compare("decode", expected, {"out": np.ones((2, 3)), "calls.key": 3, "calls.value": 3}) is None
    text = compare("decode", expected, {"out": np.zeros((2, 3)), "calls.key": 6})
    assert "- Missing: `calls.value`." in text
    assert "`out`:\n- 6 of 6 entries differ" in text
    assert "`calls.key`:\n- Expected 3, yours is 6." in text
    assert "Expected named results (`out`, `calls.key`, `calls.value`) but got None" in compare("d", expected, None)


def test_diagnose_named_outputs_compares_the_names_given():
    expected = {"out": np.ones(2), "calls.key": 3}
    stored = {"recomputes": {"out": np.ones(2), "calls.key": 6}, "no_scale": {"out": np.zeros(2), "calls.key": 3}}
    assert diagnose({"out": np.ones(2), "calls.key": 6}, stored, expected=expected) == "recomputes"
    assert diagnose({"out": np.zeros(2)}, stored, expected=expected) == "no_scale"
    assert diagnose({"out": np.ones(2)}, stored, expected=expected) is None  # recomputes is right on `out`
    assert diagnose({"other": np.zeros(2)}, stored, expected=expected) is None
    assert diagnose(np.zeros(2), stored, expected=expected) is None


def test_tuple_structure_problems():
    expected = (np.zeros((3, 2)), np.zeros((3, 5)))
    names = ["out", "weights"]
    assert "you returned one array of shape (3, 2). It has the shape of `out`" in compare(
        "sdpa", expected, np.zeros((3, 2)), names=names
    )
    assert "Expected a tuple of 2 (`out`, `weights`) but yours has 3 items." in compare(
        "sdpa", expected, (1, 2, 3), names=names
    )
    assert "you returned None (is a `return` statement missing?)" in compare("sdpa", expected, None, names=names)
    assert "`element 1`" in compare("sdpa", expected, (np.zeros((3, 2)), np.ones((3, 5))))
    assert compare("sdpa", expected, [np.zeros((3, 2)), np.zeros((3, 5))]) is None  # a list is fine


@pytest.mark.parametrize(
    "actual, says",
    [
        (None, "you returned None (is a `return` statement missing?)"),
        ([[1.0, 2.0], [3.0, 4.0]], "you returned a list of 2 items. Its values are right: return np.array(...) of it."),
        ((np.eye(2), np.ones(3)), "Item 0 has the expected shape: return only that array."),
        (2.5, "you returned the single number 2.5 (float)"),
        ({"a": 1}, "you returned an object of type `dict`"),
    ],
)
def test_not_an_array(actual, says):
    expected = np.array([[1.0, 2.0], [3.0, 4.0]]) if isinstance(actual, list) else np.eye(2)
    text = compare("f(x)", expected, actual)
    assert "- Expected a numpy array of shape (2, 2), but" in text
    assert says in text


@pytest.mark.parametrize(
    "actual",
    [
        [[1.0, 2.0], [3.0]],
        [None, "x"],
        "a string",
        np.array("text"),
        np.array(1.5),
        np.ma.masked_array(np.eye(2), mask=np.eye(2, dtype=bool)),
        np.zeros((0, 2)),
        np.full((2, 2), np.nan),
        np.full((2, 2), -np.inf),
        np.array([[1, 2], [3, 4]], dtype=np.uint8),
        (np.eye(2),),
        {1, 2},
        object(),
        np.array([[np.inf, 0.0], [0.0, 1.0]], dtype=np.float16),
    ],
)
def test_never_crashes_on_odd_results(actual):
    for expected in (np.eye(2), (np.eye(2), np.ones(3)), ref.causal_mask(2), np.array(1.0)):
        text = compare("f(x)", expected, actual, heatmap=True)
        assert text is None or text.startswith("**f(x)**")
        diagnose(actual, {"m": np.zeros((2, 2)), "t": (np.eye(2), np.zeros(3))}, expected=expected)


def test_dtype_problems():
    mask = ref.causal_mask(3)
    assert "Its pattern (nonzero = True) is right" in compare("mask", mask, mask.astype(float))
    assert "dtype bool" in compare("mask", mask, np.where(mask, 0.0, -np.inf))
    assert "yours is a boolean array" in compare("x", mask.astype(float), mask)
    assert "complex" in compare("x", np.ones(3), np.ones(3) + 0j)
    assert "dtype object" in compare("x", np.ones(2), np.array([np.ones(2), None], dtype=object))
    assert "not numbers" in compare("x", np.ones(2), np.array(["a", "b"]))
    assert compare("x", np.ones(2), np.ones(2, dtype=int)) is None


# ----------------------------------------------------------------------------
# diagnose() and report()
# ----------------------------------------------------------------------------


def test_diagnose_finds_the_matching_mistake_in_order():
    E = np.array([1.0, 2.0])
    stored = {"a": np.array([0.0, 0.0]), "b": np.array([5.0, 5.0]), "c": np.array([5.0, 5.0])}
    assert diagnose(np.array([5.0, 5.0 + 1e-7]), stored, expected=E) == "b"
    assert diagnose(np.array([4.0, 4.0]), stored, expected=E) is None


def test_diagnose_skips_missing_and_coincident_outputs():
    E = np.array([1.0, 2.0])
    stored = {"none": None, "coincides": E.copy(), "real": np.array([2.0, 4.0])}
    assert diagnose(E, stored, expected=E) is None
    assert diagnose(np.array([2.0, 4.0]), stored, expected=E) == "real"
    assert diagnose(E, {"coincides": E.copy()}) == "coincides"  # without expected nothing is skipped


def test_diagnose_requires_the_same_shape_and_handles_nan_and_tuples():
    assert diagnose(np.zeros((2, 3)), {"m": np.zeros((3, 2))}) is None
    assert diagnose(np.array([np.nan, 1.0]), {"m": np.array([np.nan, 1.0])}) == "m"
    assert diagnose((np.ones(2), np.zeros(3)), {"m": (np.ones(2), np.zeros(3))}) == "m"
    assert diagnose((np.ones(2), np.ones(3)), {"m": (np.ones(2), np.zeros(3))}) is None
    assert diagnose(np.ones(2), {"m": (np.ones(2), np.zeros(3))}) is None
    assert diagnose(ref.causal_mask(3).astype(float), {"m": ref.causal_mask(3)}) is None
    assert diagnose([1.0, 1.0], {"m": np.ones(2)}) is None


def test_report_starts_with_the_likely_mistake():
    Q, K, V = (RNG.normal(size=(4, 3)) for _ in range(3))
    expected = ref.scaled_dot_product_attention(Q, K, V)
    stored = {mid: fn(Q, K, V) for mid, fn in mistakes.SDPA.items() if mid in ("no_scale", "sqrt_missing")}
    text = report("sdpa", expected, stored["sqrt_missing"], stored, names=["out", "weights"])
    assert text.startswith(f"**Likely mistake:** {MISTAKES['sqrt_missing']}\n\n**sdpa** does not match")
    assert report("sdpa", expected, expected, stored) is None
    unknown = report("sdpa", expected, (expected[0] + 1, expected[1]), stored, names=["out", "weights"])
    assert "Likely mistake" not in unknown
    assert "**Likely mistake:** `made_up`" not in (report("x", np.ones(2), np.zeros(2), {"made_up": np.zeros(2)}) or "")


def test_report_after_a_shape_mismatch_still_diagnoses():
    Q, K = RNG.normal(size=(4, 3)), RNG.normal(size=(5, 3))
    wrong = mistakes.SCORES["transposed_scores"](Q, K)
    text = report("attention_scores(Q, K)", ref.attention_scores(Q, K), wrong, {"transposed_scores": wrong})
    assert "The last two axes are swapped" in text
    assert "**Likely mistake:** Your scores are transposed" in text


# ----------------------------------------------------------------------------
# MISTAKES and self-containment
# ----------------------------------------------------------------------------


@pytest.mark.parametrize("mistake_id", sorted(MISTAKES))
def test_each_sentence_is_one_line_that_says_what_to_do(mistake_id):
    sentence = MISTAKES[mistake_id]
    assert re.fullmatch(r"[a-z_]+", mistake_id)
    assert "\n" not in sentence and sentence.endswith(".") and len(sentence) < 260


def test_works_as_a_top_level_module_copied_into_a_folder(tmp_path, monkeypatch):
    shutil.copy(ROOT / "autograder" / "feedback" / "compare.py", tmp_path / "attention_feedback.py")
    shutil.copy(ROOT / "autograder" / "feedback" / "feedback_format.py", tmp_path / "feedback_format.py")
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.delitem(sys.modules, "feedback_format", raising=False)
    spec = importlib.util.spec_from_file_location("attention_feedback", tmp_path / "attention_feedback.py")
    copied = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(copied)
    E = _weights(3, 3)
    assert copied.compare("w", E, E) is None
    assert "Heatmap" in copied.compare("w", E, E.T.copy(), heatmap=True)
    assert copied.MISTAKES == {} and MISTAKES  # the homework's sentences are written into the students' copy
