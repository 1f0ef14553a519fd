"""The probe search and the crash search on multi-head code of several mistakes (reference/diagnosis/inference.py,
rewritings.py, crashes.py): the heads' widths made to hold together with another number of leading axes, an answer
read as several mistakes at once, a fixed number of tokens read off the exception, and probes that say nothing."""

from __future__ import annotations

import numpy as np
import pytest

from tests.homework import module as homework_module

ref = homework_module("attention")
inference = homework_module("diagnosis.inference")
decompose = homework_module("diagnosis.decompose")


def _graded(tmp_path_factory: pytest.TempPathFactory, source: str) -> dict[str, dict]:
    from autograder import runner
    from tests.homework import UPLOAD

    folder = tmp_path_factory.mktemp("search")
    (folder / f"{UPLOAD}.py").write_text(open(ref.__file__).read() + source)
    return {t["number"]: t for t in runner.grade_folder(folder)["tests"] if t["tags"] == ["multi_head_attention"]}


MATRIX_HEADS = '''

def multi_head_attention(X, W_Q, W_K, W_V, W_O, num_heads, mask=None):
    N, D = X.shape[0], X.shape[-1]  # one (N, D) matrix; heads of D // H, its own causal mask, no W_O
    d = D // num_heads
    Q, K, V = (np.swapaxes((X @ W).reshape(N, num_heads, d), 0, 1) for W in (W_Q, W_K, W_V))
    scores = Q @ np.swapaxes(K, -1, -2) / np.sqrt(d)
    scores = np.where(np.tril(np.ones((N, N))) == 0, -np.inf, scores)
    e = np.exp(scores - scores.max(axis=-1, keepdims=True))
    return np.swapaxes((e / e.sum(axis=-1, keepdims=True)) @ V, 0, 1).reshape(N, -1)
'''


def test_a_batch_the_code_reads_as_one_matrix_is_named_with_heads_of_the_model_width(tmp_path_factory) -> None:
    """The batched case raises at the heads' reshape; without its batch axis it still raises there, and so it does
    with heads of width D / H alone; with both, the call returns the contract's answer but for its own causal mask
    and no W_O: the search names the two properties it needed, read with what the answer shows (the call raised, so
    only that it works on 2-D inputs, not that it mixes their axes)."""
    batched = _graded(tmp_path_factory, MATRIX_HEADS)["D.4"]  # (2, 5, 8), 4 heads of d_k = 3, d_v = 2
    assert batched["score"] == 0
    named = batched["extra_data"]["mistakes"]
    assert named == ["matrix_input_only", "mha_head_width_model"], named  # a raise shows no axes mixed
    said = [e["by"] for e in batched["extra_data"]["evidence"] if "matrix_input_only" in e.get("sentence", "")]
    assert any("with 0 leading axes and with heads of width d_k = D / num_heads" in by for by in said), said
    assert any("with a causal mask of its own, without W_O" in by for by in said), said


BLOCK = '''

def multi_head_attention(X, W_Q, W_K, W_V, W_O, num_heads, mask=None):
    tril = np.tril(np.ones((8, 8)))  # a block_size of 8, never cut to the sequence
    scores = np.zeros((*X.shape[:-1], X.shape[-2]))
    np.where(tril == 0, -np.inf, scores)
    return _reference_mha(X, W_Q, W_K, W_V, W_O, num_heads, mask)
'''


def test_a_square_buffer_of_its_own_in_the_exception_is_read_as_a_fixed_number_of_tokens(tmp_path_factory) -> None:
    """numpy's broadcast error shows the (8, 8) buffer beside the case's (5, 5) scores: with 8 tokens the call gets
    past the line, and with 7 it still raises there, so the line assumed exactly 8 tokens (the buffer used whole)."""
    tests = _graded(tmp_path_factory, "\n_reference_mha = multi_head_attention\n" + BLOCK)
    for number in ("D.1", "D.4"):  # 5 tokens, with no leading axis and with one
        test = tests[number]
        assert test["extra_data"]["mistakes"][:1] == ["causal_mask_block_size"], test["output"]
        assert "assumes 8 tokens (an (8, 8) array of its own meets this case's (5, 5) scores)" in test["output"]
        assert "the same case read the other way still raises there" in str(test["extra_data"]["evidence"])


BLOCK_CUT = '''

def multi_head_attention(X, W_Q, W_K, W_V, W_O, num_heads, mask=None):
    n = X.shape[-2]
    tril = np.tril(np.ones((4, 4)))[:n, :n]  # a block_size of 4, cut to the sequence: up to 4 tokens
    scores = np.zeros((*X.shape[:-1], n))
    np.where(tril == 0, -np.inf, scores)
    return _reference_mha(X, W_Q, W_K, W_V, W_O, num_heads, mask)
'''


def test_a_square_buffer_cut_to_the_sequence_is_read_as_at_most_that_many_tokens(tmp_path_factory) -> None:
    """The (4, 4) buffer cut with `[:n, :n]` stays (4, 4) past 4 tokens: the line gets past with 4 tokens and with 3
    too, so it works up to 4 tokens, not with exactly 4 (causal_buffer_max_tokens, not causal_mask_block_size)."""
    tests = _graded(tmp_path_factory, "\n_reference_mha = multi_head_attention\n" + BLOCK_CUT)
    for number in ("D.1", "D.4"):  # 5 tokens
        test = tests[number]
        assert test["extra_data"]["mistakes"][:1] == ["causal_buffer_max_tokens"], test["output"]
        assert "causal_mask_block_size" not in test["extra_data"]["mistakes"], test["output"]
        assert "the same case read the other way gets past it too" in str(test["extra_data"]["evidence"])


def test_a_reshape_error_with_square_sizes_is_no_fixed_number_of_tokens() -> None:
    """Only a broadcast shows an array of the code's own meeting the scores: a reshape's sizes say nothing of it."""
    crashes = homework_module("diagnosis.crashes")
    named = {"X": np.ones((5, 6)), "W_Q": np.ones((6, 6)), "W_K": np.ones((6, 6)), "W_V": np.ones((6, 4)),
             "W_O": np.ones((4, 5)), "num_heads": 2, "mask": None}
    assert list(crashes._token_count("multi_head_attention", named, "cannot reshape array of size 20 into shape "
                                     "(5,2,2)")) == []
    found = list(crashes._token_count("multi_head_attention", named, "operands could not be broadcast together with "
                                      "shapes (8,8) () (5,5)"))
    assert [p[0] for p in found] == ["causal_mask_block_size"] and found[0][2] == "with 8 tokens"
    huge = list(crashes._token_count("multi_head_attention", named, "operands could not be broadcast together with "
                                     "shapes (700,700) (5,5)"))  # a probe that large costs its reading too much
    assert huge == []


@pytest.mark.parametrize("mask, expected", [
    (np.eye(3, dtype=bool), True),  # every query sees one key: any scores give the same weights
    (np.tril(np.ones((3, 3), bool)), False),
    (None, False),
])
def test_a_probe_whose_mask_leaves_one_key_per_query_says_nothing(mask, expected) -> None:
    inputs = {"Q": np.ones((3, 2)), "K": np.ones((3, 2)), "V": np.ones((3, 2)), "mask": mask}
    assert inference._one_key_per_row("scaled_dot_product_attention", inputs) is expected


def test_several_mistakes_read_in_a_probe_answer_only_at_the_contracts_scale() -> None:
    """One head over the full width without W_O reads as such; the same at another scale is not read at all (on a
    rewritten case a fitted scale may only sharpen a softmax)."""
    rng = np.random.default_rng(5)
    inputs = {"X": rng.normal(size=(4, 6)), "W_Q": rng.normal(size=(6, 6)), "W_K": rng.normal(size=(6, 6)),
              "W_V": rng.normal(size=(6, 6)), "W_O": rng.normal(size=(6, 3)), "num_heads": 2, "mask": None}
    one_head = dict(inputs, num_heads=1, W_O=np.eye(6))
    found = inference.decomposed("multi_head_attention", inputs, ref.multi_head_attention(**one_head), fitted=False)
    assert found is not None and set(found[0]) == {"heads_not_split", "no_output_projection"}, found
    sharper = ref.multi_head_attention(**dict(one_head, W_Q=one_head["W_Q"] * 3))
    assert inference.decomposed("multi_head_attention", inputs, sharper, fitted=False) is None


TRANSPOSE_CALLED = '''

def multi_head_attention(X, W_Q, W_K, W_V, W_O, num_heads, mask=None):
    K = X @ W_K
    (X @ W_Q) @ K.T(-2, -1)  # torch's transpose(-2, -1) written with the .T attribute
    return _reference_mha(X, W_Q, W_K, W_V, W_O, num_heads, mask)
'''


def test_an_attribute_called_as_a_method_is_read_from_the_exception(tmp_path_factory) -> None:
    """`K.T(-2, -1)` raises "'numpy.ndarray' object is not callable" on every input: Python's own rule says what the
    line assumed, quoted at the student's line."""
    tests = _graded(tmp_path_factory, "\n_reference_mha = multi_head_attention\n" + TRANSPOSE_CALLED)
    assert all(t["score"] == 0 for t in tests.values())
    for test in tests.values():
        assert "calls `.T` as a method: `.T` is the transposed array itself" in test["output"], test["output"]
        assert "np.swapaxes(a, -2, -1)" in test["output"] and "@ K.T(-2, -1)`" in test["output"]  # the line quoted


def _fixed_scale(scale_of):
    def sdpa(Q, K, V, mask=None, scale=None):
        scores = Q @ np.swapaxes(K, -1, -2) * scale_of(Q)
        if mask is not None:
            scores = np.where(mask, scores, -np.inf)
        weights = np.exp(scores - scores.max(axis=-1, keepdims=True))
        weights = weights / weights.sum(axis=-1, keepdims=True)
        return weights @ V, weights

    return sdpa


@pytest.mark.parametrize("scale_of, expected", [
    (lambda Q: 0.5, "scale_other"),  # a constant of its own, which equals 1/d_k on this case only
    (lambda Q: 1 / Q.shape[-1], "sqrt_missing"),  # 1/d_k whatever d_k
])
def test_a_scale_named_by_what_it_equals_is_kept_only_when_a_probe_with_every_size_doubled_reads_it_again(
        scale_of, expected) -> None:
    from autograder.suite.cases import Case
    from tests.test_evidence import LocalStudent

    explain = homework_module("diagnosis.explain")
    rng = np.random.default_rng(8)
    inputs = {"Q": rng.normal(size=(3, 2)), "K": rng.normal(size=(5, 2)), "V": rng.normal(size=(5, 3)), "mask": None,
              "scale": None}
    stored = Case("made-here", "scaled_dot_product_attention", inputs, ref.scaled_dot_product_attention(**inputs))
    student = _fixed_scale(scale_of)
    actual = student(**inputs)
    mistakes, how, _ = explain.explain(LocalStudent(scaled_dot_product_attention=student), stored,
                                       list(inputs.values()), list(inputs), False, actual)
    assert mistakes in (expected, (expected,)), (mistakes, how)
