"""Random-shape graded cases: every contract function on shapes drawn by a seeded generator (dev-time only).

Real code fails mostly through silent shape assumptions (a 3-D batch-first input, head
width D//H, d_k = d_v, a square mask, a fixed number of leading axes, N > 1), and a
hand-picked shape can happen to satisfy one. So each contract function gets CASES cases
whose shapes are drawn, not chosen:

  * sequence lengths 1..12, with n_q != n_k wherever the function allows it;
  * widths 1..16 (2..16 and even for RoPE), with d_k != d_v;
  * 1..6 heads, W_Q's width H*d_k a multiple of the head count but never D;
  * 0..3 leading batch/head axes (case i has i % 4 of them, each of length 1..3);
  * masks of every rank a mask broadcastable to (..., N_q, N_k) can have (1 = a key
    mask shared by every query, up to the full (..., N_q, N_k)), each axis either
    full or 1. For multi_head_attention the contract gives the mask to every head
    as it is, so it is broadcastable to X's leading axes + (N, N): a per-sequence
    mask of a batch is (B, N, N), never (B, 1, N, N) (that would broadcast against
    the batch axes of X, not against a head axis the contract does not have);
  * RoPE with even d 2..16, real positions (multiples of 1/8, negative too), several bases, one case of one token;
  * KV caches holding 0..10 earlier tokens, and appends of single tokens and blocks.

Every mask row keeps at least one key, so these cases test shapes, not the fully
masked row (which has its own hidden tests). Values are of order 1 (weights scaled by
1/sqrt(fan-in), positions and temperatures exact in float32), so a correct float32
solution stays within the tolerance (see ``graded_cases``).

Case ``random-<name>-<i>`` (i = 1..CASES) is drawn with ``np.random.default_rng(seed)``, the seed
derived from its id (``cases.case_seed("graded", id)``), so more cases, or another spec, change
no drawn case; the seed is stored in the case and the manifest, and its description names the
drawn shapes. ``regen`` stores them like every other case. To rerun one on a submission:
``load_cases("autograder/suite/cases/graded.npz")["random-mha-3"].inputs`` (or draw it again:
``mha(np.random.default_rng(case_seed("graded", "random-mha-3")), 2)``).
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from autograder.devapi import Case, case_seed, make_case

from .variants import extra_variants, with_extra_mistakes

Inputs = dict[str, object]
Drawn = tuple[str, Inputs]  # (description of the drawn shapes, inputs)
CASES = 6
MAX_N = 12
MAX_WIDTH = 16
BASES = (10.0, 100.0, 500.0, 10000.0)
SET = "graded"  # stored with the graded cases: the salt of their seeds (cases.case_seed)


# ---------------------------------------------------------------------------------------------------------
# Drawing shapes and values
# ---------------------------------------------------------------------------------------------------------


def _int(rng: np.random.Generator, low: int, high: int) -> int:
    """A uniform integer in [low, high] (both included)."""
    return int(rng.integers(low, high + 1))


def _lead(rng: np.random.Generator, i: int) -> tuple[int, ...]:
    """Case i's leading batch/head axes: i % 4 of them, each of length 1..3."""
    return tuple(_int(rng, 1, 3) for _ in range(i % 4))


def _two(rng: np.random.Generator, low: int, high: int, *, even: bool = False) -> tuple[int, int]:
    """Two different integers in [low, high] (even ones if asked): n_q != n_k, d_k != d_v."""
    choices = np.arange(low, high + 1)
    if even:
        choices = choices[choices % 2 == 0]
    a, b = rng.choice(choices, size=2, replace=False)
    return int(a), int(b)


def _n(rng: np.random.Generator, *shape: int, scale: float = 1.0) -> np.ndarray:
    return scale * rng.standard_normal(shape)


def _w(rng: np.random.Generator, fan_in: int, width: int) -> np.ndarray:
    """A weight matrix (fan_in, width) whose products with order-1 rows stay of order 1."""
    return _n(rng, fan_in, width, scale=1.0 / np.sqrt(fan_in))


def _mask(rng: np.random.Generator, full: tuple[int, ...], rank: int, *, squeeze: bool = True) -> np.ndarray:
    """A boolean mask of ``rank`` axes broadcastable to ``full`` (..., N_q, N_k); every row keeps a key.

    With ``squeeze``, each axis but the last (the keys) is either full or 1 at random.
    """
    shape = tuple(n if (k == len(full) - 1 or not squeeze or rng.random() < 0.5) else 1
                  for k, n in enumerate(full))[len(full) - rank:]
    mask = rng.random(shape) < 0.6
    keep = rng.integers(0, shape[-1], size=shape[:-1])
    np.put_along_axis(mask, keep[..., None], True, axis=-1)
    return mask


def _positions(rng: np.random.Generator, n: int) -> np.ndarray:
    """n real positions, multiples of 1/8 in [-4, 24) (exact in float32), in no particular order."""
    return rng.integers(-32, 192, size=n) / 8.0


def _shape(a: object) -> str:
    return str(np.shape(a))


def _lead_words(lead: tuple[int, ...]) -> str:
    if not lead:
        return "no leading axes"
    return f"1 leading axis {lead}" if len(lead) == 1 else f"{len(lead)} leading axes {lead}"


def _layer(rng: np.random.Generator, D: int, d_k: int, d_v: int) -> Inputs:
    return {"layer.W_Q": _w(rng, D, d_k), "layer.W_K": _w(rng, D, d_k), "layer.W_V": _w(rng, D, d_v)}


def _rope_widths(rng: np.random.Generator, rope: bool) -> tuple[int, int]:
    """(d_k, d_v), d_k != d_v; d_k even (2..16) with RoPE."""
    if not rope:
        return _two(rng, 1, MAX_WIDTH)
    d_k = 2 * _int(rng, 1, MAX_WIDTH // 2)
    d_v = int(rng.choice([d for d in range(1, MAX_WIDTH + 1) if d != d_k]))
    return d_k, d_v


# ---------------------------------------------------------------------------------------------------------
# One drawer per contract function: case i (from 0) of CASES, drawn with its own generator
# ---------------------------------------------------------------------------------------------------------


def qkv(rng: np.random.Generator, i: int) -> Drawn:
    lead, N, D = _lead(rng, i), _int(rng, 1, MAX_N), _int(rng, 1, MAX_WIDTH)
    d_k, d_v = _two(rng, 1, MAX_WIDTH)
    X = _n(rng, *lead, N, D)
    inputs = {"X": X, "W_Q": _w(rng, D, d_k), "W_K": _w(rng, D, d_k), "W_V": _w(rng, D, d_v)}
    return f"X {_shape(X)} ({_lead_words(lead)}), N = {N}, D = {D}, d_k = {d_k}, d_v = {d_v}", inputs


def scores(rng: np.random.Generator, i: int) -> Drawn:
    lead, (n_q, n_k), d = _lead(rng, i), _two(rng, 1, MAX_N), _int(rng, 1, MAX_WIDTH)
    Q, K = _n(rng, *lead, n_q, d, scale=d ** -0.25), _n(rng, *lead, n_k, d, scale=d ** -0.25)
    return f"Q {_shape(Q)}, K {_shape(K)} ({_lead_words(lead)}), n_q = {n_q}, n_k = {n_k}, d_k = {d}", {"Q": Q, "K": K}


def softmax(rng: np.random.Generator, i: int) -> Drawn:
    Z = _n(rng, *_lead(rng, i), _int(rng, 1, MAX_N), scale=2.0)
    axis = _int(rng, -Z.ndim, Z.ndim - 1)
    temperature = float(rng.choice([0.25, 0.5, 1.0, 1.5, 2.0, 4.0]))
    return f"Z {_shape(Z)} along axis={axis} at T = {temperature:g}", {"Z": Z, "axis": axis, "temperature": temperature}


def causal(rng: np.random.Generator, i: int) -> Drawn:
    n_q, n_k = _two(rng, 1, MAX_N)
    if i % 3 == 2:  # n_k left at its default
        return f"{n_q} queries, n_k left at its default", {"n_q": n_q}
    return f"{n_q} queries over {n_k} keys", {"n_q": n_q, "n_k": n_k}


# SDPA: case i's mask rank (None: no mask), each at most its number of leading axes (i % 4) + 2.
SDPA_MASK_RANKS = (None, 3, 4, 5, 1, 2)


def sdpa(rng: np.random.Generator, i: int) -> Drawn:
    lead, (n_q, n_k) = _lead(rng, i), _two(rng, 1, MAX_N)
    d_k, d_v = _two(rng, 1, MAX_WIDTH)
    Q, K = _n(rng, *lead, n_q, d_k, scale=d_k ** -0.25), _n(rng, *lead, n_k, d_k, scale=d_k ** -0.25)
    inputs: Inputs = {"Q": Q, "K": K, "V": _n(rng, *lead, n_k, d_v)}
    words = f"Q {_shape(Q)} ({_lead_words(lead)}), n_q = {n_q}, n_k = {n_k}, d_k = {d_k}, d_v = {d_v}"
    rank = SDPA_MASK_RANKS[i % len(SDPA_MASK_RANKS)]
    inputs["mask"] = None if rank is None else _mask(rng, (*lead, n_q, n_k), rank)
    words += ", no mask" if rank is None else f", a mask of shape {_shape(inputs['mask'])}"
    if i % 2:
        inputs["scale"] = float(rng.choice([0.25, 0.5, 2.0]))
        words += f", scale = {inputs['scale']:g}"
    return words, inputs


# MHA: case i's mask rank (None: no mask), each at most its number of leading axes (i % 4) + 2; case 5's
# is one mask per sequence of the batch, (B, N, N), every axis full.
MHA_MASK_RANKS = (2, None, 4, 5, 1, 3)


def mha(rng: np.random.Generator, i: int) -> Drawn:
    lead, N, D = _lead(rng, i), _int(rng, 1, MAX_N), _int(rng, 1, MAX_WIDTH)
    H = _int(rng, 1, 6)
    d_k, d_v = _two(rng, 1, max(2, MAX_WIDTH // H))
    while H * d_k == D:  # W_Q's width is a multiple of H but not D: the head width is not D // H
        D = _int(rng, 1, MAX_WIDTH)
    D_out = _int(rng, 1, MAX_WIDTH)
    X = _n(rng, *lead, N, D)
    inputs: Inputs = {"X": X, "W_Q": _w(rng, D, H * d_k), "W_K": _w(rng, D, H * d_k), "W_V": _w(rng, D, H * d_v),
                      "W_O": _w(rng, H * d_v, D_out), "num_heads": H}
    rank = MHA_MASK_RANKS[i % len(MHA_MASK_RANKS)]
    inputs["mask"] = None if rank is None else _mask(rng, (*lead, N, N), rank, squeeze=i % len(MHA_MASK_RANKS) != 5)
    words = (f"X {_shape(X)} ({_lead_words(lead)}), {H} head{'s' if H > 1 else ''} of d_k = {d_k}, d_v = {d_v} "
             f"(W_Q {_shape(inputs['W_Q'])}, W_V {_shape(inputs['W_V'])}), D_out = {D_out}")
    return words + (", no mask" if rank is None else f", a mask of shape {_shape(inputs['mask'])}"), inputs


def rotation(rng: np.random.Generator, i: int) -> Drawn:
    angle = float(rng.uniform(-4 * np.pi, 4 * np.pi))
    return f"angle {angle:.4f} radians", {"angle": angle}


ONE_TOKEN_ROPE = 4  # the rope case drawn with a single token, whatever the draw


def rope(rng: np.random.Generator, i: int) -> Drawn:
    lead, N, d = _lead(rng, i), _int(rng, 1, MAX_N), 2 * _int(rng, 1, MAX_WIDTH // 2)
    if i == ONE_TOKEN_ROPE:  # one token (decoding): a shape code written for N > 1 can miss
        N = 1
    x = _n(rng, *lead, N, d)
    inputs: Inputs = {"x": x, "positions": _positions(rng, N)}
    words = f"x {_shape(x)} ({_lead_words(lead)}), d = {d}, real positions"
    if i % 3:
        inputs["base"] = float(rng.choice(BASES))
        return words + f", base {inputs['base']:g}", inputs
    return words + ", default base", inputs


def kv_cache(rng: np.random.Generator, i: int) -> Drawn:
    d_k, d_v = _two(rng, 1, MAX_WIDTH)
    rows = [None if rng.random() < 0.4 else _int(rng, 1, 5) for _ in range(_int(rng, 1, 6))]
    ks = tuple(_n(rng, d_k) if t is None else _n(rng, t, d_k) for t in rows)
    vs = tuple(_n(rng, d_v) if t is None else _n(rng, t, d_v) for t in rows)
    appends = ", ".join("1 token" if t is None else f"a block of {t}" for t in rows)
    return f"appends: {appends} (d_k = {d_k}, d_v = {d_v})", {"k": ks, "v": vs}


def decode(rng: np.random.Generator, i: int) -> Drawn:
    use_rope = i % 2 == 1
    D, (d_k, d_v), cached = _int(rng, 1, MAX_WIDTH), _rope_widths(rng, use_rope), _int(rng, 0, 10)
    base = float(rng.choice(BASES)) if use_rope else None
    keys = _n(rng, cached, d_k)
    if base is not None and cached:  # a correct cache holds keys rotated at positions 0..cached-1
        from ..attention import rope as reference_rope

        keys = reference_rope(keys, np.arange(cached, dtype=float), base=base)
    inputs: Inputs = {**_layer(rng, D, d_k, d_v), "x": _n(rng, D), "cache.keys": keys,
                      "cache.values": _n(rng, cached, d_v)}
    words = f"a cache of {cached} earlier token{'' if cached == 1 else 's'}; D = {D}, d_k = {d_k}, d_v = {d_v}"
    if base is None:
        return words, inputs
    return words + f", RoPE base {base:g} at position {cached}", {**inputs, "rope_base": base}


def _generate(max_n: int, shortest: int = 1) -> Callable[[np.random.Generator, int], Drawn]:
    def draw(rng: np.random.Generator, i: int) -> Drawn:
        use_rope = i % 2 == 1
        D, (d_k, d_v), N = _int(rng, 1, MAX_WIDTH), _rope_widths(rng, use_rope), _int(rng, shortest, max_n)
        inputs: Inputs = {**_layer(rng, D, d_k, d_v), "X": _n(rng, N, D)}
        words = f"{N} token{'s' if N > 1 else ''}; D = {D}, d_k = {d_k}, d_v = {d_v}"
        if not use_rope:
            return words, inputs
        base = float(rng.choice(BASES))
        return words + f", RoPE base {base:g}", {**inputs, "rope_base": base}

    return draw


# (case id prefix, contract function, drawer). Case random-<prefix>-<i> draws with the seed of its id.
RandomSpec = tuple[str, str, Callable[[np.random.Generator, int], Drawn]]
RANDOM_SPECS: list[RandomSpec] = [
    ("qkv", "qkv_project", qkv),
    ("scores", "attention_scores", scores),
    ("softmax", "softmax", softmax),
    ("mask", "causal_mask", causal),
    ("sdpa", "scaled_dot_product_attention", sdpa),
    ("mha", "multi_head_attention", mha),
    ("rotation", "rotation_matrix", rotation),
    ("rope", "rope", rope),
    ("kv", "KVCache", kv_cache),
    ("decode", "decode_step", decode),
    ("cached", "generate_cached", _generate(MAX_N)),
    ("naive", "generate_naive", _generate(10, shortest=2)),  # N = 1: naive-one
]


def random_case_ids(prefix: str) -> list[str]:
    """The ids of one spec's cases: random-<prefix>-1 .. random-<prefix>-CASES."""
    return [f"random-{prefix}-{i}" for i in range(1, CASES + 1)]


def build_cases() -> list[Case]:
    """Every random-shape case, spec by spec, each drawn with its own seed (recorded in the case)."""
    cases, extra = [], extra_variants()
    for prefix, function, draw in RANDOM_SPECS:
        for i, case_id in enumerate(random_case_ids(prefix)):
            seed = case_seed(SET, case_id)
            words, inputs = draw(np.random.default_rng(seed), i)
            description = f"random shapes (seed {seed}): {words}"
            case = make_case(case_id, function, inputs, seed=seed, description=description)
            cases.append(with_extra_mistakes(case, extra.get(function, {})))
    return cases
