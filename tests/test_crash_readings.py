"""Readings of a raise and of an output that a twenty-first batch of real students' code asked for: a mask that must
have a batch axis, a mask read as one truth value, a mask given a query axis as key padding, a causal buffer cut to
the sequence, a rank's rewriting that passes only for the data it kept, an input read as if it had one more axis,
and a causal mask with a leading axis of length 1. Each submission is graded by the real engine, and each sentence
checked against what its code does."""

from __future__ import annotations

import pytest

from tests.test_crash_search import _failing
from tests.test_inference import _graded_with, _where

SLICED_BUFFER = '''

def scaled_dot_product_attention(Q, K, V, mask=None, scale=None):
    if mask is not None:
        n_q, n_k = Q.shape[-2], K.shape[-2]
        mask = mask[:, :n_q, :n_k]  # the course's (1, L, L) causal buffer, cut to the scores
    return _reference_sdpa(Q, K, V, mask, scale)
'''


def test_a_mask_cut_with_three_indices_is_named_as_needing_a_batch_axis(tmp_path_factory) -> None:
    """`mask[:, :n_q, :n_k]` raises on a shared (n_q, n_k) mask and gets past with the mask given a leading axis of
    length 1: the code takes its mask only with a batch axis. Written out in full the mask gets past too, but that
    rewriting gives it the same axis, so it is no second reading."""
    tests = _failing(_graded_with(tmp_path_factory, "_reference_sdpa = scaled_dot_product_attention", SLICED_BUFFER,
                                  "scaled_dot_product_attention"))
    quoted = [t for t in tests if "`mask = mask[:, :n_q, :n_k]`" in _where(t) and "2-D" not in _where(t)]
    shared = [t for t in quoted if "assumes the mask has a leading batch axis" in _where(t)]
    assert shared, [_where(t) for t in tests]
    for t in shared:
        assert t["extra_data"]["mistakes"][:1] == ["mask_needs_batch_axis"], t["output"]
        assert "mask_full_shape" not in t["extra_data"]["mistakes"], t["output"]


TRUTH_VALUE = '''

def scaled_dot_product_attention(Q, K, V, mask=None, scale=None):
    if mask:  # "was a mask given?"
        return _reference_sdpa(Q, K, V, mask, scale)
    return _reference_sdpa(Q, K, V, None, scale)
'''


def test_a_mask_read_as_one_truth_value_is_named_as_working_only_without_a_mask(tmp_path_factory) -> None:
    """`if mask:` raises for any mask of more than one entry; without the mask the call gets past the line."""
    tests = _failing(_graded_with(tmp_path_factory, "_reference_sdpa = scaled_dot_product_attention", TRUTH_VALUE,
                                  "scaled_dot_product_attention"))
    quoted = [t for t in tests if "`if mask:`" in _where(t)]
    assert quoted, [t["output"][:400] for t in tests]
    for t in quoted:
        assert t["extra_data"]["mistakes"][:1] == ["needs_no_mask"], t["output"]
        assert "The same call without the mask (`mask=None`)" in _where(t), _where(t)


UNSQUEEZED = '''

def scaled_dot_product_attention(Q, K, V, mask=None, scale=None):
    scale = 1 / np.sqrt(Q.shape[-1]) if scale is None else scale
    scores = Q @ np.swapaxes(K, -1, -2) * scale
    if mask is not None:
        scores = np.where(np.expand_dims(mask, 1) == 0, -np.inf, scores)  # mask.unsqueeze(1): (B, N) -> (B, 1, N)
    weights = softmax(scores)
    return weights @ V, weights
'''


def test_a_mask_given_a_query_axis_is_read_as_key_padding_whatever_axes_of_length_1_it_adds(
        tmp_path_factory) -> None:
    """`mask.unsqueeze(1)` on a shared (n_q, n_k) mask reads its rows as sequences: on 2-D scores the output gains a
    leading axis of n_q sequences. That is the contract's answer for the mask read as key padding but for where its
    axes of length 1 stand, and it is named so."""
    tests = _failing(_graded_with(tmp_path_factory, "", UNSQUEEZED, "scaled_dot_product_attention"))
    padded = [t for t in tests if "mask_key_padding" in t["extra_data"].get("mistakes", [])]
    assert padded, [t["output"][:400] for t in tests]
    backing = [e for t in padded for e in t["extra_data"]["evidence"] if "mask_key_padding" in str(e.get("sentence"))]
    assert any("but for where its axes of length 1 stand" in e["by"] for e in backing), backing
    for t in padded:  # its (n_q, ...) axis is no axis of length 1 to drop
        assert "drop them (e.g. with [0])" not in t["output"], t["output"]


EQUAL_WIDTHS_FINITE = '''

def scaled_dot_product_attention(Q, K, V, mask=None, scale=None):
    assert Q.shape[-1] == K.shape[-1] == V.shape[-1], "q, k and v must be equally wide"
    scores = Q @ np.swapaxes(K, -1, -2) / np.sqrt(Q.shape[-1])  # no scale argument
    if mask is not None:
        scores = np.where(mask, scores, -1e9)  # finite: a fully masked row becomes uniform
    weights = softmax(scores)
    return weights @ V, weights
'''


def test_a_rank_rewriting_that_passes_only_for_the_data_it_kept_names_no_rank(tmp_path_factory) -> None:
    """Dropping a leading axis keeps the first sequence only, which may leave out a fully masked row: the call then
    passes for the data, not for the rank. The same slices at the case's own rank pass too, so no number of leading
    axes is named on any case of the function (its axes are right)."""
    tests = _failing(_graded_with(tmp_path_factory, "", EQUAL_WIDTHS_FINITE, "scaled_dot_product_attention"))
    assert tests
    axes = {"batch_first_only", "needs_leading_axis", "needs_leading_axes", "matrix_input_only", "no_batch_support"}
    for t in tests:
        assert not axes & set(t["extra_data"].get("mistakes", [])), t["output"]
    assert any(t["extra_data"].get("mistakes", [])[:1] == ["needs_equal_widths"] for t in tests)


FIXED_SPLIT = '''

def multi_head_attention(X, W_Q, W_K, W_V, W_O, num_heads, mask=None):
    q = X @ W_Q
    batch_size, seqlen = q.shape[0], q.shape[1]  # a (B, N, D) input only
    np.reshape(q, (batch_size, seqlen, num_heads, q.shape[-1] // num_heads))
    return _reference_mha(X, W_Q, W_K, W_V, W_O, num_heads, mask)
'''


def test_a_reshape_whose_first_sizes_hold_the_whole_array_is_read_for_the_input_s_rank(tmp_path_factory) -> None:
    """On a 2-D input `np.reshape(q, (N, D, H, d))` fails with "cannot reshape array of size N*D into shape (N, D,
    ...)": its first sizes already hold the whole array, the input read as if it had one more axis. The rank's
    rewriting is tried though the message names no rank, and the line is named as needing a leading axis."""
    tests = _failing(_graded_with(tmp_path_factory, "_reference_mha = multi_head_attention", FIXED_SPLIT,
                                  "multi_head_attention"))
    quoted = [t for t in tests if "np.reshape(q, (batch_size, seqlen" in _where(t) and "is 3-D" in _where(t)]
    assert quoted, [_where(t) for t in tests]
    for t in quoted:
        assert t["extra_data"]["mistakes"][:1] in (["batch_first_only"], ["needs_leading_axis"]), t["output"]


SQUARE_WITH_AXIS = '''

def causal_mask(n_q, n_k=None):
    return np.tril(np.ones((1, n_q, n_q), dtype=bool))  # square, with a leading axis of 1
'''


def test_a_causal_mask_with_a_leading_axis_of_length_1_is_read_without_it(
        tmp_path_factory: pytest.TempPathFactory) -> None:
    """A (1, n_q, n_q) mask for n_q != n_k: without its leading axis of length 1 it is causal_mask(n_q, n_q), so both
    mistakes are named, though its shape is not the expected one once the axis is gone."""
    tests = _failing(_graded_with(tmp_path_factory, "", SQUARE_WITH_AXIS, "causal_mask"))
    both = [t for t in tests if set(t["extra_data"].get("mistakes", [])) == {"causal_ignores_n_k",
                                                                            "extra_leading_axes"}]
    assert both, [(t["number"], t["extra_data"].get("mistakes")) for t in tests]


THIRD_AXIS = '''

def multi_head_attention(X, W_Q, W_K, W_V, W_O, num_heads, mask=None):
    out = _reference_mha(X, W_Q, W_K, W_V, W_O, num_heads, mask)
    np.concatenate([out, out], axis=2)  # some leading axis only
    return out
'''


def test_a_mask_given_a_batch_axis_on_plain_inputs_is_no_reading_of_a_line_that_needs_the_inputs_axis(
        tmp_path_factory) -> None:
    """On inputs without leading axes, `mask[None]` gives the output a leading axis too, so a line that needs one
    gets past it; the inputs given one leading axis (the mask as it is) get past as well, so the line is named for
    the inputs' axes, never for the mask's."""
    tests = _failing(_graded_with(tmp_path_factory, "_reference_mha = multi_head_attention", THIRD_AXIS,
                                  "multi_head_attention"))
    masked = [t for t in tests if "np.concatenate([out, out], axis=2)" in _where(t) and "mask of boolean array ("
              in t["output"] and "(6, 8)" in t["output"]]
    assert masked, [_where(t) for t in tests]
    for t in masked:
        assert "mask_needs_batch_axis" not in t["extra_data"]["mistakes"], t["output"]
        assert t["extra_data"]["mistakes"][:1] == ["needs_leading_axis"], t["output"]
