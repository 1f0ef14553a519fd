"""Part F: graded cases that need state: the grader's Layer and Cache, call counts, the student's KVCache.

decode_step and generate_* get the grader's ``Layer`` (it computes and counts every
projection; the worker never sees the weights) and, for decode_step, the grader's
correct ``Cache``; KVCache cases build the student's own cache and append to it.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

import numpy as np

from autograder.api import (
    WHERE,
    Case,
    StudentError,
    call_arguments,
    case_header,
    compare,
    crash_feedback,
    describe_call,
    error_mistake,
    error_text,
    matches,
    precision,
    probing,
    record_evidence,
    type_mistake,
    where_raised,
)

from .objects import Cache, Layer
from .scales import charged

COUNT_WORDS = {"query": "layer.query", "key": "layer.key", "value": "layer.value"}


def call_with_layer(student: Any, stored: Case) -> tuple[Any, Layer, Cache | None]:
    """Call decode_step / generate_* with a fresh grader Layer (and Cache); raises StudentError."""
    args = made([value for _, value in call_arguments(stored.inputs)])
    layer = next((a for a in args if isinstance(a, Layer)), None)
    assert layer is not None, f"case {stored.id} has no layer"
    return student.call(stored.function, *args), layer, next((a for a in args if isinstance(a, Cache)), None)


def made(values: list[Any]) -> list[Any]:
    """A case's arguments with its layer and cache (their arrays, as stored) made into fresh grader objects."""
    def one(value: Any) -> Any:
        if isinstance(value, Mapping) and "W_Q" in value:
            return Layer(value["W_Q"], value["W_K"], value["W_V"])
        if isinstance(value, Mapping) and "keys" in value:
            return Cache(value["keys"], value["values"]) if len(value["keys"]) else Cache()
        return value

    return [one(value) for value in values]


class _Making:
    """The student, whose calls get fresh grader objects for a case's layer and cache (a crash probe's rewritten
    case is a stored case's arguments: ``crash_feedback``)."""

    def __init__(self, student: Any) -> None:
        self._student = student

    def call(self, name: str, /, *args: Any) -> Any:
        return self._student.call(name, *made(list(args)))

    def call_served(self, served: Any, name: str, /, *args: Any) -> Any:
        return self._student.call_served(served, name, *made(list(args)))

    def __getattr__(self, name: str) -> Any:
        return getattr(self._student, name)


def run_with_layer(student: Any, stored: Case) -> tuple[str | None, str | None]:
    """decode_step / generate_*: outputs, the cache afterwards, and the number of projections."""
    header = case_header(stored, describe_call(stored.function, stored.inputs))
    try:
        out, layer, cache = call_with_layer(student, stored)
    except StudentError as error:  # the student's own line, and what it assumed (the engine's crash search)
        crash = crash_feedback(_Making(student), stored, dict(call_arguments(stored.inputs)), error)
        raised = error_text(stored.function, error)
        if crash is None:
            return f"{header}\n\n{raised}", error_mistake(error)
        return f"{header}\n\n{crash[0]}\n\n{raised}", crash[1] or None
    expected = stored.expected
    observed: dict[str, Any] = {"out": out}
    if cache is not None:
        observed.update({"cache.keys": cache.keys, "cache.values": cache.values})
    observed.update({f"calls.{kind}": count for kind, count in layer.counts.items()})
    problems = []
    text = compare.compare(f"{stored.function}(...)", expected["out"], out)
    if text:
        problems.append(text)
    if cache is not None and text is None:
        problems += [t for t in (
            compare.compare("cache.keys afterwards (the earlier keys, then the new token's key)",
                             expected["cache.keys"], observed["cache.keys"]),
            compare.compare("cache.values afterwards (the earlier values, then the new token's value)",
                             expected["cache.values"], observed["cache.values"]),
        ) if t]
    counts = {kind: observed[f"calls.{kind}"] for kind in COUNT_WORDS}
    wanted = {kind: int(expected[f"calls.{kind}"]) for kind in COUNT_WORDS}
    if counts != wanted:
        problems.append(count_text(stored.function, counts, wanted))
    elif (wrong_tokens := token_text(stored, layer)) is not None:
        problems.append(wrong_tokens)
    if not problems:
        return None, None
    mistake = (type_mistake(expected["out"], out) or diagnose_named(observed, expected, stored.mistakes)
               or count_mistake(stored.function, counts, wanted)
               or _rounded_out(expected, out, stored.mistakes)
               or ("low_precision" if precision.low_precision(expected["out"], out) else None)
               or _state_mistake(probing(student), stored, out))
    return f"{header}\n\n" + "\n\n".join(problems), mistake


def _rounded_out(expected: dict[str, Any], out: Any, mistakes: dict[str, Any]) -> tuple[str, ...] | None:
    """The output rounded to some decimal places (``precision.rounded``), read on ``out`` alone."""
    found = precision.rounded(expected["out"], out, {m: o.get("out") for m, o in mistakes.items()
                                                     if isinstance(o, dict)})
    return found[0] if found else None


def _state_mistake(student: Any, stored: Case, first: Any) -> str | None:
    """"shared_state" when the same call, made again with a fresh layer and cache, gives another output."""
    try:
        again, _, _ = call_with_layer(student, stored)
    except StudentError:
        return None
    return None if matches(again, first) else "shared_state"


def count_text(function: str, counts: Mapping[str, int], wanted: Mapping[str, int]) -> str:
    """What the call counts should be and what they were."""
    rows = "\n".join(
        f"| `{COUNT_WORDS[kind]}` | {wanted[kind]} | {counts[kind]}{'' if counts[kind] == wanted[kind] else ' ✗'} |"
        for kind in COUNT_WORDS
    )
    table = f"| call | expected | yours |\n| --- | --- | --- |\n{rows}"
    return f"**{function}** made the wrong number of projections:\n\n{table}"


def tokens_of(stored: Case) -> np.ndarray:
    """(N, D): the tokens the call projects (X, or decode_step's single x)."""
    inputs = stored.inputs
    return np.atleast_2d(np.asarray(inputs["X"] if "X" in inputs else inputs["x"], dtype=float))


def wanted_per_token(function: str, n: int) -> dict[str, list[int]]:
    """How often each token must be projected: once each, except generate_naive's keys and values
    (token j is recomputed at steps j..N-1, N - j times)."""
    once = [1] * n
    if function == "generate_naive":
        return {"query": once, "key": [n - j for j in range(n)], "value": [n - j for j in range(n)]}
    return {"query": once, "key": once, "value": once}


def _first_matches(inputs: list, tokens: np.ndarray) -> list[int | None]:
    """For each projected input, the index of the first token it equals (as ``np.allclose(x, token, rtol=1e-6,
    atol=1e-9)`` says), or None: one vectorised comparison for all of them (one per input cost ~0.1 s a grading)."""
    if not inputs:
        return []
    stacked = np.asarray(inputs, dtype=float)  # (M, D): the grader's Layer projects tokens of width D only
    with np.errstate(all="ignore"):
        close = (np.abs(stacked[:, None] - tokens[None]) <= 1e-9 + 1e-6 * np.abs(tokens[None])).all(axis=2)
    return [int(row.argmax()) if row.any() else None for row in close]


def token_text(stored: Case, layer: Layer) -> str | None:
    """None when every projection was of the right token the right number of times (the totals already
    match), else a table of what was projected: right totals can hide projections of made-up inputs.
    Equal tokens (a sequence may repeat one) are counted together, under the first of them."""
    tokens = tokens_of(stored)
    first = [next(i for i in range(j + 1) if np.array_equal(tokens[i], tokens[j])) for j in range(len(tokens))]
    rows = []
    for kind, word in COUNT_WORDS.items():
        wanted, seen, strangers = [0] * len(tokens), [0] * len(tokens), 0
        for j, count in enumerate(wanted_per_token(stored.function, len(tokens))[kind]):
            wanted[first[j]] += count
        for match in _first_matches(layer.inputs[kind], tokens):
            if match is not None:
                seen[first[match]] += 1
            else:
                strangers += 1
        if seen != wanted or strangers:
            extra = f"; {strangers} of other inputs" if strangers else ""
            rows.append(f"| `{word}` | {_counts(wanted)} | {_counts(seen)}{extra} ✗ |")
    if not rows:
        return None
    table = "| call | per token 0, 1, ... expected | yours |\n| --- | --- | --- |\n" + "\n".join(rows)
    return (f"**{stored.function}** made the right number of projections, but not of the right tokens "
            f"(each projection must be of a token of the input, one token per call):\n\n{table}")


def _counts(values: list[int]) -> str:
    return ", ".join(map(str, values))


def count_mistake(function: str, counts: Mapping[str, int], wanted: Mapping[str, int]) -> str | None:
    """The mistake call counts alone reveal: a cached path that recomputes, a naive path that does not,
    or each token projected twice (or three times) where once is enough."""
    kv = ("key", "value")
    if function == "generate_naive" and any(counts[k] < wanted[k] for k in kv):
        return "naive_no_recompute"
    if function not in ("generate_cached", "decode_step") or all(counts[k] <= wanted[k] for k in wanted):
        return None
    n = wanted["query"]  # tokens projected: N for generate_cached, 1 for decode_step
    repeated = all(counts[k] in (wanted[k], 2 * wanted[k], 3 * wanted[k]) for k in wanted)
    if (function == "generate_cached" and not repeated) or any(counts[k] == n * (n + 1) // 2 > n for k in kv):
        return "cache_recomputes"
    return "extra_projections"


def diagnose_named(observed: Mapping[str, Any], expected: Mapping[str, Any], mistakes: Mapping[str, Any]) -> str | None:
    """The stored mistake whose named outputs all match the observed ones; failing that, whose ``out`` does."""
    for keys in (list(expected), ["out"]):
        for mistake_id, output in mistakes.items():
            if not isinstance(output, Mapping) or not all(k in output and k in observed for k in keys):
                continue
            if keys == ["out"] and matches(output["out"], expected["out"]):
                continue
            if all(matches(observed[k], output[k]) for k in keys):
                return mistake_id
    return None


def run_kv_cache(student: Any, stored: Case) -> tuple[str | None, str | None]:
    """``KVCache()`` then each append; after every append the keys, values and len are checked."""
    expected, ks, vs = stored.expected, stored.inputs["k"], stored.inputs["v"]
    steps = ", ".join(f"append(k {np.shape(k)}, v {np.shape(v)})" for k, v in zip(ks, vs))
    header = case_header(stored, f"`cache = KVCache()`, then {steps}")
    lengths: list[int] = []
    problem: str | None = None  # the first difference; the appends go on so that the end state names the mistake
    try:
        cache = student.new("KVCache")
        if cache.len() != 0:
            text = f"**A new `KVCache()` is not empty:** `len(cache)` is {cache.len()} before the first append."
            return f"{header}\n\n{text}", "shared_state"
        for i, (k, v) in enumerate(zip(ks, vs)):
            cache.call("append", k, v)
            lengths.append(cache.len())
            n = int(expected["lengths"][i])
            for attr in ("keys", "values") if problem is None else ():
                problem = problem or compare.compare(
                    f"cache.{attr} after append number {i + 1}", expected[attr][:n], cache.get(attr))
        if problem is None and lengths != [int(n) for n in expected["lengths"]]:
            wanted = ", ".join(str(int(n)) for n in expected["lengths"])
            problem = f"**len(cache)** after each append: expected {wanted}; yours {', '.join(map(str, lengths))}."
    except StudentError as error:
        if problem is None:
            if not (mistake := error_mistake(error)) and (crash := _kv_crash(probing(student), stored, error)):
                return f"{header}\n\n{crash}\n\n{error_text('KVCache', error)}", "needs_equal_widths"
            return f"{header}\n\n{error_text('KVCache', error)}", mistake
        return f"{header}\n\n{problem}", None  # it failed first, then raised on a later append
    if problem is None:
        return None, None
    return f"{header}\n\n{problem}", _kv_mistake(stored, cache, lengths)


def _kv_crash(student: Any, stored: Case, error: StudentError) -> str | None:
    """A raise in the student's own KVCache code on keys and values of different widths: the same appends on a new
    cache with every value as wide as its key (cut, or padded with zeros). When they all go through, the line
    assumed d_v = d_k: its quote and what the probe showed (its calls charged to the test's probe budget), else
    None."""
    ks, vs = stored.inputs["k"], stored.inputs["v"]
    d_k, d_v = int(np.shape(ks[0])[-1]), int(np.shape(vs[0])[-1])
    line = where_raised(student, error)
    if d_k == d_v or line is None:
        return None
    try:
        cache = student.new("KVCache")
        for k, value in zip(ks, vs):
            v = np.asarray(value)
            wide = v[..., :d_k] if d_v > d_k else np.concatenate([v, np.zeros((*v.shape[:-1], d_k - d_v))], axis=-1)
            cache.call("append", k, wide)
    except StudentError:  # it still raises (there or elsewhere), or the probe budget is spent: nothing shown
        return None
    how = "with every value as wide as its key (d_v = d_k)"
    record_evidence({"sentence": "needs_equal_widths", "case": stored.id, "exact": False,
                     "by": f"a probe: the same appends {how} on a new cache no longer raise"})
    return (f"{WHERE} {line} assumes keys and values of one width (d_v = d_k); this case has d_k = {d_k}, "
            f"d_v = {d_v}. The same appends {how} no longer raise.")


def _kv_mistake(stored: Case, cache: Any, lengths: list[int]) -> str | None:
    """Name a KVCache mistake from the state after every append: len() counting append calls, a list where an
    array is due, a stored variant's, or only the last block kept."""
    if lengths == list(range(1, len(lengths) + 1)) and lengths != [int(n) for n in stored.expected["lengths"]]:
        return "cache_multi_token"
    try:
        keys, values = cache.get("keys"), cache.get("values")
    except StudentError:
        return None
    if isinstance(keys, list) or isinstance(values, list):
        return "returned_list"
    n = int(stored.expected["lengths"][-1])
    if precision.low_precision((stored.expected["keys"][:n], stored.expected["values"][:n]), (keys, values)):
        return "low_precision"
    for mistake_id, output in stored.mistakes.items():
        if matches(keys, output["keys"]) and matches(values, output["values"]):
            return mistake_id
    last = np.atleast_2d(stored.inputs["k"][-1])
    return "cache_overwrites" if len(stored.inputs["k"]) > 1 and matches(keys, last) else None


def layer_properties(named: dict[str, Any]) -> Iterator[tuple]:
    """Part F: the widths a line may assume of the grader's layer (and cache): d_v = d_k, or every projection as
    wide as the token (d_k = d_v = D: one fused projection cut into three D-wide pieces), which makes d_v = d_k too
    (``within``)."""
    layer = named["layer"]
    (D, d_k), d_v = np.shape(layer["W_Q"]), np.shape(layer["W_V"])[1]
    sizes = f"this case's layer has D = {D}, d_k = {d_k}, d_v = {d_v}"
    if d_v != d_k:  # with d_k = D already, the rewriting makes d_k = d_v = D too: widths of D + 1 tell them apart
        apart = (charged(lambda n: _layer_widths(n, D + 1, D + 1)), "needs_equal_widths", "layer_width_model")
        # (where those stop the call at an earlier line, neither is named: the code needs d_k = D there too)
        yield ("needs_equal_widths" if d_k != D else None, f"d_v = d_k{' (its d_k is D already)' * (d_k == D)}; "
               f"{sizes}", "with a layer of d_v = d_k", lambda n: _layer_widths(n, d_k, d_k),
               apart if d_k == D else None)
    if d_k != D:
        # exactly D, or some width D divides (a check that d_k is a multiple of D): told apart by widths of 2 D
        twice = (charged(lambda n: _layer_widths(n, 2 * D, 2 * D)), None, "layer_width_model")
        yield ("layer_width_model", f"the layer projects each token to its own width (d_k = d_v = D); {sizes}",
               "with a layer projecting to d_k = d_v = D", lambda n: _layer_widths(n, D, D), twice, None, False, None,
               ("needs_equal_widths",))


def _layer_widths(named: dict[str, Any], d_k: int, d_v: int) -> dict[str, Any]:
    """The case with the layer's projections (and the cache's rows) cut or repeated to widths d_k and d_v."""
    def wide(a: Any, d: int) -> np.ndarray:
        a = np.asarray(a, dtype=float)
        if a.shape[-1] == 0:
            return np.zeros((*a.shape[:-1], d))
        return np.concatenate([a] * -(-d // a.shape[-1]), axis=-1)[..., :d]

    out = dict(named)
    layer = named["layer"]
    out["layer"] = dict(layer, W_Q=wide(layer["W_Q"], d_k), W_K=wide(layer["W_K"], d_k), W_V=wide(layer["W_V"], d_v))
    if isinstance(cache := named.get("cache"), dict):
        n = len(cache["keys"])
        out["cache"] = dict(cache, keys=wide(np.reshape(cache["keys"], (n, -1)) if n else np.zeros((0, 1)), d_k),
                            values=wide(np.reshape(cache["values"], (n, -1)) if n else np.zeros((0, 1)), d_v))
    return out


# ----------------------------------------------------------------------------
