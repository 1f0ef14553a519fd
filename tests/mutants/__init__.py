"""Our corpus of buggy solutions: each one the reference (or the independent loops oracle) with one mistake.

A mutant is a few exact text replacements (each ``old`` must occur exactly once, so a
mutant never goes stale silently) applied to ``reference/attention.py``, to
``tests/oracle_independent.py`` (``base="oracle"``: loops, fsum) or to
``tests/mutants/student_style.py`` (``base="student"``: einsum, index grids, lists).
Each declares the contract function it breaks, the mistake id whose sentence
(``feedback.MISTAKES``) the feedback must show (None: only the failure is required),
and the functions that call the broken one in that code (``also``): the mutant may lose
points on their tests, and nowhere else. ``tests/test_mutations.py`` grades them all.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent.parent
BASES = {
    "reference": REPO / "reference" / "attention.py",
    "oracle": REPO / "tests" / "oracle_independent.py",
    "student": Path(__file__).resolve().parent / "student_style.py",
}

# Who calls whom in the reference (the oracle has its own, smaller, call graph: see the mutants).
SDPA_CALLERS = ("multi_head_attention", "decode_step", "generate_cached", "generate_naive")
SCORES_CALLERS = ("scaled_dot_product_attention", *SDPA_CALLERS)
ROPE_CALLERS = ("decode_step", "generate_cached", "generate_naive")


@dataclass(frozen=True)
class Mutant:
    """One buggy solution: ``replace`` applied to the base file."""

    name: str
    function: str
    mistake: str | None
    replace: tuple[tuple[str, str], ...]
    also: tuple[str, ...] = ()
    base: str = "reference"

    def source(self) -> str:
        """The buggy file's text."""
        text = BASES[self.base].read_text()
        for old, new in self.replace:
            if text.count(old) != 1:
                raise ValueError(f"mutant {self.name}: expected exactly one occurrence of {old!r}")
            text = text.replace(old, new)
        return text


def m(name: str, function: str, mistake: str | None, *replace: tuple[str, str], also: tuple[str, ...] = (),
      base: str = "reference") -> Mutant:
    return Mutant(name, function, mistake, tuple(replace), also, base)


QKV = "    return X @ W_Q, X @ W_K, X @ W_V"
SCORES = "    return Q @ np.swapaxes(K, -1, -2)"
SM_BODY = """    Z_max = np.max(Z, axis=axis, keepdims=True)
    Z_max = np.where(np.isneginf(Z_max), 0.0, Z_max)  # an all -inf slice stays all -inf
    E = np.exp(Z - Z_max)  # every exponent <= 0: no overflow, exp(-inf) = 0
    total = np.sum(E, axis=axis, keepdims=True)
    return E / np.where(total == 0.0, 1.0, total)  # all -inf slice: 0 / 1 = 0"""
SM_MAX = "    Z_max = np.max(Z, axis=axis, keepdims=True)"
SM_SUM = "    total = np.sum(E, axis=axis, keepdims=True)"
SM_DIV = "    Z = np.asarray(Z) / temperature"
TRIL = "    return np.tril(np.ones((n_q, n_k), dtype=bool), k=n_k - n_q)"
SCALE = "        scale = 1.0 / np.sqrt(Q.shape[-1])"
MASKING = "        scores = np.where(mask, scores, -np.inf)"
SPLIT = "        return np.swapaxes(M.reshape(*M.shape[:-1], num_heads, -1), -2, -3)"
MERGE = """    concat = np.swapaxes(heads, -2, -3)  # (..., N, H, d_v)
    concat = concat.reshape(*concat.shape[:-2], -1)  # (..., N, H*d_v)"""
THETA = "    theta = base ** (-np.arange(0, d, 2) / d)  # (d/2,)"
ANGLES = "    angles = np.asarray(positions, dtype=float)[:, None] * theta  # (N, d/2)"
PAIRS = """    out[..., 0::2] = x_even * cos - x_odd * sin
    out[..., 1::2] = x_even * sin + x_odd * cos"""
DECODE_ROPE = """    if rope_base is not None:
        position = np.array([len(cache)], dtype=float)
        q = rope(q[None, :], position, base=rope_base)[0]
        k = rope(k[None, :], position, base=rope_base)[0]
"""
DECODE_ATTEND = """    cache.append(k, v)
    out, _ = scaled_dot_product_attention(q[None, :], cache.keys, cache.values)"""
CACHED = """    cache = KVCache()
    return np.stack([decode_step(layer, x, cache, rope_base=rope_base) for x in X])"""
NAIVE_KV = """        K = np.stack([layer.key(X[j]) for j in range(n + 1)])  # (n+1, d_k)
        V = np.stack([layer.value(X[j]) for j in range(n + 1)])  # (n+1, d_v)"""
NAIVE_Q_ROPE = "            q = rope(q, np.array([n], dtype=float), base=rope_base)\n"
NAIVE_K_ROPE = "            K = rope(K, np.arange(n + 1, dtype=float), base=rope_base)\n"
NAIVE_ATTEND = "        out, _ = scaled_dot_product_attention(q, K, V)"
MHA = ("multi_head_attention",)
STUDENT_SOFTMAX_CALLERS = ("scaled_dot_product_attention", *SDPA_CALLERS)
CACHED_ONLY = ("generate_cached",)

MUTANTS: list[Mutant] = [
    # --- Part A ---
    m("qkv_transposed", "qkv_project", "qkv_transposed",
      (QKV, "    return (X @ W_Q).T, (X @ W_K).T, (X @ W_V).T"), also=MHA),
    m("qkv_weights_transposed", "qkv_project", "qkv_weights_transposed",
      (QKV, "    return X @ W_Q.T, X @ W_K.T, X @ W_V.T"), also=MHA),
    m("qkv_wrong_weight", "qkv_project", "qkv_wrong_weight", (QKV, "    return X @ W_Q, X @ W_Q, X @ W_V"), also=MHA),
    m("qkv_order", "qkv_project", "qkv_order", (QKV, "    return X @ W_Q, X @ W_V, X @ W_K"), also=MHA),
    m("qkv_2d_only", "qkv_project", "matrix_input_only",  # it raises with leading axes: none mixed
      (QKV, "    n, d = X.shape\n    return X @ W_Q, X @ W_K, X @ W_V"), also=MHA),
    m("transposed_scores", "attention_scores", "transposed_scores",
      (SCORES, "    return K @ np.swapaxes(Q, -1, -2)"), also=SCORES_CALLERS),
    m("scores_not_transposed", "attention_scores", "scores_not_transposed", (SCORES, "    return Q @ K"),
      also=SCORES_CALLERS),
    m("scores_scaled", "attention_scores", "scores_scaled",
      (SCORES, "    return Q @ np.swapaxes(K, -1, -2) / np.sqrt(Q.shape[-1])"), also=SCORES_CALLERS),
    m("scores_dot_T", "attention_scores", "matrix_input_only", (SCORES, "    return Q @ K.T"),  # raises when batched
      also=SCORES_CALLERS),
    # --- Part B ---
    m("softmax_wrong_axis", "softmax", "softmax_wrong_axis",
      (SM_MAX, SM_MAX.replace("axis=axis", "axis=0")), (SM_SUM, SM_SUM.replace("axis=axis", "axis=0")),
      also=SCORES_CALLERS),
    m("softmax_ignores_axis", "softmax", "softmax_ignores_axis",
      (SM_MAX, SM_MAX.replace("axis=axis", "axis=-1")), (SM_SUM, SM_SUM.replace("axis=axis", "axis=-1"))),
    m("softmax_global_sum", "softmax", "softmax_global_sum", (SM_SUM, "    total = np.sum(E)"), also=SCORES_CALLERS),
    m("softmax_no_keepdims", "softmax", "softmax_no_keepdims", (SM_SUM, "    total = np.sum(E, axis=axis)"),
      also=SCORES_CALLERS),
    m("softmax_unstable", "softmax", "softmax_unstable",
      (SM_BODY, "    E = np.exp(Z)\n    return E / np.sum(E, axis=axis, keepdims=True)"), also=SCORES_CALLERS),
    m("softmax_global_max", "softmax", "softmax_global_max",
      (SM_BODY, "    E = np.exp(Z - np.max(Z))\n    return E / np.sum(E, axis=axis, keepdims=True)"),
      also=SCORES_CALLERS),
    m("softmax_global_max_guarded", "softmax", "softmax_global_max", (SM_MAX, "    Z_max = np.max(Z)"),
      also=SCORES_CALLERS),
    m("softmax_textbook", "softmax", "softmax_nan_fully_masked",
      (SM_BODY, "    E = np.exp(Z - np.max(Z, axis=axis, keepdims=True))\n"
                "    return E / np.sum(E, axis=axis, keepdims=True)"), also=("scaled_dot_product_attention",)),
    m("softmax_neginf_finite", "softmax", "softmax_neginf_finite",
      (SM_DIV, SM_DIV + "\n    Z = np.where(np.isneginf(Z), -1e30, Z)"), also=("scaled_dot_product_attention",)),
    m("temperature_multiplied", "softmax", "temperature_multiplied", (SM_DIV, "    Z = np.asarray(Z) * temperature")),
    m("temperature_ignored", "softmax", "temperature_ignored", (SM_DIV, "    Z = np.asarray(Z)")),
    m("softmax_in_place", "softmax", "modified_input", (SM_DIV, "    Z = np.asarray(Z)\n    Z /= temperature")),
    # --- Part C ---
    m("causal_strict", "causal_mask", "causal_strict", (TRIL, TRIL.replace("k=n_k - n_q", "k=n_k - n_q - 1"))),
    m("causal_off_by_one", "causal_mask", "causal_off_by_one", (TRIL, TRIL.replace("k=n_k - n_q", "k=n_k - n_q + 1"))),
    m("causal_top_left", "causal_mask", "causal_top_left", (TRIL, TRIL.replace("k=n_k - n_q", "k=0"))),
    m("causal_offset_sign", "causal_mask", "causal_offset_sign", (TRIL, TRIL.replace("k=n_k - n_q", "k=n_q - n_k"))),
    m("causal_upper", "causal_mask", "causal_upper", (TRIL, TRIL.replace("np.tril", "np.triu"))),
    m("causal_float", "causal_mask", "mask_float", (TRIL, TRIL.replace("dtype=bool", "dtype=float"))),
    m("causal_inverted", "causal_mask", "mask_inverted", (TRIL, TRIL.replace("return np.tril", "return ~np.tril"))),
    m("no_scale", "scaled_dot_product_attention", "no_scale", (SCALE, "        scale = 1.0"), also=SDPA_CALLERS),
    m("sqrt_missing", "scaled_dot_product_attention", "sqrt_missing", (SCALE, "        scale = 1.0 / Q.shape[-1]"),
      also=SDPA_CALLERS),
    m("scale_inverted", "scaled_dot_product_attention", "scale_inverted",
      (SCALE, "        scale = np.sqrt(Q.shape[-1])"), also=SDPA_CALLERS),
    m("scale_wrong_dim", "scaled_dot_product_attention", "scale_wrong_dim",
      (SCALE, "        scale = 1.0 / np.sqrt(Q.shape[0])"), also=SDPA_CALLERS),
    m("scale_argument_ignored", "scaled_dot_product_attention", "scale_argument_ignored",
      ("    if scale is None:\n" + SCALE, SCALE[4:])),
    m("masked_zero", "scaled_dot_product_attention", "masked_zero",
      (MASKING, MASKING.replace("-np.inf", "0.0")), also=MHA),
    m("mask_finite_fill", "scaled_dot_product_attention", "mask_finite_fill",
      (MASKING, MASKING.replace("-np.inf", "-1e9")), also=MHA),
    m("mask_after_softmax", "scaled_dot_product_attention", "mask_after_softmax",
      ("    if mask is not None:\n" + MASKING + "\n    weights = softmax(scores, axis=-1)",
       "    weights = softmax(scores, axis=-1)\n    if mask is not None:\n"
       "        weights = np.where(mask, weights, 0.0)"),
      also=MHA),
    m("mask_on_weights_resoftmaxed", "scaled_dot_product_attention", "mask_on_weights_resoftmaxed",
      ("    if mask is not None:\n" + MASKING + "\n    weights = softmax(scores, axis=-1)",
       "    weights = softmax(scores, axis=-1)\n    if mask is not None:\n"
       "        weights = softmax(np.where(mask, weights, -np.inf), axis=-1)"),
      also=MHA),
    m("scale_after_softmax", "scaled_dot_product_attention", "scale_after_softmax",
      ("    scores = attention_scores(Q, K) * scale\n", "    scores = attention_scores(Q, K)\n"),
      ("    weights = softmax(scores, axis=-1)\n    return weights @ V, weights",
       "    weights = softmax(scores, axis=-1) * scale\n    return weights @ V, weights"),
      also=SDPA_CALLERS),
    m("mask_inverted", "scaled_dot_product_attention", "mask_inverted",
      (MASKING, "        scores = np.where(mask, -np.inf, scores)"), also=MHA),
    m("mask_ignored", "scaled_dot_product_attention", "mask_ignored",
      ("    if mask is not None:\n" + MASKING + "\n", ""), also=MHA),
    m("weights_unmasked", "scaled_dot_product_attention", "weights_unmasked",
      ("    return weights @ V, weights",
       "    return weights @ V, softmax(attention_scores(Q, K) * scale, axis=-1)")),
    m("swapped_qk", "scaled_dot_product_attention", "swapped_qk",
      ("    scores = attention_scores(Q, K) * scale", "    scores = attention_scores(K, Q) * scale"),
      also=SDPA_CALLERS),
    m("no_softmax", "scaled_dot_product_attention", "no_softmax",
      ("    weights = softmax(scores, axis=-1)", "    weights = scores"), also=SDPA_CALLERS),
    m("outputs_swapped", "scaled_dot_product_attention", "outputs_swapped",
      ("    return weights @ V, weights", "    return weights, weights @ V"), also=SDPA_CALLERS),
    m("sdpa_softmax_over_queries", "scaled_dot_product_attention", "softmax_wrong_axis",
      ("    weights = softmax(scores, axis=-1)", "    weights = softmax(scores, axis=-2)"), also=SDPA_CALLERS),
    m("sdpa_in_place", "scaled_dot_product_attention", "modified_input",
      ("    scores = attention_scores(Q, K) * scale", "    Q *= scale\n    scores = attention_scores(Q, K)"),
      also=SDPA_CALLERS),
    # --- Part D ---
    m("scale_d_model", "multi_head_attention", "scale_d_model",
      ("mask=mask)  # (..., H, N, d_v)", "mask=mask, scale=1.0 / np.sqrt(X.shape[-1]))")),
    m("head_split_reshape", "multi_head_attention", "head_split_reshape",
      (SPLIT, "        return M.reshape(*M.shape[:-2], num_heads, M.shape[-2], -1)")),
    m("head_split_wrong", "multi_head_attention", "head_split_wrong",
      (SPLIT, "        return np.moveaxis(M.reshape(*M.shape[:-1], -1, num_heads), -1, -3)")),
    m("head_merge_wrong", "multi_head_attention", "head_merge_wrong",
      (MERGE, "    concat = heads.reshape(*heads.shape[:-3], heads.shape[-2], -1)")),
    m("no_output_projection", "multi_head_attention", "no_output_projection",
      ("    return concat @ W_O", "    return concat")),
    m("value_heads_of_width_d_k", "multi_head_attention", "mha_value_width",
      (SPLIT, "        return np.swapaxes(M.reshape(*M.shape[:-1], num_heads, W_Q.shape[-1] // num_heads), -2, -3)")),
    m("heads_not_split", "multi_head_attention", "heads_not_split", (SPLIT, "        return M[..., None, :, :]")),
    # --- Part E ---
    m("rotation_transposed", "rotation_matrix", "rotation_transposed",
      ("    return np.array([[c, -s], [s, c]])", "    return np.array([[c, s], [-s, c]])")),
    m("rotation_list", "rotation_matrix", "returned_list",
      ("    return np.array([[c, -s], [s, c]])", "    return [[c, -s], [s, c]]")),
    m("angle_degrees", "rotation_matrix", "angle_degrees",
      ("    c, s = np.cos(angle), np.sin(angle)", "    c, s = np.cos(np.radians(angle)), np.sin(np.radians(angle))")),
    m("rope_half_split", "rope", "rope_half_split",
      ("    x_even, x_odd = x[..., 0::2], x[..., 1::2]", "    x_even, x_odd = x[..., : d // 2], x[..., d // 2 :]"),
      (PAIRS, "    out[..., : d // 2] = x_even * cos - x_odd * sin\n"
              "    out[..., d // 2 :] = x_even * sin + x_odd * cos"),
      also=ROPE_CALLERS),
    m("rope_wrong_direction", "rope", "rope_wrong_direction",
      (PAIRS, "    out[..., 0::2] = x_even * cos + x_odd * sin\n    out[..., 1::2] = -x_even * sin + x_odd * cos"),
      also=ROPE_CALLERS),
    m("rope_wrong_freq", "rope", "rope_wrong_freq", (THETA, "    theta = base ** (-np.arange(d // 2) / d)"),
      also=ROPE_CALLERS),
    m("rope_freq_off_by_one", "rope", "rope_freq_off_by_one",
      (THETA, "    theta = base ** (-np.arange(2, d + 2, 2) / d)"), also=ROPE_CALLERS),
    m("rope_single_freq", "rope", "rope_single_freq", (THETA, "    theta = np.ones(d // 2)"), also=ROPE_CALLERS),
    m("rope_freq_sign", "rope", "rope_freq_sign", (THETA, "    theta = base ** (np.arange(0, d, 2) / d)"),
      also=ROPE_CALLERS),
    m("rope_integer_positions", "rope", "rope_integer_positions",
      (ANGLES, "    angles = np.asarray(positions).astype(int)[:, None] * theta"), also=ROPE_CALLERS),
    m("rope_ignores_positions", "rope", "rope_ignores_positions",
      (ANGLES, "    angles = np.arange(x.shape[-2], dtype=float)[:, None] * theta"), also=ROPE_CALLERS),
    m("rope_position_off_by_one", "rope", "rope_position_off_by_one",
      (ANGLES, "    angles = (np.asarray(positions, dtype=float)[:, None] + 1) * theta"), also=ROPE_CALLERS),
    m("rope_in_place", "rope", "modified_input",
      ("    out = np.empty(x.shape, dtype=np.result_type(x, cos))", "    out = x"), also=ROPE_CALLERS),
    # --- Part F ---
    m("cache_overwrites", "KVCache", "cache_overwrites",
      ("        self._keys.append(np.atleast_2d(np.array(k, dtype=float)))  # a copy, as a row block\n"
       "        self._values.append(np.atleast_2d(np.array(v, dtype=float)))",
       "        self._keys = [np.atleast_2d(np.array(k, dtype=float))]\n"
       "        self._values = [np.atleast_2d(np.array(v, dtype=float))]"), also=CACHED_ONLY),
    m("cache_newest_first", "KVCache", "cache_newest_first",
      ("        self._keys.append(np.atleast_2d(np.array(k, dtype=float)))  # a copy, as a row block\n"
       "        self._values.append(np.atleast_2d(np.array(v, dtype=float)))",
       "        self._keys.insert(0, np.atleast_2d(np.array(k, dtype=float)))\n"
       "        self._values.insert(0, np.atleast_2d(np.array(v, dtype=float)))")),
    m("cache_keys_values_swapped", "KVCache", "cache_keys_values_swapped",
      ("        return np.concatenate(self._keys) if self._keys else np.zeros((0, 0))",
       "        return np.concatenate(self._values) if self._values else np.zeros((0, 0))  # swapped"),
      ("        return np.concatenate(self._values) if self._values else np.zeros((0, 0))\n",
       "        return np.concatenate(self._keys) if self._keys else np.zeros((0, 0))\n"), also=CACHED_ONLY),
    m("cache_keys_as_list", "KVCache", "returned_list",
      ("        return np.concatenate(self._keys) if self._keys else np.zeros((0, 0))",
       "        return [row for block in self._keys for row in block]"), also=CACHED_ONLY),
    m("cache_class_attributes", "KVCache", "shared_state",
      ("    def __init__(self):", "    _keys, _values = [], []  # one list for every cache\n\n    def __init__(self):"),
      ("        self._keys = []  # blocks of shape (T, d_k)\n        self._values = []  # blocks of shape (T, d_v)",
       "        pass"), also=CACHED_ONLY),
    m("cache_len_counts_appends", "KVCache", "cache_multi_token",
      ("        return sum(len(block) for block in self._keys)", "        return len(self._keys)"), also=CACHED_ONLY),
    m("decode_no_scale", "decode_step", "decode_no_scale",
      ("cache.keys, cache.values)\n    return out[0]", "cache.keys, cache.values, scale=1.0)\n    return out[0]"),
      also=CACHED_ONLY),
    m("decode_rope_after_append", "decode_step", "decode_rope_wrong_position",
      ("        position = np.array([len(cache)], dtype=float)", "        position = np.array([len(cache) + 1.0])"),
      also=CACHED_ONLY),
    m("decode_query_position_after_append", "decode_step", "decode_rope_wrong_position",
      ("        q = rope(q[None, :], position, base=rope_base)[0]",
       "        q = rope(q[None, :], position + 1.0, base=rope_base)[0]"), also=CACHED_ONLY),
    m("decode_rope_ignored", "decode_step", "decode_rope_ignored", (DECODE_ROPE, ""), also=CACHED_ONLY),
    m("decode_rope_q_only", "decode_step", "rope_one_side",
      ("        k = rope(k[None, :], position, base=rope_base)[0]\n", ""), also=CACHED_ONLY),
    m("decode_excludes_self", "decode_step", "decode_excludes_self",
      (DECODE_ATTEND, "    out, _ = scaled_dot_product_attention(q[None, :], cache.keys, cache.values)\n"
                      "    cache.append(k, v)"), also=CACHED_ONLY),
    m("decode_projects_key_twice", "decode_step", "extra_projections",
      ("    q, k, v = layer.query(x), layer.key(x), layer.value(x)",
       "    q, k, v = layer.query(x), layer.key(x), layer.value(x)\n    k = layer.key(x)"), also=CACHED_ONLY),
    m("cached_recomputes", "generate_cached", "cache_recomputes",
      (CACHED, "    rows = []\n    for n in range(len(X)):\n        cache = KVCache()\n"
               "        for x in X[: n + 1]:\n            out = decode_step(layer, x, cache, rope_base=rope_base)\n"
               "        rows.append(out)\n    return np.stack(rows)")),
    m("cached_cache_per_step", "generate_cached", "cache_per_step",
      (CACHED, "    return np.stack([decode_step(layer, x, KVCache(), rope_base=rope_base) for x in X])")),
    m("cached_not_causal", "generate_cached", "not_causal",
      (CACHED, "    cache = KVCache()\n    for x in X:\n        decode_step(layer, x, cache, rope_base=rope_base)\n"
               "    q = np.stack([layer.query(x) for x in X])\n"
               "    return scaled_dot_product_attention(q, cache.keys, cache.values)[0]")),
    m("naive_no_recompute", "generate_naive", "naive_no_recompute",
      ("    outputs = []\n", "    outputs, keys, values = [], [], []\n"),
      (NAIVE_KV, "        keys.append(layer.key(X[n]))\n        values.append(layer.value(X[n]))\n"
                 "        K, V = np.stack(keys), np.stack(values)")),
    m("naive_not_causal", "generate_naive", "not_causal",
      (NAIVE_KV, NAIVE_KV.replace("range(n + 1)", "range(len(X))")),
      (NAIVE_K_ROPE, NAIVE_K_ROPE.replace("np.arange(n + 1", "np.arange(len(X)"))),
    m("naive_no_scale", "generate_naive", "decode_no_scale", (NAIVE_ATTEND, NAIVE_ATTEND[:-1] + ", scale=1.0)")),
    m("naive_q_at_zero", "generate_naive", "naive_query_not_rotated",
      (NAIVE_Q_ROPE, NAIVE_Q_ROPE.replace("[n]", "[0]"))),
    m("naive_q_one_based", "generate_naive", "naive_query_position",
      (NAIVE_Q_ROPE, NAIVE_Q_ROPE.replace("[n]", "[n + 1]"))),
    m("naive_rope_q_only", "generate_naive", "rope_one_side", (NAIVE_K_ROPE, "")),
    m("naive_pads_counts_with_other_inputs", "generate_naive", None,  # a cache, then made-up projections
      ("    outputs = []\n    for n in range(len(X)):\n", "    outputs = []\n    for n in range(len(X)):\n"
       "        for _ in range(n):\n            layer.key(0 * X[0]), layer.value(0 * X[0])\n"),
      (NAIVE_KV, "        K = np.stack([layer.key(X[n])]) if n == 0 else np.vstack([K, layer.key(X[n])])\n"
                 "        V = np.stack([layer.value(X[n])]) if n == 0 else np.vstack([V, layer.value(X[n])])"),
      (NAIVE_K_ROPE, "            K_rot = rope(K, np.arange(n + 1, dtype=float), base=rope_base)\n"),
      ("        out, _ = scaled_dot_product_attention(q, K, V)\n        outputs.append",
       "        out, _ = scaled_dot_product_attention(q, K_rot if rope_base is not None else K, V)\n"
       "        outputs.append")),
    m("naive_keys_at_query_position", "generate_naive", "naive_rope_ignored",
      (NAIVE_K_ROPE, NAIVE_K_ROPE.replace("np.arange(n + 1, dtype=float)", "np.full(n + 1, float(n))"))),
    m("naive_rope_ignored", "generate_naive", "naive_rope_ignored",
      ("        if rope_base is not None:\n" + NAIVE_Q_ROPE + NAIVE_K_ROPE, "")),
    # --- the independent loops oracle, with one mistake each (its call graph differs from the reference's) ---
    m("oracle_causal_strict", "causal_mask", "causal_strict",
      ("            mask[i, j] = j <= i + (n_k - n_q)", "            mask[i, j] = j < i + (n_k - n_q)"),
      base="oracle"),
    m("oracle_no_scale", "scaled_dot_product_attention", "no_scale",
      ("        scale = 1.0 / math.sqrt(d_k)", "        scale = 1.0"), base="oracle"),
    m("oracle_rope_wrong_freq", "rope", "rope_wrong_freq",
      ("math.pow(base, -2.0 * i / d)", "math.pow(base, -1.0 * i / d)"), also=ROPE_CALLERS, base="oracle"),
    m("oracle_rotation_transposed", "rotation_matrix", "rotation_transposed",
      ("    return np.array([[math.cos(a), -math.sin(a)], [math.sin(a), math.cos(a)]])",
       "    return np.array([[math.cos(a), math.sin(a)], [-math.sin(a), math.cos(a)]])"),
      also=("rope", *ROPE_CALLERS), base="oracle"),
    m("oracle_softmax_temperature_multiplied", "softmax", "temperature_multiplied",
      ("[float(z) / temperature for z in moved[index]]", "[float(z) * temperature for z in moved[index]]"),
      base="oracle"),
    # --- a student-style solution (tests/mutants/student_style.py), with its own call graph ---
    *[m(name, function, mistake, *replace, also=also, base="student") for name, function, mistake, replace, also in [
        ("student_scores_transposed", "attention_scores", "transposed_scores",
         [('"...qd,...kd->...qk"', '"...qd,...kd->...kq"')], ("scaled_dot_product_attention", *MHA)),
        ("student_softmax_no_guards", "softmax", "softmax_nan_fully_masked",
         [("    m[~np.isfinite(m)] = 0.0\n", ""), ("    s[s == 0] = 1.0\n", "")], STUDENT_SOFTMAX_CALLERS),
        ("student_softmax_last_axis", "softmax", "softmax_ignores_axis",
         [("np.max(z, axis=axis,", "np.max(z, axis=-1,"), ("e.sum(axis=axis,", "e.sum(axis=-1,")], ()),
        ("student_mask_future", "causal_mask", "causal_upper",
         [("    return j <= i + (n_k - n_q)", "    return j >= i + (n_k - n_q)")], ()),
        ("student_mask_strict", "causal_mask", "causal_strict",
         [("    return j <= i + (n_k - n_q)", "    return j < i + (n_k - n_q)")], ()),
        ("student_sdpa_dk_from_axis_1", "scaled_dot_product_attention", "scale_wrong_dim",
         [("    d_k = Q.shape[-1]\n    if scale", "    d_k = Q.shape[1]\n    if scale")], MHA),
        ("student_sdpa_additive_mask", "scaled_dot_product_attention", "mask_finite_fill",
         [("        scores = np.where(mask, scores, -np.inf)", "        scores = scores + np.where(mask, 0, -1e9)")],
         MHA),
        ("student_mha_scale_by_D", "multi_head_attention", "scale_d_model",
         [("v, mask=mask)", "v, mask=mask, scale=1 / np.sqrt(X.shape[-1]))")], ()),
        ("student_mha_interleaved_heads", "multi_head_attention", "head_split_wrong",
         [("Q[..., h * d_k : (h + 1) * d_k]", "Q[..., h::num_heads]"),
          ("K[..., h * d_k : (h + 1) * d_k]", "K[..., h::num_heads]"),
          ("V[..., h * d_v : (h + 1) * d_v]", "V[..., h::num_heads]")], ()),
        ("student_mha_no_W_O", "multi_head_attention", "no_output_projection",
         [("    return np.concatenate(heads, axis=-1) @ W_O", "    return np.concatenate(heads, axis=-1)")], ()),
        ("student_rope_freq", "rope", "rope_wrong_freq",
         [("        theta = base ** (-2 * i / d)", "        theta = base ** (-i / d)")], ROPE_CALLERS),
        ("student_rope_clockwise", "rope", "rope_wrong_direction",
         [("a * c - b * s", "a * c + b * s"), ("a * s + b * c", "-a * s + b * c")], ROPE_CALLERS),
        ("student_rope_token_index", "rope", "rope_ignores_positions",
         [("np.asarray(positions, dtype=float) * theta", "np.arange(x.shape[-2]) * theta")], ROPE_CALLERS),
        ("student_cache_overwrites", "KVCache", "cache_overwrites",
         [("        for row in k:\n            self.k_list.append(row.copy())\n"
           "        for row in v:\n            self.v_list.append(row.copy())",
           "        self.k_list = list(k)\n        self.v_list = list(v)")], CACHED_ONLY),
        ("student_cache_blocks", "KVCache", "cache_multi_token",
         [("        for row in k:\n            self.k_list.append(row.copy())\n"
           "        for row in v:\n            self.v_list.append(row.copy())",
           "        self.k_list.append(k)\n        self.v_list.append(v)"),
          ("        return np.array(self.k_list)", "        return np.concatenate(self.k_list)"),
          ("        return np.array(self.v_list)", "        return np.concatenate(self.v_list)")], CACHED_ONLY),
        ("student_decode_no_scale", "decode_step", "decode_no_scale",
         [("    scores = K @ q / np.sqrt(len(q))", "    scores = K @ q")], CACHED_ONLY),
        ("student_decode_position_after_append", "decode_step", "decode_rope_wrong_position",
         [("np.array([len(cache)], dtype=float)", "np.array([len(cache) + 1], dtype=float)")], CACHED_ONLY),
        ("student_decode_rotates_k_only", "decode_step", "rope_one_side",
         [("        q = rope(q.reshape(1, -1), pos, rope_base)[0]\n", "")], CACHED_ONLY),
        ("student_cached_restarts", "generate_cached", "cache_recomputes",
         [("    cache = KVCache()\n    outs = []\n    for t in range(X.shape[0]):\n"
           "        outs.append(decode_step(layer, X[t], cache, rope_base))",
           "    outs = []\n    for t in range(X.shape[0]):\n        cache = KVCache()\n"
           "        for j in range(t + 1):\n            out = decode_step(layer, X[j], cache, rope_base)\n"
           "        outs.append(out)")], ()),
        ("student_naive_reuses_keys", "generate_naive", "naive_no_recompute",
         [("        ks = []\n        vs = []\n        for j in range(n + 1):\n"
           "            ks.append(layer.key(X[j]))\n            vs.append(layer.value(X[j]))",
           "        ks.append(layer.key(X[n]))\n        vs.append(layer.value(X[n]))"),
          ("    outs = []\n    for n in range(N):", "    outs, ks, vs = [], [], []\n    for n in range(N):")], ()),
        ("student_naive_sees_the_future", "generate_naive", "not_causal",
         [("        for j in range(n + 1):", "        for j in range(N):"),
          ("np.arange(n + 1, dtype=float)", "np.arange(N, dtype=float)")], ()),
        ("student_naive_no_scale", "generate_naive", "decode_no_scale",
         [("        w = softmax(K @ q / np.sqrt(q.shape[0]))", "        w = softmax(K @ q)")], ()),
    ]],
    # --- silent shape assumptions (tests/mutants/shape_assumptions.py says which cases each must fail) ---
    m("qkv_3d_batch_first", "qkv_project", None,
      (QKV, '    return tuple(np.einsum("bnd,de->bne", X, W) for W in (W_Q, W_K, W_V))'), also=MHA),
    m("scores_3d_batch_first", "attention_scores", None, (SCORES, "    return Q @ K.transpose(0, 2, 1)"),
      also=SCORES_CALLERS),
    m("mha_3d_batch_first", "multi_head_attention", None,
      (SPLIT, "        B, N, _ = M.shape\n        return M.reshape(B, N, num_heads, -1).transpose(0, 2, 1, 3)")),
    m("mha_head_width_D_over_H", "multi_head_attention", None,
      ("    Q, K, V = (split_heads(M) for M in qkv_project(X, W_Q, W_K, W_V))",
       "    d_head = X.shape[-1] // num_heads  # assumes H * d_k = D\n"
       "    Q, K, V = qkv_project(X, W_Q, W_K, W_V)\n"
       "    Q, K = (np.swapaxes(M.reshape(*M.shape[:-1], num_heads, d_head), -2, -3) for M in (Q, K))\n"
       "    V = split_heads(V)")),
    m("student_decode_dv_equals_dk", "decode_step", None,
      ("    return w @ V", "    out = np.zeros_like(q)  # assumes d_v = d_k\n    for j in range(len(w)):\n"
                         "        out += w[j] * V[j]\n    return out"), also=CACHED_ONLY, base="student"),
    m("student_naive_dv_equals_dk", "generate_naive", None,
      ("        outs.append(w @ V)", "        out = np.zeros_like(q)  # assumes d_v = d_k\n"
                                   "        for j in range(n + 1):\n            out += w[j] * V[j]\n"
                                   "        outs.append(out)"), base="student"),
    # --- conventions of code written the way the world writes it (issue 13): named only with evidence ---
    m("mha_heads_of_model_width", "multi_head_attention", "mha_head_width_model",
      (SPLIT, "        return np.swapaxes(M.reshape(*M.shape[:-1], num_heads, X.shape[-1] // num_heads), -2, -3)")),
    m("mha_batch_first_only", "multi_head_attention", "batch_first_only",
      ("    Q, K, V = (split_heads(M) for M in qkv_project(X, W_Q, W_K, W_V))",
       "    _batch, _tokens, _width = X.shape  # B, T, C = x.shape\n"
       "    Q, K, V = (split_heads(M) for M in qkv_project(X, W_Q, W_K, W_V))")),
    m("sdpa_additive_mask_true_hides", "scaled_dot_product_attention", "mask_inverted",
      (MASKING, "        scores = scores + mask * -1e9"), also=MHA),
    m("causal_triu_float", "causal_mask", "mask_inverted",
      (TRIL, "    return 1.0 - np.tril(np.ones((n_q, n_k)), k=n_k - n_q)")),
    m("rope_half_precision_tables", "rope", "low_precision",
      (THETA, "    theta = (base ** (-np.arange(0, d, 2) / d)).astype(np.float16)  # (d/2,)"), also=ROPE_CALLERS),
]

