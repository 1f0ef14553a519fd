"""The probe search's rewritings of a case: the same inputs made to hold a property (no leading axes, one, two; as
many queries as keys; d_v = d_k; a mask of 0/1 numbers; whole positions; the contract's defaults given), each with the
mistake it names when it alone makes the case pass. Used by ``inference.search`` and ``crashes``."""

from __future__ import annotations

import functools
import inspect
from collections.abc import Callable, Iterator
from typing import Any

import numpy as np

from ..generated import oracle
from . import masks
from .shapes import _pad, _pad_heads, divisible_widths, model_to

ATTENTION = ("scaled_dot_product_attention", "multi_head_attention")
TOKENS = {"attention_scores": ("Q", "K"), "scaled_dot_product_attention": ("Q", "K", "V"), "qkv_project": ("X",),
          "rope": ("x",), "softmax": ("Z",), "multi_head_attention": ("X",)}

Rewriting = tuple[str, str, Callable[[dict[str, Any]], dict[str, Any]]]  # (mistake, how, rewrite)


def rewritings(function: str, named: dict[str, Any], *, defaults: bool = False) -> Iterator[Rewriting]:
    tokens = [n for n in TOKENS.get(function, ()) if isinstance(named.get(n), np.ndarray)]
    if tokens:
        lead = np.shape(named[tokens[0]])[:-2]
        for k in (2, 1, 0):
            if k != len(lead):
                mistake = {2: "needs_leading_axes", 1: "batch_first_only", 0: "no_batch_support"}[k]
                yield mistake, f"with {k} leading axes", functools.partial(_lead_to, tokens=tokens, k=k)
    if function == "scaled_dot_product_attention":
        if np.shape(named["Q"])[-2] != np.shape(named["K"])[-2]:
            yield "needs_square", "with as many queries as keys", _square
        if np.shape(named["V"])[-1] != np.shape(named["Q"])[-1]:
            yield "needs_equal_widths", "with d_v = d_k", _equal_widths
    if function == "multi_head_attention":
        yield from mha_widths(named)
    mask = named.get("mask")
    if function in ATTENTION and isinstance(mask, np.ndarray) and mask.dtype.kind == "b":
        yield "needs_float_mask", "with the mask as 0/1 numbers", lambda n: dict(n, mask=n["mask"].astype(float))
    if function == "rope":
        positions = np.asarray(named["positions"])
        if positions.dtype.kind == "f":  # whole and not negative: what indexing a table of angles needs
            yield ("rope_integer_positions", "with whole, non-negative positions as integers",
                   lambda n: dict(n, positions=np.abs(np.round(np.asarray(n["positions"]))).astype(int)))
    missing = _defaults_after(function, named) if defaults else []  # a required argument left out raises TypeError
    for k in range(1, len(missing) + 1):
        given = dict(missing[:k])
        yield ("default_required", "with " + ", ".join(f"`{n}={v!r}`" for n, v in given.items()) + " given",
               functools.partial(_given, given=given))


def given_optional(function: str, named: dict[str, Any]) -> list[tuple[str, Any, Any]]:
    """(name, value, default) of the contract's optional scalar arguments this call gives another value than their
    default (``scale=0.5``), the mask aside (its own properties say what a line may need of it)."""
    contract = getattr(oracle, function, None)
    if not callable(contract):
        return []
    found = []
    for parameter in inspect.signature(contract).parameters.values():
        value = named.get(parameter.name)
        if parameter.default is inspect.Parameter.empty or parameter.name == "mask" or value is None:
            continue
        if np.ndim(value) == 0 and not isinstance(value, np.ndarray) and value != parameter.default:
            found.append((parameter.name, value, parameter.default))
    return found


def _defaults_after(function: str, named: dict[str, Any]) -> list[tuple[str, Any]]:
    """The contract's parameters after the arguments of the call, with their defaults (while each has one)."""
    contract = getattr(oracle, function, None)
    if not callable(contract):
        return []
    parameters = list(inspect.signature(contract).parameters.values())
    if [p.name for p in parameters[:len(named)]] != list(named):
        return []
    missing = []
    for parameter in parameters[len(named):]:
        if parameter.default is inspect.Parameter.empty:
            break
        missing.append((parameter.name, parameter.default))
    return missing


def _given(named: dict[str, Any], given: dict[str, Any]) -> dict[str, Any]:
    return {**named, **given}


def _lead_to(named: dict[str, Any], tokens: list[str], k: int) -> dict[str, Any]:
    """Every token array with exactly ``k`` leading axes (a mask with leading axes cut to match)."""
    out = dict(named)
    lead = np.shape(named[tokens[0]])[:-2]
    for n in tokens:
        out[n] = _with_lead(np.asarray(named[n]), k)
    mask = named.get("mask")
    if isinstance(mask, np.ndarray) and mask.ndim > 2 and k < len(lead):
        out["mask"] = _with_lead(mask, min(k, mask.ndim - 2))
    elif isinstance(mask, np.ndarray) and mask.ndim > 2 and k > len(lead):
        raise ValueError("a per-sequence mask cannot follow new leading axes")
    return out


def _square(named: dict[str, Any]) -> dict[str, Any]:
    """The case with n_q = n_k: the last min(n_q, n_k) queries and keys, or, when that is a single one (where every
    softmax of one key gives 1, right or wrong), the shorter side extended to max(n_q, n_k) rows. The mask is written
    out in full first, a (n_k,) one too: cut to n keys it would meet the scores' query axis as well, so its shape,
    not the number of queries, could be what the rewriting changed."""
    Q, K, V = (np.asarray(named[n]) for n in ("Q", "K", "V"))
    n_q, n_k = Q.shape[-2], K.shape[-2]
    mask = named.get("mask")
    full = masks.full(mask, n_q, n_k) if isinstance(mask, np.ndarray) else None
    if min(n_q, n_k) >= 2:
        n = min(n_q, n_k)
        out = dict(named, Q=Q[..., -n:, :], K=K[..., -n:, :], V=V[..., -n:, :])
        if full is not None:
            out["mask"] = full[..., -n:, -n:]
        return out
    n = max(n_q, n_k)
    out = dict(named, Q=_extended(Q, n), K=_extended(K, n), V=_extended(V, n))
    if full is not None:
        out["mask"] = _extended(_extended(full, n, axis=-1, scaled=False), n, axis=-2, scaled=False)
    return out


def _extended(a: np.ndarray, n: int, *, axis: int = -2, scaled: bool = True) -> np.ndarray:
    """``a`` with ``n`` entries along ``axis``: its own, then again, each round scaled by another factor (so that no
    two new rows of numbers are equal)."""
    m = a.shape[axis]
    rows = np.take(a, np.arange(n) % m, axis=axis)
    if not scaled:
        return rows
    factors = 1 - 0.37 * (np.arange(n) // m)
    return rows * factors.reshape(-1, *(1,) * (-axis - 1))


def _equal_widths(named: dict[str, Any]) -> dict[str, Any]:
    V, d = np.asarray(named["V"]), np.shape(named["Q"])[-1]
    wider = np.concatenate([V, np.zeros((*V.shape[:-1], max(d - V.shape[-1], 0)))], axis=-1)[..., :d]
    return dict(named, V=wider)


def first_slices(named: dict[str, Any], tokens: list[str], k: int) -> dict[str, Any]:
    """The data ``_lead_to`` keeps for fewer leading axes (the first slices, the mask's too), at the case's own rank:
    the axes dropped there kept with length 1 (``a[:1]``), so that a call on it tells the rank from the data."""
    kept = _lead_to(named, tokens, k)
    return {n: np.reshape(a, (1,) * (np.ndim(named[n]) - np.ndim(a)) + np.shape(a)) if isinstance(a, np.ndarray)
            else a for n, a in kept.items()}


def _with_lead(a: np.ndarray, k: int) -> np.ndarray:
    """``a`` with exactly ``k`` leading axes: its first slices kept, or axes added (two different sequences each)."""
    lead = a.ndim - 2
    if lead > k:
        return a[(0,) * (lead - k)]
    for _ in range(k - lead):
        a = np.stack([a, a[..., ::-1, :] if a.shape[-2] > 1 else a])
    return a


def mha_widths(named: dict[str, Any]) -> Iterator[Rewriting]:
    """The multi-head widths a code may assume: d_v = d_k; heads that split the model width, D = num_heads * d_k
    (the model widened, or the heads narrowed to D / num_heads)."""
    H = int(named["num_heads"])
    D, d_k, d_v = np.shape(named["X"])[-1], np.shape(named["W_Q"])[-1] // H, np.shape(named["W_V"])[-1] // H
    if d_v != d_k:
        yield "mha_value_width", "with d_v = d_k", values_as_wide
    if D % H:  # before D = num_heads * d_k, which makes D a multiple of num_heads too
        wide = divisible_widths(named)[0]
        yield ("mha_needs_divisible_width", f"with X zero-padded to D = {wide} (a multiple of num_heads, neither "
               "num_heads * d_k nor num_heads * d_v)", functools.partial(model_to, width=wide))
    if D != H * d_k:
        yield "mha_head_width_model", "with D = num_heads * d_k", model_as_wide
        if D % H == 0 and D < H * d_k:
            yield "mha_head_width_model", f"with heads of width d_k = D / num_heads = {D // H}", keys_as_narrow


def heads_of_width(named: dict[str, Any], width: int, value_width: int) -> dict[str, Any]:
    """The same number of heads, those of W_Q and W_K ``width`` wide and those of W_V ``value_width`` wide: every
    head's columns repeated or cut to that width (W_O's rows of its values likewise)."""
    H = int(named["num_heads"])
    out = dict(named)
    for name, wide in (("W_Q", width), ("W_K", width), ("W_V", value_width)):
        W = np.asarray(named[name])
        d = W.shape[-1] // H
        out[name] = W.reshape(W.shape[0], H, d)[..., np.arange(wide) % d].reshape(W.shape[0], H * wide)
    W_O, d_v = np.asarray(named["W_O"]), np.shape(named["W_V"])[-1] // H
    out["W_O"] = W_O.reshape(H, d_v, W_O.shape[-1])[:, np.arange(value_width) % d_v].reshape(-1, W_O.shape[-1])
    return out


def values_as_wide(named: dict[str, Any]) -> dict[str, Any]:
    """W_V with H * d_k columns (cut or zero-padded per head), W_O with the matching rows."""
    H = int(named["num_heads"])
    W_V, W_O = np.asarray(named["W_V"]), np.asarray(named["W_O"])
    d_k, d_v = np.shape(named["W_Q"])[-1] // H, W_V.shape[-1] // H
    heads = W_V.reshape(W_V.shape[0], H, d_v)
    rows = W_O.reshape(H, d_v, W_O.shape[-1])
    if d_v > d_k:
        heads, rows = heads[..., :d_k], rows[:, :d_k]
    else:
        heads = np.concatenate([heads, np.zeros((W_V.shape[0], H, d_k - d_v))], axis=-1)
        rows = np.concatenate([rows, np.zeros((H, d_k - d_v, W_O.shape[-1]))], axis=1)
    return dict(named, W_V=heads.reshape(W_V.shape[0], H * d_k), W_O=rows.reshape(H * d_k, W_O.shape[-1]))


def square_weights(named: dict[str, Any], w: int | None = None) -> dict[str, Any]:
    """Every weight square, (D', D') with D' = num_heads * w, w the widest of D / num_heads (rounded up), d_k, d_v
    and D_out / num_heads (or ``w``): X's features, each head's columns, W_O's rows per head and its columns
    zero-padded."""
    H = int(named["num_heads"])
    X, W_O = np.asarray(named["X"]), np.asarray(named["W_O"])
    widths = {name: np.shape(named[name])[-1] // H for name in ("W_Q", "W_K", "W_V")}
    w = w or square_width(named)
    side = H * w
    out = dict(named, X=_pad(X, -1, side))
    for name in widths:
        out[name] = _pad(_pad_heads(np.asarray(named[name]), H, w), 0, side)
    rows = _pad(W_O.reshape(H, widths["W_V"], W_O.shape[-1]), 1, w).reshape(side, W_O.shape[-1])
    out["W_O"] = _pad(rows, -1, side)
    return out


def square_width(named: dict[str, Any]) -> int:
    """The heads' width of ``square_weights``: the widest of D / num_heads (rounded up), d_k, d_v, D_out / num_heads."""
    H = int(named["num_heads"])
    return max(-(-np.shape(named["X"])[-1] // H), *(np.shape(named[n])[-1] // H for n in ("W_Q", "W_K", "W_V")),
               -(-np.shape(named["W_O"])[-1] // H))


def square_heads_width(named: dict[str, Any]) -> int:
    """The heads' width of ``square_heads``: ``square_width``, one wider when num_heads * it is D (never D's)."""
    w = square_width(named)
    return w + (int(named["num_heads"]) * w == np.shape(named["X"])[-1])


def square_heads(named: dict[str, Any]) -> dict[str, Any]:
    """``square_weights`` but for X, kept as it is: every head and W_O of one width (``square_heads_width``), the
    projections' rows D."""
    D = np.shape(named["X"])[-1]
    out = square_weights(named, square_heads_width(named))
    return dict(out, X=named["X"], **{name: out[name][:D] for name in ("W_Q", "W_K", "W_V")})


def keys_as_narrow(named: dict[str, Any]) -> dict[str, Any]:
    """W_Q and W_K with heads of width D / num_heads (each head's first columns)."""
    H, D = int(named["num_heads"]), np.shape(named["X"])[-1]
    out = dict(named)
    for name in ("W_Q", "W_K"):
        W = np.asarray(named[name])
        out[name] = W.reshape(W.shape[0], H, -1)[..., :D // H].reshape(W.shape[0], D)
    return out


def model_as_wide(named: dict[str, Any]) -> dict[str, Any]:
    """X with num_heads * d_k features (zero-padded or cut), the projections' rows to match."""
    assert int(named["num_heads"]) > 0
    return model_to(named, np.shape(named["W_Q"])[-1])
