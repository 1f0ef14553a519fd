"""How compare.py (the feedback) words and draws a problem: structural hints, excerpts, heatmaps.

Self-contained (numpy and the standard library only) and copied verbatim into the
student template next to compare.py (there attention_feedback.py), under this same name (``feedback_format.py``).
Tables and heatmaps are plain text meant for a fenced code block: monospaced on
Gradescope, unchanged in a terminal.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

import numpy as np

EXCERPT_ROWS, EXCERPT_COLS, HEATMAP_SIZE = 5, 5, 12
SHADES = " ░▒▓█"  # from the lowest value to the highest


# ----------------------------------------------------------------------------
# Structural problems: one markdown bullet (or hint) each
# ----------------------------------------------------------------------------


def describe(value: Any) -> str:
    """What a returned value is, in a few words ("None", "a list of 3 items", ...)."""
    if value is None:
        return "None (is a `return` statement missing?)"
    if isinstance(value, np.ndarray):
        return f"an array of shape {value.shape}"
    if isinstance(value, (tuple, list)):
        return f"a {type(value).__name__} of {len(value)} items"
    if np.isscalar(value):
        return f"the single number {value!r} ({type(value).__name__})"
    return f"an object of type `{type(value).__name__}`"


def shape_hint(expected: tuple, got: tuple, others: Mapping | None = None) -> str:
    """A sentence guessing why ``got`` is not ``expected`` ("" if no guess).

    ``others`` maps the names of the other items of a returned tuple to their expected
    shapes, to recognise items returned in the wrong order.
    """
    like = [n for n, s in (others or {}).items() if s == got and s != expected]
    if like:
        return f" That is the shape of `{like[0]}`: are the returned items in the wrong order?"
    if len(got) == len(expected) >= 2 and got == (*expected[:-2], expected[-1], expected[-2]):
        return " The last two axes are swapped: your result looks transposed."
    if len(got) == len(expected) and sorted(got) == sorted(expected):
        return " The same axes in a different order: check your swapaxes/transpose."
    if len(got) < len(expected) and expected[len(expected) - len(got) :] == got:
        lead = expected[: len(expected) - len(got)]
        return (
            f" The leading axes {lead} are missing: keep every leading (batch/head) axis, e.g. "
            "use np.swapaxes(K, -1, -2) rather than .T, which reverses all axes."
        )
    if len(got) > len(expected) and got[len(got) - len(expected) :] == expected:
        extra = got[: len(got) - len(expected)]
        if all(n == 1 for n in extra):
            return f" You have extra leading axes {extra}: drop them (e.g. with [0])."
        return (
            f" You have extra leading axes {extra}: something broadcast your result up to them (e.g. a mask "
            "given an axis of its own); the output keeps only the inputs' leading axes."
        )
    if tuple(n for n in got if n != 1) == tuple(n for n in expected if n != 1):
        return " They differ only by axes of length 1: check indexing like [None] or [0], or np.squeeze."
    if int(np.prod(got)) == int(np.prod(expected)):
        return " Same number of entries, arranged differently: check your reshape and the axis order."
    return ""


def dtype_problem(e: np.ndarray, a: np.ndarray) -> str | None:
    """A bullet when ``a``'s dtype cannot be compared with ``e``'s (bool vs numbers, complex, object...)."""
    ek, ak = e.dtype.kind, a.dtype.kind
    if ek == "b" and ak == "b":
        return None
    if ek == "b":
        text = f"- Expected a boolean array (dtype bool), yours has dtype {a.dtype}."
        if a.dtype.kind in "iuf" and a.shape == e.shape and np.array_equal(a != 0, e):
            text += " Its pattern (nonzero = True) is right: build it with dtype=bool or .astype(bool)."
        return text
    if ak == "b":
        return f"- Expected numbers (dtype {e.dtype}), yours is a boolean array."
    if ak == "c":
        return f"- Your array is complex (dtype {a.dtype}); the result must be real: find the complex intermediate."
    if ak == "O":
        return (
            "- Your array has dtype object (it holds Python objects, e.g. arrays of different shapes, or None): "
            "build a numeric array."
        )
    if a.dtype.kind not in "iuf":
        return f"- Your array has dtype {a.dtype}, not numbers."
    return None


def nonfinite(e: np.ndarray, a: np.ndarray) -> list[str]:
    """Bullets for NaN or inf entries of ``a`` where ``e`` has a number (count and first index)."""
    nan_why = "NaN comes from inf - inf, inf/inf or 0/0, e.g. exp() overflowing or a slice that is all -inf"
    inf_why = "exp() of a large number overflows to inf"
    lines = []
    for label, wrong, why in (
        ("NaN", np.isnan(a) & ~np.isnan(e), nan_why),
        ("inf", np.isinf(a) & ~(np.isinf(e) & (np.sign(a) == np.sign(e))), inf_why),
    ):
        count = int(wrong.sum())
        if count:
            first = tuple(int(i) for i in np.argwhere(wrong)[0])
            lines.append(f"- {count} {_entries(count)} {label} where a number was expected (first at {first}): {why}.")
    return lines


def _entries(count: int) -> str:
    return "entry is" if count == 1 else "entries are"


# ----------------------------------------------------------------------------
# Expected vs yours, side by side
# ----------------------------------------------------------------------------


def excerpt(expected: np.ndarray, actual: np.ndarray, bad: np.ndarray, center: tuple[int, ...]) -> str:
    """A few rows and columns around ``center``, expected | yours, differing entries marked '*'.

    Arrays of 2+ axes show the 2-D slice (last two axes) that holds ``center``; 0-D and
    1-D arrays show one row.
    """
    r, c = _last_two(center)
    e2, a2, b2 = (_slice2d(x, center) for x in (expected, actual, bad))
    rows, cols = _window(r, e2.shape[0], EXCERPT_ROWS), _window(c, e2.shape[1], EXCERPT_COLS)
    block = np.ix_(list(rows), list(cols))
    fmt = _formatter(np.concatenate([e2[block].ravel(), a2[block].ravel()]))
    cells_e = [[fmt(v) + " " for v in row] for row in e2[block]]
    cells_a = [[fmt(v) + ("*" if b else " ") for v, b in zip(ra, rb)] for ra, rb in zip(a2[block], b2[block])]
    width = max(len(s) for row in cells_e + cells_a for s in row) + 1
    heads = "".join(f"[{j}] ".rjust(width) for j in cols)
    matrix = expected.ndim >= 2
    label = max(len(f"[{i}]") for i in rows) if matrix else 0
    lines = [
        " " * label + "expected".center(len(heads)) + " | " + "yours".center(len(heads)),
        " " * label + heads + " | " + heads,
    ]
    for i, row_e, row_a in zip(rows, cells_e, cells_a):
        row_label = f"[{i}]".rjust(label) if matrix else ""
        left, right = "".join(s.rjust(width) for s in row_e), "".join(s.rjust(width) for s in row_a)
        lines.append(f"{row_label}{left} | {right}")
    span = f"rows {rows[0]}-{rows[-1]}, columns {cols[0]}-{cols[-1]}" if matrix else f"entries {cols[0]}-{cols[-1]}"
    title = f"Around index {center} ({span}{_slice_name(center, expected.ndim)}; * = differs):"
    return "\n".join([title, "```text", *(line.rstrip() for line in lines), "```"])


def heatmap(expected: np.ndarray, actual: np.ndarray, center: tuple[int, ...] = ()) -> str:
    """Expected | yours as shaded blocks, one shared scale, at most HEATMAP_SIZE x HEATMAP_SIZE.

    Shows the 2-D slice (last two axes) that holds ``center`` (the first one by default);
    larger slices are sampled evenly. NaN shows as '??', +inf/-inf as '++'/'--'.
    """
    expected, actual = np.asarray(expected, dtype=float), np.asarray(actual, dtype=float)
    center = center or (0,) * expected.ndim
    e2, a2 = _slice2d(expected, center), _slice2d(actual, center)
    rows, cols = _sample(e2.shape[0]), _sample(e2.shape[1])
    sampled = len(rows) < e2.shape[0] or len(cols) < e2.shape[1]
    e2, a2 = e2[np.ix_(rows, cols)], a2[np.ix_(rows, cols)]
    both = np.concatenate([e2.ravel(), a2.ravel()])
    finite = both[np.isfinite(both)]
    lo = min(0.0, float(finite.min())) if finite.size else 0.0
    hi = float(finite.max()) if finite.size else 1.0
    hi = hi if hi > lo else lo + 1.0

    def cell(v: float) -> str:
        if np.isnan(v):
            return "??"
        if np.isinf(v):
            return "++" if v > 0 else "--"
        level = round((v - lo) / (hi - lo) * (len(SHADES) - 1))
        return SHADES[min(max(level, 0), len(SHADES) - 1)] * 2

    label = max((len(str(i)) for i in rows), default=1)
    width = max(2 * len(cols), len("expected"))
    lines = [
        f"Heatmap{_slice_name(center, expected.ndim)}: rows = queries, columns = keys"
        f"{' (sampled evenly)' if sampled else ''}; ' ' = {lo:.3g} ... '█' = {hi:.3g}:",
        "```text",
        " " * (label + 1) + "expected".ljust(width) + " | yours",
    ]
    for i, row_e, row_a in zip(rows, e2, a2):
        lines.append(f"{i:>{label}} " + "".join(map(cell, row_e)).ljust(width) + " | " + "".join(map(cell, row_a)))
    return "\n".join([*(line.rstrip() for line in lines), "```"])


def _last_two(center: tuple[int, ...]) -> tuple[int, int]:
    padded = (0, 0, *center)
    return padded[-2], padded[-1]


def _slice2d(x: np.ndarray, center: tuple[int, ...]) -> np.ndarray:
    """The 2-D slice (last two axes) holding ``center``; 0-D and 1-D arrays become one row."""
    if x.ndim < 2:
        return x.reshape(1, -1)
    return x[tuple(center[:-2])]


def _slice_name(center: tuple[int, ...], ndim: int) -> str:
    return f" of slice [{', '.join(map(str, center[:-2]))}, :, :]" if ndim > 2 else ""


def _window(center: int, size: int, width: int) -> range:
    start = min(max(center - width // 2, 0), max(size - width, 0))
    return range(start, min(start + width, size))


def _sample(size: int) -> list[int]:
    if size <= HEATMAP_SIZE:
        return list(range(size))
    return sorted({round(i * (size - 1) / (HEATMAP_SIZE - 1)) for i in range(HEATMAP_SIZE)})


def _formatter(values: np.ndarray) -> Callable[[object], str]:
    """One fixed precision per excerpt: 6 decimals, or scientific when every value is huge or tiny."""
    if values.dtype.kind == "b":
        return lambda v: "True" if v else "False"
    magnitudes = np.abs(values[np.isfinite(values)].astype(float))
    if magnitudes.size and (magnitudes.max() >= 1e4 or 0 < magnitudes.max() < 1e-3):
        return lambda v: f"{float(v):.4e}"
    return lambda v: f"{float(v):.6f}"
