"""One output, two explanations: where a stored mistake's output is also the contract's answer for another scale or
mask, neither is read off the output (a twenty-fifth batch of real students' code asked for it: on the Q&A
previous-token head, whose scores are 0 or 1, unscaled scores give the weights of a softmax taken twice). Graded by
the real engine."""

from __future__ import annotations

import pytest

from tests.test_inference import _graded_with

UNSCALED = '''

def scaled_dot_product_attention(Q, K, V, mask=None, scale=None):
    return _reference_sdpa(Q, K, V, mask, 1.0)  # the scores never scaled
'''


def test_an_unscaled_attention_is_not_said_to_softmax_twice_where_the_two_agree(
        tmp_path_factory: pytest.TempPathFactory) -> None:
    tests = {t["number"]: t for t in _graded_with(tmp_path_factory, "_reference_sdpa = scaled_dot_product_attention",
                                                   UNSCALED, "scaled_dot_product_attention")}
    previous_token = tests["C.9"]  # the Q&A previous-token head, scale = 60
    assert previous_token["score"] < previous_token["max_score"]
    assert "mask_on_weights_resoftmaxed" not in previous_token["extra_data"]["mistakes"], previous_token["output"]
    named = {m for t in tests.values() for m in t["extra_data"].get("mistakes", [])}
    assert "mask_on_weights_resoftmaxed" not in named
    assert named & {"no_scale", "scale_argument_ignored", "scale_other"}, named  # said where the cases tell it
