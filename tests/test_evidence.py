"""Every diagnosis needs evidence: a row-wise match, a number form of a mask, lost precision, or a probe.

The graded suite's helpers run here with a stand-in for the sandboxed student (plain functions in
this process), so each rule is checked on the exact stored cases the graded tests use.
"""

from __future__ import annotations

import functools

import numpy as np
import pytest

from autograder.feedback import compare
from autograder.sandbox.student import StudentError
from autograder.suite.cases import call_arguments
from autograder.suite.graded import support
from tests.homework import module as homework_module

masks = homework_module('diagnosis.masks')
evidence = homework_module('diagnosis.evidence')
ref = homework_module('attention')


class LocalStudent:
    """Runs given functions in this process; a function that raises gives a StudentError, as in the worker."""

    def __init__(self, entered: dict[str, int] | None = None, **functions):
        self.functions, self.entered_always = functions, entered

    def call(self, name, *args):
        self.entered = self.entered_always
        try:
            return self.functions.get(name, getattr(ref, name))(*args)
        except (ValueError, TypeError, IndexError) as error:
            raise StudentError("exception", f"{name} raised {type(error).__name__}: {error}") from None

    def has(self, name):
        return True

    def call_served(self, served, name, *args):
        """``call`` with the served names standing for the grader's stand-ins, as the worker's ``serving`` does."""
        saved = dict(self.functions)
        for served_name in served.names:
            self.functions[served_name] = functools.partial(_serve, served, served_name)
        try:
            return self.call(name, *args)
        finally:
            self.functions = saved

    def discard(self):
        self.discarded = getattr(self, "discarded", 0) + 1


def _serve(served, name, *args, **kwargs):
    return served.serve(name, (list(args), [[k, v] for k, v in kwargs.items()]))


def failure(student: LocalStudent, *case_ids: str, **kwargs) -> str:
    with pytest.raises(pytest.fail.Exception) as info:
        support.check(student, *case_ids, **kwargs)
    return str(info.value.msg)


def named(text: str) -> list[str]:
    """The mistakes the feedback names, in the order it names them."""
    found = [(text.index(f"{support.LIKELY} {s}"), m) for m, s in compare.MISTAKES.items()
             if f"{support.LIKELY} {s}" in text]
    return [m for _, m in sorted(found)]


# ---- multi-head attention: shape assumptions are named only when a probe confirms them ------------------


def _split(M, H, width):
    return np.swapaxes(M.reshape(*M.shape[:-1], H, width), -2, -3)


def mha_with(width_of_q, width_of_v, *, batch_first=False, head_axis=True):
    """multi_head_attention with the head widths computed by the given rules (a real-world convention each)."""

    def mha(X, W_Q, W_K, W_V, W_O, num_heads, mask=None):
        if batch_first:
            _B, _T, _C = X.shape  # raises on 2-D input
        H = num_heads
        q_width, v_width = width_of_q(X, W_Q, W_V, H), width_of_v(X, W_Q, W_V, H)
        Q, K, V = _split(X @ W_Q, H, q_width), _split(X @ W_K, H, q_width), _split(X @ W_V, H, v_width)
        if mask is not None and head_axis:
            mask = mask[..., None, :, :] if mask.ndim >= 3 else mask
        heads, _ = ref.scaled_dot_product_attention(Q, K, V, mask=mask)
        concat = np.swapaxes(heads, -2, -3)
        return concat.reshape(*concat.shape[:-2], -1) @ W_O

    return mha


RIGHT_Q = lambda X, W_Q, W_V, H: W_Q.shape[-1] // H  # noqa: E731
RIGHT_V = lambda X, W_Q, W_V, H: W_V.shape[-1] // H  # noqa: E731
MODEL_WIDTH = lambda X, W_Q, W_V, H: X.shape[-1] // H  # noqa: E731


def test_an_exception_alone_names_nothing_and_shows_the_call() -> None:
    def raises(X, W_Q, W_K, W_V, W_O, num_heads, mask=None):
        raise ValueError("cannot reshape array")

    text = failure(LocalStudent(multi_head_attention=raises), "mha-batch-masks")
    assert named(text) == [] and support.LIKELY not in text
    assert "raised ValueError" in text and "X of shape (2, 5, 6)" in text


def test_a_batch_first_only_function_is_named_by_the_probe_that_adds_the_batch_axis() -> None:
    text = failure(LocalStudent(multi_head_attention=mha_with(RIGHT_Q, RIGHT_V, batch_first=True)), "mha-two-heads")
    assert named(text) == ["batch_first_only"] and text.startswith(support.LIKELY)


def test_values_split_with_d_k_are_named_only_when_padding_d_v_to_d_k_makes_them_right() -> None:
    text = failure(LocalStudent(multi_head_attention=mha_with(RIGHT_Q, RIGHT_Q)), "mha-two-heads")
    assert "mha_value_width" in named(text)


def test_heads_of_width_d_over_h_are_named_when_padding_d_to_h_d_k_makes_them_right() -> None:
    text = failure(LocalStudent(multi_head_attention=mha_with(MODEL_WIDTH, RIGHT_V)), "mha-batch")
    assert named(text) == ["mha_head_width_model"]
    text = failure(LocalStudent(multi_head_attention=mha_with(MODEL_WIDTH, MODEL_WIDTH)), "mha-batch")
    # D // H for V too: both are true, but the D // H sentence says d_v already (at most two sentences, none that
    # another says)
    assert named(text) == ["mha_head_width_model"]


def mha_merging_into(width_of_out):
    """The reference's multi-head attention, its heads merged back into ``width_of_out(X, W_V, H)`` columns."""

    def mha(X, W_Q, W_K, W_V, W_O, num_heads, mask=None):
        H = num_heads
        Q, K, V = (_split(X @ W, H, W.shape[-1] // H) for W in (W_Q, W_K, W_V))
        if mask is not None:
            mask = mask[..., None, :, :] if mask.ndim >= 3 else mask
        heads, _ = ref.scaled_dot_product_attention(Q, K, V, mask=mask)
        concat = np.swapaxes(heads, -2, -3)
        return concat.reshape(*concat.shape[:-2], width_of_out(X, W_V, H)) @ W_O

    return mha


@pytest.mark.parametrize("case_id", ["mha-two-heads", "mha-one-head"])  # D != H*d_v (mha-batch has D = H*d_v)
def test_heads_merged_into_the_input_width_are_named_and_not_taken_for_a_head_width(case_id) -> None:
    """`reshape(B, N, D)` with D = X.shape[-1]: only the probe that makes D = H*d_v while d_k != d_v tells it from
    heads split by D // H (which it does not make right)."""
    stored = support.case(case_id)
    merged = LocalStudent(multi_head_attention=mha_merging_into(lambda X, W_V, H: X.shape[-1]))
    split_by_d = LocalStudent(multi_head_attention=mha_with(MODEL_WIDTH, MODEL_WIDTH))
    assert support.run_case(merged, stored)[0] is not None
    assert named(failure(merged, case_id)) == ["out_width_is_input"]
    assert "out_width_is_input" not in named(failure(split_by_d, case_id))


def test_a_per_sequence_mask_without_its_head_axis_is_named() -> None:
    text = failure(LocalStudent(multi_head_attention=mha_with(RIGHT_Q, RIGHT_V, head_axis=False)), "mha-batch-masks")
    assert named(text) == ["mha_mask_head_axis"]


def test_a_probe_that_only_the_suspected_code_reads_as_the_case_is_answered_for_the_case() -> None:
    """The head-axis probe hands the code a mask the contract would read otherwise: what the output then shows (a
    mask added as 0/1) is judged against the contract's answers for the case's own mask."""

    def adds_mask(X, W_Q, W_K, W_V, W_O, num_heads, mask=None):
        Q, K, V = (_split(X @ W, num_heads, W.shape[-1] // num_heads) for W in (W_Q, W_K, W_V))
        scores = Q @ np.swapaxes(K, -1, -2) / np.sqrt(Q.shape[-1]) + mask  # (B, H, N, N) + (B, N, N): no head axis
        heads = np.swapaxes(ref.softmax(scores) @ V, -2, -3)
        return heads.reshape(*heads.shape[:-2], -1) @ W_O

    text = failure(LocalStudent(multi_head_attention=adds_mask), "mha-batch-masks")
    assert named(text) == ["mha_mask_head_axis", "mask_bool_added"]


# ---- masks: polarity and fill, judged on the rows each determines -------------------------------------


def sdpa_filling(fill, *, inverted: bool, additive: bool = False):
    def sdpa(Q, K, V, mask=None, scale=None):
        scale = 1 / np.sqrt(Q.shape[-1]) if scale is None else scale
        scores = Q @ np.swapaxes(K, -1, -2) * scale
        if mask is not None:
            hidden = mask if inverted else ~mask
            scores = scores + hidden * fill if additive else np.where(hidden, fill, scores)
        with np.errstate(invalid="ignore"):  # masked_fill(-inf) on a fully masked row: NaN, as in torch
            E = np.exp(scores - scores.max(-1, keepdims=True))
            weights = E / E.sum(-1, keepdims=True)
        return weights @ V, weights

    return sdpa


@pytest.mark.parametrize(("fill", "inverted", "additive", "expected"), [
    (-1e9, True, True, ["mask_inverted", "mask_finite_fill"]),  # scores + mask * -1e9, True = hidden
    (-np.inf, True, False, ["mask_inverted", "softmax_nan_fully_masked"]),  # masked_fill(mask, -inf)
    (np.finfo(float).min, False, False, ["mask_finite_fill"]),
    (-1e9, False, False, ["mask_finite_fill"]),
])
def test_mask_polarity_and_fill_are_both_named_from_the_rows_they_determine(fill, inverted, additive, expected):
    student = LocalStudent(scaled_dot_product_attention=sdpa_filling(fill, inverted=inverted, additive=additive))
    text = failure(student, "sdpa-fully-masked")
    assert named(text) == expected


@pytest.mark.parametrize(("mask", "expected"), [
    (lambda n_q, n_k: np.triu(np.ones((n_q, n_k)), k=n_k - n_q + 1), ["mask_inverted", "mask_float"]),
    (lambda n_q, n_k: np.where(ref.causal_mask(n_q, n_k), 0.0, -1e9), ["mask_additive"]),
    (lambda n_q, n_k: ref.causal_mask(n_q, n_k).astype(float), ["mask_float"]),
])
def test_a_causal_mask_written_as_numbers_is_named_with_its_polarity(mask, expected) -> None:
    student = LocalStudent(causal_mask=lambda n_q, n_k=None: mask(n_q, n_q if n_k is None else n_k))
    assert named(failure(student, "mask-more-keys")) == expected


# ---- precision --------------------------------------------------------------------------------------------


def rope_half_precision(x, positions, base=10000.0):
    d = x.shape[-1]
    theta = (base ** (-np.arange(0, d, 2) / d)).astype(np.float16)
    angles = (np.asarray(positions, dtype=np.float16)[:, None] * theta).astype(np.float16)
    cos, sin = np.cos(angles).astype(np.float16), np.sin(angles).astype(np.float16)
    out = np.empty_like(x)
    out[..., 0::2] = x[..., 0::2] * cos - x[..., 1::2] * sin
    out[..., 1::2] = x[..., 0::2] * sin + x[..., 1::2] * cos
    return out


def test_rope_tables_in_half_precision_are_named_low_precision() -> None:
    assert named(failure(LocalStudent(rope=rope_half_precision), "rope-d8")) == ["low_precision"]


def test_a_real_mistake_is_never_called_low_precision() -> None:
    wrong = lambda Z, axis=-1, temperature=1.0: ref.softmax(Z, axis, temperature) * 1.1  # noqa: E731
    assert "low_precision" not in named(failure(LocalStudent(softmax=wrong), "softmax-rows"))


# ---- Check first: only functions the failing case used ----------------------------------------------------


def _decode_calling(student: LocalStudent):
    """A decode_step (no RoPE) that calls the submission's own scaled_dot_product_attention, as a student's does."""

    def decode_step(layer, x, cache, rope_base=None):
        q, k, v = layer.query(x), layer.key(x), layer.value(x)
        cache.append(k, v)
        out, _ = student.functions["scaled_dot_product_attention"](q[None], cache.keys, cache.values)
        return out[0]

    return decode_step


def test_check_first_only_when_a_correct_callee_makes_the_case_pass() -> None:
    broken = LocalStudent(entered={"scaled_dot_product_attention": 1})
    broken.functions["scaled_dot_product_attention"] = lambda *a, **k: tuple(
        2 * o for o in ref.scaled_dot_product_attention(*a, **k))
    broken.functions["decode_step"] = _decode_calling(broken)
    support._failed[broken] = [support.Failed("rope", "E.3", "visible"), support.Failed("softmax", "B.1", "visible"),
                               support.Failed("scaled_dot_product_attention", "C.4", "visible")]
    text = failure(broken, "decode-three-cached")  # no rope_base: RoPE is not used; softmax was not entered
    assert "`rope`" not in text and "`softmax`" not in text
    assert "**Check first:** your `scaled_dot_product_attention` fails its own test C.4" in text
    assert "With a correct `scaled_dot_product_attention` standing in for yours" in text
    assert broken.discarded == 1  # the worker that held the stand-ins is not used again

    own_bug = LocalStudent(entered={"scaled_dot_product_attention": 1},
                           decode_step=lambda layer, x, cache, rope_base=None: 2 * ref.decode_step(layer, x, cache,
                                                                                                    rope_base))
    support._failed[own_bug] = [support.Failed("scaled_dot_product_attention", "C.4", "visible")]
    text = failure(own_bug, "decode-three-cached")  # its callee failed elsewhere, but a correct one changes nothing
    assert "Check first" not in text


def _decode_with_rope(student: LocalStudent):
    """The contract's decode_step calling the submission's own rope and scaled_dot_product_attention."""

    def decode_step(layer, x, cache, rope_base=None):
        q, k, v = layer.query(x), layer.key(x), layer.value(x)
        if rope_base is not None:
            position = np.array([len(cache)], dtype=float)
            q = student.functions["rope"](q[None, :], position, rope_base)[0]
            k = student.functions["rope"](k[None, :], position, rope_base)[0]
        cache.append(k, v)
        out, _ = student.functions["scaled_dot_product_attention"](q[None], cache.keys, cache.values)
        return out[0]

    return decode_step


def test_check_first_cites_a_callee_whose_own_failures_are_hidden_by_this_case_alone() -> None:
    """rope ignores its positions (its failing tests are hidden), attention doubles its output (C.4, visible): only
    both correct stand-ins make the case pass. rope is cited by what this call shows, never by its hidden tests."""
    student = LocalStudent()
    student.functions["rope"] = lambda x, positions, base=10000.0: ref.rope(x, np.arange(len(positions)), base)
    student.functions["scaled_dot_product_attention"] = lambda *a, **k: tuple(
        2 * o for o in ref.scaled_dot_product_attention(*a, **k))
    student.functions["decode_step"] = _decode_with_rope(student)
    support._failed[student] = [support.Failed("rope", "E.6", "after_due_date"),
                                support.Failed("scaled_dot_product_attention", "C.4", "visible")]
    text = failure(student, "decode-rope")
    assert ("**Check first:** your `rope` goes wrong in this call and your `scaled_dot_product_attention` fails its "
            "own test C.4. With a correct `rope` and `scaled_dot_product_attention` standing in for yours, "
            "`decode_step` gets this case right") in text, text
    assert "E.6" not in text

    rope_only = LocalStudent()  # no callee failed a visible test: the output names a mistake, the probes show rope's
    rope_only.functions["rope"] = student.functions["rope"]
    rope_only.functions["scaled_dot_product_attention"] = ref.scaled_dot_product_attention
    rope_only.functions["decode_step"] = _decode_with_rope(rope_only)
    support._failed[rope_only] = [support.Failed("rope", "E.6", "after_due_date")]
    text = failure(rope_only, "decode-rope")
    assert ("**Check first:** your `rope` goes wrong in this call. With a correct `rope` standing in for yours, "
            "`decode_step` gets this case right: fix it first") in text, text

    own_bug = LocalStudent()  # the function's own mistake: no stand-in makes the case pass, nothing is cited
    own_bug.functions["rope"] = student.functions["rope"]
    own_bug.functions["scaled_dot_product_attention"] = student.functions["scaled_dot_product_attention"]
    own_bug.functions["decode_step"] = lambda *a: 3 * _decode_with_rope(own_bug)(*a)
    support._failed[own_bug] = list(support._failed[student])
    text = failure(own_bug, "decode-rope")
    assert "Check first" not in text and "goes wrong" not in text


def _sdpa_calling(student: LocalStudent):
    """A scaled_dot_product_attention that calls the submission's own attention_scores and softmax."""

    def sdpa(Q, K, V, mask=None, scale=None):
        scores = student.functions["attention_scores"](Q, K) * (1 / np.sqrt(Q.shape[-1]) if scale is None else scale)
        if mask is not None:
            scores = np.where(mask, scores, -np.inf)
        weights = student.functions["softmax"](scores, axis=-1)
        return weights @ V, weights

    return sdpa


def test_check_first_covers_every_failing_case_of_the_test() -> None:
    """The first case fails through attention_scores (more keys than queries), the second through softmax (a mask's
    -inf): both callees are cited, each for the case it breaks."""
    student = LocalStudent()
    student.functions["attention_scores"] = lambda Q, K: (2.0 if Q.shape[-2] != K.shape[-2] else 1.0) * (
        ref.attention_scores(Q, K))
    student.functions["softmax"] = lambda x, axis=-1: ref.softmax(np.nan_to_num(x, neginf=0.0), axis=axis)
    student.functions["scaled_dot_product_attention"] = _sdpa_calling(student)
    support._failed[student] = [support.Failed("attention_scores", "A.5", "visible"),
                                support.Failed("softmax", "B.1", "visible")]
    text = failure(student, "sdpa-default-scale", "sdpa-causal")
    assert "your `attention_scores` fails its own test A.5 and your `softmax` fails its own test B.1" in text, text
    assert ("With a correct `attention_scores` standing in for yours, `scaled_dot_product_attention` gets this case "
            "right; with a correct `softmax`, 1 other failing case of this test too") in text, text
    assert student.discarded == 1  # one worker for every served probe of the test

    first_only = LocalStudent()  # the second case fails through the function's own mask: softmax is not cited
    first_only.functions["attention_scores"] = student.functions["attention_scores"]
    first_only.functions["softmax"] = ref.softmax
    first_only.functions["scaled_dot_product_attention"] = lambda Q, K, V, mask=None, scale=None: _sdpa_calling(
        first_only)(Q, K, V, None, scale)
    support._failed[first_only] = [support.Failed("attention_scores", "A.5", "visible"),
                                   support.Failed("softmax", "B.1", "visible")]
    text = failure(first_only, "sdpa-default-scale", "sdpa-causal")
    assert "your `attention_scores` fails its own test A.5. With a correct `attention_scores` standing in for " \
           "yours, `scaled_dot_product_attention` gets this case right: fix it first" in text, text


def test_check_first_never_cites_a_test_that_hit_an_internal_error() -> None:
    student = LocalStudent()

    @support.graded("B.1", "softmax")
    def crashes(student):
        raise RuntimeError("a grader bug")

    @support.graded("B.2", "softmax")
    def fails(student):
        pytest.fail("wrong", pytrace=False)

    for test in (crashes, fails):
        with pytest.raises((RuntimeError, pytest.fail.Exception)):
            test(student)
    assert [f.number for f in support._failed[student]] == ["B.2"]


def test_a_failing_graded_test_records_the_mistakes_it_names_for_results_json() -> None:
    from tests.homework import module as homework_module
    mistakes = homework_module('mistakes')

    @support.graded("C.4", "scaled_dot_product_attention")
    def sdpa_scale(student):
        support.check(student, "sdpa-causal")

    with pytest.raises(pytest.fail.Exception):
        sdpa_scale(LocalStudent(scaled_dot_product_attention=mistakes.SDPA["no_scale"]))
    assert sdpa_scale.__mistakes__ == ["no_scale"]
    with pytest.raises(pytest.fail.Exception):
        sdpa_scale(LocalStudent(scaled_dot_product_attention=lambda Q, K, V, mask=None, scale=None: (Q[..., :1], Q)))
    assert sdpa_scale.__mistakes__ == []


def test_right_values_with_extra_leading_axes_of_length_one_are_named() -> None:
    def extra(Q, K, V, mask=None, scale=None):
        out, weights = ref.scaled_dot_product_attention(Q, K, V, mask, scale)
        return out[None, None], weights[None, None]

    assert named(failure(LocalStudent(scaled_dot_product_attention=extra), "sdpa-causal")) == ["extra_leading_axes"]


def test_evidence_that_cannot_be_computed_is_no_evidence_and_no_internal_error(capsys) -> None:
    import dataclasses


    stored = support.case("sdpa-fully-masked")
    odd = dataclasses.replace(stored, inputs={**stored.inputs, "mask": np.ones((3, 7, 7), dtype=bool)})
    out = ref.scaled_dot_product_attention(*(stored.inputs[n] for n in ("Q", "K", "V")))
    assert masks.masked_rows(odd, out) == ()
    assert "[grader] masks.masked_rows failed" in capsys.readouterr().err


def test_a_case_that_matches_two_stored_mistakes_is_resolved_by_the_tests_other_cases() -> None:
    """A top-left causal mask equals the off-by-one mask when n_k = n_q + 1: the other failing cases decide."""
    from autograder.suite.graded.naming import Candidates, resolve

    ambiguous = Candidates(("causal_off_by_one", "causal_top_left"))
    failures = [("c1", "", ambiguous), ("c2", "", "causal_top_left"), ("c3", "", ("causal_top_left", "mask_float"))]
    assert [m for _, _, m in resolve(failures)] == ["causal_top_left", "causal_top_left",
                                                    ("causal_top_left", "mask_float")]
    numbers = [("c1", "", ("mask_inverted", ambiguous, "mask_float")), ("c2", "", "causal_top_left")]
    assert resolve(numbers)[0][2] == ("mask_inverted", "causal_top_left", "mask_float")


def test_two_explanations_equally_supported_are_settled_by_the_functions_earlier_tests_or_unsaid() -> None:
    """One case matching two stored mistakes, nothing else in the test to go by: the one an earlier test of the
    function named is chosen, and with none (or both) named there, neither is: never a pick by stored order."""
    from autograder.suite.graded.naming import Candidates, mistake_ids, resolve

    tie = Candidates(("masked_zero", "mask_ignored"))
    assert resolve([("c1", "", tie)])[0][2] is None
    assert resolve([("c1", "", tie)], earlier=["mask_ignored"])[0][2] == "mask_ignored"
    assert resolve([("c1", "", tie)], earlier=["masked_zero", "mask_ignored"])[0][2] is None
    assert resolve([("c1", "", ("no_scale", tie))])[0][2] == ("no_scale",)  # the other cause stays named
    assert mistake_ids(resolve([("c1", "", (tie,))])[0][2]) == []
    # the test's own cases still decide first, whatever earlier tests said
    assert resolve([("c1", "", tie), ("c2", "", "masked_zero")], earlier=["mask_ignored"])[0][2] == "masked_zero"


def test_a_required_argument_that_the_contract_defaults_is_named_by_giving_it() -> None:
    """`def rope(x, positions, base)` raises on rope(x, positions): called again with base=10000.0 it is right."""
    def rope(x, positions, base):  # no default base
        return ref.rope(x, positions, base)

    student = LocalStudent(rope=rope)
    text = failure(student, "rope-d2")
    assert named(text) == ["default_required"] and "TypeError" in text


def mha_one_head_scaled_by_d_model(X, W_Q, W_K, W_V, W_O, num_heads, mask=None):
    """One head (never split), scaled by 1/sqrt(D) of the model width, without W_O (a real-world solution's)."""
    scores = (X @ W_Q) @ np.swapaxes(X @ W_K, -1, -2) / np.sqrt(X.shape[-1])
    return ref.softmax(scores) @ (X @ W_V)


def test_a_scale_by_the_model_width_is_told_apart_from_heads_split_by_d_over_h() -> None:
    """On one head, widening the heads to D fixes both; scaling the queries by sqrt(D / d_k) fixes only the scale."""
    student = LocalStudent(multi_head_attention=mha_one_head_scaled_by_d_model)
    stored = support.case("mha-one-head")
    args, names = [v for _, v in call_arguments(stored.inputs)], [n for n, _ in call_arguments(
        stored.inputs)]
    original = mha_one_head_scaled_by_d_model(*args)
    assert evidence.probe(student, stored, args, names, original) == ("scale_d_model", "no_output_projection")
    # the feedback reads the output first (decompose.py): 1/sqrt(D) on one head is also 1/sqrt(D / H), so only the
    # missing projection is named there
    assert named(failure(student, "mha-one-head")) == ["no_output_projection"]
    text = failure(LocalStudent(multi_head_attention=mha_with(MODEL_WIDTH, RIGHT_V)), "mha-batch")
    assert named(text) == ["mha_head_width_model"]


def mha_adding_a_batch_axis(X, W_Q, W_K, W_V, W_O, num_heads, mask=None):
    """Any number of leading axes, but a 2-D input gets one of length 1 that is never removed; no W_O either."""
    if X.ndim == 2:
        X = X[None]
    scores = (X @ W_Q) @ np.swapaxes(X @ W_K, -1, -2) / np.sqrt(W_Q.shape[-1] // num_heads)
    return ref.softmax(scores) @ (X @ W_V)


def mha_with_a_causal_mask_sized_by_axis_0(X, W_Q, W_K, W_V, W_O, num_heads, mask=None):
    """One head, its own causal mask of X.shape[0] x X.shape[0] always: on a leading axis of length 1 it masks
    nothing."""
    n = X.shape[0]
    scores = (X @ W_Q) @ np.swapaxes(X @ W_K, -1, -2) / np.sqrt(W_Q.shape[-1])
    scores = np.where(np.triu(np.ones((n, n)), 1) == 1, -np.inf, scores)
    return ref.softmax(scores) @ (X @ W_V) @ W_O


def sdpa_with_a_mask_helper(*, product: str):
    """Scaled dot-product attention whose mask goes through a helper (a course's given code): scores of 3 or 4 axes
    only, and a mask of exactly (B, n_q, n_k), B the scores' first axis (given the head axis on 4-D scores), else
    ValueError. ``product``: "any" (Q @ K^T on any leading axes) or "3-4" (a product written for 3 or 4 axes)."""

    def helper(scores, mask):
        if mask is None:
            return scores
        if scores.ndim not in (3, 4) or mask.ndim != 3 or mask.shape != (scores.shape[0], *scores.shape[-2:]):
            raise ValueError("the mask helper takes (B, n_q, n_k) masks on 3-D or 4-D scores")
        return np.where(mask[:, None] if scores.ndim == 4 else mask, scores, -1e9)

    def sdpa(Q, K, V, mask=None, scale=None):
        if product == "3-4" and Q.ndim not in (3, 4):
            raise ValueError("a product written for 3 or 4 axes")
        scores = helper(Q @ np.swapaxes(K, -1, -2) / np.sqrt(Q.shape[-1]), mask)
        weights = ref.softmax(scores)
        return weights @ V, weights

    return sdpa


def sdpa_reading_b_n_d(Q, K, V, mask=None, scale=None):
    """Exactly one leading axis: (B, N, D) unpacked."""
    _B, _N, _D = Q.shape
    return ref.scaled_dot_product_attention(Q, K, V, mask, scale)


LEAD = {"batch_first_only", "needs_leading_axis", "needs_leading_axes", "no_batch_support"}


@pytest.mark.parametrize("case", ["sdpa-causal", "sdpa-batch", "sdpa-mask-heads"])
def test_a_mask_helper_of_one_rank_is_not_blamed_on_the_leading_axes(case) -> None:
    """Probes that give the inputs one leading axis reshape the mask with them, which is what such a helper needs:
    the same call without a mask on the case's own axes tells the two apart (issue 30: a course's ApplyAttentionMask
    drew "works only with exactly one leading batch axis" on code that takes any)."""
    for product in ("any", "3-4"):
        text = failure(LocalStudent(scaled_dot_product_attention=sdpa_with_a_mask_helper(product=product)), case)
        assert not LEAD & set(named(text)), (product, named(text))


def test_leading_axes_are_still_named_where_the_mask_is_not_what_the_probe_fixed() -> None:
    text = failure(LocalStudent(scaled_dot_product_attention=sdpa_with_a_mask_helper(product="3-4")),
                   "sdpa-default-scale")
    assert named(text) == ["needs_leading_axis"]
    text = failure(LocalStudent(scaled_dot_product_attention=sdpa_reading_b_n_d), "sdpa-batch")
    assert named(text) == ["batch_first_only"]


def test_one_leading_axis_is_named_only_when_two_fail_and_a_size_of_1_is_no_coincidence() -> None:
    text = failure(LocalStudent(multi_head_attention=mha_adding_a_batch_axis), "mha-one-head")
    assert "batch_first_only" not in named(text) and "extra_leading_axes" in named(text)
    text = failure(LocalStudent(multi_head_attention=mha_with_a_causal_mask_sized_by_axis_0), "mha-two-heads")
    assert "batch_first_only" not in named(text) and "needs_leading_axis" not in named(text)


def test_a_functions_earlier_tests_settle_a_tie_only_with_what_the_student_sees_beside_this_test() -> None:
    """named_earlier: what the function's earlier failed tests named, of the visible ones (and, for a hidden test,
    the hidden ones too): a hidden test's diagnosis never shapes a visible test's feedback; other functions' never."""
    from autograder import contract

    student = LocalStudent()
    support._failed[student] = [support.Failed("softmax", "B.1", contract.VISIBLE, ("softmax_wrong_axis",)),
                                support.Failed("softmax", "B.8", contract.HIDDEN, ("temperature_ignored",)),
                                support.Failed("rope", "E.1", contract.VISIBLE, ("rope_half_split",))]
    assert support.named_earlier(student, "softmax") == ["softmax_wrong_axis"]
    token = support._current.set(support.Failed("softmax", "B.9", contract.HIDDEN))
    try:
        assert support.named_earlier(student, "softmax") == ["softmax_wrong_axis", "temperature_ignored"]
    finally:
        support._current.reset(token)
    assert support.named_earlier(LocalStudent(), "softmax") == []
