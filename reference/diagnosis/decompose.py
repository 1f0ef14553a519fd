"""Several mistakes at once, read off one output of multi-head attention.

The contract's multi-head attention with its knobs turned: the mask given, ignored, or a causal one of the code's
own; num_heads heads, or one head over the full width (heads_not_split); W_O applied or not
(no_output_projection); each combination at the contract's scale, or at the scale fitted to the output
(``scales.fit``, named by ``scales.named_for``), with any leading axis of length 1 the code added and kept
(extra_leading_axes). Nothing of the student's runs again: every candidate is the
oracle's, on the case's own inputs.

A combination is named only when it reproduces the output exactly. When several do and name different
mistakes, only the mistakes they all share are named (none when they share none): two explanations of one
output are never picked between.
"""

from __future__ import annotations

from itertools import product
from typing import Any

import numpy as np

from autograder.api import Case, matches

from ..generated import oracle
from . import inference, scales

Found = tuple[Any, str] | None


def multi_head(stored: Case, actual: Any) -> Found:
    """The mistakes whose combination alone reproduces ``actual`` on this multi-head case, or None."""
    named = inference._plain_arguments(stored) if stored.function == "multi_head_attention" else None
    if named is None or not isinstance(actual, np.ndarray) or not np.isfinite(actual).all():
        return None
    extra: tuple[str, ...] = ()
    while actual.ndim > np.ndim(stored.expected) and actual.shape[0] == 1:  # a leading axis of its own, kept
        actual, extra = actual[0], ("extra_leading_axes",)
    H, n = int(named["num_heads"]), np.shape(named["X"])[-2]
    mask = named.get("mask")
    masks: list[tuple[tuple[str, ...], str, Any]] = [((), "", mask)]
    if mask is not None:
        masks.append((("mask_ignored",), "without the mask", None))
    masks.append((("always_causal",), "with a causal mask of its own", oracle.causal_mask(n)))
    heads = [((), "", H)] + ([(("heads_not_split",), "as one head over the full width", 1)] if H > 1 else [])
    width = np.shape(named["W_V"])[-1]
    projections = [((), "", named["W_O"]), (("no_output_projection",), "without W_O", np.eye(width))]
    candidates = []
    for (m1, h1, one), (m2, h2, heads_), (m3, h3, W_O) in product(masks, heads, projections):
        if m1 or m2 or m3:
            how = ", ".join(h for h in (h2, h1, h3) if h)
            candidates.append(((*m2, *m3, *m1), how, dict(named, mask=one, num_heads=heads_, W_O=W_O)))
    hits: list[tuple[tuple[str, ...], str]] = []
    with scales.budget(fits=len(candidates), probes=0):  # the oracle's own attention: no call of the student's
        for mistakes, how, inputs in candidates:
            try:
                with np.errstate(all="ignore"):
                    expected = oracle.multi_head_attention(**inputs)
            except (ValueError, IndexError):
                continue
            if np.shape(expected) != actual.shape:
                continue
            if matches(actual, expected):
                hits.append(((*mistakes, *extra), how))
            elif (c := scales.fit("multi_head_attention", inputs, actual)) is not None:
                # named against the case's own heads and widths (one head over the full width may scale by
                # 1/sqrt(d_k) of the case all the same); "another constant" beside other mistakes says little, and
                # may be two readings of one value (on one head, 1/sqrt(D) is also 1/sqrt(D / H)): not named then
                scale = scales.named_for("multi_head_attention", named, c)
                scale = (scale,) if scale and not (scale == "scale_other" and mistakes) else ()
                hits.append(((*mistakes, *scale, *extra), f"{how}, its scores scaled by {c:.6g}"))
    if not hits:
        return None
    shared = [m for m in hits[0][0] if all(m in other for other, _ in hits[1:])]
    if not shared:
        return None
    hows = "; or ".join(how for _, how in hits)
    return (shared[0] if len(shared) == 1 else tuple(shared)), f"the output equals the contract's answer {hows}"
