"""Random misbehaving submissions (issue 28's fuzz, our own seeds and kinds): the reference, whose functions at
random return an odd value or raise instead of their answer, in scored calls, inside probes (while the grader serves
stand-ins) and in what they pass to the served stand-ins.

``source(seed)`` is one submission: the reference as is, then a plan drawn from ``seed`` (which functions misbehave,
when, how) and a wrapper per planned function. The same seed gives the same source.
"""

from __future__ import annotations

import random
from pathlib import Path

REFERENCE = Path(__file__).resolve().parent.parent / "reference" / "attention.py"

FUNCTIONS = ("qkv_project", "attention_scores", "softmax", "causal_mask", "scaled_dot_product_attention",
             "multi_head_attention", "rotation_matrix", "rope", "decode_step", "generate_cached", "generate_naive")

# what a misbehaving call returns instead of ``out`` (its right answer), or raises
ODD = (
    "np.full(np.shape(out), np.nan)", "np.full(np.shape(out), np.inf)", "-np.full(np.shape(out), np.inf)",
    "_first(out) * 1e308", "_first(out) * 1e-320", "_first(out).astype(np.float16)", "_first(out).astype(int)",
    "_first(out).astype(bool)", "_first(out).astype(complex)", "_first(out).astype(object)",
    "[[1.0, 2.0], [3.0]]", "[_first(out), None]", "(out, None)", "(_first(out),) * 3", "()", "(_first(out),)",
    "(v for v in [out])", "{'out': out}", "_Raises()", "_first(out).view(_Sub)", "np.zeros((700, 700))",
    "_first(out).T", "_first(out)[..., :1]", "_first(out).ravel()", "_first(out).tolist()", "float('nan')",
    "None", "'a string'", "np.array(2**70)", "_first(out)[None]", "np.empty((0,))", "np.ones((2,) * 12)",
    "_ragged(out)", "(out, out) if isinstance(out, tuple) else out",
    "raise ValueError('odd')", "raise TypeError('odd')", "raise ZeroDivisionError('odd')", "raise RecursionError",
    "_recurse(0)", "1 / 0", "np.int64(7)", "True", "np.datetime64('2020-01-01')", "1e308 ** 2",
)
WHEN = ("always", "after 1", "after 3", "after 8", "probe", "probe", "random 0.3", "random 0.7", "every 2")

LIBRARY = '''

# ---- fuzz: misbehaving wrappers (tests/fuzz_misbehaving.py) ----
import random as _random

_CALLS = {}
_RNG = _random.Random(SEED)


class _Raises:
    def __array__(self, *args, **kwargs):
        raise ValueError("no array here")

    def __len__(self):
        raise TypeError("no length")

    def __iter__(self):
        raise TypeError("no items")


class _Sub(np.ndarray):
    pass


def _first(out):
    return np.asarray(out[0] if isinstance(out, tuple) else out)


def _ragged(out):
    items = list(out) if isinstance(out, tuple) else [out]
    return [np.asarray(items[0]).tolist(), [1.0]]


def _recurse(n):
    return _recurse(n + 1) + 1


def _probing():
    """Whether the grader serves stand-ins now (a probe): a served name's code is the worker's ``served``."""
    return any(getattr(getattr(globals().get(n), "__code__", None), "co_name", "") == "served" for n in SERVED_NAMES)


SERVED_NAMES = ("qkv_project", "attention_scores", "softmax", "causal_mask", "scaled_dot_product_attention",
                "rotation_matrix", "rope", "KVCache")
ABUSE = [
    ("softmax", ([[1.0, 2.0], [3.0]],)), ("softmax", (np.full((3, 3), np.nan),)), ("attention_scores", (None, 3)),
    ("attention_scores", (np.ones((500, 1)), np.ones((500, 1)))), ("rope", (np.ones((3, 3)), [0, 1])),
    ("causal_mask", (10 ** 6,)), ("causal_mask", (-3,)), ("rotation_matrix", ("x",)), ("qkv_project", ((), (), (), ())),
    ("scaled_dot_product_attention", (np.ones((2, 2)), np.ones((3, 3)), np.ones((4, 4)))), ("KVCache", (1, 2)),
    ("softmax", (np.ones((4, 4)),), {"axis": 7}), ("softmax", (np.ones((4, 4)),), {"temperature": 0.0}),
    ("softmax", (np.ones((4, 4)),), {"nonsense": 1}), ("rope", (np.ones((2, 4)), np.ones(2)), {"base": -1.0}),
]


def _abuse():
    """Inside a probe: call served stand-ins with odd arguments (each may raise; the student's code goes on)."""
    for entry in _RNG.sample(ABUSE, 3):
        name, args, kwargs = entry[0], entry[1], (entry[2] if len(entry) > 2 else {})
        if name in globals():
            try:
                made = globals()[name](*args, **kwargs)
                if name == "KVCache":
                    made.append(np.ones((400, 400)), np.ones(3))
            except Exception:
                pass


def _fires(when, count):
    if when == "always":
        return True
    if when == "probe":
        return _probing()
    kind, _, value = when.partition(" ")
    if kind == "after":
        return count > int(value)
    if kind == "every":
        return count % int(value) == 0
    return _RNG.random() < float(value)


def _misbehave(name, fn, args, kwargs):
    _CALLS[name] = count = _CALLS.get(name, 0) + 1
    when, odd = PLAN[name]
    if _probing() and ABUSE_IN_PROBES:
        _abuse()
    if not _fires(when, count):
        return fn(*args, **kwargs)
    out = fn(*args, **kwargs)
    return ODD(odd, out)
'''


def source(seed: int) -> str:
    """The reference, then the plan of ``seed`` and a misbehaving wrapper for each planned function."""
    rng = random.Random(seed)
    planned = rng.sample(FUNCTIONS, rng.randint(1, 2))
    plan = {name: (rng.choice(WHEN), rng.choice(ODD)) for name in planned}
    abuse = rng.random() < 0.5
    odd_keys = rng.choice(ODD[:30]) if rng.random() < 0.2 else ""
    return from_plan(seed, plan, abuse=abuse, odd_keys=odd_keys)


def from_plan(seed: int, plan: dict[str, tuple[str, str]], *, abuse: bool = False, odd_keys: str = "") -> str:
    """The reference whose functions of ``plan`` (name -> (when, odd value)) misbehave; ``abuse``: inside probes,
    call the served stand-ins with odd arguments; ``odd_keys``: the cache's keys are that odd value half the time."""
    lines = [REFERENCE.read_text(), f"SEED = {seed}", LIBRARY, f"PLAN = {plan!r}", f"ABUSE_IN_PROBES = {abuse}", "",
             "", "def ODD(odd, out):"]
    for i, odd in enumerate(sorted({o for _, o in plan.values()})):
        body = odd if odd.startswith("raise") else f"return {odd}"
        lines += [f"    {'if' if i == 0 else 'elif'} odd == {odd!r}:", f"        {body}"]
    lines += ["    return out", ""]
    for name in plan:
        lines += ["", f"_ref_{name} = {name}", "", "",
                  f"def {name}(*args, **kwargs):",
                  f"    return _misbehave({name!r}, _ref_{name}, args, kwargs)", ""]
    if odd_keys:
        lines += ["", "class KVCache(KVCache):", "    @property", "    def keys(self):", "        out = super().keys",
                  f"        return {odd_keys} if _RNG.random() < 0.5 else out", ""]
    return "\n".join(lines)
