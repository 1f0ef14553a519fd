"""Readings that a twenty-third batch of real students' code asked for: an input read tokens first, (N, B, D), as
torch's nn.MultiheadAttention reads it by default; "one fixed number of leading axes" only when a third number fails
too (code that reads its input tokens first works with two leading axes and with three); and no fitted scale where
the softmax is one-hot (there, which key scores highest decides the output, and a token that attends only to itself
is also a causal, one-head attention by coincidence); a twenty-fourth batch, that a line reached only because an
optional argument is given (the contract's scale landing in a parameter of the code's own) is read with that
argument at its default too, so a mask is not said to be needed; a twenty-sixth, that scaled dot-product attention
may read its inputs tokens first too. Submissions are graded by the real engine; the fit
is checked on the oracle's own answers."""

from __future__ import annotations

import numpy as np
import pytest

from tests.homework import module as homework_module
from tests.test_crash_search import _failing
from tests.test_inference import _graded_with

scales = homework_module("diagnosis.scales")
oracle = homework_module("attention")

TOKENS_FIRST = '''

def multi_head_attention(X, W_Q, W_K, W_V, W_O, num_heads, mask=None):
    # read as (N, B, D), tokens first (torch's nn.MultiheadAttention without batch_first), the mask never read
    out = _reference_mha(np.swapaxes(X, 0, 1), W_Q, W_K, W_V, W_O, num_heads)
    return np.swapaxes(out, 0, 1)
'''

KEEP_MHA = "_reference_mha = multi_head_attention"


def test_code_that_works_with_two_leading_axes_and_with_three_is_not_told_it_needs_one_fixed_number(
        tmp_path_factory: pytest.TempPathFactory) -> None:
    """With one leading axis the swap mixes the batch into the tokens (a wrong answer), with none it raises unless
    N = D, and with two or more it is harmless: "works only with one fixed number of leading axes" is false of it.
    What is true and said: it fails without leading axes."""
    tests = _failing(_graded_with(tmp_path_factory, KEEP_MHA, TOKENS_FIRST, "multi_head_attention"))
    assert tests
    named = [m for t in tests for m in t["extra_data"].get("mistakes", [])]
    assert "needs_leading_axes" not in named, [(t["number"], t["extra_data"].get("mistakes")) for t in tests]
    assert "needs_leading_axis" in named, [(t["number"], t["extra_data"].get("mistakes")) for t in tests]
    assert not {"heads_not_split", "always_causal"} & set(named)  # a token that attends only to itself


def test_an_input_read_tokens_first_is_named_so_on_a_batch_of_sequences(
        tmp_path_factory: pytest.TempPathFactory) -> None:
    """On (B, N, D) with B > 1 the output is the contract's answer on X with its first two axes swapped, swapped
    back; with the per-sequence masks ignored too, both are named."""
    tests = {t["number"]: t for t in _graded_with(tmp_path_factory, KEEP_MHA, TOKENS_FIRST, "multi_head_attention")}
    batch, masks = tests["D.4"], tests["D.5"]  # a batch of 2, no mask; a batch of 2 with its own mask each
    assert batch["extra_data"]["mistakes"] == ["mha_tokens_first"], batch["output"]
    assert "tokens first" in batch["output"]
    assert masks["extra_data"]["mistakes"] == ["mha_tokens_first", "mask_ignored"], masks["output"]


SDPA_TOKENS_FIRST = '''

def scaled_dot_product_attention(Q, K, V, mask=None, scale=None):
    # time-major, (N, B, d): the first two axes swapped, attention over them, swapped back; the mask never read
    out, weights = _reference_sdpa(*(np.swapaxes(a, 0, 1) for a in (Q, K, V)), scale=scale)
    return np.swapaxes(out, 0, 1), weights
'''


def test_attention_over_inputs_read_tokens_first_is_named_so_where_its_output_shows_it(
        tmp_path_factory: pytest.TempPathFactory) -> None:
    """scaled_dot_product_attention's twin of the multi-head reading: on a batch of sequences (B, N, d), B > 1, the
    output is the contract's answer on Q, K and V with their first two axes swapped, swapped back; named from such
    an output (the 2-D cases' probes give them one leading axis of three sequences)."""
    tests = _failing(_graded_with(tmp_path_factory, "_reference_sdpa = scaled_dot_product_attention",
                                  SDPA_TOKENS_FIRST, "scaled_dot_product_attention"))
    said = [t for t in tests if "sdpa_tokens_first" in t["extra_data"].get("mistakes", [])]
    assert said, [(t["number"], t["extra_data"].get("mistakes")) for t in tests]
    for t in said:
        assert "tokens first" in t["output"], t["output"]
        assert any("sdpa_tokens_first" in e.get("sentence", "").split(",") and "read as (N, B, d)" in e.get("by", "")
                   for e in t["extra_data"]["evidence"]), t["extra_data"]["evidence"]


def _attention_inputs(seed: int) -> dict:
    rng = np.random.default_rng(seed)
    Q, K, V = rng.normal(size=(5, 4)), rng.normal(size=(5, 4)), rng.normal(size=(5, 3))
    return {"Q": Q, "K": K, "V": V, "mask": oracle.causal_mask(5, 5), "scale": None}


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_a_scale_is_fitted_where_the_softmax_is_soft(seed: int) -> None:
    inputs = _attention_inputs(seed)
    actual = oracle.scaled_dot_product_attention(**dict(inputs, scale=0.3))
    c = scales.fit("scaled_dot_product_attention", inputs, actual)
    assert c is not None and abs(c - 0.3) < 1e-3 * 0.3, c


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_no_scale_is_fitted_where_the_softmax_is_one_hot(seed: int) -> None:
    """At 1e4 every row's weights are one-hot within the tolerance, and so they are 4 times sharper: the output
    shows which key wins, not any scale."""
    inputs = _attention_inputs(seed)
    actual = oracle.scaled_dot_product_attention(**dict(inputs, scale=1e4))
    assert np.allclose(np.sort(actual[1], axis=-1)[..., -1], 1.0)  # one-hot indeed
    assert scales.fit("scaled_dot_product_attention", inputs, actual) is None


SCALE_IN_DROPOUT = '''

def scaled_dot_product_attention(Q, K, V, mask=None, attn_dropout=None):
    # the fifth parameter is a dropout module of the code's own: the contract's scale lands there
    if mask is None:
        _, weights = _reference_sdpa(Q, K, V)
        if attn_dropout is not None:
            weights = attn_dropout(weights)
        return weights @ V, weights
    return _reference_sdpa(Q, K, V, mask)
'''

KEEP_SDPA = "_reference_sdpa = scaled_dot_product_attention"


def test_a_line_reached_only_because_the_scale_is_given_is_not_read_as_needing_a_mask(
        tmp_path_factory: pytest.TempPathFactory) -> None:
    """Without a mask and with a scale the call raises at `attn_dropout(weights)`. A mask gets it past that line,
    and so does the scale at its default: two readings, so neither is named."""
    tests = _failing(_graded_with(tmp_path_factory, KEEP_SDPA, SCALE_IN_DROPOUT, "scaled_dot_product_attention"))
    raised = [t for t in tests if "not callable" in t["output"]]
    assert raised, [t["output"][:300] for t in tests]
    for t in raised:
        assert "needs_mask" not in t["extra_data"].get("mistakes", []), t["output"]
