"""Several mistakes of multi-head attention read off one output (reference/diagnosis/decompose.py): a combination
of the contract's knobs (mask, heads, W_O, scale) is named only when it alone reproduces the output."""

from __future__ import annotations

import numpy as np
import pytest

from autograder.suite.cases import Case
from autograder.suite.graded import support
from tests.homework import module as homework_module
from tests.test_evidence import LocalStudent, failure, named

decompose = homework_module("diagnosis.decompose")
ref = homework_module("attention")


def one_head(*, project: bool, mask_used: bool, scale_of=lambda X, W_Q, H: 1 / np.sqrt(W_Q.shape[-1])):
    """Multi-head attention written as one head over the full width (a real-world first attempt)."""

    def mha(X, W_Q, W_K, W_V, W_O, num_heads, mask=None):
        Q, K, V = ref.qkv_project(X, W_Q, W_K, W_V)
        scores = Q @ np.swapaxes(K, -1, -2) * scale_of(X, W_Q, num_heads)
        if mask_used and mask is not None:
            scores = np.where(mask, scores, -np.inf)
        out = ref.softmax(scores) @ V
        return out @ W_O if project else out

    return mha


@pytest.mark.parametrize("project, expected", [
    (False, ["heads_not_split", "no_output_projection"]),
    (True, ["heads_not_split"]),
])
def test_one_head_over_the_full_width_is_named_with_the_missing_projection(project, expected) -> None:
    text = failure(LocalStudent(multi_head_attention=one_head(project=project, mask_used=True)), "mha-two-heads")
    assert named(text) == expected


def case_of(D: int = 7, mask: np.ndarray | None = None) -> Case:
    """Two heads of d_k = 3 and d_v = 2 on 5 tokens of width D (6 = H * d_k unless D says otherwise)."""
    rng = np.random.default_rng(1)
    X, W_Q, W_K, W_V, W_O = (rng.normal(size=s) for s in ((5, D), (D, 6), (D, 6), (D, 4), (4, 3)))
    inputs = {"X": X, "W_Q": W_Q, "W_K": W_K, "W_V": W_V, "W_O": W_O, "num_heads": 2, "mask": mask}
    return Case("made-here", "multi_head_attention", inputs, ref.multi_head_attention(**inputs))


def test_a_scale_of_its_own_is_named_with_the_structure_it_comes_with() -> None:
    student = one_head(project=True, mask_used=True, scale_of=lambda X, W_Q, H: 1 / np.sqrt(X.shape[-1]))
    stored = case_of(D=7)
    found = decompose.multi_head(stored, student(*stored.inputs.values()))
    assert found is not None and found[0] == ("heads_not_split", "scale_d_model")


def test_two_combinations_that_give_one_output_name_only_what_they_share() -> None:
    """A mask that hides nothing: ignoring it gives the same output as applying it, so mask_ignored is not named."""
    stored = case_of(D=6, mask=np.ones((5, 5), bool))
    actual = one_head(project=False, mask_used=False)(*stored.inputs.values())
    found = decompose.multi_head(stored, actual)
    assert found is not None and found[0] == ("heads_not_split", "no_output_projection")
    assert "; or " in found[1]  # both readings are in the evidence


def test_an_output_no_combination_reproduces_names_nothing() -> None:
    stored = support.case("mha-two-heads")
    actual = np.asarray(stored.expected) + 0.01
    assert decompose.multi_head(stored, actual) is None


def head_modules(*, width: str, keys_first: bool, scale: str, causal: bool = False):
    """Multi-head attention written as a list of head modules (a course's nanoGPT-style first attempt): head h
    projects with columns [h * w, (h + 1) * w) of W_Q, W_K, W_V, w = d_k or D // H (``width``), scores q k^T or k q^T
    (``keys_first``) scaled by 1/sqrt(w) or 1/sqrt(D) (``scale``: "head" or "model"), the mask given or a causal
    one of its own (``causal``)."""

    def mha(X, W_Q, W_K, W_V, W_O, num_heads, mask=None):
        D, H = X.shape[-1], num_heads
        w = D // H if width == "model" else W_Q.shape[-1] // H
        d_v = W_V.shape[-1] // H
        heads = []
        for h in range(H):
            q, k = X @ W_Q[:, h * w:(h + 1) * w], X @ W_K[:, h * w:(h + 1) * w]
            v = X @ W_V[:, h * d_v:(h + 1) * d_v]
            scores = (k @ np.swapaxes(q, -1, -2) if keys_first else q @ np.swapaxes(k, -1, -2))
            scores = scores / np.sqrt(w if scale == "head" else D)
            if causal or mask is not None:
                scores = np.where(np.tril(np.ones(scores.shape[-2:], bool)) if causal else mask, scores, -np.inf)
            heads.append(ref.softmax(scores) @ v)
        return np.concatenate(heads, axis=-1) @ W_O

    return mha


@pytest.mark.parametrize("width, keys_first, scale, causal, expected", [
    ("model", False, "head", False, ("mha_head_width_model",)),
    ("model", True, "head", False, ("mha_head_width_model", "swapped_qk")),
    ("model", True, "model", False, ("mha_head_width_model", "swapped_qk", "scale_d_model")),
    ("head", True, "head", True, ("swapped_qk", "always_causal")),
    ("model", False, "model", True, ("mha_head_width_model", "always_causal", "scale_d_model")),
])
def test_heads_of_width_d_over_h_and_keys_times_queries_are_named_with_what_they_come_with(
        width, keys_first, scale, causal, expected) -> None:
    """H = 2 and d_k = 3 on D = 4 features: heads of D // H = 2 columns (the first four of W_Q and W_K), scaled
    by 1/sqrt(4) = 1/2 when by the model's width (no other dimension of the case is 4). Each output is reproduced by
    its combination alone."""
    stored = case_of(D=4, mask=np.tril(np.ones((5, 5), bool))[::-1].copy())  # a mask the causal one is not
    student = head_modules(width=width, keys_first=keys_first, scale=scale, causal=causal)
    found = decompose.multi_head(stored, student(*stored.inputs.values()))
    assert found is not None and set(found[0] if isinstance(found[0], tuple) else (found[0],)) == set(expected)


def test_heads_as_wide_as_d_over_h_are_not_named_where_that_is_d_k() -> None:
    """D = 6 = H * d_k: heads of D // H columns are the contract's, so only the swapped roles are named."""
    stored = case_of(D=6)
    found = decompose.multi_head(stored, head_modules(width="model", keys_first=True, scale="head")(
        *stored.inputs.values()))
    assert found is not None and found[0] == "swapped_qk"


# ---- scaled dot-product attention: mask, scale and the weights' layout ------------------------------------------


def keys_first(*, own_mask: str | None = None, scale_used: bool = True, layout: str = "transposed"):
    """A scaled_dot_product_attention of a keys-first course: weights laid out (..., n_k, n_q), maybe with a causal
    mask of its own (bottom-right or top-left aligned) and the scale argument ignored."""

    def sdpa(Q, K, V, mask=None, scale=None):
        n_q, n_k = Q.shape[-2], K.shape[-2]
        if own_mask == "top-left":
            mask = np.tril(np.ones((n_q, n_k), dtype=bool))
        elif own_mask == "bottom-right":
            mask = ref.causal_mask(n_q, n_k)
        out, weights = ref.scaled_dot_product_attention(Q, K, V, mask, scale if scale_used else None)
        if layout == "transposed":
            return out, np.swapaxes(weights, -1, -2)
        return out, weights.reshape(*weights.shape[:-2], n_k, n_q) if layout == "reshaped" else weights

    return sdpa


def sdpa_case(n_q: int = 3, n_k: int = 5, scale: float | None = 0.7, mask: np.ndarray | None = None) -> Case:
    rng = np.random.default_rng(2)
    inputs = {"Q": rng.normal(size=(n_q, 4)), "K": rng.normal(size=(n_k, 4)), "V": rng.normal(size=(n_k, 2)),
              "mask": mask, "scale": scale}
    return Case("made-here", "scaled_dot_product_attention", inputs, ref.scaled_dot_product_attention(**inputs))


@pytest.mark.parametrize("student, expected", [
    (keys_first(), "weights_transposed"),
    (keys_first(layout="reshaped"), "weights_reshaped"),
    (keys_first(own_mask="top-left", scale_used=False),
     ("always_causal", "causal_top_left", "weights_transposed", "scale_argument_ignored")),
    (keys_first(own_mask="bottom-right", layout="reshaped"), ("always_causal", "weights_reshaped")),
])
def test_mistakes_of_scaled_dot_product_attention_and_its_weights_layout_are_named_together(student,
                                                                                           expected) -> None:
    stored = sdpa_case()
    found = decompose.combined(stored, student(*stored.inputs.values()))
    assert found is not None and found[0] == expected, found


def test_a_square_case_cannot_tell_a_transpose_from_a_reshape_nor_top_left_from_bottom_right() -> None:
    """With n_q = n_k the reshape keeps the layout (no weights_reshaped candidate) and both causal masks agree."""
    stored = sdpa_case(n_q=4, n_k=4, scale=None)
    found = decompose.combined(stored, keys_first(own_mask="top-left")(*stored.inputs.values()))
    assert found is not None and found[0] == ("always_causal", "weights_transposed"), found


def test_a_keys_first_attention_is_told_so_in_a_graded_test() -> None:
    text = failure(LocalStudent(scaled_dot_product_attention=keys_first()), "sdpa-default-scale")
    assert named(text) == ["weights_transposed"]
    assert "one row per query and one column per key" in text


# ---- a mask read as a (batch, n_k) key-padding mask, and NaN on the rows it leaves empty ---------------------------


def key_padding(*, scale_used: bool = True, nan: bool = False):
    """A scaled_dot_product_attention of a course whose mask is a (B, n_k) padding mask: it gives the mask the head
    and query axes itself (``mask[:, None, None, :]``); ``nan``: its softmax of an all -inf row is NaN."""

    def sdpa(Q, K, V, mask=None, scale=None):
        scores = Q @ np.swapaxes(K, -1, -2) * (scale if scale_used and scale is not None else Q.shape[-1] ** -0.5)
        if mask is not None:
            mask = np.asarray(mask)[:, None, None, :]
            scores = np.where(mask, scores, -np.inf)
        with np.errstate(all="ignore"):
            e = np.exp(scores - scores.max(axis=-1, keepdims=True))
            weights = e / e.sum(axis=-1, keepdims=True)
        if not nan:
            weights = np.nan_to_num(weights)
        return weights @ V, weights

    return sdpa


@pytest.mark.parametrize("student, mask, expected", [
    (key_padding(), ref.causal_mask(3, 5), "mask_key_padding"),
    (key_padding(scale_used=False), ref.causal_mask(3, 5), ("mask_key_padding", "scale_argument_ignored")),
    (key_padding(nan=True), np.array([[True] * 5, [False] * 5, [True, False] * 2 + [True]]),
     ("mask_key_padding", "softmax_nan_fully_masked")),
])
def test_a_mask_read_as_key_padding_is_named_from_the_output_it_broadcasts_to(student, mask, expected) -> None:
    """Row b of the (3, 5) mask masks the keys of 'sequence' b for every query: the output is (3, 1, 3, d_v)."""
    stored = sdpa_case(mask=mask)
    actual = student(*stored.inputs.values())
    assert np.shape(actual[0]) == (3, 1, 3, 2)
    found = decompose.combined(stored, actual)
    assert found is not None and found[0] == expected, found


def test_nan_is_read_only_on_the_rows_a_candidate_leaves_without_keys() -> None:
    """The scale argument ignored, with NaN on a row the mask does not empty, is no combination of the knobs."""
    stored = sdpa_case(mask=np.array([[True] * 5, [False] * 5, [True, False] * 2 + [True]]))
    out, weights = (np.array(a) for a in ref.scaled_dot_product_attention(**dict(stored.inputs, scale=None)))
    out[1], weights[1] = np.nan, np.nan  # the fully masked row: NaN there is the softmax of an all -inf row
    assert decompose.combined(stored, (out, weights))[0] == ("scale_argument_ignored", "softmax_nan_fully_masked")
    out[0], weights[0] = np.nan, np.nan  # a row with keys
    assert decompose.combined(stored, (out, weights)) is None



KEY_PADDING_VIEW = '''

def scaled_dot_product_attention(Q, K, V, mask=None, scale=None):
    scores = Q @ np.swapaxes(K, -1, -2) * (Q.shape[-1] ** -0.5 if scale is None else scale)
    if mask is not None:  # a (B, n_k) padding mask, as torch's mask.view(B, 1, 1, n_k)
        mask = np.asarray(mask).reshape(Q.shape[0], 1, 1, K.shape[-2])
        scores = np.where(mask, scores, -1e30)
    weights = softmax(scores)
    return weights @ V, weights
'''


def test_a_key_padding_view_that_raises_is_explained_at_the_students_line(tmp_path) -> None:
    """The view raises on the (4, 6) mask of the (2, 3, 4, 6) case, and on a (2, 1, 3, 5) mask; with a mask of one
    row per sequence, (2, n_k), the line gets past and the call returns the contract's answer for key padding: the
    mistake is named at the student's line."""
    from autograder import runner
    from tests.homework import UPLOAD

    (tmp_path / f"{UPLOAD}.py").write_text(open(ref.__file__).read() + KEY_PADDING_VIEW)
    tests = {t["number"]: t for t in runner.grade_folder(tmp_path)["tests"]}
    for case in ("batch and head axes (2, 3), 4 queries, 6 keys", "a (2, 1, 3, 5) mask broadcast over 2 heads"):
        found = [t for t in tests.values() if case in t["output"]]  # a (4, 6) mask; a 4-D one
        assert found and found[0]["score"] == 0
        assert found[0]["extra_data"]["mistakes"][:1] == ["mask_key_padding"], found[0]["output"]
        assert "key-padding mask, one row per sequence" in found[0]["output"]


def test_outputs_returned_in_the_other_order_are_read_with_the_other_mistakes() -> None:
    """(weights, out) returned for (out, weights), the mask ignored: two mistakes, one output."""
    stored = sdpa_case(mask=ref.causal_mask(3, 5), scale=None)
    out, weights = ref.scaled_dot_product_attention(**dict(stored.inputs, mask=None))
    found = decompose.combined(stored, (weights, out))
    assert found is not None and found[0] == ("mask_ignored", "outputs_swapped"), found


def rotated_heads(layout: str, base: float = 10000.0, causal: bool = False):
    """Multi-head attention that rotates each head's queries and keys with a RoPE of its own at positions 0..N-1
    (the LLaMA-style attention students bring from their model code): interleaved pairs or halves (rotate_half)."""

    def rotate(M):
        d, n = M.shape[-1], M.shape[-2]
        theta = base ** (-np.arange(0, d, 2) / d)
        angles = np.arange(n)[:, None] * theta
        cos, sin = np.cos(angles), np.sin(angles)
        if layout == "pairs":
            even, odd = M[..., 0::2], M[..., 1::2]
            return np.stack([even * cos - odd * sin, even * sin + odd * cos], axis=-1).reshape(M.shape)
        first, second = M[..., : d // 2], M[..., d // 2:]
        return np.concatenate([first * cos - second * sin, second * cos + first * sin], axis=-1)

    def mha(X, W_Q, W_K, W_V, W_O, num_heads, mask=None):
        def split(M):
            return np.swapaxes(M.reshape(*M.shape[:-1], num_heads, -1), -2, -3)

        Q, K, V = (split(M) for M in ref.qkv_project(X, W_Q, W_K, W_V))
        n = X.shape[-2]
        mask = np.tril(np.ones((n, n), bool)) if causal else mask
        if mask is not None:
            mask = np.broadcast_to(mask, (*np.shape(mask)[:-2], n, n))[..., None, :, :]
        heads, _ = ref.scaled_dot_product_attention(rotate(Q), rotate(K), V, mask=mask)
        heads = np.swapaxes(heads, -2, -3)
        return heads.reshape(*heads.shape[:-2], -1) @ W_O

    return mha


def rope_case(d_k: int, mask: np.ndarray | None = None) -> Case:
    rng = np.random.default_rng(3)
    X, W_Q, W_K, W_V, W_O = (rng.normal(size=s) for s in ((2, 5, 8), (8, 2 * d_k), (8, 2 * d_k), (8, 6), (6, 4)))
    inputs = {"X": X, "W_Q": W_Q, "W_K": W_K, "W_V": W_V, "W_O": W_O, "num_heads": 2, "mask": mask}
    return Case("made-here", "multi_head_attention", inputs, ref.multi_head_attention(**inputs))


@pytest.mark.parametrize("layout, causal, expected", [
    ("pairs", False, ("mha_applies_rope",)),
    ("halves", False, ("mha_applies_rope",)),
    ("halves", True, ("mha_applies_rope", "always_causal")),  # its own causal mask in place of the case's
])
def test_a_rope_of_its_own_inside_the_heads_is_named_in_either_layout(layout, causal, expected) -> None:
    mask = np.ones((5, 5), bool) if causal else None
    mask = None if mask is None else mask & ~np.eye(5, k=1, dtype=bool)  # not causal: the code's own mask differs
    stored = rope_case(4, mask)
    found = decompose.multi_head(stored, rotated_heads(layout, causal=causal)(*stored.inputs.values()))
    assert found is not None and set(np.atleast_1d(found[0])) == set(expected), found
    assert ("halves" in found[1]) == (layout == "halves"), found[1]


def test_a_rope_at_another_base_is_not_named() -> None:
    """Only base 10000 is a candidate: a RoPE of another base reproduces no candidate, so nothing is said of it."""
    stored = rope_case(4)
    found = decompose.multi_head(stored, rotated_heads("pairs", base=500000.0)(*stored.inputs.values()))
    assert found is None or "mha_applies_rope" not in np.atleast_1d(found[0]), found


KEY_PADDING_CHECKED = '''

def scaled_dot_product_attention(Q, K, V, mask=None, scale=None):
    scores = Q @ np.swapaxes(K, -1, -2) * (Q.shape[-1] ** -0.5 if scale is None else scale)
    if mask is not None:
        mask = np.asarray(mask)
        mask = mask[:, None, None, :] if mask.ndim == 2 else mask  # a (B, n_k) padding mask, or one in full
        np.broadcast_shapes(mask.shape, scores.shape)  # masked_fill_'s rule
        scores = np.where(mask, scores, -1e30)
    weights = softmax(scores)
    return weights @ V, weights
'''


def test_a_crash_whose_rewritten_call_answers_with_the_mistake_itself_names_it_though_another_gets_past(
        tmp_path) -> None:
    """The broadcast check raises on the (4, 6) mask of the (2, 3, 4, 6) case. A mask written out in full gets past
    it too (and is right), but the call with a mask of one row per sequence returns the contract's answer for key
    padding: that answer is the mistake's own output, whichever reading the line has, so it is named."""
    from autograder import runner
    from tests.homework import UPLOAD

    (tmp_path / f"{UPLOAD}.py").write_text(open(ref.__file__).read() + KEY_PADDING_CHECKED)
    tests = runner.grade_folder(tmp_path)["tests"]
    found = [t for t in tests if "batch and head axes (2, 3), 4 queries, 6 keys" in t["output"]]
    assert found and found[0]["score"] == 0
    assert found[0]["extra_data"]["mistakes"][:1] == ["mask_key_padding"], found[0]["output"]
    said = [e["by"] for e in found[0]["extra_data"]["evidence"] if e.get("sentence", "").startswith("mask_key_padding")]
    assert any("gets past it too, but this call's answer is the mistake's own" in by for by in said), said
