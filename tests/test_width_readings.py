"""Readings that a twenty-second batch of real students' code (and a plain `assert embed_dim % num_heads == 0`) asked
for: a model width num_heads must divide, told from heads split by D // H and from a wider input; an output rounded
to a few decimal places, told from low precision; square layers of the heads' width, told from weights square at
the model's width. Each submission is graded by the real engine, and each sentence checked against what its code
does."""

from __future__ import annotations

import numpy as np
import pytest

from autograder.api import precision
from tests.test_crash_search import _failing
from tests.test_inference import _graded_with, _where

DIVISIBLE = '''

def multi_head_attention(X, W_Q, W_K, W_V, W_O, num_heads, mask=None):
    assert X.shape[-1] % num_heads == 0, "embed_dim must be divisible by num_heads"
    return _reference_mha(X, W_Q, W_K, W_V, W_O, num_heads, mask)
'''

WIDER = '''

def multi_head_attention(X, W_Q, W_K, W_V, W_O, num_heads, mask=None):
    assert X.shape[-1] >= 16, "too narrow"
    return _reference_mha(X, W_Q, W_K, W_V, W_O, num_heads, mask)
'''

KEEP_MHA = "_reference_mha = multi_head_attention"


def test_a_model_width_num_heads_must_divide_is_named_so_and_not_as_heads_of_width_d_over_h(
        tmp_path_factory: pytest.TempPathFactory) -> None:
    """Only the random shapes have a D that num_heads does not divide. The assert gets past with X zero-padded to a
    multiple of num_heads that is no width of the heads', and not one width further: that is what it needs (before,
    D = H * d_k got it past too, and the heads' width or the merge into D was named)."""
    tests = _failing(_graded_with(tmp_path_factory, KEEP_MHA, DIVISIBLE, "multi_head_attention"))
    assert tests and all("random shapes" in t["name"] for t in tests), [t["name"] for t in tests]
    for t in tests:
        assert t["extra_data"]["mistakes"] == ["mha_needs_divisible_width"], t["output"]
        assert "assumes num_heads divides the input width D = X.shape[-1]" in _where(t), _where(t)
        assert "Shapes:" not in t["output"]  # the sentence says it; the shapes paragraph would say it again


def test_a_line_that_needs_a_wider_input_is_not_read_as_a_width_num_heads_divides(
        tmp_path_factory: pytest.TempPathFactory) -> None:
    """The padded input gets the assert past, and so does the next width, which num_heads does not divide: the line
    needs a wider input, so divisibility is not named."""
    tests = _failing(_graded_with(tmp_path_factory, KEEP_MHA, WIDER, "multi_head_attention"))
    assert tests
    for t in tests:
        assert "mha_needs_divisible_width" not in t["extra_data"].get("mistakes", []), t["output"]
        assert "divides" not in t["output"]


ROUNDED = '''

def scaled_dot_product_attention(Q, K, V, mask=None, scale=None):
    out, weights = _reference_sdpa(Q, K, V, mask, scale)
    return np.round(out, 4), np.round(weights, 4)
'''

HALF = '''

def scaled_dot_product_attention(Q, K, V, mask=None, scale=None):
    out, weights = _reference_sdpa(Q, K, V, mask, scale)
    return out.astype(np.float16).astype(float), weights.astype(np.float16).astype(float)
'''

KEEP_SDPA = "_reference_sdpa = scaled_dot_product_attention"


def test_an_output_rounded_to_four_decimals_is_named_as_rounded_not_as_low_precision(
        tmp_path_factory: pytest.TempPathFactory) -> None:
    tests = _failing(_graded_with(tmp_path_factory, KEEP_SDPA, ROUNDED, "scaled_dot_product_attention"))
    assert tests
    named = [t for t in tests if t["extra_data"].get("mistakes")]
    assert named, [t["output"][:300] for t in tests]
    for t in tests:
        assert "low_precision" not in t["extra_data"].get("mistakes", []), t["output"]
    for t in named:
        assert t["extra_data"]["mistakes"] == ["output_rounded"], t["output"]
        backing = [e for e in t["extra_data"]["evidence"] if e.get("sentence") == "output_rounded"]
        assert any("rounded to 4 decimal places" in e["by"] for e in backing), t["extra_data"]["evidence"]


def test_float16_values_are_still_read_as_low_precision_not_as_rounded(
        tmp_path_factory: pytest.TempPathFactory) -> None:
    tests = _failing(_graded_with(tmp_path_factory, KEEP_SDPA, HALF, "scaled_dot_product_attention"))
    assert tests
    assert any("low_precision" in t["extra_data"].get("mistakes", []) for t in tests), [t["output"][:300] for t in
                                                                                         tests]
    assert not any("output_rounded" in t["extra_data"].get("mistakes", []) for t in tests)


@pytest.mark.parametrize(("actual", "k"), [
    (lambda e: np.round(e, 4), 4),
    (lambda e: np.round(e, 2), 2),
    (lambda e: np.round(e, 4).astype(np.float32), 4),
    (lambda e: e.astype(np.float16).astype(float), None),
    (lambda e: e * 1.01, None),
])
def test_the_decimals_an_output_is_rounded_to(actual, k) -> None:
    expected = np.random.default_rng(3).normal(size=(4, 5))
    assert precision.decimals(expected, actual(expected)) == k


def test_a_rounded_output_is_read_only_when_it_equals_a_rounding_of_the_answer_or_a_mistake() -> None:
    expected = np.random.default_rng(4).normal(size=(3, 4))
    mistake = expected * 2
    assert precision.rounded(expected, np.round(expected, 3), {"doubled": mistake})[0] == ("output_rounded",)
    assert precision.rounded(expected, np.round(mistake, 3), {"doubled": mistake})[0] == ("doubled", "output_rounded")
    assert precision.rounded(expected, np.round(expected * 3, 3), {"doubled": mistake}) is None
    assert precision.rounded(expected, np.zeros_like(expected), {"doubled": mistake}) is None  # multiples of anything


SQUARE_HEADS = '''

def multi_head_attention(X, W_Q, W_K, W_V, W_O, num_heads, mask=None):
    # nn.Linear(attention_dim, attention_dim) for the output and one head width for q, k and v, as load_state_dict
    # checks them: W_V as wide as W_Q, W_O square at that width (X's own width is free)
    side = W_Q.shape[-1]
    for name, W, shape in (("W_V", W_V, W_Q.shape), ("W_O", W_O, (side, side))):
        if W.shape != shape:
            raise RuntimeError(f"size mismatch for {name}: copying a param with shape {W.shape}, the current shape "
                               f"is {shape}")
    return _reference_mha(X, W_Q, W_K, W_V, W_O, num_heads, mask)
'''


def test_layers_square_at_the_heads_width_are_not_read_as_every_weight_square_at_the_models(
        tmp_path_factory: pytest.TempPathFactory) -> None:
    """Every weight made (D, D) gets the check past, but so do the heads and W_O made square at their own width with
    X as it is: the code never needed D, so "every weight is square, (D, D)" is not said."""
    tests = _failing(_graded_with(tmp_path_factory, KEEP_MHA, SQUARE_HEADS, "multi_head_attention"))
    assert tests
    for t in tests:
        assert "mha_square_weights" not in t["extra_data"].get("mistakes", []), t["output"]
