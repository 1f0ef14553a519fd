"""Inference from the output and the probe search (issue 21): each names a mistake only when a fit is exact or a
rewritten case gives the contract's answer; low precision only when the errors look like rounding."""

from __future__ import annotations

import re

import numpy as np
import pytest

from autograder.suite.cases import Case, call_arguments
from autograder.suite.graded import precision, support
from tests.homework import module as homework_module
from tests.test_evidence import LocalStudent

inference = homework_module('diagnosis.inference')
fits = homework_module('diagnosis.fits')
ref = homework_module('attention')


def sdpa(scale_of=None, combine=None):
    """A scaled_dot_product_attention with another default scale or another way of applying the mask."""

    def attend(Q, K, V, mask=None, scale=None):
        scores = Q @ np.swapaxes(K, -1, -2)
        scores = scores * (scale if scale is not None else (scale_of or (lambda: 1 / np.sqrt(Q.shape[-1])))(Q, K, V)
                           if scale_of else 1 / np.sqrt(Q.shape[-1]))
        if mask is not None:
            scores = combine(scores, mask) if combine else np.where(mask, scores, -np.inf)
        weights = ref.softmax(scores)
        return weights @ V, weights

    return attend


def infer(case_id: str, function, probe: bool = True) -> tuple | None:
    """What the output of ``function`` on the stored case shows; ``probe``: the function may be called again (a
    RoPE reading two explanations fit is settled by one probe)."""
    stored = support.case(case_id)
    actual = function(*(v for _, v in call_arguments(stored.inputs)))
    return fits.infer(stored, actual, LocalStudent(**{stored.function: function}) if probe else None)


@pytest.mark.parametrize("scale_of, expected", [
    (lambda Q, K, V: 1 / np.sqrt(V.shape[-1]), "scale_d_v"),
    (lambda Q, K, V: 1.0, "no_scale"),
    (lambda Q, K, V: 1 / Q.shape[-1], "sqrt_missing"),
    (lambda Q, K, V: 0.123, "scale_other"),
])
def test_the_effective_scale_is_fitted_from_the_weights(scale_of, expected) -> None:
    found = infer("sdpa-default-scale", sdpa(scale_of=scale_of))
    assert found is not None and found[0] == expected and "times" in found[1]


def test_a_boolean_mask_added_to_the_scores_is_named_and_a_right_output_names_nothing() -> None:
    found = infer("sdpa-causal", sdpa(combine=lambda scores, mask: scores + mask))
    assert found is not None and found[0] == "mask_bool_added"
    assert infer("sdpa-causal", ref.scaled_dot_product_attention) is None


def test_a_square_causal_mask_and_a_partial_rotation_are_read_off_the_output() -> None:
    assert infer("mask-more-keys", lambda n_q, n_k=None: np.tril(np.ones((n_q, n_q), bool)))[0] == "causal_ignores_n_k"

    def partial(x, positions, base=10000.0):
        half = x.shape[-1] // 2 - (x.shape[-1] // 2) % 2
        return np.concatenate([ref.rope(x[..., :half], positions, base ** (half / x.shape[-1])), x[..., half:]], -1)

    found = infer("rope-d8", partial)
    assert found is not None and found[0] == "rope_partial"


@pytest.mark.parametrize("broken, expected", [
    (lambda Q, K, V, mask=None, scale=None: (_ for _ in ()).throw(ValueError("4-D only")) if Q.ndim != 4
     else ref.scaled_dot_product_attention(Q, K, V, mask, scale), "needs_leading_axes"),
    (lambda Q, K, V, mask=None, scale=None: (_ for _ in ()).throw(AssertionError()) if V.shape[-1] != Q.shape[-1]
     else ref.scaled_dot_product_attention(Q, K, V, mask, scale), "needs_equal_widths"),
    (lambda Q, K, V, mask=None, scale=None: (_ for _ in ()).throw(ValueError("n_q != n_k")) if Q.shape[-2] !=
     K.shape[-2] else ref.scaled_dot_product_attention(Q, K, V, mask, scale), "needs_square"),
])
def test_the_probe_search_names_the_property_the_code_needs(broken, expected) -> None:
    def guarded(*args):
        try:
            return broken(*args)
        except AssertionError as e:
            raise ValueError("assert") from e

    student = LocalStudent(scaled_dot_product_attention=guarded)
    stored = support.case("sdpa-default-scale" if expected != "needs_square" else "sdpa-batch")
    found = inference.search(student, stored, None)
    assert found is not None and expected in (found[0] if isinstance(found[0], tuple) else (found[0],))


@pytest.mark.parametrize("accepts, expected", [((3, 4), "needs_leading_axis"), ((4,), "needs_leading_axes")])
def test_a_case_without_leading_axes_that_passes_with_two_names_a_fixed_number_only_if_one_fails(accepts,
                                                                                                 expected) -> None:
    """Code that needs n_q = n_k and some leading axis (its ranks ``accepts``): the probe with two leading axes and
    as many queries as keys passes first; with one leading axis too, the code needs some axis, not exactly two."""

    def sdpa(Q, K, V, mask=None, scale=None):
        if Q.ndim not in accepts or Q.shape[-2] != K.shape[-2]:
            raise ValueError("no")
        return ref.scaled_dot_product_attention(Q, K, V, mask, scale)

    found = inference.search(LocalStudent(scaled_dot_product_attention=sdpa), support.case("sdpa-default-scale"), None)
    assert found is not None and found[0] == (expected, "needs_square"), found


def rope_requiring_base(x, positions, base):
    return ref.rope(x, positions, base)


def mask_requiring_n_k(n_q, n_k):
    return ref.causal_mask(n_q, n_k)


def attention_requiring_all(Q, K, V, mask, scale):
    return ref.scaled_dot_product_attention(Q, K, V, mask, scale)


@pytest.mark.parametrize("function, case_id, student", [
    ("rope", "rope-d2", rope_requiring_base),
    ("causal_mask", "mask-square", mask_requiring_n_k),
    ("scaled_dot_product_attention", "sdpa-default-scale", attention_requiring_all),
])
def test_an_argument_the_contract_gives_a_default_but_the_code_requires_is_named(function, case_id, student) -> None:
    stored = support.case(case_id)
    assert len(call_arguments(stored.inputs)) < student.__code__.co_argcount  # the case leaves it out
    found = inference.search(LocalStudent(**{function: student}), stored, None, type_error=True)
    assert found is not None and found[0] == "default_required", found
    assert "given" in found[1]


def test_attention_that_always_applies_its_own_causal_mask_is_named() -> None:
    def always_causal(Q, K, V, mask=None, scale=None):
        return ref.scaled_dot_product_attention(Q, K, V, ref.causal_mask(Q.shape[-2], K.shape[-2]), scale)

    stored = support.case("sdpa-default-scale")
    original = always_causal(*(v for _, v in call_arguments(stored.inputs)))
    found = inference.answered(stored, original)
    assert found is not None and found[0] == "always_causal"


def mha(scale_of=None, added=False, causal=False):
    """A multi_head_attention scaling each head by scale_of(D, H, d_k), adding the mask to the scores as 0/1 instead
    of hiding keys (``added``), or always applying a causal mask of its own (``causal``)."""

    def attend(X, W_Q, W_K, W_V, W_O, num_heads, mask=None):
        H, D = num_heads, X.shape[-1]

        def split(M):
            return np.swapaxes(M.reshape(*M.shape[:-1], H, -1), -2, -3)

        Q, K, V = split(X @ W_Q), split(X @ W_K), split(X @ W_V)
        scores = Q @ np.swapaxes(K, -1, -2) * (scale_of(D, H, Q.shape[-1]) if scale_of else 1 / np.sqrt(Q.shape[-1]))
        n = X.shape[-2]
        if mask is not None:
            mask = np.broadcast_to(mask, (*np.shape(mask)[:-2], n, n))[..., None, :, :]
            scores = scores + mask if added else np.where(mask, scores, -np.inf)
        if causal:
            scores = np.where(np.tril(np.ones((n, n), bool)), scores, -np.inf)
        heads = ref.softmax(scores) @ V
        heads = np.swapaxes(heads, -2, -3)
        return heads.reshape(*heads.shape[:-2], -1) @ W_O

    return attend


@pytest.mark.parametrize("case_id, function, expected", [
    # the model width over the heads, D / H: a reading of its own (no sentence), fitted through the whole layer
    ("mha-batch", mha(lambda D, H, d_k: 1 / np.sqrt(D / H)), ("scale_other",)),
    ("mha-batch", mha(lambda D, H, d_k: 1.0), ("no_scale",)),
    ("mha-batch", mha(lambda D, H, d_k: 1 / np.sqrt(D)), ("scale_d_model",)),
    ("mha-batch", mha(lambda D, H, d_k: 1 / np.sqrt(D / H), causal=True), ("scale_other", "always_causal")),
    ("mha-batch-masks", mha(added=True), ("mask_bool_added",)),
    ("mha-causal", mha(added=True), ("mask_bool_added",)),
])
def test_what_multi_head_attention_computed_is_named_from_its_output_alone(case_id, function, expected) -> None:
    stored = support.case(case_id)
    found = inference.answered(stored, function(*(v for _, v in call_arguments(stored.inputs))))
    assert found is not None, case_id
    assert (found[0] if isinstance(found[0], tuple) else (found[0],)) == expected
    assert inference.answered(stored, mha()(*(v for _, v in call_arguments(stored.inputs)))) is None


def test_one_head_scaled_by_the_model_width_names_no_reading_of_it() -> None:
    """With one head, 1/sqrt(D) is both the model width and the model width over the heads: neither is shown."""
    stored = support.case("mha-one-head")
    found = inference.answered(stored, mha(lambda D, H, d_k: 1 / np.sqrt(D))(
        *(v for _, v in call_arguments(stored.inputs))))
    assert found is not None and found[0] == "scale_other"


def test_low_precision_needs_rounding_like_errors_not_a_systematic_factor() -> None:
    rng = np.random.default_rng(3)
    expected = rng.normal(size=(6, 8))
    rounded = expected.astype(np.float16).astype(float)
    assert precision.low_precision(expected, rounded)
    assert not precision.low_precision(expected, expected * (1 + 3e-4))  # a scale, not rounding
    assert not precision.low_precision(expected, expected + 3e-4 * np.sign(expected))


def _rope_variant(pairs: str = "interleaved", sign: float = 1.0, at=None, theta=None):
    """A RoPE with another pairing, direction, position rule or frequency rule (one kind of student code)."""

    def rope(x, positions, base=10000.0):
        d = x.shape[-1]
        where = np.asarray(positions, float) if at is None else at(np.asarray(positions, float))
        freq = base ** (-np.arange(d // 2) * 2 / d) if theta is None else theta(base, d)
        angle = sign * where[:, None] * freq[None, :]
        first, second = (np.arange(0, d, 2), np.arange(1, d, 2)) if pairs == "interleaved" else (
            np.arange(d // 2), np.arange(d // 2, d))
        out = np.array(x, dtype=float)
        a, b = x[..., first], x[..., second]
        out[..., first], out[..., second] = a * np.cos(angle) - b * np.sin(angle), a * np.sin(angle) + b * np.cos(angle)
        return out

    return rope


@pytest.mark.parametrize("rope, expected", [
    (_rope_variant(), None),
    (_rope_variant(pairs="half", at=lambda p: np.arange(len(p), dtype=float)),
     ("rope_half_split", "rope_ignores_positions")),
    (_rope_variant(sign=-1.0, theta=lambda base, d: base ** (-np.arange(d // 2) / d)),
     ("rope_wrong_direction", "rope_wrong_freq")),
    (_rope_variant(pairs="half", at=lambda p: np.arange(1, len(p) + 1, dtype=float)),  # counts tokens from 1
     ("rope_half_split", "rope_ignores_positions", "rope_position_off_by_one")),
    (_rope_variant(at=lambda p: np.trunc(p) + 1), ("rope_integer_positions", "rope_position_off_by_one")),
])
def test_the_rotation_of_every_pair_is_read_off_the_output_and_fitted(rope, expected) -> None:
    found = infer("rope-real-positions", rope)
    assert (found and found[0]) == expected or (expected is None and found is None), found


@pytest.mark.parametrize("at, expected", [
    (lambda p: np.arange(len(p), dtype=float), "rope_ignores_positions"),
    (lambda p: np.floor(p[0]) + np.arange(len(p), dtype=float), "rope_integer_offset"),  # int(positions[0]) + 0..N-1
])
def test_two_position_rules_that_give_the_same_angles_are_told_apart_by_a_probe_or_not_named(at, expected) -> None:
    """rope-real-positions starts at 0.5: a whole start position read from it (0) + 0..N-1 is 0..N-1, positions
    ignored. The output alone names neither; the same x at positions + 3, where the rules differ, names the one."""
    rope = _rope_variant(at=at)
    assert infer("rope-real-positions", rope, probe=False) is None
    found = infer("rope-real-positions", rope)
    assert found is not None and found[0] == expected and "a probe" in found[1], found


def test_a_mixed_layout_whose_pairs_turn_at_every_other_frequency_is_read_and_at_d_4_is_not_one_frequency() -> None:
    """Tables cat(freqs, freqs) read at the even columns for the pairs (x_2i, x_2i+1): pair i turns at
    theta_(2i mod d/2). At d = 8 that is read as the mixed layout; at d = 4 it is one frequency for both pairs, which
    rope_single_freq gives as well: neither is named."""
    def mixed(x, positions, base=10000.0):
        d = x.shape[-1]
        freqs = np.asarray(positions, float)[:, None] * base ** (-np.arange(0, d, 2) / d)
        cos, sin = (f(np.concatenate([freqs, freqs], -1))[..., ::2] for f in (np.cos, np.sin))
        out = np.array(x, dtype=float)
        a, b = x[..., 0::2], x[..., 1::2]
        out[..., 0::2], out[..., 1::2] = a * cos - b * sin, a * sin + b * cos
        return out

    assert infer("rope-d8", mixed)[0] == "rope_mixed_layout"
    assert infer("rope-real-positions", mixed) is None


def _rope_written(table: str, partner: str, out: str = "in place", sign: float = 1.0, lead: tuple = ()):
    """A RoPE as ``x * cos + partners(x) * sin`` whose cos/sin tables (per pair, or two halves as cat(freqs, freqs)),
    partner coordinates and output layout are chosen apart (code that mixes two layouts), with ``lead`` axes of
    length 1 added to its output (tables made 4-D)."""

    def rope(x, positions, base=10000.0):
        d = x.shape[-1]
        freqs = np.asarray(positions, float)[:, None] * base ** (-np.arange(0, d, 2) / d)
        angle = np.repeat(freqs, 2, axis=-1) if table == "pair" else np.concatenate([freqs, freqs], -1)
        partners = {"pair": np.stack([-x[..., 1::2], x[..., 0::2]], -1).reshape(x.shape),
                    "half": np.concatenate([-x[..., d // 2:], x[..., :d // 2]], -1),
                    "odd-even": np.concatenate([-x[..., 1::2], x[..., 0::2]], -1)}[partner]
        y = x * np.cos(angle) + sign * partners * np.sin(angle)
        y = np.concatenate([y[..., 0::2], y[..., 1::2]], -1) if out == "halves" else y
        return y.reshape(lead + y.shape)

    return rope


@pytest.mark.parametrize("rope, expected", [
    (_rope_written("pair", "pair"), None),  # the contract's
    (_rope_written("pair", "pair", lead=(1, 1)), None),  # right values, extra axes: explain's extra_axes says so
    (_rope_written("half", "odd-even", sign=-1.0), ("rope_mixed_layout", "rope_wrong_direction")),
    (_rope_written("pair", "half"), "rope_mixed_layout"),  # rotate_half with tables repeated per pair
    (_rope_written("pair", "pair", out="halves"), "rope_output_halves"),
    (_rope_written("pair", "pair", out="halves", lead=(1, 1)), ("rope_output_halves", "extra_leading_axes")),
    (_rope_written("half", "half", lead=(1,)), ("rope_half_split", "extra_leading_axes")),
])
def test_rope_written_in_layouts_that_do_not_agree_is_named_by_the_combination_that_reproduces_it(rope,
                                                                                                  expected) -> None:
    found = infer("rope-real-positions", rope)
    assert (found[0] if found else None) == expected, found


@pytest.mark.parametrize("mask, expected", [
    (lambda n_q, n_k=None: ~np.tril(np.ones((n_q, n_q), bool)), ("causal_ignores_n_k", "mask_inverted")),
    (lambda n_q, n_k=None: np.tril(np.ones((n_q, n_q), bool)), "causal_ignores_n_k"),
    (lambda n_q, n_k=None: np.where(np.tril(np.ones((n_q, n_q), bool)), 0.0, -np.inf),
     ("causal_ignores_n_k", "mask_additive")),  # 0 allows
    (lambda n_q, n_k=None: np.where(np.tril(np.ones((n_q, n_q), bool)), -np.inf, 0.0),
     ("causal_ignores_n_k", "mask_inverted", "mask_additive")),
    (lambda n_q, n_k=None: np.tril(np.ones((n_q, n_q))), ("causal_ignores_n_k", "mask_float")),  # nonzero allows
    (lambda n_q, n_k=None: np.tril(np.full((n_q, n_q), 0.5)), None),  # other numbers: no form read
])
def test_a_square_causal_mask_is_named_with_its_polarity_and_the_form_it_is_written_in(mask, expected) -> None:
    found = infer("mask-more-keys", mask)
    assert (found[0] if found else None) == expected


def test_rope_with_the_default_base_instead_of_the_given_one_is_read_off_the_output() -> None:
    def default_base(x, positions, base=10000.0):
        return ref.rope(x, positions)  # base dropped

    found = infer("rope-d8", default_base)  # base 100 asked
    assert found is not None and found[0] == "rope_base_ignored"


# ---- a raise in the student's own code: their line, and what it assumed (the crash search) ------------------------

CRASHING = '''

def scaled_dot_product_attention(Q, K, V, mask=None, scale=None):
    B, H, N, d = Q.shape  # 4-D only
    scores = Q @ np.swapaxes(K, -1, -2) / np.sqrt(d) if scale is None else Q @ np.swapaxes(K, -1, -2) * scale
    if mask is not None:
        scores = np.where(mask, scores, -np.inf)
    weights = softmax(scores)
    return weights @ V, weights


def rope(x, positions, base=10000.0):
    d = x.shape[-1]
    theta = base ^ (-np.arange(0, d, 2) / d)
    angles = np.asarray(positions, dtype=float)[:, None] * theta
    return x


def multi_head_attention(X, W_Q, W_K, W_V, W_O, num_heads, mask=None):
    assert W_V.shape == W_Q.shape, "values as wide as queries"
    return _reference_mha(X, W_Q, W_K, W_V, W_O, num_heads, mask)
'''


@pytest.fixture(scope="module")
def crashing(tmp_path_factory: pytest.TempPathFactory) -> dict[str, dict]:
    """A submission whose own lines raise on some cases, graded once by the real engine: test number -> result."""
    from autograder import runner
    from tests.homework import UPLOAD

    source = homework_module("attention").__file__
    text = open(source).read() + "\n_reference_mha = multi_head_attention\n" + CRASHING
    folder = tmp_path_factory.mktemp("crashing")
    (folder / f"{UPLOAD}.py").write_text(text)
    return {t["number"]: t for t in runner.grade_folder(folder)["tests"]}


def _where(test: dict) -> str:
    return next((line for line in test["output"].splitlines() if line.startswith("**Where it fails:**")), "")


def test_a_raise_in_the_functions_own_code_quotes_its_line_and_what_it_assumed(crashing) -> None:
    failing = [t for t in crashing.values() if t["tags"] == ["scaled_dot_product_attention"] and t["score"] < t[
        "max_score"]]
    assert failing
    for t in failing:
        where = _where(t)
        if "is 2-D" not in where:
            continue
        assert "Your line `B, H, N, d = Q.shape`" in where and "assumes `Q` is 4-D" in where, where
        assert "needs_leading_axes" in t["extra_data"]["mistakes"]
        backed = [e for e in t["extra_data"]["evidence"] if e["sentence"] == "needs_leading_axes"]
        assert any("no longer raises at the student's line" in e["by"] for e in backed), t["extra_data"]
        break
    else:
        pytest.fail("no 2-D attention case quoted the student's line")


def test_a_power_written_with_xor_is_read_from_the_exception(crashing) -> None:
    rope_tests = [t for t in crashing.values() if t["tags"] == ["rope"] and t["score"] < t["max_score"]]
    assert rope_tests
    where = _where(rope_tests[0])
    assert "`theta = base ^ (-np.arange(0, d, 2) / d)`" in where and "bitwise XOR" in where, where
    assert any(e["sentence"] == support.OWN_LINE for e in rope_tests[0]["extra_data"]["evidence"])


def test_an_assert_is_explained_by_the_property_that_gets_past_it(crashing) -> None:
    quoted = [_where(t) for t in crashing.values() if t["tags"] == ["multi_head_attention"] and _where(t)]
    assert quoted and all("`assert W_V.shape == W_Q.shape, \"values as wide as queries\"`" in w for w in quoted)
    assert all("d_v = d_k" in w for w in quoted), quoted


def test_a_callees_raise_is_never_quoted_as_the_callers_line(crashing) -> None:
    # decode_step and the generators (the reference's) call the 4-D-only attention: its line is the callee's
    for t in crashing.values():
        if t["tags"][0] in ("decode_step", "generate_cached", "generate_naive") and t["score"] < t["max_score"]:
            assert not _where(t), t["output"]


ASSERTING = '''

def _apply_mask(scores, mask):  # a mask helper that asserts the scores' rank, reached only with a mask
    assert len(scores.shape) in (3, 4)
    return np.where(mask, scores, -np.inf)


def scaled_dot_product_attention(Q, K, V, mask=None, scale=None):
    scores = Q @ np.swapaxes(K, -1, -2) * (1 / np.sqrt(Q.shape[-1]) if scale is None else scale)
    if mask is not None:
        scores = _apply_mask(scores, mask)
    weights = softmax(scores)
    return weights @ V, weights


def multi_head_attention(X, W_Q, W_K, W_V, W_O, num_heads, mask=None):
    assert X.ndim == 3, "batch-first input"
    return _reference_mha(X, W_Q, W_K, W_V, W_O, num_heads, mask)
'''


@pytest.fixture(scope="module")
def asserting(tmp_path_factory: pytest.TempPathFactory) -> dict[str, dict]:
    """A submission whose own asserts read the number of axes, graded once by the real engine."""
    from autograder import runner
    from tests.homework import UPLOAD

    text = open(homework_module("attention").__file__).read() + "\n_reference_mha = multi_head_attention\n" + ASSERTING
    folder = tmp_path_factory.mktemp("asserting")
    (folder / f"{UPLOAD}.py").write_text(text)
    return {t["number"]: t for t in runner.grade_folder(folder)["tests"]}


def _failing(graded: dict[str, dict], function: str) -> list[dict]:
    return [t for t in graded.values() if t["tags"] == [function] and t["score"] < t["max_score"]]


def test_an_assert_on_the_number_of_axes_names_the_axes_it_assumed(asserting) -> None:
    quoted = [t for t in _failing(asserting, "multi_head_attention") if "`assert X.ndim == 3" in _where(t)]
    assert quoted, [t["output"] for t in _failing(asserting, "multi_head_attention")]
    for t in quoted:  # 2-D (or 4-D) input, with a mask or without: the line fails either way
        assert "assumes `X` is 3-D (one leading axis)" in _where(t), _where(t)
        assert "batch_first_only" in t["extra_data"]["mistakes"], t["extra_data"]


def test_a_rank_assert_reached_only_with_a_mask_names_no_mistake_of_the_axes(asserting) -> None:
    quoted = [t for t in _failing(asserting, "scaled_dot_product_attention")
              if "`assert len(scores.shape) in (3, 4)`" in _where(t)]
    assert quoted, [t["output"] for t in _failing(asserting, "scaled_dot_product_attention")]
    for t in quoted:  # without the mask the same call is right on these axes: the axes are not the code's mistake
        axes = {"batch_first_only", "needs_leading_axis", "needs_leading_axes", "no_batch_support"}
        assert not axes & set(t["extra_data"]["mistakes"]), t["extra_data"]
        if "without the mask" in _where(t):  # the probe without the mask told the readings apart: both are said,
            assert "The same call with one leading axis no longer raises there" in _where(t), _where(t)
            assert "assumes" not in _where(t), _where(t)  # and no assumption of the axes is
            assert any("without the mask" in e.get("by", "") for e in t["extra_data"]["evidence"]), t["extra_data"]
    told = "nor does the same call without the mask (`mask=None`): these probes do not tell what it assumed"
    assert any(told in _where(t) for t in quoted), [_where(t) for t in quoted]


def test_at_most_two_sentences_and_none_that_another_says() -> None:
    assert support.said(["mha_value_width", "mha_head_width_model", "batch_first_only"], 2) == [
        "mha_head_width_model", "batch_first_only"]
    assert support.said(["a", "b", "c"], 2) == ["a", "b"]
    assert support.said(["a"], 0) == ["a"]  # a test that fails says at least its first cause


def _axis_0_square_only(Q, K, V, mask=None, scale=None):
    """Attention that raises unless n_q = n_k, and otherwise takes the softmax over the queries (axis 0)."""
    if Q.shape[-2] != K.shape[-2]:
        raise ValueError("shapes not aligned")
    scores = Q @ np.swapaxes(K, -1, -2) / np.sqrt(Q.shape[-1])
    weights = ref.softmax(scores, axis=-2)
    return weights @ V, weights


def _right_when_square(Q, K, V, mask=None, scale=None):
    if Q.shape[-2] != K.shape[-2]:
        raise ValueError("shapes not aligned")
    return ref.scaled_dot_product_attention(Q, K, V, mask, scale)


@pytest.mark.parametrize("n_q, n_k", [(5, 1), (1, 7)])
def test_a_square_probe_of_one_key_and_one_query_is_never_made(n_q, n_k) -> None:
    """With a single query and key every softmax gives 1, right or wrong: the square probe extends the shorter side
    to max(n_q, n_k) rows instead (distinct ones), so code that is wrong on square cases is not told needs_square."""
    rng = np.random.default_rng(0)
    Q, K, V = rng.normal(size=(n_q, 3)), rng.normal(size=(n_k, 3)), rng.normal(size=(n_k, 2))
    rewritings = homework_module("diagnosis.rewritings")
    square = rewritings._square({"Q": Q, "K": K, "V": V, "mask": np.ones(n_k, bool), "scale": None})
    n = max(n_q, n_k)
    assert square["Q"].shape == (n, 3) and square["K"].shape == (n, 3) and square["V"].shape == (n, 2)
    assert len({tuple(row) for row in (square["Q"] if n_q == 1 else square["K"])}) == n
    assert square["mask"].shape == (n, n)  # written out in full, as every mask is
    stored = Case("one-side", "scaled_dot_product_attention", {"Q": Q, "K": K, "V": V, "mask": None, "scale": None},
                  ref.scaled_dot_product_attention(Q, K, V))
    student = LocalStudent(scaled_dot_product_attention=_axis_0_square_only)
    assert inference.search(student, stored, None) is None
    found = inference.search(LocalStudent(scaled_dot_product_attention=_right_when_square), stored, None)
    assert found is not None and found[0] == "needs_square"


def _mask_given_an_axis(Q, K, V, mask=None, scale=None):
    """mask.unsqueeze(1) then an in-place masked_fill_: a (n_k,) mask becomes (n_k, 1), which meets the scores' query
    axis, so on 2-D scores it raises unless n_q = n_k; a (n_q, n_k) one becomes (n_q, 1, n_k) and always raises."""
    scores = Q @ np.swapaxes(K, -1, -2) / np.sqrt(Q.shape[-1])
    if mask is not None:
        scores = np.where(np.broadcast_to(np.expand_dims(mask, 1), scores.shape), scores, -np.inf)
    weights = ref.softmax(scores)
    return weights @ V, weights


def test_a_square_probe_writes_a_key_mask_out_in_full_so_its_shape_is_not_read_as_the_number_of_queries() -> None:
    """Cut to n keys, a (n_k,) mask has as many entries as the square case has queries: code that gives the mask an
    axis of its own would get past as if it needed n_q = n_k. The probe writes the mask out in full (as it does any
    other), so only code that needs the square gets past: the mask's axis is not told needs_square."""
    rng = np.random.default_rng(1)
    Q, K, V = rng.normal(size=(6, 3)), rng.normal(size=(2, 3)), rng.normal(size=(2, 4))
    mask = np.ones(2, bool)
    stored = Case("key-mask", "scaled_dot_product_attention", {"Q": Q, "K": K, "V": V, "mask": mask, "scale": None},
                  ref.scaled_dot_product_attention(Q, K, V, mask))
    found = inference.search(LocalStudent(scaled_dot_product_attention=_mask_given_an_axis), stored, None)
    assert found is None or "needs_square" not in (found[0] if isinstance(found[0], tuple) else (found[0],)), found
    found = inference.search(LocalStudent(scaled_dot_product_attention=_right_when_square), stored, None)
    assert found is not None and found[0] == "needs_square"


def _own_causal_scrambled(Q, K, V, mask=None, scale=None):
    """A causal mask of its own when any mask is given: the (n_q, n_k) triangle transposed, then reshaped back to
    (n_q, n_k) (right only when n_q == n_k), added as -inf."""
    n_q, n_k = Q.shape[-2], K.shape[-2]
    scores = Q @ np.swapaxes(K, -1, -2) / np.sqrt(Q.shape[-1])
    if mask is not None:
        scores = scores + np.tril(np.full((n_q, n_k), -np.inf), -1).T.reshape(n_q, n_k)
    weights = ref.softmax(scores)
    return weights @ V, weights


def _own_causal_top_left(Q, K, V, mask=None, scale=None):
    n_q, n_k = Q.shape[-2], K.shape[-2]
    return ref.scaled_dot_product_attention(Q, K, V, np.tril(np.ones((n_q, n_k), bool)), scale)


def test_a_square_probe_fixed_by_a_causal_mask_of_the_codes_own_names_no_square_mistake() -> None:
    """The square cut of sdpa-batch's bottom-right causal mask is the square causal pattern: code that puts a causal
    mask of its own in place of the given one (right only on square cases) passes it too, so needs_square is not
    told apart from it and is not named; code that honours the mask and needs n_q = n_k still is."""
    stored = support.case("sdpa-batch")
    named = dict(call_arguments(stored.inputs))
    original = _own_causal_scrambled(*named.values())
    found = inference.search(LocalStudent(scaled_dot_product_attention=_own_causal_scrambled), stored, original)
    assert found is None or "needs_square" not in (found[0] if isinstance(found[0], tuple) else (found[0],)), found
    found = inference.search(LocalStudent(scaled_dot_product_attention=_right_when_square), stored, None)
    assert found is not None and found[0] == "needs_square"


def test_a_causal_mask_aligned_top_left_is_read_as_such() -> None:
    stored = support.case("sdpa-batch")
    named = dict(call_arguments(stored.inputs))
    found = inference.answer_for(stored.function, named, _own_causal_top_left(*named.values()))
    assert found is not None and found[0] == ("always_causal", "causal_top_left"), found


def test_an_output_with_extra_leading_axes_is_read_without_them_and_named_with_them() -> None:
    """A (1, 1, n, n) causal buffer broadcast against 2-D scores (GPT-2's), scaled by 1/sqrt(d_v): the output has
    extra axes and wrong values; read without the axes, the values show the scale and the code's own causal mask."""
    explain = homework_module("diagnosis.explain")

    def buffered(Q, K, V, mask=None, scale=None):
        scores = Q @ np.swapaxes(K, -1, -2) / np.sqrt(V.shape[-1])
        buffer = np.tril(np.ones((8, 8), bool))[None, None]
        scores = np.where(buffer[..., K.shape[-2] - Q.shape[-2]:K.shape[-2], :K.shape[-2]], scores, -1e4)
        weights = ref.softmax(scores)
        return weights @ V, weights

    stored = support.case("sdpa-default-scale")  # 3 queries, 5 keys, d_k = 4, d_v = 2, no mask
    names, args = zip(*call_arguments(stored.inputs))
    actual = buffered(*args)
    assert actual[0].shape[:2] == (1, 1)
    mistakes, how, _ = explain.explain(LocalStudent(scaled_dot_product_attention=buffered), stored, list(args),
                                       list(names), False, actual)
    assert {"scale_d_v", "extra_leading_axes"} <= set(mistakes) <= {"scale_d_v", "always_causal",
                                                                    "extra_leading_axes"}, (mistakes, how)
    assert mistakes[-1] == "extra_leading_axes" and "leading axes of length 1 removed" in how


def test_weights_normalised_over_the_queries_are_read_off_with_their_scale() -> None:
    """A softmax over axis -2 (each key's column sums to 1) at a constant scale of its own, the mask ignored."""

    def over_queries(Q, K, V, mask=None, scale=None):
        weights = ref.softmax(Q @ np.swapaxes(K, -1, -2) / 10.0, axis=-2)
        return weights @ V, weights

    found = infer("sdpa-default-scale", over_queries)
    assert found is not None and found[0] == ("softmax_wrong_axis", "scale_other")
    assert "normalised over the queries" in found[1]
    assert infer("sdpa-default-scale", sdpa()) is None  # the contract's own weights: nothing to name


def _unpack_three(a):
    _, _, _ = a.shape


@pytest.mark.parametrize("raising", [
    lambda a: np.swapaxes(a, 1, 2),  # AxisError: axis 2 is out of bounds for array of dimension 2
    lambda a: a.transpose(0, 2, 1),  # axes don't match array
    _unpack_three,  # not enough values to unpack
    lambda a: np.einsum("bij->bji", a),  # einstein sum subscripts string contains too many subscripts
    lambda a: a.shape[2],  # tuple index out of range
], ids=["swapaxes", "transpose", "unpack", "einsum", "shape-index"])
def test_what_numpy_says_of_an_array_of_another_rank_is_read_as_a_rank_error(raising) -> None:
    """The crash search tries other numbers of leading axes only on these messages: numpy's own, as installed."""
    crashes = homework_module("diagnosis.crashes")
    with pytest.raises(Exception) as info:
        raising(np.ones((3, 4)))
    assert re.search(crashes.RANK_ERRORS, str(info.value)), str(info.value)


def test_what_pytorch_says_of_a_dimension_out_of_range_is_read_as_a_rank_error() -> None:
    """Code ported from PyTorch keeps its checks: `keys.transpose(-2, 3)` on a 2-D tensor says this."""
    crashes = homework_module("diagnosis.crashes")
    assert re.search(crashes.RANK_ERRORS, "Dimension out of range (expected to be in range of [-2, 1], but got 3)")


# ---- a rewriting that makes an earlier line raise tells nothing of the line (raises.stopped_before) ------------

TWO_HEADS = '''

def multi_head_attention(X, W_Q, W_K, W_V, W_O, num_heads, mask=None):
{first}
    assert num_heads == 2, "two heads, as the course template has"
    return _reference_mha(X, W_Q, W_K, W_V, W_O, num_heads, mask){times}
'''


def _graded_heads(tmp_path_factory: pytest.TempPathFactory, first: str, template: str = TWO_HEADS,
                  times: str = "") -> list[dict]:
    return _graded_with(tmp_path_factory, "_reference_mha = multi_head_attention",
                        template.format(first=first, times=times), "multi_head_attention")


FIXED = "assumes a fixed number of heads"


def test_a_line_that_needs_a_fixed_number_of_heads_is_named_when_nothing_else_gets_past_it(tmp_path_factory) -> None:
    tests = _graded_heads(tmp_path_factory, "    pass", times=" * 2")
    quoted = [t for t in tests if FIXED in _where(t)]
    assert quoted, [t["output"][:300] for t in tests]
    for t in quoted:
        assert t["extra_data"]["mistakes"][:1] == ["mha_fixed_heads"], t["output"]
        assert "with num_heads = 2 (the same projections) no longer raises there" in _where(t)


NARROW_HEADS = '''

def multi_head_attention(X, W_Q, W_K, W_V, W_O, num_heads, mask=None):
    d = W_Q.shape[-1] // num_heads
    base = 10000.0 * 2.0 ** (d / (d - 2))  # an NTK-aware rotary scaling: raises at heads 2 wide
    return _reference_mha(X, W_Q, W_K, W_V, W_O, num_heads, mask)
'''


def test_a_line_that_needs_wider_heads_is_not_blamed_on_the_number_of_heads(tmp_path_factory) -> None:
    """Fewer heads over the same projections are wider heads: the line gets past with num_heads = 2, and as well with
    the case's 4 heads made as wide, so the number of heads is not what it assumed and nothing is named."""
    tests = _graded_heads(tmp_path_factory, "", template=NARROW_HEADS)
    quoted = [t for t in tests if "(d - 2)" in _where(t)]
    assert quoted, [t["output"][:300] for t in tests]
    for t in quoted:
        assert "mha_fixed_heads" not in t["extra_data"]["mistakes"], t["output"]
        assert FIXED not in _where(t) and "these probes do not tell what it assumed" in _where(t), _where(t)
        assert re.search(r"nor does the same call with num_heads = \d+ and heads \d+ wide", _where(t)), _where(t)


def test_a_reading_that_raises_before_the_line_with_its_own_kind_of_exception_does_not_block_it(
        tmp_path_factory) -> None:
    """Without its batch axis the call raises at the earlier `B, N, D = X.shape`, a rank's kind of exception, at a
    line this case gets past: the code needs this case's rank there, so the rank is no reading of the later assert
    (`X.ndim == 3` holds on this case), and the number of heads that gets past it is named, the evidence saying why
    the rank was set aside."""
    tests = _graded_heads(tmp_path_factory, "    B, N, D = X.shape  # 3-D only", TWO_HEADS.replace(
        "assert num_heads == 2", "assert num_heads == 2 and X.ndim == 3"), times=" * 2")
    quoted = [t for t in tests if FIXED in _where(t)]
    assert quoted, [t["output"][:300] for t in tests]
    for t in quoted:
        assert t["extra_data"]["mistakes"][:1] == ["mha_fixed_heads"], t["output"]
        said = [e for e in t["extra_data"]["evidence"] if e["sentence"] == "mha_fixed_heads"]
        assert any("stops at an earlier line, which this case gets past, with that kind of exception" in e["by"]
                   for e in said), t["extra_data"]


def test_a_reading_the_exception_does_not_speak_of_that_raises_before_the_line_does_not_block_it(
        tmp_path_factory) -> None:
    """The same code whose assert says nothing of a rank (`assert num_heads == 2`): the reading without a batch axis
    stops at an earlier line, but nothing in the exception speaks of the rank, so the line is named by the property
    that gets past it, and the evidence says which reading stopped earlier."""
    tests = _graded_heads(tmp_path_factory, "    B, N, D = X.shape  # 3-D only", times=" * 2")
    quoted = [t for t in tests if FIXED in _where(t)]
    assert quoted, [t["output"][:300] for t in tests]
    for t in quoted:
        assert t["extra_data"]["mistakes"][:1] == ["mha_fixed_heads"], t["output"]
        said = [e for e in t["extra_data"]["evidence"] if e["sentence"] == "mha_fixed_heads"]
        assert any("stops at an earlier line, and the exception does not speak of it" in e["by"] for e in said), \
            t["extra_data"]


GROUP_CHECK = '''

def multi_head_attention(X, W_Q, W_K, W_V, W_O, num_heads, mask=None):
    head_dim, group_size = W_Q.shape[-1] // num_heads, X.shape[-1]  # a QK-norm's group size taken from D
    if head_dim % group_size != 0:
        raise ValueError(f"head_dim ({{head_dim}}) must be divisible by group_size ({{group_size}})")
    return _reference_mha(X, W_Q, W_K, W_V, W_O, num_heads, mask)
'''


def test_a_check_that_gets_past_with_heads_wider_than_d_over_h_too_is_not_read_as_heads_of_width_d_over_h(
        tmp_path_factory) -> None:
    """A check of the student's own that needs d_k to be a multiple of D gets past with D = num_heads * d_k on the
    one-head case, and as well with heads 2D wide, where a split by D // H would still fail: heads of width D // H
    are not what it assumed, and nothing is named for the line."""
    tests = _graded_heads(tmp_path_factory, "", template=GROUP_CHECK)
    assert all(t["score"] < t["max_score"] for t in tests), [t["number"] for t in tests]
    for t in tests:
        assert "mha_head_width_model" not in t["extra_data"]["mistakes"], t["output"]
    neither = [t for t in tests if "with D = num_heads * d_k no longer raises there" in _where(t)]
    assert neither, [_where(t) for t in tests]
    for t in neither:
        assert re.search(r"with D = num_heads \* d_k no longer raises there, nor does the same call with heads \d+ "
                         r"wide \(d_k = 2D", _where(t)), _where(t)


def _graded_with(tmp_path_factory: pytest.TempPathFactory, kept: str, source: str, function: str) -> list[dict]:
    """The reference with ``kept`` (``"_name = name"``: the reference's, under another name) and ``source`` after it,
    graded by the real engine: ``function``'s tests."""
    from autograder import runner
    from tests.homework import UPLOAD

    folder = tmp_path_factory.mktemp("graded")
    (folder / f"{UPLOAD}.py").write_text(f"{open(homework_module('attention').__file__).read()}\n{kept}\n{source}")
    return [t for t in runner.grade_folder(folder)["tests"] if t["tags"] == [function]]


MATRIX_ONLY = '''

def scaled_dot_product_attention(Q, K, V, mask=None, scale=None):
    n_q, d_k = Q.shape  # one (N, d) matrix only
    return _reference_sdpa(Q, K, V, mask, scale)
'''


def test_a_line_that_gets_past_only_without_leading_axes_is_named_as_needing_2_d_inputs(tmp_path_factory) -> None:
    """`n_q, d_k = Q.shape` raises with one leading axis and with two, and gets past with none: the line works only
    with 2-D inputs, which is said as what it needs (not as axes mixed, which no output shows)."""
    tests = _graded_with(tmp_path_factory, "_reference_sdpa = scaled_dot_product_attention", MATRIX_ONLY,
                         "scaled_dot_product_attention")
    batched = [t for t in tests if "is 2-D (no leading axes)" in _where(t)]
    assert batched, [_where(t) for t in tests]
    for t in batched:
        assert "Your line `n_q, d_k = Q.shape`" in _where(t), _where(t)
        assert t["extra_data"]["mistakes"][:1] == ["matrix_input_only"], t["output"]
        assert "no_batch_support" not in t["extra_data"]["mistakes"], t["output"]
        backed = [e for e in t["extra_data"]["evidence"] if e["sentence"] == "matrix_input_only"]
        assert any("the same case read the other way still raises there" in e["by"] for e in backed), t["extra_data"]
    assert all(t["score"] == t["max_score"] for t in tests if "Q of shape (" in t["output"] and not _where(t)
               and "raised" not in t["output"]), "2-D cases pass"


CHECKS = '''

def _check(condition):  # a checking helper: one bare raise for every check
    if not condition:
        raise AssertionError


def scaled_dot_product_attention(Q, K, V, mask=None, scale=None):
    _check(Q.ndim == 3)  # (B, N, d) only
    _check(K.shape == V.shape)  # d_v = d_k only
    return _reference_sdpa(Q, K, V, mask, scale)
'''


def test_a_checking_helpers_bare_raise_is_read_at_the_line_that_called_it(tmp_path_factory) -> None:
    """Every check raises at the helper's one `raise AssertionError`: the line quoted is the check that called it,
    its condition is read as an assert's (it speaks of a rank), and a rewriting that fails a later check has got
    past this one (the same line of the helper, reached from another line, is another raise)."""
    tests = _graded_with(tmp_path_factory, "_reference_sdpa = scaled_dot_product_attention", CHECKS,
                         "scaled_dot_product_attention")
    first = [t for t in tests if "Your line `_check(Q.ndim == 3)`" in _where(t)]
    assert first, [_where(t) for t in tests]
    for t in first:
        assert "`raise AssertionError`" not in _where(t), _where(t)
    two_d = [t for t in first if "is 3-D (one leading axis); this case's `Q` is 2-D" in _where(t)]
    assert two_d, [_where(t) for t in first]
    for t in two_d:  # with one leading axis it fails the later check only; with two, this one again
        assert t["extra_data"]["mistakes"][:1] == ["batch_first_only"], t["output"]


EQUAL_WIDTHS_CACHE = '''

class KVCache(_ReferenceCache):
    def append(self, k, v):
        if np.shape(k)[-1] != np.shape(v)[-1]:
            raise ValueError("keys and values must have one width")
        return super().append(k, v)
'''


def test_a_cache_whose_own_line_raises_on_values_of_another_width_is_named_by_a_probe(tmp_path_factory) -> None:
    """The student's KVCache raises when d_v != d_k: the same appends with every value as wide as its key go through,
    so its line is quoted with what it assumed, d_v = d_k, backed by that probe (not by the outputs)."""
    tests = _graded_with(tmp_path_factory, "_ReferenceCache = KVCache", EQUAL_WIDTHS_CACHE, "KVCache")
    failing = [t for t in tests if t["score"] < t["max_score"]]
    assert failing, [t["number"] for t in tests]
    for t in failing:
        assert t["extra_data"]["mistakes"] == ["needs_equal_widths"], t["output"]
        assert "Your line `raise ValueError(\"keys and values must have one width\")`" in _where(t), t["output"]
        assert "assumes keys and values of one width (d_v = d_k)" in _where(t), _where(t)
        said = [e for e in t["extra_data"]["evidence"] if e.get("sentence") == "needs_equal_widths"]
        assert said and all(not e["exact"] and "no longer raise" in e["by"] for e in said), t["extra_data"]


EVEN_HEADS = '''

def multi_head_attention(X, W_Q, W_K, W_V, W_O, num_heads, mask=None):
    width = X.shape[-1] // num_heads{first}
    assert width % 2 == 0, "a rotary embedding pairs the coordinates"
    (X @ W_Q).reshape(*X.shape[:-1], num_heads, width)
    return _reference_mha(X, W_Q, W_K, W_V, W_O, num_heads, mask)
'''


def test_heads_of_the_model_width_are_named_by_narrower_heads_where_wider_ones_stop_earlier(tmp_path_factory) -> None:
    """Heads of width D // H whose width must be even: a case with D < H * d_k gets past the reshape with X widened
    to H * d_k only at an odd width, which the assert before it refuses; with heads of width D / H it gets past."""
    tests = _graded_heads(tmp_path_factory, "", EVEN_HEADS)
    quoted = [t for t in tests if "heads of width d_k = D / num_heads" in _where(t)]
    assert quoted, [t["output"][:400] for t in tests]
    for t in quoted:
        assert t["extra_data"]["mistakes"][:1] == ["mha_head_width_model"], t["output"]


def test_a_line_whose_property_makes_the_call_right_is_named_though_another_reading_cannot_be_told(
        tmp_path_factory) -> None:
    """The same code without the doubled output: with two heads it returns the contract's answer (without the mask
    when it ignores it), so the line is named even though the reading without a batch axis stops earlier."""
    one_or_two = TWO_HEADS.replace("assert num_heads == 2", "assert num_heads in (1, 2)")
    tests = _graded_heads(tmp_path_factory, "    B, N, D = X.shape  # 3-D only\n    mask = None", one_or_two)
    quoted = [t for t in tests if FIXED in _where(t)]
    assert quoted, [t["output"][:300] for t in tests]
    for t in quoted:
        assert t["extra_data"]["mistakes"][:1] == ["mha_fixed_heads"], t["output"]
        assert re.search(r"with num_heads = [12] \(the same projections\) returns the contract's answer", _where(t))
    masked = [t for t in quoted if "mask=mask" in t["output"]]  # the answer without the mask, that mistake named
    assert masked and all("returns the contract's answer without the mask." in _where(t) for t in masked)
    assert all("mask_ignored" in t["extra_data"]["mistakes"] for t in masked), [t["extra_data"] for t in masked]


NESTED_HELPER = '''

def multi_head_attention(X, W_Q, W_K, W_V, W_O, num_heads, mask=None):
    def softmax(S):  # the student's own helper, named as a contract function is
        return np.exp(S - np.max(S, axis=2, keepdims=True))  # 3-D (or more) only
    softmax(X){first}
    return _reference_mha(X, W_Q, W_K, W_V, W_O, num_heads, mask)
'''


def test_a_helper_nested_in_the_function_is_its_own_code_whatever_its_name(tmp_path_factory) -> None:
    """A raise in a helper defined inside multi_head_attention is the function's own line, though the helper bears
    a contract function's name; the line gets past with one and with two leading axes: it needs some."""
    tests = _graded_heads(tmp_path_factory, "", NESTED_HELPER)
    two_d = [t for t in tests if "np.max(S, axis=2, keepdims=True)" in _where(t)]
    assert two_d, [t["output"][:400] for t in tests]
    for t in two_d:
        assert "is 3-D (one leading axis)" in _where(t), _where(t)
        assert t["extra_data"]["mistakes"][:1] == ["needs_leading_axis"], t["output"]


def test_a_raise_at_an_earlier_line_of_a_frame_the_original_went_through_came_before_it() -> None:
    raises = __import__("autograder.suite.graded.raises", fromlist=["Frame"])
    main = raises.Frame("attention.py", 416, "multi_head_attention", "raise ...")
    called = raises.Frame("attention.py", 415, "multi_head_attention", "head(0)")
    helper = raises.Frame("attention.py", 409, "head", "np.swapaxes(keys, 1, 2)")
    assert raises.stopped_before([main], [called, helper])
    assert not raises.stopped_before([called, helper], [main])  # a later line of the same frame: past it
    assert not raises.stopped_before([main], [raises.Frame("other.py", 3, "helper", "x")])


ONE_HEAD_2D = '''

def multi_head_attention(X, W_Q, W_K, W_V, W_O, num_heads, mask=None):
    q, k, v = X @ W_Q, X @ W_K, X @ W_V
    s = (q @ k.T) / np.sqrt(q.shape[-1] // num_heads){first}
    e = np.exp(s - s.max(axis=-1, keepdims=True))
    return (e / e.sum(axis=-1, keepdims=True)) @ v
'''


def test_a_crash_whose_rewritten_call_shows_several_mistakes_names_them(tmp_path_factory) -> None:
    """One head over the full width, no W_O, `k.T` of every axis: a batched case raises at that line; without its
    leading axes the call returns the contract's answer as one head without W_O. The quote says all three; of the
    sentences (at most two), the line's own comes first: it works only with 2-D inputs (with one leading axis as
    well it still raises there), then the first mistake its answer shows. Where the mask is what the line needs
    (the same call without it gets past), the line names nothing and both of the answer's mistakes are said."""
    tests = _graded_heads(tmp_path_factory, "", ONE_HEAD_2D)
    quoted = [t for t in tests if "`s = (q @ k.T) / np.sqrt(q.shape[-1] // num_heads)`" in _where(t)]
    assert quoted, [t["output"][:400] for t in tests]
    for t in quoted:
        assert re.search(r"with no leading axes (\(its mask cut to match\) )?returns the contract's answer as one head "
                         r"over the full width, .*"
                         r"without W_O", _where(t)), _where(t)
        said = t["extra_data"]["mistakes"]
        assert said in (["matrix_input_only", "heads_not_split"], ["heads_not_split", "no_output_projection"]), said
    assert any(t["extra_data"]["mistakes"][:1] == ["matrix_input_only"] for t in quoted)


ONE_HEAD_BY_CHANCE = '''

def multi_head_attention(X, W_Q, W_K, W_V, W_O, num_heads, mask=None):
    np.zeros((num_heads, 1)) + np.zeros((X.shape[-2], 1)){first}  # broadcasts only when H = N, or H = 1
    return _reference_mha(X, W_Q, W_K, W_V, W_O, num_heads, mask) * 2
'''


def test_one_head_that_gets_past_a_broadcast_by_chance_names_nothing(tmp_path_factory) -> None:
    """With one head, an axis of length 1 broadcasts with anything: a line that gets past only so, while the answer
    is still wrong, is no evidence of a fixed number of heads."""
    tests = _graded_heads(tmp_path_factory, "", ONE_HEAD_BY_CHANCE)
    assert any(t["score"] < t["max_score"] and "broadcast" in t["output"] for t in tests)
    assert all("mha_fixed_heads" not in t["extra_data"]["mistakes"] for t in tests), [
        t["extra_data"] for t in tests if "mha_fixed_heads" in t["extra_data"]["mistakes"]]


def _scaled_by_model_width_over_heads(X, W_Q, W_K, W_V, W_O, num_heads, mask=None):
    """Multi-head attention scaled by 1/sqrt(D // H) (a per-head width taken from the model's, as a course's blocks
    build it), its heads otherwise as the contract's."""
    d_k = W_Q.shape[-1] // num_heads
    return ref.multi_head_attention(X, W_Q * np.sqrt(d_k / (X.shape[-1] // num_heads)), W_K, W_V, W_O, num_heads, mask)


@pytest.mark.parametrize("case_id, expected", [("mha-one-head", "scale_other"), ("mha-two-heads", "scale_d_model")])
def test_a_scale_by_the_model_width_is_said_only_where_it_is_not_the_model_width_over_one_head(case_id,
                                                                                               expected) -> None:
    """With one head 1/sqrt(D) is also 1/sqrt(D // H): the output cannot tell "the model width" from "a per-head width
    taken from the model's", so only "another constant" is said; with two heads the reading stands."""
    explain = homework_module("diagnosis.explain")
    stored = support.case(case_id)
    assert explain.one_head(stored, ("batch_first_only", "scale_d_model")) == ("batch_first_only", expected)
    if case_id == "mha-one-head":  # the whole chain on such code: never scale_d_model on the one-head case
        names, args = zip(*call_arguments(stored.inputs))
        actual = _scaled_by_model_width_over_heads(*args)
        mistakes, _, _ = explain.explain(LocalStudent(multi_head_attention=_scaled_by_model_width_over_heads), stored,
                                         list(args), list(names), False, actual)
        assert "scale_d_model" not in support.mistake_ids(mistakes), mistakes


@pytest.mark.parametrize("actual", [[np.zeros((1, 3, 2)), [1, [2, 3]]], "text", None, (np.zeros((1, 3, 2)),)])
def test_an_output_that_cannot_be_read_without_extra_axes_is_none_not_a_value(actual) -> None:
    masks = homework_module("diagnosis.masks")
    expected = (np.zeros((3, 2)), np.zeros((3, 4)))
    assert masks.without_extra_axes(expected, actual) is None
    squeezed = masks.without_extra_axes(expected, (np.ones((1, 1, 3, 2)), np.ones((3, 4))))
    assert squeezed is not None and squeezed[0].shape == (3, 2) and squeezed[1].shape == (3, 4)


def test_a_probe_output_on_inputs_the_contract_has_no_answer_for_is_read_as_nothing() -> None:
    inputs = {"Q": np.zeros((2, 3)), "K": np.zeros((4, 5)), "V": np.zeros((4, 2)), "mask": None, "scale": None}
    assert inference._answer_without_extra_axes("scaled_dot_product_attention", inputs, np.zeros((1, 2, 2))) is None


def test_an_output_whose_last_axis_is_split_into_pairs_is_read_joined() -> None:
    """RoPE that returns its (d/2, 2) pairs without flattening them back, at the default base instead of the given
    one: read with the last axes joined, the values show the base, named with the split; with right values, the
    split alone is named."""
    explain = homework_module("diagnosis.explain")

    def unflattened(x, positions, base=10000.0, *, given=False):
        out = ref.rope(x, positions, base if given else 10000.0)
        return out.reshape(*out.shape[:-1], -1, 2)

    stored = support.case("rope-d8")  # d = 8, positions 0..5, base 100
    names, args = zip(*call_arguments(stored.inputs))
    for given, expected in ((False, {"rope_base_ignored", "last_axis_split"}), (True, {"last_axis_split"})):
        actual = unflattened(*args, given=given)
        assert actual.shape[-2:] == (4, 2)
        mistakes, how, exact = explain.explain(LocalStudent(rope=lambda *a, g=given: unflattened(*a, given=g)), stored,
                                               list(args), list(names), False, actual)
        assert set(mistakes_ids(mistakes)) == expected, (mistakes, how)
        assert "its last axes joined into one" in how and exact == given


def mistakes_ids(mistakes) -> tuple:
    return (mistakes,) if isinstance(mistakes, str) else tuple(mistakes or ())


def test_a_tuple_answer_is_never_read_as_one_split_array(capsys) -> None:
    """(out, weights) of different shapes is no array to join an output's axes into: None, and nothing raised."""
    masks = homework_module("diagnosis.masks")
    expected = (np.zeros((2, 3)), np.zeros((2, 5)))
    assert masks.with_last_axis_joined(expected, np.zeros((2, 3, 1))) is None
    assert "failed" not in capsys.readouterr().err
