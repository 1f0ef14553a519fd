"""The crash search on lines a callee hides, masks that must be given, weights that must be square and position
tables as long as the sequence: each submission is graded by the real engine, and each sentence checked against
what its code does."""

from __future__ import annotations

import pytest

from tests.test_inference import _graded_with, _where

STANDING_IN = "With a correct `attention_scores` standing in for yours (yours raised first: below), your line"

BOTH_THREE_D = '''

def attention_scores(Q, K):
    B, n_q, d_k = Q.shape  # one leading axis only
    return Q @ np.swapaxes(K, -1, -2)


def scaled_dot_product_attention(Q, K, V, mask=None, scale=None):
    scores = attention_scores(Q, K)
    B, n_q, n_k = scores.shape  # one leading axis only, its own line
    return _reference_sdpa(Q, K, V, mask, scale)
'''

CALLEE_ONLY = '''

def attention_scores(Q, K):
    B, n_q, d_k = Q.shape  # one leading axis only
    return Q @ np.swapaxes(K, -1, -2)


def scaled_dot_product_attention(Q, K, V, mask=None, scale=None):
    scores = attention_scores(Q, K) * (scale if scale is not None else 1 / np.sqrt(Q.shape[-1]))
    if mask is not None:
        scores = np.where(mask, scores, -np.inf)
    weights = softmax(scores)
    return weights @ V, weights
'''


def _failing(tests: list[dict]) -> list[dict]:
    return [t for t in tests if t["score"] < t["max_score"]]


def test_a_line_of_its_own_that_a_raising_callee_hides_is_explained_with_a_correct_callee_standing_in(
        tmp_path_factory: pytest.TempPathFactory) -> None:
    """attention_scores raises first on inputs without exactly one leading axis; with the grader's correct one
    standing in, the function's own `B, n_q, n_k = scores.shape` raises there too: that line is quoted with what it
    assumed, named, and backed by the served probes."""
    tests = _failing(_graded_with(tmp_path_factory, "_reference_sdpa = scaled_dot_product_attention", BOTH_THREE_D,
                                  "scaled_dot_product_attention"))
    served = [t for t in tests if STANDING_IN in _where(t)]
    assert served, [_where(t) for t in tests]
    for t in served:
        assert "`B, n_q, n_k = scores.shape`" in _where(t), _where(t)
        assert t["extra_data"]["mistakes"][:1] in (["batch_first_only"], ["needs_leading_axis"]), t["output"]
        backing = [e for e in t["extra_data"]["evidence"] if e.get("sentence") == t["extra_data"]["mistakes"][0]]
        assert any("correct attention_scores served in every call" in e["by"] for e in backing), t["extra_data"]


def test_a_callee_that_raises_alone_is_left_to_check_first(tmp_path_factory: pytest.TempPathFactory) -> None:
    """The function's own code is right: with a correct attention_scores the case passes, so no line of its own is
    quoted and "Check first" cites the callee."""
    tests = _failing(_graded_with(tmp_path_factory, "", CALLEE_ONLY, "scaled_dot_product_attention"))
    assert tests
    for t in tests:
        assert "standing in for yours (yours raised first" not in t["output"], t["output"]
        assert "**Check first:** your `attention_scores`" in t["output"], t["output"]
        assert not t["extra_data"].get("mistakes"), t["extra_data"]


MASK_REQUIRED = '''

def scaled_dot_product_attention(Q, K, V, mask=None, scale=None):
    hidden = ~mask  # a mask is always given, it assumes
    return _reference_sdpa(Q, K, V, mask, scale)
'''


def test_a_line_that_needs_a_mask_is_named_on_the_cases_without_one(tmp_path_factory: pytest.TempPathFactory) -> None:
    tests = _failing(_graded_with(tmp_path_factory, "_reference_sdpa = scaled_dot_product_attention", MASK_REQUIRED,
                                  "scaled_dot_product_attention"))
    unmasked = [t for t in tests if "assumes a mask is given" in _where(t)]
    assert unmasked, [_where(t) for t in tests]
    for t in unmasked:
        assert "Your line `hidden = ~mask`" in _where(t), _where(t)
        assert t["extra_data"]["mistakes"][:1] == ["needs_mask"], t["output"]


SQUARE_ONLY = '''

def multi_head_attention(X, W_Q, W_K, W_V, W_O, num_heads, mask=None):
    D = X.shape[-1]
    for W in (W_Q, W_K, W_V, W_O):  # every layer nn.Linear(D, D), loaded with the weights
        if np.shape(W) != (D, D):
            raise ValueError("size mismatch: every layer is (D, D)")
    return _reference_mha(X, W_Q, W_K, W_V, W_O, num_heads, mask)
'''

QUERIES_ONLY = '''

def multi_head_attention(X, W_Q, W_K, W_V, W_O, num_heads, mask=None):
    if W_Q.shape[-1] != X.shape[-1]:  # heads that split the model width, the queries' only
        raise ValueError("num_heads * d_k must be D")
    return _reference_mha(X, W_Q, W_K, W_V, W_O, num_heads, mask)
'''


PROJECTIONS_OF_D = '''

def multi_head_attention(X, W_Q, W_K, W_V, W_O, num_heads, mask=None):
    for W in (W_Q, W_K, W_V):  # heads of D // H, the values' too; W_O of any output width
        if np.shape(W)[-1] != X.shape[-1]:
            raise ValueError("num_heads * head_dim must be D")
    return _reference_mha(X, W_Q, W_K, W_V, W_O, num_heads, mask)
'''

VALUES_AS_QUERIES = '''

def multi_head_attention(X, W_Q, W_K, W_V, W_O, num_heads, mask=None):
    if W_V.shape[-1] != W_Q.shape[-1]:
        raise ValueError("the values' heads must be as wide as the queries'")
    return _reference_mha(X, W_Q, W_K, W_V, W_O, num_heads, mask)
'''


@pytest.mark.parametrize(("source", "named", "not_named"), [
    (SQUARE_ONLY, {"mha_square_weights"}, "mha_head_width_model"),
    (QUERIES_ONLY, {"mha_head_width_model"}, "mha_square_weights"),
    # where D = num_heads * d_k already holds, d_v = d_k is all the case breaks
    (PROJECTIONS_OF_D, {"mha_head_width_model", "mha_value_width"}, "mha_square_weights"),
    (VALUES_AS_QUERIES, {"mha_value_width"}, "mha_head_width_model"),
], ids=["every weight square", "queries as wide as the model only", "every projection as wide as the model",
        "values as wide as the queries"])
def test_weights_that_must_be_square_are_told_from_heads_that_split_the_model_width(
        tmp_path_factory: pytest.TempPathFactory, source: str, named: set[str], not_named: str) -> None:
    """A check that every weight is (D, D) gets past only when all of them are; a check of the queries' width alone
    gets past with D = num_heads * d_k already, and one of every projection's with the values' heads as wide too:
    both are named as heads that split the model width (whose sentence says d_v too), not as square weights."""
    tests = _failing(_graded_with(tmp_path_factory, "_reference_mha = multi_head_attention", source,
                                  "multi_head_attention"))
    said = [t for t in tests if t["extra_data"].get("mistakes")]
    assert said, [t["output"][:400] for t in tests]
    for t in said:
        assert t["extra_data"]["mistakes"][0] in named, t["output"]
        assert not_named not in t["extra_data"]["mistakes"], t["output"]
    assert {t["extra_data"]["mistakes"][0] for t in said} >= named - {"mha_value_width"}


TABLE_OF_N = '''

def rope(x, positions, base=10000.0):
    angles = np.arange(x.shape[-2])  # a table of one row per token, indexed by the positions
    angles[positions]
    return _reference_rope(x, positions, base)
'''


def test_a_table_indexed_by_float_positions_is_named_for_its_integers(tmp_path_factory: pytest.TempPathFactory) -> None:
    """Whole positions get past the line only below the table's length (one row per token): the rewriting keeps
    them there, so the raise on float positions is read as assuming integers."""
    tests = _failing(_graded_with(tmp_path_factory, "_reference_rope = rope", TABLE_OF_N, "rope"))
    floats = [t for t in tests if "arrays used as indices must be of integer" in t["output"]]
    assert floats, [t["output"][:400] for t in tests]
    for t in floats:  # a position past the table's end, rounded, raises at that line too: not a reason
        assert "integer positions; this case's positions are floats" in _where(t), t["output"]
        assert t["extra_data"]["mistakes"][:1] == ["rope_integer_positions"], t["output"]


MASK_RANK = '''

def scaled_dot_product_attention(Q, K, V, mask=None, scale=None):
    if mask is not None:  # the course's mask helper: 3-D or 4-D scores, a (B, n_q, n_k) mask only
        assert (Q @ np.swapaxes(K, -1, -2)).ndim in (3, 4)
        assert len(mask.shape) == 3
    return _reference_sdpa(Q, K, V, mask, scale)
'''


def test_a_rank_probe_that_cuts_the_mask_with_the_tokens_says_either_may_be_assumed(
        tmp_path_factory: pytest.TempPathFactory) -> None:
    """A rank probe cuts a per-sequence mask's leading axes with the tokens': the line that reads the mask's rank
    gets past it, so the sentence says the tokens' or the mask's rank, never the tokens' alone; no mistake of the
    axes is named (without the mask the line is not reached)."""
    tests = _failing(_graded_with(tmp_path_factory, "_reference_sdpa = scaled_dot_product_attention", MASK_RANK,
                                  "scaled_dot_product_attention"))
    quoted = [t for t in tests if "`assert len(mask.shape) == 3`" in _where(t)]
    assert quoted, [_where(t) for t in tests]
    cut = [t for t in quoted if "leading ax" in _where(t) and "assumes `Q`" in _where(t)]
    assert cut, [_where(t) for t in quoted]
    for t in cut:
        assert "or its mask" in _where(t) and "(its mask cut to match)" in _where(t), _where(t)
    for t in quoted:
        axes = {"batch_first_only", "needs_leading_axis", "needs_leading_axes", "matrix_input_only"}
        assert not axes & set(t["extra_data"].get("mistakes", [])), t["extra_data"]


ONE_SHAPE = '''

def scaled_dot_product_attention(Q, K, V, mask=None, scale=None):
    assert Q.shape == K.shape == V.shape  # self-attention's one shape
    return _reference_sdpa(Q, K, V, mask, scale)
'''


def test_an_assert_that_q_k_and_v_share_one_shape_is_named_for_what_each_case_breaks(
        tmp_path_factory: pytest.TempPathFactory) -> None:
    """Where a case has more keys than queries and narrower values, neither rewriting alone gets past the assert:
    both together do, named as one shape; where only the widths differ, d_v = d_k alone; never a number of axes."""
    tests = _failing(_graded_with(tmp_path_factory, "_reference_sdpa = scaled_dot_product_attention", ONE_SHAPE,
                                  "scaled_dot_product_attention"))
    both = [t for t in tests if "assumes Q, K and V have one shape (n_q = n_k and d_v = d_k)" in _where(t)]
    widths = [t for t in tests if "assumes d_v = d_k;" in _where(t)]
    assert both and widths, [_where(t) for t in tests]
    for t in both:
        assert t["extra_data"]["mistakes"][:1] == ["needs_same_shape"], t["output"]
    for t in widths:
        assert t["extra_data"]["mistakes"][:1] == ["needs_equal_widths"], t["output"]
    for t in tests:
        said = set(t["extra_data"].get("mistakes", []))
        assert not {"batch_first_only", "needs_leading_axis", "needs_square"} & said, t["output"]


TRANSPOSED_IN_A_HELPER = '''

def _transpose(x, a, b):  # torch.transpose: both axes must exist
    if max(a, b) >= x.ndim:
        raise IndexError(f"Dimension out of range (expected [{-x.ndim}, {x.ndim - 1}], got {max(a, b)})")
    return np.swapaxes(x, a, b)


def scaled_dot_product_attention(Q, K, V, mask=None, scale=None):
    scores = Q @ _transpose(K, 1, 2)  # (B, N, d) only
    return _reference_sdpa(Q, K, V, mask, scale)
'''


def test_a_rewriting_that_raises_inside_a_call_the_line_makes_has_not_got_past_it(
        tmp_path_factory: pytest.TempPathFactory) -> None:
    """On 4-D inputs the line's matmul raises; with one leading axis it gets past; with none its own helper raises,
    called from that same line: the line did not get past there, so it needs exactly one leading axis."""
    tests = _failing(_graded_with(tmp_path_factory, "_reference_sdpa = scaled_dot_product_attention",
                                  TRANSPOSED_IN_A_HELPER, "scaled_dot_product_attention"))
    four = [t for t in tests if "is 4-D" in _where(t) and "assumes `Q` is 3-D (one leading axis)" in _where(t)]
    assert four, [_where(t) for t in tests]
    for t in four:
        assert t["extra_data"]["mistakes"][:1] == ["batch_first_only"], t["output"]
        line = [e["by"] for e in t["extra_data"]["evidence"] if e.get("sentence") == "batch_first_only"
                and "no longer raises at the student's line" in e.get("by", "")]  # the line's own reading names it
        assert line and all("read the other way still raises there" in by for by in line), t["extra_data"]
