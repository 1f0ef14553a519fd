"""Known-wrong variants of the contract functions (dev-time only, never shipped).

``VARIANTS[function][mistake_id]`` has the contract function's signature (a class with
KVCache's interface for "KVCache") and makes exactly that one mistake; the ids are the
keys of ``autograder.feedback.compare.MISTAKES``. ``regen`` stores their outputs next to the
expected ones so that ``feedback.diagnose`` can name the mistake a submission makes.

Each variant is the reference with one small, readable edit. Notes for callers:
  * A variant may raise on inputs where its mistake cannot run (``scores_not_transposed``
    needs a square K, ``decode_excludes_self`` a non-empty cache, ...): store nothing then.
  * On some inputs a variant equals the reference (``causal_top_left`` when n_q == n_k);
    ``feedback.diagnose`` skips such outputs, and regen may drop them.
  * ``NOT_BY_VALUE`` lists the mistakes that give correct values and are detected
    another way: by call counts (the grader's Layer) or by read-only inputs.
  * Shifting every RoPE position by the same amount leaves attention unchanged (Dis 11 Q1c),
    so a consistent off-by-one position inside generate_cached cannot be seen in its
    output: it is listed for decode_step (the cache holds keys rotated at the right
    positions) and for rope itself, not for generate_cached.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from . import attention as ref

NOT_BY_VALUE: dict[str, str] = {
    "modified_input": "writes to an input array: the grader passes read-only inputs, so the write raises",
    "cache_recomputes": "call counts: more than N key/value projections in generate_cached",
    "naive_no_recompute": "call counts: fewer than N(N+1)/2 key/value projections in generate_naive",
    "extra_projections": "call counts: the new token projected more than once in decode_step or generate_cached",
    "shared_state": "state kept between caches or calls: a new KVCache() is not empty, or a repeated call differs",
    "mha_value_width": "probe: multi_head_attention right once each head's values are zero-padded to d_v = d_k",
    "mha_head_width_model": "probe: multi_head_attention right once X and the weights are zero-padded to D = H*d_k",
    "mha_mask_head_axis": "probe: multi_head_attention right once the (B, N, N) mask gets its head axis",
    "batch_first_only": "probe: right once the input has exactly one leading axis (added, or the leading ones merged)",
    "low_precision": "every entry within a few float16/bfloat16 ulps of the expected value",
    "output_rounded": "every entry a multiple of 10**-k, equal to the expected output (or a stored mistake's) rounded "
    "to k decimal places",
    "extra_leading_axes": "the expected values with extra leading axes of length 1",
    "last_axis_split": "the expected values with the last axis split into several, e.g. (..., N, d/2, 2) for (..., N, "
    "d)",
    "returned_list": "the type of the result: a Python list where the contract asks for a numpy array",
}

# Mistakes named by inference from the output or by a probe (autograder/suite/graded/inference.py), not by a
# stored output: the effective scale fitted from the weights, a rewritten case that passes, what RoPE rotated.
BY_INFERENCE: dict[str, str] = {
    "scale_d_v": "the weights' fitted effective scale is 1/sqrt(d_v)",
    "scale_other": "the weights' fitted effective scale is another constant than the one asked for",
    "mask_bool_added": "the fitted log-weights hold the boolean mask as a 0/1 term",
    "causal_ignores_n_k": "the output is causal_mask(n_q, n_q)",
    "needs_leading_axes": "the case rewritten with another number of leading axes passes",
    "mha_tokens_first": "the output equals the contract's answer on X with its first two axes swapped, swapped back "
    "(the input read as (N, B, D), tokens first)",
    "sdpa_tokens_first": "the output equals the contract's answer on Q, K and V with their first two axes swapped, "
    "swapped back (the inputs read as (N, B, d), tokens first)",
    "matrix_input_only": "the student's line that raised gets past with no leading axes and still raises with "
    "another number of them (the crash search: diagnosis/crashes.py)",
    "needs_leading_axis": "the case rewritten with one and with two leading axes passes, without any it fails",
    "mask_full_shape": "the case with its mask written out to the scores' full shape passes",
    "always_causal": "the output equals the contract's answer with a causal mask instead of the one given",
    "mha_fixed_heads": "the student's line that raised gets past with another num_heads over the same projections "
    "(the crash search: diagnosis/crashes.py)",
    "weights_transposed": "the output is right and its weights, transposed back, are the contract's (alone or with "
    "other mistakes: diagnosis/decompose.py)",
    "weights_reshaped": "the output is right and its weights, reshaped back to (..., n_q, n_k), are the contract's",
    "needs_square": "the case rewritten with n_q = n_k passes",
    "needs_equal_widths": "the case rewritten with d_v = d_k passes",
    "needs_same_shape": "the student's line that raised gets past with as many queries as keys and d_v = d_k "
    "together, and with neither alone (the crash search: diagnosis/crashes.py)",
    "layer_width_model": "the student's line that raised gets past with a layer projecting each token to its own "
    "width, d_k = d_v = D (the crash search: diagnosis/crashes.py)",
    "needs_float_mask": "the case rewritten with a 0/1 mask passes",
    "mha_square_weights": "the student's line that raised gets past with X and every weight zero-padded to one "
    "square width (the crash search: diagnosis/crashes.py)",
    "mha_needs_divisible_width": "the case with X zero-padded to a width num_heads divides (and no width of the "
    "heads') passes, or gets the student's line that raised past it, and X padded to the next width num_heads does "
    "not divide does not",
    "needs_no_mask": "the student's line that raised, reading an array of several entries as one truth value, gets "
    "past without the mask (the crash search: diagnosis/crashes.py)",
    "needs_mask": "the student's line that raised on a case without a mask gets past with an all-True mask given "
    "(the crash search: diagnosis/crashes.py)",
    "mask_needs_batch_axis": "the student's line that raised on a 2-D mask gets past with the mask given a leading "
    "axis of length 1, mask[None] (the crash search: diagnosis/crashes.py)",
    "needs_shared_mask": "the student's line that raised gets past with one (n_q, n_k) mask for all sequences "
    "(the crash search: diagnosis/crashes.py)",
    "rope_partial": "only the first dimensions are rotated, the rest kept",
    "rope_integer_offset": "the output is RoPE at positions offset + 0..N-1",
    "rope_mixed_layout": "the output is RoPE with its cos/sin tables and partner coordinates in different layouts",
    "rope_output_halves": "the output is RoPE's rotated pairs written as two halves",
    "out_width_is_input": "the case with X padded to H*d_v zero-weighted features (and d_k != d_v) passes",
    "rope_base_ignored": "each pair's fitted angle is positions * 10000**(-2i/d), the default base's",
    "default_required": "the case called again with the contract's default arguments given explicitly passes",
    "mask_key_padding": "the output equals the contract's answer with the mask's first axis read as a batch of "
    "key-padding rows, mask[:, None, None, :] (diagnosis/decompose.py)",
    "causal_buffer_max_tokens": "the student's line that raised on a broadcast with an (m, m) array of its own gets "
    "past with m tokens and with m - 1 (the crash search: diagnosis/crashes.py)",
    "causal_mask_block_size": "the student's line that raised on a broadcast with an (m, m) array of its own gets "
    "past with m tokens, and still raises there with m - 1 (the crash search: diagnosis/crashes.py)",
    "mha_applies_rope": "the output equals the contract's answer with each head's queries and keys rotated by RoPE "
    "at positions 0..N-1, in interleaved pairs or in halves (diagnosis/decompose.py)",
}


# --- Part A: projections and scores -------------------------------------------------------------------------

QKV: dict[str, Callable] = {
    # q_i = W_Q^T x_i applied to all tokens at once, as columns
    "qkv_transposed": lambda X, W_Q, W_K, W_V: tuple(np.swapaxes(X @ W, -1, -2) for W in (W_Q, W_K, W_V)),
    "qkv_weights_transposed": lambda X, W_Q, W_K, W_V: (X @ W_Q.T, X @ W_K.T, X @ W_V.T),  # square W only
    "qkv_wrong_weight": lambda X, W_Q, W_K, W_V: (X @ W_Q, X @ W_Q, X @ W_V),
    "qkv_order": lambda X, W_Q, W_K, W_V: (X @ W_Q, X @ W_V, X @ W_K),
}


def _flat(M):  # (..., N, d) -> (B*N, d): what reshape(-1, d) does to the leading axes
    return M.reshape(-1, M.shape[-1])


SCORES: dict[str, Callable] = {
    "transposed_scores": lambda Q, K: K @ np.swapaxes(Q, -1, -2),
    "scores_not_transposed": lambda Q, K: Q @ K,
    "scores_scaled": lambda Q, K: ref.attention_scores(Q, K) / np.sqrt(Q.shape[-1]),
    "no_batch_support": lambda Q, K: _flat(Q) @ _flat(K).T,
}


# --- Part B: softmax ----------------------------------------------------------------------------------------

def _softmax_global_sum(Z, axis=-1, temperature=1.0):
    Z = np.asarray(Z) / temperature
    E = np.exp(Z - np.max(Z))
    return E / np.sum(E)


def _softmax_no_keepdims(Z, axis=-1, temperature=1.0):  # runs when the shapes happen to broadcast
    Z = np.asarray(Z) / temperature
    E = np.exp(Z - np.max(Z, axis=axis, keepdims=True))
    return E / np.sum(E, axis=axis)


def _softmax_minus(shift: Callable) -> Callable:
    """A softmax that subtracts ``shift(Z, axis)`` instead of the reference's guarded per-slice max."""

    def variant(Z, axis=-1, temperature=1.0):
        Z = np.asarray(Z) / temperature
        with np.errstate(all="ignore"):
            E = np.exp(Z - shift(Z, axis))
            return E / np.sum(E, axis=axis, keepdims=True)

    return variant


_softmax_unstable = _softmax_minus(lambda Z, axis: 0.0)  # exp(1000) = inf
_softmax_nan_fully_masked = _softmax_minus(lambda Z, axis: np.max(Z, axis=axis, keepdims=True))  # no guards


def _softmax_in_place(Z, axis=-1, temperature=1.0):
    Z /= temperature  # writes into the caller's array
    return ref.softmax(Z, axis=axis)


SOFTMAX: dict[str, Callable] = {
    "softmax_wrong_axis": lambda Z, axis=-1, temperature=1.0: ref.softmax(Z, axis=0, temperature=temperature),
    "softmax_ignores_axis": lambda Z, axis=-1, temperature=1.0: ref.softmax(Z, axis=-1, temperature=temperature),
    "softmax_global_sum": _softmax_global_sum,
    "softmax_no_keepdims": _softmax_no_keepdims,
    "softmax_unstable": _softmax_unstable,
    "softmax_global_max": _softmax_minus(lambda Z, axis: np.max(Z)),
    "softmax_nan_fully_masked": _softmax_nan_fully_masked,
    "softmax_neginf_finite": lambda Z, axis=-1, temperature=1.0: ref.softmax(
        np.where(np.isneginf(Z), -1e30, Z), axis=axis, temperature=temperature),
    "temperature_multiplied": lambda Z, axis=-1, temperature=1.0: ref.softmax(Z, axis, 1.0 / temperature),
    "temperature_ignored": lambda Z, axis=-1, temperature=1.0: ref.softmax(Z, axis),
    "modified_input": _softmax_in_place,
}


# --- Part C: masks and scaled dot-product attention ---------------------------------------------------------

def _tril(n_q, n_k, k):
    return np.tril(np.ones((n_q, n_k if n_k is not None else n_q), dtype=bool), k=k)


def _offset(n_q, n_k):
    return (n_k if n_k is not None else n_q) - n_q


CAUSAL_MASK: dict[str, Callable] = {
    "causal_strict": lambda n_q, n_k=None: _tril(n_q, n_k, _offset(n_q, n_k) - 1),
    "causal_off_by_one": lambda n_q, n_k=None: _tril(n_q, n_k, _offset(n_q, n_k) + 1),
    "causal_top_left": lambda n_q, n_k=None: _tril(n_q, n_k, 0),
    "causal_offset_sign": lambda n_q, n_k=None: _tril(n_q, n_k, -_offset(n_q, n_k)),
    "causal_upper": lambda n_q, n_k=None: np.triu(np.ones_like(ref.causal_mask(n_q, n_k)), k=_offset(n_q, n_k)),
    "mask_inverted": lambda n_q, n_k=None: ~ref.causal_mask(n_q, n_k),
    "mask_float": lambda n_q, n_k=None: ref.causal_mask(n_q, n_k).astype(float),
    "mask_additive": lambda n_q, n_k=None: np.where(ref.causal_mask(n_q, n_k), 0.0, -np.inf),
}


def _sdpa(Q, K, V, mask=None, scale=None, *, default_scale=None, scores=None, softmax=None, fill=-np.inf):
    """The reference SDPA with replaceable parts: the default scale, the scores, the softmax, the fill."""
    if scale is None:
        scale = (default_scale or (lambda Q: 1.0 / np.sqrt(Q.shape[-1])))(Q)
    Z = (scores or ref.attention_scores)(Q, K) * scale
    if mask is not None:
        Z = np.where(mask, Z, fill)
    weights = (softmax or ref.softmax)(Z, axis=-1)
    return weights @ V, weights


def sdpa_variant(**parts: Any) -> Callable:
    """An SDPA with the contract's signature whose parts (see _sdpa) are replaced."""

    def variant(Q, K, V, mask=None, scale=None):
        with np.errstate(all="ignore"):
            return _sdpa(Q, K, V, mask, scale, **parts)

    return variant


def _sdpa_mask_after_softmax(Q, K, V, mask=None, scale=None):
    _, weights = ref.scaled_dot_product_attention(Q, K, V, scale=scale)
    if mask is not None:
        weights = np.where(mask, weights, 0.0)
    return weights @ V, weights


def _sdpa_mask_on_weights_resoftmaxed(Q, K, V, mask=None, scale=None):  # masks the weights, then a 2nd softmax
    _, weights = ref.scaled_dot_product_attention(Q, K, V, scale=scale)
    if mask is not None:
        weights = ref.softmax(np.where(mask, weights, -np.inf), axis=-1)
    return weights @ V, weights


def _sdpa_scale_after_softmax(Q, K, V, mask=None, scale=None):  # softmax of Q K^T, then the weights scaled
    _, weights = ref.scaled_dot_product_attention(Q, K, V, mask, scale=1.0)
    weights = weights * (1.0 / np.sqrt(Q.shape[-1]) if scale is None else scale)
    return weights @ V, weights


def _sdpa_no_batch_support(Q, K, V, mask=None, scale=None):  # every batch's tokens attend to all others
    return ref.scaled_dot_product_attention(_flat(Q), _flat(K), _flat(V), mask, scale)


def _sdpa_weights_unmasked(Q, K, V, mask=None, scale=None):  # masked output, weights from before masking
    out, _ = ref.scaled_dot_product_attention(Q, K, V, mask, scale)
    return out, ref.scaled_dot_product_attention(Q, K, V, None, scale)[1]


def _sdpa_outputs_swapped(Q, K, V, mask=None, scale=None):
    out, weights = ref.scaled_dot_product_attention(Q, K, V, mask, scale)
    return weights, out


def _sdpa_in_place(Q, K, V, mask=None, scale=None):
    Q *= 1.0 / np.sqrt(Q.shape[-1]) if scale is None else scale  # writes into the caller's Q
    return ref.scaled_dot_product_attention(Q, K, V, mask, scale=1.0)


SDPA: dict[str, Callable] = {
    "no_scale": sdpa_variant(default_scale=lambda Q: 1.0),
    "sqrt_missing": sdpa_variant(default_scale=lambda Q: 1.0 / Q.shape[-1]),
    "scale_inverted": sdpa_variant(default_scale=lambda Q: np.sqrt(Q.shape[-1])),
    "scale_wrong_dim": sdpa_variant(default_scale=lambda Q: 1.0 / np.sqrt(Q.shape[-2])),
    "scale_argument_ignored": lambda Q, K, V, mask=None, scale=None: ref.scaled_dot_product_attention(Q, K, V, mask),
    "softmax_wrong_axis": sdpa_variant(softmax=lambda Z, axis: ref.softmax(Z, axis=-2)),
    "softmax_global_sum": sdpa_variant(softmax=_softmax_global_sum),
    "softmax_unstable": sdpa_variant(softmax=_softmax_unstable),
    "softmax_nan_fully_masked": sdpa_variant(softmax=_softmax_nan_fully_masked),
    "masked_zero": sdpa_variant(fill=0.0),
    "mask_finite_fill": sdpa_variant(fill=-1e9),
    "mask_after_softmax": _sdpa_mask_after_softmax,
    "mask_on_weights_resoftmaxed": _sdpa_mask_on_weights_resoftmaxed,
    "scale_after_softmax": _sdpa_scale_after_softmax,
    "mask_inverted": lambda Q, K, V, mask=None, scale=None: ref.scaled_dot_product_attention(
        Q, K, V, None if mask is None else ~np.asarray(mask), scale
    ),
    "mask_ignored": lambda Q, K, V, mask=None, scale=None: ref.scaled_dot_product_attention(Q, K, V, None, scale),
    "weights_unmasked": _sdpa_weights_unmasked,
    "swapped_qk": sdpa_variant(scores=lambda Q, K: ref.attention_scores(K, Q)),
    "scores_not_transposed": sdpa_variant(scores=lambda Q, K: Q @ K),
    "no_softmax": sdpa_variant(softmax=lambda Z, axis: Z),
    "outputs_swapped": _sdpa_outputs_swapped,
    "no_batch_support": _sdpa_no_batch_support,
    "modified_input": _sdpa_in_place,
}


# --- Part D: multi-head attention ---------------------------------------------------------------------------

def _split(M, H):  # (..., N, H*d) -> (..., H, N, d): head h = columns [h*d, (h+1)*d)
    return np.swapaxes(M.reshape(*M.shape[:-1], H, -1), -2, -3)


def _merge(heads):  # (..., H, N, d) -> (..., N, H*d)
    concat = np.swapaxes(heads, -2, -3)
    return concat.reshape(*concat.shape[:-2], -1)


def mha_variant(*, sdpa=None, scale=None, split=_split, merge=_merge, project=True) -> Callable:
    """A multi-head attention with the contract's signature and one part replaced.

    ``scale(X, d_k)`` replaces the per-head default 1/sqrt(d_k); ``sdpa`` replaces the
    attention of every head; ``split``/``merge`` replace how columns become heads and back.
    """

    def variant(X, W_Q, W_K, W_V, W_O, num_heads, mask=None):
        Q, K, V = (split(M, num_heads) for M in ref.qkv_project(X, W_Q, W_K, W_V))
        head_mask = None if mask is None else np.expand_dims(mask, -3)
        chosen = None if scale is None else scale(X, Q.shape[-1])
        heads, _ = (sdpa or ref.scaled_dot_product_attention)(Q, K, V, mask=head_mask, scale=chosen)
        concat = merge(heads)
        return concat @ W_O if project else concat

    return variant


def _split_wrong(M, H):  # reshape to (..., N, d, H): head h takes every H-th column
    return np.moveaxis(M.reshape(*M.shape[:-1], -1, H), -1, -3)


def _split_reshape(M, H):  # reshape (..., N, H*d) straight to (..., H, N, d)
    return M.reshape(*M.shape[:-2], H, M.shape[-2], -1)


def _merge_reshape(heads):  # reshape (..., H, N, d) straight to (..., N, H*d)
    return heads.reshape(*heads.shape[:-3], heads.shape[-2], -1)


def _mha_one_head(X, W_Q, W_K, W_V, W_O, num_heads, mask=None):  # one head over the full width
    return ref.scaled_dot_product_attention(*ref.qkv_project(X, W_Q, W_K, W_V), mask=mask)[0] @ W_O


MULTI_HEAD: dict[str, Callable] = {
    "no_scale": mha_variant(scale=lambda X, d_k: 1.0),
    "scale_d_model": mha_variant(scale=lambda X, d_k: 1.0 / np.sqrt(X.shape[-1])),
    "sqrt_missing": mha_variant(scale=lambda X, d_k: 1.0 / d_k),
    "softmax_wrong_axis": mha_variant(sdpa=SDPA["softmax_wrong_axis"]),
    "masked_zero": mha_variant(sdpa=SDPA["masked_zero"]),
    "mask_after_softmax": mha_variant(sdpa=SDPA["mask_after_softmax"]),
    "mask_on_weights_resoftmaxed": mha_variant(sdpa=SDPA["mask_on_weights_resoftmaxed"]),
    "scale_after_softmax": mha_variant(sdpa=SDPA["scale_after_softmax"]),
    "mask_inverted": mha_variant(sdpa=SDPA["mask_inverted"]),
    "mask_ignored": mha_variant(sdpa=SDPA["mask_ignored"]),
    "head_split_wrong": mha_variant(split=_split_wrong),
    "head_split_reshape": mha_variant(split=_split_reshape),
    "head_merge_wrong": mha_variant(merge=_merge_reshape),
    "heads_not_split": _mha_one_head,
    "no_output_projection": mha_variant(project=False),
}


# --- Part E: rotary positional embeddings -------------------------------------------------------------------

def _theta(base, d):
    return base ** (-np.arange(0, d, 2) / d)


def rope_variant(*, theta=_theta, half=False, sign=1.0, shift=0.0, own_positions=False, integer=False) -> Callable:
    """A rope with the contract's signature and one part replaced.

    ``theta(base, d)`` the frequencies; ``half`` pairs i with i + d/2; ``sign=-1`` rotates
    clockwise; ``shift`` is added to every position; ``own_positions`` uses 0..N-1;
    ``integer`` truncates the positions to integers.
    """

    def variant(x, positions, base=10000.0):
        x = np.asarray(x)
        d = x.shape[-1]
        pos = np.arange(x.shape[-2], dtype=float) if own_positions else np.asarray(positions, dtype=float)
        pos = pos.astype(int).astype(float) if integer else pos
        angles = sign * (pos[:, None] + shift) * theta(base, d)
        cos, sin = np.cos(angles), np.sin(angles)
        first, second = (slice(0, d // 2), slice(d // 2, d)) if half else (slice(0, d, 2), slice(1, d, 2))
        out = np.empty(x.shape, dtype=np.result_type(x, cos))
        out[..., first] = x[..., first] * cos - x[..., second] * sin
        out[..., second] = x[..., first] * sin + x[..., second] * cos
        return out

    return variant


def _rope_in_place(x, positions, base=10000.0):
    rotated = ref.rope(x, positions, base)
    x[...] = rotated  # writes into the caller's array
    return x


ROPE: dict[str, Callable] = {
    "rope_half_split": rope_variant(half=True),
    "rope_wrong_direction": rope_variant(sign=-1.0),
    "rope_wrong_freq": rope_variant(theta=lambda base, d: base ** (-np.arange(d // 2) / d)),
    "rope_freq_off_by_one": rope_variant(theta=lambda base, d: base ** (-np.arange(2, d + 2, 2) / d)),
    "rope_single_freq": rope_variant(theta=lambda base, d: np.ones(d // 2)),
    "rope_freq_sign": rope_variant(theta=lambda base, d: base ** (np.arange(0, d, 2) / d)),
    "rope_integer_positions": rope_variant(integer=True),
    "rope_ignores_positions": rope_variant(own_positions=True),
    "rope_position_off_by_one": rope_variant(shift=1.0),
    "modified_input": _rope_in_place,
}

ROTATION: dict[str, Callable] = {
    "rotation_transposed": lambda angle: ref.rotation_matrix(angle).T,
    "angle_degrees": lambda angle: ref.rotation_matrix(np.deg2rad(angle)),
}


# --- Part F: KV caching -------------------------------------------------------------------------------------

class OverwritingCache(ref.KVCache):
    """cache_overwrites: append replaces what was cached."""

    def append(self, k, v):
        self._keys, self._values = [], []
        super().append(k, v)


class NewestFirstCache(ref.KVCache):
    """cache_newest_first: append puts the new rows before the cached ones."""

    def append(self, k, v):
        self._keys.insert(0, np.atleast_2d(np.array(k, dtype=float)))
        self._values.insert(0, np.atleast_2d(np.array(v, dtype=float)))


class PerCallCache(ref.KVCache):
    """cache_multi_token: one entry per append call, stacked with np.stack."""

    def append(self, k, v):
        self._keys.append(np.array(k, dtype=float))
        self._values.append(np.array(v, dtype=float))

    @property
    def keys(self):
        return np.stack(self._keys) if self._keys else np.zeros((0, 0))

    @property
    def values(self):
        return np.stack(self._values) if self._values else np.zeros((0, 0))

    def __len__(self):
        return len(self._keys)


class SwappedCache(ref.KVCache):
    """cache_keys_values_swapped: the keys property returns the values and the other way round."""

    @property
    def keys(self):
        return ref.KVCache.values.fget(self)

    @property
    def values(self):
        return ref.KVCache.keys.fget(self)


def decode_variant(*, scale=True, shift=0, q_shift=0, rotate_q=True, rotate_k=True, include_self=True) -> Callable:
    """A decode_step with the contract's signature and one part changed.

    ``shift`` is added to the position len(cache), ``q_shift`` to the query's only;
    ``rotate_q``/``rotate_k`` say which of q and k RoPE rotates; ``include_self=False``
    attends over the cache before appending.
    """

    def variant(layer, x, cache, rope_base=None):
        q, k, v = layer.query(x), layer.key(x), layer.value(x)
        if rope_base is not None:
            position = np.array([len(cache) + shift], dtype=float)
            q = ref.rope(q[None, :], position + q_shift, base=rope_base)[0] if rotate_q else q
            k = ref.rope(k[None, :], position, base=rope_base)[0] if rotate_k else k
        if include_self:
            cache.append(k, v)
        out, _ = ref.scaled_dot_product_attention(q[None, :], cache.keys, cache.values, scale=None if scale else 1.0)
        if not include_self:
            cache.append(k, v)
        return out[0]

    return variant


def cached_variant(*, decode=ref.decode_step, cache_class=ref.KVCache) -> Callable:
    """generate_cached with its decode_step or its KVCache class replaced."""

    def variant(layer, X, rope_base=None):
        cache = cache_class()
        return np.stack([decode(layer, x, cache, rope_base=rope_base) for x in X])

    return variant


def _cached_not_causal(layer, X, rope_base=None):  # fills the cache first, then every query sees every key
    rows = range(len(X))
    q, k, v = (np.stack([f(X[n]) for n in rows]) for f in (layer.query, layer.key, layer.value))
    if rope_base is not None:
        q, k = (ref.rope(M, np.arange(len(X), dtype=float), base=rope_base) for M in (q, k))
    return ref.scaled_dot_product_attention(q, k, v)[0]


def _cached_cache_per_step(layer, X, rope_base=None):  # a new, empty KVCache for every token
    return np.stack([ref.decode_step(layer, x, ref.KVCache(), rope_base=rope_base) for x in X])


def _cached_recomputes(layer, X, rope_base=None):  # right values, N(N+1)/2 key and value calls
    outputs = []
    for n in range(len(X)):
        cache = ref.KVCache()
        for j in range(n):
            ref.decode_step(layer, X[j], cache, rope_base=rope_base)
        outputs.append(ref.decode_step(layer, X[n], cache, rope_base=rope_base))
    return np.stack(outputs)


def naive_variant(*, scale=True, rope=True, q_position=True, q_shift=0, rotate_k=True, visible=None) -> Callable:
    """generate_naive with one part changed.

    ``rope=False`` ignores rope_base; ``q_position=False`` rotates q at position 0, which
    is not rotating it at all, ``q_shift`` is added to its position n; ``rotate_k=False``
    leaves the keys unrotated;
    ``visible(n, N)`` is how many tokens step n uses (the reference uses n + 1).
    (Rotating every key at the query's position n gives the output of ``rope=False``:
    rotating q and k by the same angle leaves q . k unchanged.)
    """

    def variant(layer, X, rope_base=None):
        outputs = []
        for n in range(len(X)):
            seen = visible(n, len(X)) if visible else n + 1
            q = layer.query(X[n])[None, :]
            K = np.stack([layer.key(X[j]) for j in range(seen)])
            V = np.stack([layer.value(X[j]) for j in range(seen)])
            if rope and rope_base is not None:
                q = ref.rope(q, np.array([n + q_shift if q_position else 0], dtype=float), base=rope_base)
                K = ref.rope(K, np.arange(seen, dtype=float), base=rope_base) if rotate_k else K
            outputs.append(ref.scaled_dot_product_attention(q, K, V, scale=None if scale else 1.0)[0][0])
        return np.stack(outputs)

    return variant


def _decode_key_twice(layer, x, cache, rope_base=None):  # right values, two key projections
    layer.key(x)
    return ref.decode_step(layer, x, cache, rope_base=rope_base)


DECODE: dict[str, Callable] = {
    "decode_no_scale": decode_variant(scale=False),
    "decode_rope_wrong_position": decode_variant(shift=1),
    "decode_rope_ignored": decode_variant(rotate_q=False, rotate_k=False),
    "rope_one_side": decode_variant(rotate_k=False),
    "decode_excludes_self": decode_variant(include_self=False),
    "extra_projections": _decode_key_twice,
}

VARIANTS: dict[str, dict[str, Callable]] = {
    "qkv_project": QKV,
    "attention_scores": SCORES,
    "softmax": SOFTMAX,
    "causal_mask": CAUSAL_MASK,
    "scaled_dot_product_attention": SDPA,
    "multi_head_attention": MULTI_HEAD,
    "rotation_matrix": ROTATION,
    "rope": ROPE,
    "KVCache": {"cache_overwrites": OverwritingCache, "cache_multi_token": PerCallCache,
                "cache_newest_first": NewestFirstCache, "cache_keys_values_swapped": SwappedCache},
    "decode_step": DECODE,
    "generate_cached": {
        "cache_per_step": _cached_cache_per_step,
        "decode_no_scale": cached_variant(decode=DECODE["decode_no_scale"]),
        "decode_rope_ignored": cached_variant(decode=DECODE["decode_rope_ignored"]),
        "rope_one_side": cached_variant(decode=DECODE["rope_one_side"]),
        "not_causal": _cached_not_causal,
        "cache_recomputes": _cached_recomputes,
        "extra_projections": cached_variant(decode=_decode_key_twice),
    },
    "generate_naive": {
        "decode_no_scale": naive_variant(scale=False),
        "naive_query_not_rotated": naive_variant(q_position=False),
        "naive_query_position": naive_variant(q_shift=1),
        "naive_rope_ignored": naive_variant(rope=False),
        "rope_one_side": naive_variant(rotate_k=False),
        "not_causal": naive_variant(visible=lambda n, N: N),
        "naive_no_recompute": cached_variant(),
    },
}


def applicable(function_name: str) -> list[str]:
    """The mistake ids that have a variant of ``function_name`` (empty for unknown names)."""
    return list(VARIANTS.get(function_name, {}))
