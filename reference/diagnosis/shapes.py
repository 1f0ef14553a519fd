"""The evidence of a shape assumption: which cases of a test pass and which fail, told apart by one shape property.

The random-shape tests run each function on several drawn shapes. Two kinds of evidence:

* ``shape_evidence``: the cases that pass are exactly those where one shape property
  holds, with at least one case on each side (a solution that unpacks ``B, N, D = X.shape``
  passes exactly the 3-D cases);
* ``probe_evidence``: the first failing case, rewritten so that an assumption holds with
  the same answer (zero columns: D = H*d_k, or d_v = d_k), passes. Every random case
  breaks these assumptions on purpose, so the cases alone cannot tell.

The sentence states what was observed and what the contract asks; it names no stored mistake.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Mapping, Sequence
from typing import Any, NamedTuple

import numpy as np

from autograder.api import Case

# The input with the (..., N, d) shape of each function whose inputs have leading axes.
MAIN_INPUT = {"qkv_project": "X", "attention_scores": "Q", "softmax": "Z", "scaled_dot_product_attention": "Q",
              "multi_head_attention": "X", "rope": "x"}
MASKED = {"scaled_dot_product_attention": ("mask",), "multi_head_attention": ("mask",)}
ANY_LEADING_AXES = ("The contract's `...` means any number of leading batch/head axes, none included: index shapes "
                    "from the end (`X.shape[-2:]`, `np.swapaxes(K, -1, -2)`, `M.reshape(*M.shape[:-1], H, -1)`)")


class Property(NamedTuple):
    """A shape property of a case (None: it does not apply to this case) and what to say when it splits a test."""

    holds: Callable[[Case], bool | None]
    passing_when_it_holds: str  # "your code passes exactly the cases where {this}"
    advice: str
    same_as: tuple[str, ...] = ()  # mistakes whose sentence states the same cause (then only that one is said)


class Evidence(str):
    """A **Shapes:** sentence, and the mistakes whose own sentences would state the same cause."""

    same_as: tuple[str, ...] = ()

    @classmethod
    def of(cls, text: str, same_as: tuple[str, ...]) -> Evidence:
        evidence = cls(text)
        evidence.same_as = same_as
        return evidence


LEADING = ("batch_first_only", "no_batch_support", "needs_leading_axes", "needs_leading_axis", "matrix_input_only")


def _main(case: Case) -> Any:
    name = MAIN_INPUT.get(case.function)
    return None if name is None or name not in case.inputs else np.asarray(case.inputs[name])


def _ndim_is(n: int) -> Callable[[Case], bool | None]:
    def holds(case: Case) -> bool | None:
        main = _main(case)
        return None if main is None else main.ndim == n

    return holds


def _tokens(case: Case) -> int | None:
    if case.function in ("generate_cached", "generate_naive"):
        return int(np.shape(case.inputs["X"])[0])
    main = _main(case)
    return None if main is None or main.ndim < 2 or case.function == "softmax" else int(main.shape[-2])


def _several_tokens(case: Case) -> bool | None:
    tokens = _tokens(case)
    return None if tokens is None else tokens > 1


def _no_width_1(case: Case) -> bool | None:
    widths = [np.shape(v)[-1] for k, v in case.inputs.items()
              if k.split(".")[-1] in ("W_Q", "W_K", "W_V", "Q", "K", "V") and np.ndim(v) >= 2]
    return None if not widths else min(widths) > 1


def _full_rank_mask(case: Case) -> bool | None:
    mask, main = case.inputs.get("mask"), _main(case)
    if main is None or "mask" not in MASKED.get(case.function, ()):
        return None
    return mask is None or np.ndim(mask) == main.ndim  # no mask: nothing to broadcast


def _only(function: str, holds: Callable[[Case], bool | None]) -> Callable[[Case], bool | None]:
    return lambda case: holds(case) if case.function == function else None


def _mask_2d(case: Case) -> bool | None:
    if "mask" not in MASKED.get(case.function, ()) or _main(case) is None:
        return None
    mask = case.inputs.get("mask")
    return mask is None or np.ndim(mask) >= 2


PROPERTIES: tuple[Property, ...] = (
    Property(_ndim_is(3), "`{name}` is 3-D (one leading axis): your code seems to assume a batch-first (B, N, D) input",
             ANY_LEADING_AXES + " instead of unpacking `B, N, D = X.shape` or transposing with `(0, 2, 1)`.", LEADING),
    Property(_ndim_is(2), "`{name}` is 2-D (no leading axes): your code seems to treat its input as one matrix",
             ANY_LEADING_AXES + " instead of `.T` or `reshape(-1, d)`, which mix the leading axes.", LEADING),
    Property(_several_tokens, "there is more than one token: with N = 1 your code loses the token axis",
             "A sequence of one token is still 2-D, (1, d): avoid `np.squeeze` and indexing that drops the axis."),
    Property(_no_width_1, "every width is more than 1: a width of 1 breaks your code",
             "A width of 1 is still an axis: avoid `np.squeeze`, and check that no shape is assumed square."),
    Property(_mask_2d, "the mask (if any) has at least 2 axes: a 1-D mask breaks your code",
             "A mask of shape (N_k,) is valid too (the same row for every query): make it at least 2-D "
             "(`np.atleast_2d(mask)`) before adding or indexing its axes."),
    Property(_only("scaled_dot_product_attention", _full_rank_mask), "the mask (if any) has as many axes as the scores",
             "The mask only has to be broadcastable to (..., N_q, N_k): let numpy broadcast it (`np.where(mask, "
             "scores, -np.inf)`), with fewer leading axes or none."),
    Property(_only("multi_head_attention", _full_rank_mask), "the mask (if any) has as many axes as X",
             "The mask only has to be broadcastable to (..., N, N): a mask with leading axes needs the head axis "
             "inserted (`mask[..., None, :, :]`), and a smaller one may be broadcast as it is."),
)


def shape_evidence(cases: Sequence[Case], failed: Collection[str]) -> str | None:
    """A sentence when exactly the failing cases (ids ``failed``) lack one shape property that every passing one has.

    Needs a passing and a failing case; a property must apply to every case of the test.
    """
    passed = [c for c in cases if c.id not in failed]
    if not passed or len(passed) == len(cases):
        return None
    name = MAIN_INPUT.get(cases[0].function, "the input")
    for prop in PROPERTIES:
        values = [prop.holds(c) for c in cases]
        if None in values:
            continue
        if all(v == (c.id not in failed) for v, c in zip(values, cases)):
            what = prop.passing_when_it_holds.format(name=name)
            return Evidence.of(f"**Shapes:** of these {len(cases)} cases, your code passes exactly the {len(passed)} "
                               f"where {what}. {prop.advice}", prop.same_as)
    return None


# ----------------------------------------------------------------------------
# Probes: the same case rewritten so that one assumption holds, with the same answer
# ----------------------------------------------------------------------------


def _pad(a: np.ndarray, axis: int, width: int) -> np.ndarray:
    """``a`` with zeros appended along ``axis`` up to ``width``."""
    pad = [(0, 0)] * a.ndim
    pad[axis] = (0, width - a.shape[axis])
    return np.pad(a, pad)


def _pad_heads(W: np.ndarray, heads: int, width: int, gain: float = 1.0) -> np.ndarray:
    """(rows, H*d) -> (rows, H*width): each head's block of columns padded with zero columns, times ``gain``."""
    rows, d = W.shape[0], W.shape[1] // heads
    return gain * _pad(W.reshape(rows, heads, d), 2, width).reshape(rows, heads * width)


def _probe(stored: Case, kind: str, inputs: dict[str, Any], expected: Any) -> Case:
    return Case(f"{stored.id}.{kind}", stored.function, inputs, expected, {}, stored.seed, stored.description)


def divisible_widths(named: Mapping[str, Any]) -> tuple[int, int]:
    """Two widths past D = X.shape[-1] for a model width num_heads must divide (a constructor's `assert embed_dim %
    num_heads == 0`): the least multiple of num_heads above D, and its control, the least width past that which
    num_heads does not divide; neither of them H * d_k, H * d_v nor D_out, so that no equality of widths the code may
    need holds there by chance (code that passes at the control too needs a wider input, not a multiple of H)."""
    H, D = int(named["num_heads"]), np.shape(named["X"])[-1]
    avoid = {np.shape(named[w])[-1] for w in ("W_Q", "W_V", "W_O")}  # H * d_k, H * d_v, D_out
    wide = (D // H + 1) * H
    while wide in avoid:
        wide += H
    undivided = wide + 1
    while undivided % H == 0 or undivided in avoid:
        undivided += 1
    return wide, undivided


def model_to(named: dict[str, Any], width: int) -> dict[str, Any]:
    """X with ``width`` features (zero-padded or cut), the projections' rows to match."""
    X = np.asarray(named["X"])
    D = X.shape[-1]
    out = dict(named)
    if width >= D:
        out["X"] = np.concatenate([X, np.zeros((*X.shape[:-1], width - D))], axis=-1)
        for name in ("W_Q", "W_K", "W_V"):
            W = np.asarray(named[name])
            out[name] = np.concatenate([W, np.zeros((width - D, W.shape[-1]))])
    else:
        out["X"] = X[..., :width]
        for name in ("W_Q", "W_K", "W_V"):
            out[name] = np.asarray(named[name])[:width]
    return out


def _mha_probes(stored: Case) -> list[tuple[str, Case]]:
    inputs = dict(stored.inputs)
    H, X = inputs["num_heads"], np.asarray(inputs["X"])
    W_Q, W_K, W_V, W_O = (np.asarray(inputs[w]) for w in ("W_Q", "W_K", "W_V", "W_O"))
    D, d_k, d_v = X.shape[-1], W_Q.shape[1] // H, W_V.shape[1] // H
    probes = []
    if D % H:  # first: heads split by D // H fail here too, while code that needs only D % H == 0 passes
        for kind, wide in zip(("divisible", "undivided"), divisible_widths(inputs)):
            probes.append((kind, _probe(stored, kind, model_to(inputs, wide), stored.expected)))
    if D != H * d_k:  # pad X to D' = H * d_k' (zero columns, zero weight rows) and each head to d_k'
        width = max(d_k, -(-D // H))
        D_new = H * width
        gain = np.sqrt(width / d_k)  # the scale 1/sqrt(d_k') then gives back 1/sqrt(d_k)
        probe = {**inputs, "X": _pad(X, -1, D_new), "W_Q": _pad_heads(_pad(W_Q, 0, D_new), H, width, gain),
                 "W_K": _pad_heads(_pad(W_K, 0, D_new), H, width), "W_V": _pad(W_V, 0, D_new)}
        probes.append(("head_width", _probe(stored, "head_width", probe, stored.expected)))
    if d_k != d_v:  # every head d' wide: zero columns in Q, K, V heads, zero rows in W_O
        width = max(d_k, d_v)
        W_O_new = _pad(W_O.reshape(H, d_v, W_O.shape[1]), 1, width).reshape(H * width, W_O.shape[1])
        probe = {**inputs, "W_Q": _pad_heads(W_Q, H, width, np.sqrt(width / d_k)), "W_K": _pad_heads(W_K, H, width),
                 "W_V": _pad_heads(W_V, H, width), "W_O": W_O_new}
        probes.append(("value_width", _probe(stored, "value_width", probe, stored.expected)))
    return probes


def _layer_probes(stored: Case) -> list[tuple[str, Case]]:
    """decode_step / generate_*: d_v = d_k by zero columns (without RoPE, whose frequencies depend on d_k)."""
    inputs = dict(stored.inputs)
    W_Q, W_V = np.asarray(inputs["layer.W_Q"]), np.asarray(inputs["layer.W_V"])
    d_k, d_v = W_Q.shape[1], W_V.shape[1]
    if d_k == d_v or inputs.get("rope_base") is not None:
        return []
    width = max(d_k, d_v)
    probe = {**inputs, "layer.W_Q": _pad(W_Q, 1, width) * np.sqrt(width / d_k),
             "layer.W_K": _pad(np.asarray(inputs["layer.W_K"]), 1, width), "layer.W_V": _pad(W_V, 1, width)}
    expected = dict(stored.expected)
    expected["out"] = _pad(np.asarray(expected["out"]), -1, width)
    if "cache.keys" in inputs:
        probe["cache.keys"] = _pad(np.asarray(inputs["cache.keys"]), 1, width)
        probe["cache.values"] = _pad(np.asarray(inputs["cache.values"]), 1, width)
        expected["cache.keys"] = _pad(np.asarray(expected["cache.keys"]), 1, width)
        expected["cache.values"] = _pad(np.asarray(expected["cache.values"]), 1, width)
    return [("value_width", _probe(stored, "value_width", probe, expected))]


PROBES: dict[str, Callable[[Case], list[tuple[str, Case]]]] = {
    "multi_head_attention": _mha_probes,
    "decode_step": _layer_probes,
    "generate_cached": _layer_probes,
    "generate_naive": _layer_probes,
}
PROBE_EVIDENCE = {
    "divisible": ("**Shapes:** your code gets this case right once X is padded with zero columns to a width that "
                  "num_heads divides (the same attention): it seems to need D = X.shape[-1] divisible by num_heads. "
                  "The heads' widths come from the weights (d_k = W_Q.shape[-1] // num_heads), so D need not be a "
                  "multiple of num_heads."),
    "head_width": ("**Shapes:** your code gets this case right once it is rewritten so that D = H·d_k (X padded "
                   "with zero columns, the same attention): it seems to take the head width from D. The head width "
                   "is d_k = W_Q.shape[-1] // num_heads (and d_v = W_V.shape[-1] // num_heads), which need not be "
                   "D // H."),
    "value_width": ("**Shapes:** your code gets this case right once it is rewritten so that d_v = d_k (V and the "
                    "weights padded with zero columns, the same attention): it seems to assume d_v = d_k. Take d_v "
                    "from V or W_V (`W_V.shape[-1]`), and size outputs by d_v, not by the query's width."),
}


PROBE_SAME_AS = {"divisible": ("mha_needs_divisible_width",), "head_width": ("mha_head_width_model",),
                 "value_width": ("mha_value_width", "needs_equal_widths")}


def probe_evidence(stored: Case, passes: Callable[[Case], bool]) -> str | None:
    """Evidence of a shape assumption on a failing case: the student's code passes the same case rewritten
    (with the same answer) so that the assumption holds. ``passes`` runs one case on the student's code."""
    probes = dict(PROBES.get(stored.function, lambda _: [])(stored))
    for kind, probe in probes.items():
        if kind == "undivided":
            continue  # the divisible probe's control
        if passes(probe):
            if kind == "divisible" and passes(probes["undivided"]):  # a wider input, not a multiple of H
                return None
            return Evidence.of(PROBE_EVIDENCE[kind], PROBE_SAME_AS[kind])
    return None
