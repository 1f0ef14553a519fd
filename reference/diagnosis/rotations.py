"""What a student's RoPE did, read off its output: which pairs it rotated, by which angles, and what those
angles are made of.

Each pair of coordinates that the output keeps at the same length was rotated; the angle of
each pair of each row follows from the input and the output (``atan2``). RoPE's angles are
``position[n] * theta[i]``: the angles are fitted, modulo 2 pi, to each pairing (interleaved
(2i, 2i+1) or split halves (i, i + d/2)), direction, position rule (the given positions, 0..N-1,
an offset then 0..N-1, whole positions, one more) and frequency rule (base**(-2i/d) and its
usual slips). A name is given only for a fit that explains every angle; a part of the width left
as it was is partial rotary.
"""

from __future__ import annotations

import functools
import inspect
from collections.abc import Callable
from itertools import product
from typing import Any

import numpy as np

from autograder.api import Case, StudentError, compare, matches

from ..generated import oracle
from . import masks

Found = tuple[Any, str] | None
ANGLE_TOLERANCE = 1e-6  # radians: a fit explains an angle when it is this close, modulo 2 pi


def read(stored: Case, actual: Any, probe: Callable[[np.ndarray], Any] | None = None) -> Found:
    """The RoPE mistakes the output's rotations show (partial rotary, pairing, direction, positions, frequencies, how
    the rotated pairs are written), read past any leading axes of length 1 the output added (extra_leading_axes).
    Where two as simple explanations give these angles (an integer offset read from positions[0] = 0.5 is 0..N-1),
    ``probe`` (the student's output for the case's x at other positions) is asked at positions shifted by
    ``SHIFT``, where they differ, and read again; without it, or when that does not settle them, nothing is named."""
    x = np.asarray(stored.inputs["x"], float)
    positions = np.asarray(stored.inputs["positions"], float)
    base = float(stored.inputs.get("base", 10000.0))
    if not isinstance(actual, np.ndarray) or actual.dtype.kind not in "fiu" or x.ndim < 2 or x.shape[-1] % 2:
        return None
    added = ()
    if (squeezed := masks.without_extra_axes(x, actual)) is not None:  # read as if the axes were not there
        added, actual = actual.shape[: actual.ndim - x.ndim], squeezed  # and named with what they show
    if actual.shape != x.shape:
        return None
    with np.errstate(all="ignore"):
        actual = np.asarray(actual, float)
        found = _partial(x, actual, positions, base) or _angles(x, actual, positions, base) or _written(
            x, actual, positions, base)
    if found is TIE:  # read again at other positions, in full (its added axes with it)
        return _settled(stored, x, positions, base, probe)
    if found is None or not added:
        return found
    mistakes = found[0] if isinstance(found[0], tuple) else (found[0],)
    return (*mistakes, "extra_leading_axes"), f"{found[1]}, with extra leading axes {added}"


TIE = ("", "")  # a fit to angles two as simple explanations give: ``read`` settles it by a probe, or names nothing
SHIFT = 3.0  # the probe's positions: the case's plus this (a whole start position no longer 0)


def _settled(stored: Case, x: np.ndarray, positions: np.ndarray, base: float,
             probe: Callable[[np.ndarray], Any] | None) -> Found:
    """The tied reading settled by the output at positions + SHIFT, read again (one probe call); None when that
    reading is tied too, or there is no probe."""
    if probe is None:
        return None
    moved = positions + SHIFT
    try:
        again = probe(moved)
    except (StudentError, ValueError, TypeError, IndexError):  # refused, or raised: nothing to settle it by
        return None
    with np.errstate(all="ignore"):
        moved_case = Case(stored.id, stored.function, dict(stored.inputs, positions=moved), oracle.rope(x, moved, base))
        found = read(moved_case, again)
    if found is None or found is TIE:
        return None
    return found[0], f"{found[1]} (at positions + {SHIFT:g}, a probe: the case's own angles fit two explanations)"


def _partial(x: np.ndarray, actual: np.ndarray, positions: np.ndarray, base: float) -> Found:
    d = x.shape[-1]
    same = [np.allclose(actual[..., j], x[..., j], rtol=compare.RTOL, atol=compare.ATOL) for j in range(d)]
    width = max((j + 1 for j in range(d) if not same[j]), default=0)  # columns after the last changed one are kept
    if 0 < width < d and width % 2 == 0:
        for frequencies_over in (width, d):  # theta_i = base**(-2i/width) over the rotated part, or over all of d
            part = oracle.rope(x[..., :width], positions, base ** (width / frequencies_over))
            if matches(actual[..., :width], part):
                return "rope_partial", (f"the output rotates the first {width} of {d} dimensions and leaves the "
                                        "others as they were")
    return None


PAIRINGS: dict[str, Callable[[int], tuple[np.ndarray, np.ndarray]]] = {
    "": lambda d: (np.arange(0, d, 2), np.arange(1, d, 2)),  # the contract's (2i, 2i+1)
    "rope_half_split": lambda d: (np.arange(d // 2), np.arange(d // 2, d)),  # GPT-NeoX's (i, i + d/2)
}


def _angles(x: np.ndarray, actual: np.ndarray, positions: np.ndarray, base: float) -> Found:
    d, n = x.shape[-1], x.shape[-2]
    for pairing, pairs in PAIRINGS.items():
        first, second = pairs(d)
        a, b, a2, b2 = x[..., first], x[..., second], actual[..., first], actual[..., second]
        length, kept = a * a + b * b, a2 * a2 + b2 * b2
        if not np.allclose(length, kept, rtol=1e-6, atol=1e-9):
            continue  # not a rotation of these pairs
        angle = np.arctan2(a * b2 - b * a2, a * a2 + b * b2).reshape(-1, n, d // 2)  # (slices, N, d/2)
        known = (length > 1e-6).reshape(-1, n, d // 2)
        for named, model in _models(positions, base, d):
            if _fits(angle, known, model):
                if named is None:
                    return TIE
                mistakes = tuple(m for m in (pairing, *named) if m)
                if not mistakes:
                    return None  # the contract's rotation: something else is wrong (not a rotation's business)
                return (mistakes[0] if len(mistakes) == 1 else mistakes), (
                    "the output rotates each pair by angles that are exactly " + _describe(pairing, named))
    return None


DEFAULT_BASE = float(inspect.signature(oracle.rope).parameters["base"].default)


def _models(positions: np.ndarray, base: float, d: int) -> tuple[tuple[tuple[str, ...] | None, np.ndarray], ...]:
    """(mistakes, angles (N, d/2)) for every combination of direction, position rule and frequency rule, the
    contract's first and then the fewest changes; mistakes None for angles that two as simple combinations give.
    Made once per case (each pairing and each written layout reads the same list)."""
    return _model_list(np.asarray(positions, float).tobytes(), float(base), d)


@functools.lru_cache(maxsize=8)
def _model_list(encoded: bytes, base: float, d: int) -> tuple[tuple[tuple[str, ...] | None, np.ndarray], ...]:
    positions = np.frombuffer(encoded, dtype=float)
    n, i = len(positions), np.arange(d // 2)
    wanted = base ** (-2 * i / d)
    frequencies = {(): wanted, ("rope_wrong_freq",): base ** (-i / d),
                   ("rope_freq_off_by_one",): base ** (-2 * (i + 1) / d), ("rope_freq_sign",): base ** (2 * i / d),
                   ("rope_single_freq",): np.ones_like(wanted),
                   # tables cat(freqs, freqs) read at the even columns for the pairs (x_2i, x_2i+1): pair i turns at
                   # theta_(2i mod d/2), a rotation of the contract's pairs (at d = 4, one frequency: ambiguous)
                   ("rope_mixed_layout",): base ** (-2 * ((2 * i) % max(d // 2, 1)) / d)}
    if not np.isclose(base, DEFAULT_BASE):  # the contract's default base instead of the one given
        frequencies[("rope_base_ignored",)] = DEFAULT_BASE ** (-2 * i / d)
    rules = {(): positions, ("rope_ignores_positions",): np.arange(n, dtype=float),
             ("rope_integer_offset",): np.floor(positions[0]) + np.arange(n, dtype=float),
             ("rope_integer_positions",): np.trunc(positions)}
    steps = {**rules, **{(*rule, "rope_position_off_by_one"): at + 1 for rule, at in rules.items()}}  # or one more
    combos: list[tuple[tuple[str, ...], np.ndarray]] = []
    for direction, sign in (((), 1.0), (("rope_wrong_direction",), -1.0)):
        for rule, at in steps.items():
            for slip, theta in frequencies.items():
                combos.append(((*direction, *rule, *slip), sign * np.outer(at, theta)))
    combos.sort(key=lambda c: len(c[0]))
    keys = [np.round(model, 9).tobytes() for _, model in combos]  # the same angles: the same key
    simplest: dict[bytes, list[tuple[str, ...]]] = {}  # the simplest explanations of each set of angles
    for (named, _), key in zip(combos, keys):
        found = simplest.setdefault(key, [named])
        if named not in found and len(named) == len(found[0]):
            found.append(named)
    models, seen = [], set()
    for (named, model), key in zip(combos, keys):
        if key in seen:  # the same angles as a simpler explanation (e.g. whole positions given)
            continue
        seen.add(key)  # as simple, two explanations of these angles (an integer offset read from positions[0] = 0.5
        model.setflags(write=False)  # shared by every reading of the case (cached)
        models.append((named if len(simplest[key]) == 1 else None, model))  # is 0..N-1): a fit to them names neither
    return tuple(models)


def _fits(angle: np.ndarray, known: np.ndarray, model: np.ndarray) -> bool:
    off = np.angle(np.exp(1j * (angle - model[None])))  # the difference, wrapped to (-pi, pi]
    return bool(known.any() and np.all(np.abs(off[known]) < ANGLE_TOLERANCE))


TABLES: dict[str, Callable[[np.ndarray], np.ndarray]] = {  # angles (..., d/2) -> one per column (..., d)
    "pair": lambda a: np.repeat(a, 2, axis=-1),  # column j turns by pair j // 2's angle (the contract's)
    "half": lambda a: np.concatenate([a, a], axis=-1),  # column j by pair j mod d/2's (cat(freqs, freqs))
}
PARTNERS: dict[str, Callable[[np.ndarray], np.ndarray]] = {  # x -> the coordinate each column's sine multiplies
    "pair": lambda x: np.stack([-x[..., 1::2], x[..., 0::2]], axis=-1).reshape(x.shape),  # (-x_2i+1, x_2i)
    "half": lambda x: np.concatenate([-x[..., x.shape[-1] // 2:], x[..., : x.shape[-1] // 2]], axis=-1),  # rotate_half
    "mixed": lambda x: np.concatenate([-x[..., 1::2], x[..., 0::2]], axis=-1),  # the pair partners, as two halves
}
OUTPUTS: dict[str, Callable[[np.ndarray], np.ndarray]] = {
    "": lambda y: y,
    "rope_output_halves": lambda y: np.concatenate([y[..., 0::2], y[..., 1::2]], axis=-1),  # pair i to (i, i + d/2)
}


def _written(x: np.ndarray, actual: np.ndarray, positions: np.ndarray, base: float) -> Found:
    """RoPE written as ``x * cos + partners(x) * sin`` with its cos/sin tables, its partner coordinates and where it
    puts the results in layouts that do not agree (``_angles`` reads the two that do: the contract's pairs and the
    split halves): every combination with every angle model, named when it reproduces the output exactly; when
    several do, only the mistakes they all share (two explanations of one output are never picked between)."""
    d = x.shape[-1]
    models = _models(positions, base, d)
    partnered = {partner: make(x) for partner, make in PARTNERS.items()}  # each computed once, not per model
    angles = [np.broadcast_to(model, (*x.shape[:-1], d // 2)) for _, model in models]
    waves = {table: [(np.cos(a), np.sin(a)) for a in map(spread, angles)] for table, spread in TABLES.items()}
    hits: list[tuple[tuple[str, ...], str]] = []
    for table, partner, (output, written) in product(TABLES, PARTNERS, OUTPUTS.items()):
        agree = (table, partner) in (("pair", "pair"), ("half", "half"))
        if agree and not output:
            continue  # a rotation of pairs: _angles' (any angles, fitted)
        layout = () if agree else ("rope_mixed_layout",)
        layout += ("rope_half_split",) * (table == partner == "half")
        for (named, _), (cos, sin) in zip(models, waves[table]):
            if matches(actual, written(x * cos + partnered[partner] * sin)):
                if named is None:  # two explanations of these angles
                    return TIE
                how = (f"cos/sin tables by {table}, partners {PARTNER_WORDS[partner]}"
                       + (", each pair written to columns (i, i + d/2)" if output else ""))
                hits.append(((*layout, *(output,) * bool(output), *named), f"{_describe('', named)}, {how}"))
    if not hits:
        return None
    shared = [m for m in hits[0][0] if all(m in other for other, _ in hits[1:])]
    if not shared:
        return None
    return (shared[0] if len(shared) == 1 else tuple(shared)), (
        "the output equals " + "; or ".join(how for _, how in hits))


PARTNER_WORDS = {"pair": "(-x_2i+1, x_2i)", "half": "rotate_half's (-x_i+d/2, x_i)",
                 "mixed": "cat(-x[1::2], x[0::2])"}

WORDS = {"rope_half_split": "for pairs (i, i + d/2)", "rope_wrong_direction": "turned clockwise",
         "rope_ignores_positions": "at positions 0..N-1", "rope_integer_offset": "at a whole start position + 0..N-1",
         "rope_integer_positions": "at the whole parts of the positions", "rope_position_off_by_one":
         "at positions + 1", "rope_wrong_freq": "with theta_i = base**(-i/d)", "rope_freq_off_by_one":
         "with theta_i = base**(-2(i+1)/d)", "rope_freq_sign": "with theta_i = base**(2i/d)",
         "rope_single_freq": "with one frequency for every pair",
         "rope_mixed_layout": "with pair i at theta_(2i mod d/2) (cat(freqs, freqs) tables read at the even columns)",
         "rope_base_ignored": "with the default base"}


def _describe(pairing: str, named: tuple[str, ...]) -> str:
    said = [WORDS[m] for m in (pairing, *named) if m]
    one_more = WORDS["rope_position_off_by_one"]
    if one_more in said and sum(w.startswith("at ") for w in said) > 1:  # one more than another position rule
        said = [w + " (each plus one)" if w.startswith("at ") else w for w in said if w != one_more]
    return "RoPE's " + ", ".join(said) if said else "RoPE's"
