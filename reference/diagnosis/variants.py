"""The contract's attention computed otherwise: at many scales at once, or with a 0/1 pattern added to the scores.

``attend`` is the oracle's pieces (qkv_project, attention_scores, softmax) put together as the reference's
scaled dot-product and multi-head attention do, with two knobs the contract has no argument for: an additive
term, and a vector of scales (one output per scale, stacked on a new first axis), so that ``scales.fit`` can try
a whole grid of scales in one evaluation.

Real code often adds a mask to the scores instead of hiding keys: the boolean mask it was given (True counts
as 1), or a causal pattern of its own written as 0/1 (``triu(ones, 1)``), added after the scaling or before it.
``added`` lists those attentions for a case's inputs, each with the mistakes it shows, so that a probe can tell
whether a wrong output is one of them (``inference.answer_for``).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import numpy as np

from ..generated import oracle

Answer = tuple[tuple[str, ...], str, Any]  # (mistakes, how, the contract's output for them)


def asked(function: str, inputs: dict[str, Any]) -> float:
    """The scale the contract applies on these inputs."""
    if function == "multi_head_attention":
        return 1 / np.sqrt(np.shape(inputs["W_Q"])[-1] // int(inputs["num_heads"]))
    given = inputs.get("scale")
    return float(given) if given is not None else 1 / np.sqrt(np.shape(inputs["Q"])[-1])


def added(function: str, inputs: dict[str, Any], n_q: int, n_k: int) -> Iterator[Answer]:
    """Attention with the given boolean mask added as 0/1 numbers instead of applied; or with the causal pattern
    (or its complement) added, the given mask then applied as well, or not (ignored)."""
    mask = inputs.get("mask")
    causal = oracle.causal_mask(n_q, n_k)
    patterns: list[tuple[str, np.ndarray]] = []
    if isinstance(mask, np.ndarray) and mask.dtype.kind == "b":
        patterns.append(("the boolean mask", mask))
    patterns += [("a causal pattern", causal), ("the complement of a causal pattern", ~causal)]
    scale = asked(function, inputs)
    for what, pattern in patterns:
        for applied in ((None,) if pattern is mask or mask is None else (mask, None)):  # the mask added, not applied
            ignored = ("mask_ignored",) if mask is not None and applied is None and pattern is not mask else ()
            for factor, when in ((1.0, "after"), (scale, "before")):
                how = f"with {what} added to the scores as 0/1 ({when} the scaling)" + (
                    ", the mask given otherwise ignored" if ignored else "")
                try:
                    with np.errstate(all="ignore"):
                        output = attend(function, inputs, scale, bias=pattern.astype(float) * factor, mask=applied)
                except (ValueError, TypeError, IndexError):
                    continue
                yield ("mask_bool_added", *ignored), how, output


def attend(function: str, inputs: dict[str, Any], scale: float | np.ndarray, *, bias: Any = 0.0,
           mask: Any = None) -> Any:
    """The contract's attention (``function``) with scores scaled by ``scale``, ``bias`` added to them and ``mask``
    applied. A 1-D array of scales gives one output per scale, stacked on a new first axis."""
    scale = np.asarray(scale, dtype=float)
    if function == "scaled_dot_product_attention":
        return _attention(inputs["Q"], inputs["K"], inputs["V"], scale, np.asarray(bias, dtype=float), mask)
    H = int(inputs["num_heads"])

    def split_heads(M: np.ndarray) -> np.ndarray:  # (..., N, H*d) -> (..., H, N, d)
        return np.swapaxes(M.reshape(*M.shape[:-1], H, -1), -2, -3)

    Q, K, V = (split_heads(M) for M in oracle.qkv_project(inputs["X"], inputs["W_Q"], inputs["W_K"], inputs["W_V"]))
    n = np.shape(inputs["X"])[-2]

    def shared_by_heads(a: np.ndarray) -> np.ndarray:  # (..., N, N) -> (..., 1, N, N), as the reference's mask
        return np.broadcast_to(a, (*a.shape[:-2], n, n))[..., None, :, :]

    bias = np.asarray(bias, dtype=float)
    heads, _ = _attention(Q, K, V, scale, shared_by_heads(bias) if bias.ndim >= 2 else bias,
                          None if mask is None else shared_by_heads(np.asarray(mask)))
    concat = np.swapaxes(heads, -2, -3)
    return concat.reshape(*concat.shape[:-2], -1) @ inputs["W_O"]


def _attention(Q: Any, K: Any, V: Any, scale: np.ndarray, bias: np.ndarray, mask: Any) -> tuple[np.ndarray, np.ndarray]:
    scores = oracle.attention_scores(Q, K)
    if scale.ndim:  # one set of scores per scale, on a new first axis
        scores = scores[None] * scale.reshape(-1, *(1,) * scores.ndim)
    else:
        scores = scores * scale
    scores = scores + bias
    if mask is not None:
        scores = np.where(mask, scores, -np.inf)
    weights = oracle.softmax(scores, axis=-1)
    return weights @ V, weights
