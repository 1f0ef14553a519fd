"""More ways to make a known mistake, stored next to the graded cases (dev-time only, never shipped).

``reference/mistakes.py`` holds one variant per mistake; students make some mistakes in
several spellings with different outputs (a global max with or without a 0/0 guard, Q/K/V
in any wrong order, ...). These are stored as "<mistake id>.<how>", and the feedback names
the mistake id.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from autograder.devapi import Case, run, same_output


def extra_variants() -> dict[str, dict[str, Callable]]:
    """Other spellings of mistakes in ``reference/mistakes.py``, so that more students get the diagnosis."""
    from .. import attention as ref
    from .. import mistakes

    def softmax_max_without_keepdims(Z, axis=-1, temperature=1.0):  # runs when the shapes happen to broadcast
        Z = np.asarray(Z) / temperature
        E = np.exp(Z - np.max(Z, axis=axis))
        return E / np.sum(E, axis=axis, keepdims=True)

    def sdpa_default_scale(scale_of: Callable) -> Callable:
        def variant(Q, K, V, mask=None, scale=None):
            return ref.scaled_dot_product_attention(Q, K, V, mask, scale_of(Q, K, V) if scale is None else scale)

        return variant

    def mha_scaled_by_full_width(X, W_Q, W_K, W_V, W_O, num_heads, mask=None):
        full = mistakes.mha_variant(scale=lambda _, d_k: 1.0 / np.sqrt(d_k * num_heads))
        return full(X, W_Q, W_K, W_V, W_O, num_heads, mask)

    def sdpa_additive_mask(Q, K, V, mask=None, scale=None):  # a fully masked row: the softmax of its scores
        scores = ref.attention_scores(Q, K) * (1.0 / np.sqrt(Q.shape[-1]) if scale is None else scale)
        weights = ref.softmax(scores if mask is None else scores + np.where(mask, 0.0, -1e9), axis=-1)
        return weights @ V, weights

    def softmax_global_max_guarded(Z, axis=-1, temperature=1.0):  # 0/0 guarded: far-below slices become zeros
        Z = np.asarray(Z) / temperature
        E = np.exp(Z - np.max(Z))
        total = np.sum(E, axis=axis, keepdims=True)
        return E / np.where(total == 0.0, 1.0, total)

    class RowsNewestFirst(ref.KVCache):  # every row reversed, also within a block
        def append(self, k, v):
            self._keys.insert(0, np.atleast_2d(np.array(k, dtype=float))[::-1])
            self._values.insert(0, np.atleast_2d(np.array(v, dtype=float))[::-1])

    def softmax_unstable_guarded(Z, axis=-1, temperature=1.0):  # no max subtracted, 0/0 guarded
        E = np.exp(np.asarray(Z) / temperature)
        total = np.sum(E, axis=axis, keepdims=True)
        return E / np.where(total == 0.0, 1.0, total)

    half = mistakes.ROPE["rope_half_split"]  # RoPE written inline with rotate_half (GPT-NeoX / HF layout)

    def decode_half_split(layer, x, cache, rope_base=None):
        q, k, v = layer.query(x), layer.key(x), layer.value(x)
        if rope_base is not None:
            position = np.array([len(cache)], dtype=float)
            q, k = half(q[None, :], position, base=rope_base)[0], half(k[None, :], position, base=rope_base)[0]
        cache.append(k, v)
        return ref.scaled_dot_product_attention(q[None, :], cache.keys, cache.values)[0][0]

    def naive_half_split(layer, X, rope_base=None):
        outputs = []
        for n in range(len(X)):
            q = layer.query(X[n])[None, :]
            K = np.stack([layer.key(X[j]) for j in range(n + 1)])
            V = np.stack([layer.value(X[j]) for j in range(n + 1)])
            if rope_base is not None:
                q = half(q, np.array([n], dtype=float), base=rope_base)
                K = half(K, np.arange(n + 1, dtype=float), base=rope_base)
            outputs.append(ref.scaled_dot_product_attention(q, K, V)[0][0])
        return np.stack(outputs)

    k_only = mistakes.decode_variant(rotate_q=False)
    q_later = mistakes.decode_variant(q_shift=1)  # q at len(cache) read after appending
    return {
        "qkv_project": {
            "qkv_transposed.T": lambda X, W_Q, W_K, W_V: tuple((X @ W).T for W in (W_Q, W_K, W_V)),
            "qkv_order.kqv": lambda X, W_Q, W_K, W_V: (X @ W_K, X @ W_Q, X @ W_V),
            "qkv_order.vkq": lambda X, W_Q, W_K, W_V: (X @ W_V, X @ W_K, X @ W_Q),
        },
        "softmax": {"softmax_no_keepdims.max": softmax_max_without_keepdims,
                    "softmax_global_max.guarded": softmax_global_max_guarded,
                    "softmax_unstable.guarded": softmax_unstable_guarded},
        "scaled_dot_product_attention": {
            "scale_d_v": sdpa_default_scale(lambda Q, K, V: 1.0 / np.sqrt(V.shape[-1])),
            "scale_wrong_dim.n_k": sdpa_default_scale(lambda Q, K, V: 1.0 / np.sqrt(K.shape[-2])),
            "scale_wrong_dim.axis1": sdpa_default_scale(lambda Q, K, V: 1.0 / np.sqrt(Q.shape[1])),  # d_k only in 2-D
            "mask_finite_fill.additive": sdpa_additive_mask,
        },
        "multi_head_attention": {"scale_d_model.heads_times_d_k": mha_scaled_by_full_width},
        "KVCache": {"cache_newest_first.rows": RowsNewestFirst},
        "rope": {"rope_position_off_by_one.minus": mistakes.rope_variant(shift=-1.0)},
        "decode_step": {"decode_rope_wrong_position.minus": mistakes.decode_variant(shift=-1),
                        "decode_rope_wrong_position.q": q_later, "rope_one_side.k": k_only,
                        "rope_half_split.inline": decode_half_split},
        "generate_cached": {"rope_one_side.k": mistakes.cached_variant(decode=k_only),
                            "decode_rope_wrong_position.q": mistakes.cached_variant(decode=q_later),
                            "rope_half_split.inline": mistakes.cached_variant(decode=decode_half_split)},
        "generate_naive": {"naive_query_position.minus": mistakes.naive_variant(q_shift=-1),
                           "rope_half_split.inline": naive_half_split},
    }


def with_extra_mistakes(case: Case, variants: dict[str, Callable]) -> Case:
    """Add the outputs of ``variants`` that differ from the expected output and from every stored mistake."""
    for mistake_id, variant in variants.items():
        try:
            output = run(case.function, variant, case.inputs)
        except Exception:  # the variant cannot run on these inputs
            continue
        known = [case.expected, *case.mistakes.values()]
        if not any(same_output(output, other) for other in known):
            case.mistakes[mistake_id] = output
    return case
