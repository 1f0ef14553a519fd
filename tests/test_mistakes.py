"""reference/mistakes.py: every known mistake is detectable and recognised as itself.

For each contract function a few probe inputs are chosen so that, on every probe, the
outputs of its variants differ from the reference and from each other (or equal the
reference, in which case diagnose() ignores them). Correct alternatives (float32, einsum,
loops) must pass compare() and never be diagnosed.
"""

from __future__ import annotations

import copy
import math
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

from autograder.feedback import compare
from tests.homework import module as homework_module

ref = homework_module('attention')
mistakes = homework_module('mistakes')

RNG = np.random.default_rng(20260522)


def _normal(*shape: int) -> np.ndarray:
    return RNG.normal(size=shape)


# ----------------------------------------------------------------------------
# Probe inputs, per function
# ----------------------------------------------------------------------------


def _masked_probe() -> dict[str, Any]:
    """n_q=4 < n_k=6 with a causal mask, query 0 fully masked, query 1 with huge logits."""
    Q, K, V = _normal(4, 3), _normal(6, 3), _normal(6, 2)
    Q[1] = [600.0, 0.0, 0.0]  # scores up to ~1000 after scaling: exp overflows without the max
    K[:, 0] = [0.5, 3.0, 1.0, -2.0, 2.0, -1.0]
    mask = ref.causal_mask(4, 6)
    mask[0] = False
    return {"Q": Q, "K": K, "V": V, "mask": mask}


def _layer_weights(D: int = 4, d_k: int = 4, d_v: int = 3) -> dict[str, np.ndarray]:
    return {"W_Q": _normal(D, d_k), "W_K": _normal(D, d_k), "W_V": _normal(D, d_v)}


LARGE_LOGITS = np.array(
    [[800.0, 799.5, 798.0], [1.0, 2.0, 3.0], [-800.0, -801.0, -799.0], [-np.inf, -np.inf, -np.inf]]
)

PROBES: dict[str, dict[str, dict[str, Any]]] = {
    "qkv_project": {
        "rectangular": {"X": _normal(5, 4), "W_Q": _normal(4, 3), "W_K": _normal(4, 3), "W_V": _normal(4, 2)},
        "square": {"X": _normal(2, 5, 3), "W_Q": _normal(3, 3), "W_K": _normal(3, 3), "W_V": _normal(3, 3)},
    },
    "attention_scores": {
        "square_keys": {"Q": _normal(4, 3), "K": _normal(3, 3)},
        "batched": {"Q": _normal(2, 4, 3), "K": _normal(2, 5, 3)},
    },
    "softmax": {
        "rows": {"Z": _normal(3, 4)},
        "square_temperature": {"Z": 2 * _normal(4, 4), "temperature": 2.5},
        "axis0": {"Z": _normal(3, 4), "axis": 0},
        "batched_axis1": {"Z": _normal(2, 3, 4), "axis": 1},
        "large_and_masked": {"Z": LARGE_LOGITS},
    },
    "causal_mask": {
        "square": {"n_q": 4},
        "more_keys": {"n_q": 3, "n_k": 6},
        "two_new_tokens": {"n_q": 2, "n_k": 5},
    },
    "scaled_dot_product_attention": {
        "plain": {"Q": _normal(4, 3), "K": _normal(4, 3), "V": _normal(4, 2)},
        "masked": _masked_probe(),
        "scale_given": {"Q": _normal(3, 3), "K": _normal(5, 3), "V": _normal(5, 2), "scale": 0.7},
        "batched": {"Q": _normal(2, 3, 4), "K": _normal(2, 5, 4), "V": _normal(2, 5, 2)},
        "square_keys": {"Q": _normal(4, 3), "K": _normal(3, 3), "V": _normal(3, 2)},
    },
    "multi_head_attention": {
        "plain": {"X": _normal(5, 8), "W_Q": _normal(8, 8), "W_K": _normal(8, 8), "W_V": _normal(8, 6),
                  "W_O": _normal(6, 7), "num_heads": 2},
        "batched_causal": {"X": _normal(2, 4, 6), "W_Q": _normal(6, 9), "W_K": _normal(6, 9), "W_V": _normal(6, 6),
                           "W_O": _normal(6, 6), "num_heads": 3, "mask": ref.causal_mask(4)},
    },
    "rotation_matrix": {"small": {"angle": 0.7}, "obtuse": {"angle": 2.0}},
    "rope": {
        "d8": {"x": _normal(5, 8), "positions": np.array([0.0, 1.0, 2.5, 3.0, 7.0])},
        "batched_d2": {"x": _normal(2, 3, 2), "positions": np.array([1.0, 2.0, 3.0]), "base": 100.0},
        "d6_base100": {"x": _normal(4, 6), "positions": np.arange(4.0), "base": 100.0},
    },
    "KVCache": {
        "tokens": {"appends": [(_normal(3), _normal(2)) for _ in range(3)]},
        "blocks": {"appends": [(_normal(2, 3), _normal(2, 2)) for _ in range(2)]},
    },
    "decode_step": {
        "no_rope": {**_layer_weights(), "x": _normal(4), "keys": _normal(3, 4), "values": _normal(3, 3)},
        "rope": {**_layer_weights(), "x": _normal(4), "keys": _normal(3, 4), "values": _normal(3, 3),
                 "rope_base": 100.0},
        "empty_cache": {**_layer_weights(), "x": _normal(4), "keys": np.zeros((0, 4)), "values": np.zeros((0, 3)),
                        "rope_base": 100.0},
    },
    "generate_cached": {
        "no_rope": {**_layer_weights(), "X": _normal(5, 4)},
        "rope": {**_layer_weights(), "X": _normal(5, 4), "rope_base": 100.0},
    },
    "generate_naive": {
        "no_rope": {**_layer_weights(), "X": _normal(5, 4)},
        "rope": {**_layer_weights(), "X": _normal(5, 4), "rope_base": 100.0},
    },
}


def run(name: str, fn: Callable, probe: dict[str, Any], layer_class: type = ref.AttentionLayer) -> Any:
    """Call ``fn`` (contract function ``name``) on a probe.

    Stateful functions give the dict of named outputs that autograder/suite/cases.py stores:
    KVCache -> keys, values, lengths; decode_step -> out, cache.keys, cache.values,
    calls.*; generate_* -> out, calls.*.
    """
    probe = copy.deepcopy(probe)
    if name == "KVCache":
        cache, lengths = fn(), []
        for k, v in probe["appends"]:
            cache.append(k, v)
            lengths.append(len(cache))
        return {"keys": cache.keys, "values": cache.values, "lengths": np.array(lengths)}
    if name not in ("decode_step", "generate_cached", "generate_naive"):
        return fn(**probe)
    layer = layer_class(probe.pop("W_Q"), probe.pop("W_K"), probe.pop("W_V"))
    named = {}
    if name == "decode_step":
        cache = ref.KVCache()
        if len(probe["keys"]):
            cache.append(probe["keys"], probe["values"])
        named["out"] = fn(layer, probe["x"], cache, rope_base=probe.get("rope_base"))
        named.update({"cache.keys": cache.keys, "cache.values": cache.values})
    else:
        named["out"] = fn(layer, probe["X"], rope_base=probe.get("rope_base"))
    return named | {f"calls.{kind}": count for kind, count in layer.calls.items()}


def _reference(name: str) -> Callable:
    return getattr(ref, name)


def _try(name: str, fn: Callable, probe: dict[str, Any]) -> Any:
    try:
        with np.errstate(all="ignore"):
            return run(name, fn, probe)
    except (ValueError, IndexError, TypeError):
        return None  # the mistake cannot run on this input (e.g. Q @ K with K not square)


def _mistake_outputs(name: str, probe: dict[str, Any]) -> dict[str, Any]:
    return {mid: _try(name, fn, probe) for mid, fn in mistakes.VARIANTS[name].items()}


CASES = [(name, probe_id) for name, probes in PROBES.items() for probe_id in probes]
PAIRS = [(name, mid) for name, variants in mistakes.VARIANTS.items() for mid in variants]


# ----------------------------------------------------------------------------
# The variants themselves
# ----------------------------------------------------------------------------


def test_every_contract_function_has_variants_and_probes():
    assert set(mistakes.VARIANTS) == set(PROBES)
    for name in PROBES:
        assert mistakes.applicable(name) == list(mistakes.VARIANTS[name])
    assert mistakes.applicable("no_such_function") == []


@pytest.mark.parametrize("name, mistake_id", PAIRS)
def test_every_mistake_has_a_sentence(name, mistake_id):
    assert mistake_id in compare.MISTAKES


def test_every_sentence_is_used():
    used = {mid for variants in mistakes.VARIANTS.values() for mid in variants}
    assert set(compare.MISTAKES) == used | set(mistakes.NOT_BY_VALUE) | set(mistakes.BY_INFERENCE)


@pytest.mark.parametrize("name, mistake_id", [p for p in PAIRS if p[1] != "modified_input"])
def test_variant_differs_from_reference_on_some_probe(name, mistake_id):
    """Count mistakes differ too: the stored outputs of Part F include the call counts."""
    variant = mistakes.VARIANTS[name][mistake_id]
    detected = []
    for probe_id, probe in PROBES[name].items():
        output = _try(name, variant, probe)
        expected = run(name, _reference(name), probe)
        if output is not None and compare.compare(name, expected, output) is not None:
            detected.append(probe_id)
    assert detected, f"{name}/{mistake_id} equals the reference on every probe"


@pytest.mark.parametrize("name, probe_id", CASES)
def test_diagnose_names_exactly_the_mistake_made(name, probe_id):
    probe = PROBES[name][probe_id]
    expected = run(name, _reference(name), probe)
    outputs = _mistake_outputs(name, probe)
    for mistake_id, output in outputs.items():
        if output is None or compare.compare(name, expected, output) is None:
            continue  # cannot run here, or right by accident: diagnose() skips it
        assert compare.diagnose(output, outputs, expected=expected) == mistake_id, (name, probe_id, mistake_id)
        text = compare.report(name, expected, output, outputs, names=_names(name))
        assert f"**Likely mistake:** {compare.MISTAKES[mistake_id]}" in text


def _names(name: str) -> list[str] | None:
    return {"scaled_dot_product_attention": ["out", "weights"], "qkv_project": ["Q", "K", "V"]}.get(name)


def test_the_reference_itself_is_never_diagnosed():
    for name, probe_id in CASES:
        probe = PROBES[name][probe_id]
        expected = run(name, _reference(name), probe)
        assert compare.diagnose(expected, _mistake_outputs(name, probe), expected=expected) is None


@pytest.mark.parametrize("name", ["softmax", "scaled_dot_product_attention", "rope"])
def test_modified_input_writes_to_its_input(name):
    probe = next(iter(PROBES[name].values()))
    arrays = {k: np.array(v) for k, v in probe.items() if isinstance(v, np.ndarray)}
    for array in arrays.values():
        array.flags.writeable = False
    frozen = {**probe, **arrays}
    _reference(name)(**frozen)  # the reference never writes
    with pytest.raises(ValueError, match="read-only"):
        mistakes.VARIANTS[name]["modified_input"](**frozen)


@pytest.mark.parametrize("name, mistake_id", [("generate_cached", "cache_recomputes"),
                                              ("generate_naive", "naive_no_recompute")])
@pytest.mark.parametrize("rope_base", [None, 100.0])
def test_count_mistakes_give_right_values_and_wrong_counts(name, mistake_id, rope_base):
    """Their `out` is right: only the counts (calls.* in the stored outputs) tell them apart."""
    X = _normal(5, 4)
    weights = _layer_weights()
    right, wrong = ref.AttentionLayer(**weights), ref.AttentionLayer(**weights)
    expected = _reference(name)(right, X, rope_base=rope_base)
    output = mistakes.VARIANTS[name][mistake_id](wrong, X, rope_base=rope_base)
    assert compare.compare(name, expected, output) is None
    N = len(X)
    contract = N if name == "generate_cached" else N * (N + 1) // 2
    assert right.calls == {"query": N, "key": contract, "value": contract}
    assert wrong.calls["key"] != contract and wrong.calls["value"] != contract


def test_rope_position_shift_is_invisible_to_generation():
    """Why decode_rope_wrong_position is not a generate_cached variant: RoPE is relative."""
    probe = PROBES["generate_cached"]["rope"]
    shifted = mistakes.cached_variant(decode=mistakes.DECODE["decode_rope_wrong_position"])
    expected = run("generate_cached", ref.generate_cached, probe)
    assert compare.compare("generate_cached", expected, run("generate_cached", shifted, probe)) is None


@pytest.mark.parametrize("name", ["decode_step", "generate_cached", "generate_naive"])
def test_diagnosis_from_out_alone(name):
    """A test that only looks at `out` still gets the diagnosis (counts are not compared)."""
    probe = PROBES[name]["rope"]
    expected = run(name, _reference(name), probe)
    outputs = _mistake_outputs(name, probe)
    for mistake_id, output in outputs.items():
        if output is None or compare.compare(name, expected["out"], output["out"]) is None:
            assert compare.diagnose({"out": output["out"]}, outputs, expected=expected) != mistake_id
            continue
        assert compare.diagnose({"out": output["out"]}, outputs, expected=expected) == mistake_id


# ----------------------------------------------------------------------------
# Correct alternatives: float32, einsum, loops
# ----------------------------------------------------------------------------


def _f32(value: Any) -> Any:
    if isinstance(value, np.ndarray) and value.dtype == np.float64:
        return value.astype(np.float32)
    return value


def float32(fn: Callable) -> Callable:
    """The reference computed in float32 (inputs cast, outputs left in float32)."""
    return lambda *args, **kwargs: fn(*map(_f32, args), **{k: _f32(v) for k, v in kwargs.items()})


class Float32Layer(ref.AttentionLayer):
    def query(self, x):
        return super().query(x).astype(np.float32)

    def key(self, x):
        return super().key(x).astype(np.float32)

    def value(self, x):
        return super().value(x).astype(np.float32)


def _softmax_loop(Z, axis=-1, temperature=1.0):
    def one(z):
        m = max(z) if max(z) > -math.inf else 0.0
        e = [math.exp((v - m) / temperature) if v > -math.inf else 0.0 for v in z]
        return np.array([x / sum(e) if sum(e) else 0.0 for x in e])

    return np.apply_along_axis(one, axis, np.asarray(Z))


def _softmax_logsumexp(Z, axis=-1, temperature=1.0):
    Z = np.asarray(Z, dtype=float) / temperature
    m = np.max(Z, axis=axis, keepdims=True)
    m = np.where(np.isfinite(m), m, 0.0)
    lse = m + np.log(np.sum(np.exp(Z - m), axis=axis, keepdims=True))
    with np.errstate(invalid="ignore"):
        return np.where(np.isneginf(lse), 0.0, np.exp(Z - lse))


def _causal_loop(n_q, n_k=None):
    n_k = n_q if n_k is None else n_k
    return np.array([[j <= i + n_k - n_q for j in range(n_k)] for i in range(n_q)], dtype=bool)


def _sdpa_einsum(Q, K, V, mask=None, scale=None):
    scale = 1.0 / math.sqrt(Q.shape[-1]) if scale is None else scale
    Z = np.einsum("...id,...jd->...ij", Q, K) * scale
    if mask is not None:
        Z = np.where(mask, Z, -np.inf)
    W = _softmax_logsumexp(Z)
    return np.einsum("...ij,...jd->...id", W, V), W


def _mha_loop(X, W_Q, W_K, W_V, W_O, num_heads, mask=None):
    d_k, d_v = W_Q.shape[1] // num_heads, W_V.shape[1] // num_heads
    heads = []
    for h in range(num_heads):
        q, k = X @ W_Q[:, h * d_k : (h + 1) * d_k], X @ W_K[:, h * d_k : (h + 1) * d_k]
        heads.append(_sdpa_einsum(q, k, X @ W_V[:, h * d_v : (h + 1) * d_v], mask)[0])
    return np.concatenate(heads, axis=-1) @ W_O


def _rope_complex(x, positions, base=10000.0):
    d = x.shape[-1]
    z = (x[..., 0::2] + 1j * x[..., 1::2]) * np.exp(1j * np.outer(positions, base ** (-np.arange(0, d, 2) / d)))
    return np.stack([z.real, z.imag], axis=-1).reshape(x.shape)


def _rope_loop(x, positions, base=10000.0):
    out = np.array(x, dtype=float)
    d = x.shape[-1]
    for n, p in enumerate(positions):
        for i in range(d // 2):
            R = ref.rotation_matrix(p * base ** (-2 * i / d))
            out[..., n, 2 * i : 2 * i + 2] = out[..., n, 2 * i : 2 * i + 2] @ R.T
    return out


def _rotation_math(angle):
    c, s = math.cos(angle), math.sin(angle)
    return np.array([[c, -s], [s, c]])


class ListCache:
    def __init__(self):
        self.k, self.v = [], []

    def append(self, k, v):
        self.k += list(np.reshape(k, (-1, np.shape(k)[-1])))
        self.v += list(np.reshape(v, (-1, np.shape(v)[-1])))

    keys = property(lambda self: np.vstack(self.k))
    values = property(lambda self: np.vstack(self.v))

    def __len__(self):
        return len(self.k)


def _generate_cached_loop(layer, X, rope_base=None):
    cache, rows = ListCache(), []
    for n, x in enumerate(X):
        q, k, v = layer.query(x), layer.key(x), layer.value(x)
        if rope_base is not None:
            q, k = (_rope_loop(u[None], [n], rope_base)[0] for u in (q, k))
        cache.append(k, v)
        rows.append(_sdpa_einsum(q[None], cache.keys, cache.values)[0][0])
    return np.array(rows)


def _generate_naive_loop(layer, X, rope_base=None):
    rows = []
    for n in range(len(X)):
        keys = [layer.key(X[j]) for j in range(n + 1)]
        values = [layer.value(X[j]) for j in range(n + 1)]
        q = layer.query(X[n])
        if rope_base is not None:
            q = _rope_loop(q[None], [n], rope_base)[0]
            keys = list(_rope_loop(np.array(keys), range(n + 1), rope_base))
        rows.append(_sdpa_einsum(q[None], np.array(keys), np.array(values))[0][0])
    return np.array(rows)


CORRECT: dict[str, list[Callable]] = {
    "qkv_project": [float32(ref.qkv_project),
                    lambda X, W_Q, W_K, W_V: tuple(np.einsum("...nd,dk->...nk", X, W) for W in (W_Q, W_K, W_V))],
    "attention_scores": [float32(ref.attention_scores), lambda Q, K: np.einsum("...id,...jd->...ij", Q, K)],
    "softmax": [float32(ref.softmax), _softmax_loop, _softmax_logsumexp],
    "causal_mask": [_causal_loop],
    "scaled_dot_product_attention": [float32(ref.scaled_dot_product_attention), _sdpa_einsum],
    "multi_head_attention": [float32(ref.multi_head_attention), _mha_loop],
    "rotation_matrix": [float32(ref.rotation_matrix), _rotation_math],
    "rope": [float32(ref.rope), _rope_complex, _rope_loop],
    "KVCache": [ListCache],
    "decode_step": [float32(ref.decode_step)],
    "generate_cached": [float32(ref.generate_cached), _generate_cached_loop],
    "generate_naive": [float32(ref.generate_naive), _generate_naive_loop],
}


@pytest.mark.parametrize("name, probe_id", CASES)
def test_correct_alternatives_pass_and_are_never_diagnosed(name, probe_id):
    probe = PROBES[name][probe_id]
    expected = run(name, _reference(name), probe)
    outputs = _mistake_outputs(name, probe)
    part_f = name in ("decode_step", "generate_cached", "generate_naive")
    layers = [ref.AttentionLayer, Float32Layer] if part_f else [ref.AttentionLayer]
    for alternative in CORRECT[name]:
        for layer_class in layers:
            with np.errstate(all="ignore"):
                actual = run(name, alternative, probe, layer_class)
            assert compare.compare(name, expected, actual) is None, (alternative, layer_class)
            assert compare.diagnose(actual, outputs, expected=expected) is None
