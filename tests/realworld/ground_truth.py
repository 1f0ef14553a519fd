"""Which contract functions of a submission truly deviate from the reference, found without the grader.

Each contract function of the submission (run in this process) is compared with
``reference/attention.py`` on random inputs across the contract's range: no leading axes and
several, n_q != n_k, d_v != d_k, H * d_k != D, masks with fully masked rows, one mask per
sequence, real positions, other axes and temperatures, RoPE bases, caches of any length. A function
deviates when one output differs by more than the contract's tolerance (rtol 1e-5, atol 1e-6) or
it raises; the first such input is reported. Nothing here uses the graded cases or the feedback code.
"""

from __future__ import annotations

import functools
import types
from collections.abc import Callable, Iterator
from typing import Any

import numpy as np

from tests.homework import module as homework_module

ref = homework_module('attention')


RNG = np.random.default_rng(13)


def load(source: str) -> types.ModuleType:
    module = types.ModuleType("ported_attention")
    exec(compile(source, "ported_attention", "exec"), module.__dict__)
    return module


def close(a: Any, b: Any) -> bool:
    if isinstance(b, tuple):
        return isinstance(a, (tuple, list)) and len(a) == len(b) and all(close(x, y) for x, y in zip(a, b))
    a = np.asarray(a)
    if a.shape != np.shape(b) or (a.dtype.kind == "b") != (np.asarray(b).dtype.kind == "b"):
        return False
    return bool(np.allclose(a, b, rtol=1e-5, atol=1e-6, equal_nan=True))


class Layer:
    def __init__(self, W_Q, W_K, W_V):
        self.W = {"query": W_Q, "key": W_K, "value": W_V}

    def query(self, x):
        return x @ self.W["query"]

    def key(self, x):
        return x @ self.W["key"]

    def value(self, x):
        return x @ self.W["value"]


def _normal(*shape: int) -> np.ndarray:
    return RNG.normal(size=shape)


def _mask(*shape: int, dead_row: bool = True) -> np.ndarray:
    mask = RNG.random(shape) < 0.6
    mask[..., 0] = True
    if dead_row:
        mask[..., 1, :] = False  # one fully masked row per slice
    return mask


def inputs(function: str) -> Iterator[tuple]:
    """(args) tuples spanning the contract for one function."""
    leads = [(), (2,), (2, 3)]
    if function == "qkv_project":
        for lead in leads:
            yield _normal(*lead, 4, 5), _normal(5, 3), _normal(5, 3), _normal(5, 2)
    elif function == "attention_scores":
        for lead in leads:
            yield _normal(*lead, 3, 4), _normal(*lead, 5, 4)
    elif function == "softmax":
        for lead in leads:
            yield _normal(*lead, 4, 6) * 3, -1, 1.0
        yield _normal(3, 4, 5), 1, 1.0
        yield _normal(4, 5), 0, 2.5
        yield np.array([[1000.0, -1000.0, 3.0], [-np.inf, -np.inf, -np.inf]]), -1, 1.0
    elif function == "causal_mask":
        yield from ((4, 4), (3, 6), (5, 2))
    elif function == "scaled_dot_product_attention":
        for lead in leads:
            yield _normal(*lead, 4, 3), _normal(*lead, 6, 3), _normal(*lead, 6, 2), None, None
            yield _normal(*lead, 4, 3), _normal(*lead, 6, 3), _normal(*lead, 6, 2), _mask(4, 6), None
            yield _normal(*lead, 4, 3), _normal(*lead, 6, 3), _normal(*lead, 6, 2), _mask(4, 6, dead_row=False), 0.7
        yield _normal(2, 2, 4, 3), _normal(2, 2, 5, 3), _normal(2, 2, 5, 2), _mask(2, 1, 4, 5), None
    elif function == "multi_head_attention":
        for lead in ((), (2,)):
            for D, H, d_k, d_v in ((6, 2, 3, 3), (6, 2, 3, 2), (8, 4, 3, 2), (6, 3, 2, 3)):
                X, W_Q, W_K = _normal(*lead, 5, D), _normal(D, H * d_k), _normal(D, H * d_k)
                W_V, W_O = _normal(D, H * d_v), _normal(H * d_v, 4)
                yield X, W_Q, W_K, W_V, W_O, H, None
                yield X, W_Q, W_K, W_V, W_O, H, ref.causal_mask(5)
            yield X, W_Q, W_K, W_V, W_O, H, _mask(*lead, 5, 5, dead_row=False)
    elif function == "rotation_matrix":
        yield from ((angle,) for angle in (np.pi / 2, 0.4, -1.2, 7.5))
    elif function == "rope":
        for lead in leads:
            yield _normal(*lead, 4, 8), np.array([0.0, 1.0, 2.5, -3.0]), 100.0
        yield _normal(5, 2), np.arange(5, dtype=float), 10000.0
        yield _normal(3, 6), np.array([7.0, 8.0, 12.0]), 10000.0


def stateful(function: str, module: types.ModuleType) -> Iterator[tuple[Callable, Callable]]:
    """(student call, reference call) pairs for the functions that need a layer, a cache or a class."""
    if function == "KVCache":
        for blocks in (((1,), (1,), (1,)), ((2,), (1,), (3,))):
            ks = [_normal(*shape, 3) if shape != (1,) else _normal(3) for shape in blocks]
            vs = [_normal(*shape, 2) if shape != (1,) else _normal(2) for shape in blocks]

            def run(cls, ks=ks, vs=vs):
                cache, seen = cls(), []
                for k, v in zip(ks, vs):
                    cache.append(k, v)
                    seen += [np.asarray(cache.keys), np.asarray(cache.values), len(cache)]
                return tuple(seen)

            yield (lambda run=run: run(module.KVCache)), (lambda run=run: run(ref.KVCache))
        return
    for (D, d_k, d_v), rope_base in [*(((4, 4, 3), base) for base in (None, 100.0, 10000.0)), ((5, 6, 2), None)]:
        W = _normal(D, d_k), _normal(D, d_k), _normal(D, d_v)  # d_k = 4, and another even width
        X = _normal(6, D)
        if function == "decode_step":
            for cached in (0, 3):
                keys, values = _normal(cached, d_k), _normal(cached, d_v)
                yield (functools.partial(_decode, module.decode_step, W, X[0], keys, values, rope_base),
                       functools.partial(_decode, ref.decode_step, W, X[0], keys, values, rope_base))
        else:
            yield (functools.partial(_generate, getattr(module, function), W, X, rope_base),
                   functools.partial(_generate, getattr(ref, function), W, X, rope_base))


def _decode(step: Callable, W: tuple, x: np.ndarray, keys: np.ndarray, values: np.ndarray, rope_base: Any) -> Any:
    cache = ref.KVCache()  # the contract's cache, as the grader passes one
    if len(keys):
        cache.append(keys, values)
    return step(Layer(*W), x, cache, rope_base)


def _generate(generate: Callable, W: tuple, X: np.ndarray, rope_base: Any) -> Any:
    return generate(Layer(*W), X, rope_base)


def _call(function: Callable, args: tuple) -> Any:
    return function(*args)


def deviations(module: types.ModuleType) -> dict[str, str]:
    """Contract function -> why it deviates (the first input that shows it); functions that match are absent."""
    found: dict[str, str] = {}
    for function in ("qkv_project", "attention_scores", "softmax", "causal_mask", "scaled_dot_product_attention",
                     "multi_head_attention", "rotation_matrix", "rope", "KVCache", "decode_step",
                     "generate_cached", "generate_naive"):
        if function in ("KVCache", "decode_step", "generate_cached", "generate_naive"):
            pairs = list(stateful(function, module))
        else:
            pairs = [(functools.partial(_call, getattr(module, function), args),
                      functools.partial(_call, getattr(ref, function), args)) for args in inputs(function)]
        for i, (mine, theirs) in enumerate(pairs):
            expected = theirs()
            try:
                with np.errstate(all="ignore"):
                    actual = mine()
            except Exception as error:  # any exception is a deviation
                found[function] = f"input {i} raised {type(error).__name__}: {error}"
                break
            if not close(actual, expected):
                found[function] = f"input {i} differs"
                break
    return found
