"""What every graded test does: load stored cases, run them on the student's code, explain failures.

A graded test names the stored cases it runs (``autograder/cases/graded.npz``, written by
``python -m autograder regen``; no reference code is shipped) and calls ``check``::

    @graded("B.1", "softmax", 2)
    def test_softmax_rows(student):
        \"\"\"softmax: each row sums to 1 along the last axis\"\"\"
        check(student, "softmax-rows")

``check`` runs every case with the grader's own inputs (so a bug elsewhere in the
submission cannot fail this test, except through the student's own calls), and on a
mismatch fails the test with feedback: the case and the call, shape/dtype problems,
how many entries differ, the largest errors and where, an excerpt (and a heatmap for
attention weights), then the likely mistake when the output matches a stored
known-wrong variant, the call counts say so (Part F), an input was written to, or the
code works on each 2-D slice but not with batch axes.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Collection, Mapping, Sequence
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from gradescope_utils.autograder_utils.decorators import number, partial_credit, tags, visibility, weight

from autograder import contract, feedback
from autograder.cases import Case, call_arguments, load_cases
from autograder.student import Cache, Layer, StudentError

CASES_FILE = Path(__file__).resolve().parent.parent / "cases" / "graded.npz"
LIKELY = "**Likely mistake:**"
OUTPUT_NAMES = {"qkv_project": ("Q", "K", "V"), "scaled_dot_product_attention": ("out", "weights")}
HEATMAPS: dict[str, bool | Collection[str]] = {"softmax": True, "scaled_dot_product_attention": {"weights"}}


# ----------------------------------------------------------------------------
# Declaring a graded test
# ----------------------------------------------------------------------------


def graded(test_number: str, function: str, points: float, *, hidden: bool = False, partial: bool = False) -> Callable:
    """gradescope-utils' decorators in one: number, weight (or partial credit), the function's tag, visibility.

    Hidden tests get ``contract.HIDDEN`` (one place for the instructor to change it).
    """
    if function not in contract.FUNCTIONS:
        raise ValueError(f"unknown contract function {function!r}")

    def decorate(test: Callable) -> Callable:
        test = number(test_number)(tags(function)(visibility(contract.HIDDEN if hidden else contract.VISIBLE)(test)))
        return partial_credit(points)(test) if partial else weight(points)(test)

    return decorate


@functools.lru_cache(maxsize=1)
def all_cases() -> dict[str, Case]:
    """Every stored graded case, by id (read once per process)."""
    return load_cases(CASES_FILE)


def case(case_id: str) -> Case:
    """One stored case; a KeyError names the missing id (the stored cases are stale: run regen)."""
    try:
        return all_cases()[case_id]
    except KeyError:
        raise KeyError(f"no stored case {case_id!r}: run `python -m autograder regen`") from None


# ----------------------------------------------------------------------------
# Checking
# ----------------------------------------------------------------------------


def check(
    student: Any, *case_ids: str, batched: bool = False, set_score: Callable | None = None, points: float = 0.0
) -> None:
    """Run the cases on the student's code; fail the test with feedback on the first that differs.

    ``batched``: the cases have leading batch/head axes; when the student's output is
    wrong for no known reason but right on each case's first 2-D slice, say so.
    ``set_score`` (from ``@partial_credit``) and the test's ``points``: credit the
    fraction of the cases that pass.
    """
    failures: list[tuple[Case, str, str | None]] = []
    for case_id in case_ids:
        stored = case(case_id)
        problem, mistake = run_case(student, stored, batched=batched)
        if problem is not None:
            failures.append((stored, problem, mistake))
    if set_score is not None:
        set_score(points * (len(case_ids) - len(failures)) / len(case_ids))
    if failures:
        pytest.fail(failure_message(failures, len(case_ids)), pytrace=False)


def failure_message(failures: Sequence[tuple[Case, str, str | None]], total: int) -> str:
    """The first failing case in full, the likely mistake, then the other failing cases by name."""
    _, text, mistake = failures[0]
    mistake = mistake or next((m for _, _, m in failures if m), None)
    parts = [text]
    if mistake:
        parts.append(f"{LIKELY} {sentence(mistake)}")
    if len(failures) > 1:
        others = "\n".join(f"- {c.description}" for c, _, _ in failures[1:])
        parts.append(f"{len(failures)} of the {total} cases of this test fail; the others are:\n{others}")
    return "\n\n".join(parts)


def sentence(mistake_id: str) -> str:
    """The one-sentence explanation of a mistake; "<id>.<how>" (another spelling of it) shares its id's."""
    base = mistake_id.split(".", maxsplit=1)[0]
    return feedback.MISTAKES.get(base, base)


def run_case(student: Any, stored: Case, *, batched: bool = False) -> tuple[str | None, str | None]:
    """(None, None) when the student's code reproduces the case, else (feedback, mistake id or None)."""
    if stored.function == "KVCache":
        return _run_kv_cache(student, stored)
    if isinstance(stored.expected, Mapping):
        return _run_with_layer(student, stored)
    return _run_plain(student, stored, batched=batched)


def _header(stored: Case, call: str) -> str:
    return f"**Case:** {stored.description}.  \n**Call:** {call}"


def _run_plain(student: Any, stored: Case, *, batched: bool) -> tuple[str | None, str | None]:
    args = [value for _, value in call_arguments(stored.inputs)]
    header = _header(stored, describe_call(stored.function, stored.inputs))
    try:
        actual = student.call(stored.function, *args)
    except StudentError as error:
        mistake = error_mistake(error)
        if mistake is None and batched and _works_on_a_slice(student, stored, args):
            mistake = "no_batch_support"
        return f"{header}\n\n{error_text(stored.function, error)}", mistake
    text = feedback.compare(
        f"{stored.function}(...)", stored.expected, actual,
        heatmap=HEATMAPS.get(stored.function, False), names=OUTPUT_NAMES.get(stored.function),
    )
    if text is None:
        return None, None
    mistake = diagnose(actual, stored.mistakes, stored.expected)
    if mistake is None and stored.function == "softmax":
        mistake = softmax_mistake(actual, stored)
    if mistake is None and batched and _works_on_a_slice(student, stored, args):
        mistake = "no_batch_support"
    return f"{header}\n\n{text}", mistake


# When several stored mistakes give the same output on a case, the first of these that matches is named:
# NaN only in the all -inf rows is explained by the missing guard, not by a missing max subtraction.
PREFERRED = ("softmax_nan_fully_masked",)


def diagnose(actual: Any, mistakes: Mapping[str, Any], expected: Any) -> str | None:
    """The stored mistake whose output ``actual`` matches (PREFERRED ones first on a tie)."""
    matching = [m for m in mistakes if feedback.diagnose(actual, {m: mistakes[m]}, expected=expected)]
    return next((m for m in PREFERRED if m in matching), matching[0] if matching else None)


def softmax_mistake(actual: Any, stored: Case) -> str | None:
    """Name a softmax mistake by what the output sums to: the whole array, or slices along another axis."""
    expected = np.asarray(stored.expected)
    if not isinstance(actual, np.ndarray) or actual.shape != expected.shape or not np.isfinite(actual).all():
        return None
    axis = stored.inputs.get("axis", -1) % expected.ndim
    if actual.ndim and expected.size > expected.shape[axis] and np.isclose(actual.sum(), 1.0):
        return "softmax_global_sum"
    live = np.isfinite(np.asarray(stored.inputs["Z"])).all()  # -inf entries leave slices that sum to 0
    for other in range(actual.ndim):
        if other != axis and live and np.allclose(actual.sum(axis=other), 1.0):
            return "softmax_ignores_axis" if other == actual.ndim - 1 else "softmax_wrong_axis"
    return None


MAX_SLICES = 12


def _works_on_a_slice(student: Any, stored: Case, args: list[Any]) -> bool:
    """Whether the student's function is right on every 2-D slice of the case (batch axes dropped one by one).

    Right on each slice but wrong on the whole: the batch axes are not supported.
    """
    first = stored.expected[0] if isinstance(stored.expected, tuple) else stored.expected
    lead = np.shape(first)[:-2]
    if not lead or int(np.prod(lead)) > MAX_SLICES:
        return False

    def cut(value: Any, index: tuple[int, ...]) -> Any:
        if isinstance(value, tuple):
            return tuple(cut(v, index) for v in value)
        if not isinstance(value, np.ndarray) or value.ndim <= 2:
            return value
        own = value.shape[:-2]
        return value[tuple(0 if n == 1 else i for n, i in zip(own, index[len(index) - len(own):]))]

    for index in np.ndindex(*lead):
        try:
            actual = student.call(stored.function, *(cut(a, index) for a in args))
        except StudentError:
            return False
        if feedback.compare("slice", cut(stored.expected, index), actual) is not None:
            return False
    return True


def error_mistake(error: StudentError) -> str | None:
    """The mistake an error itself names: writing to a (read-only) input."""
    return "modified_input" if error.kind == "modified_input" else None


def error_text(function: str, error: StudentError) -> str:
    """The student-facing text of a StudentError, with a plain word for NotImplementedError."""
    text = str(error).strip()
    if error.kind == "exception" and "NotImplementedError" in text:
        text = f"`{function}` is not implemented yet: it raised NotImplementedError.\n\n{text}"
    return text


# ----------------------------------------------------------------------------
# Part F: the grader's Layer and Cache, call counts, the student's KVCache
# ----------------------------------------------------------------------------


COUNT_WORDS = {"query": "layer.query", "key": "layer.key", "value": "layer.value"}


def _run_with_layer(student: Any, stored: Case) -> tuple[str | None, str | None]:
    """decode_step / generate_*: outputs, the cache afterwards, and the number of projections."""
    args, layer, cache = [], None, None
    for name, value in call_arguments(stored.inputs):
        if name == "layer":
            layer = Layer(value["W_Q"], value["W_K"], value["W_V"])
            args.append(layer)
        elif name == "cache":
            cache = Cache(value["keys"], value["values"]) if len(value["keys"]) else Cache()
            args.append(cache)
        else:
            args.append(value)
    assert layer is not None, f"case {stored.id} has no layer"
    header = _header(stored, describe_call(stored.function, stored.inputs))
    try:
        out = student.call(stored.function, *args)
    except StudentError as error:
        return f"{header}\n\n{error_text(stored.function, error)}", error_mistake(error)
    expected = stored.expected
    observed: dict[str, Any] = {"out": out}
    if cache is not None:
        observed.update({"cache.keys": cache.keys, "cache.values": cache.values})
    observed.update({f"calls.{kind}": count for kind, count in layer.counts.items()})
    problems = []
    text = feedback.compare(f"{stored.function}(...)", expected["out"], out)
    if text:
        problems.append(text)
    if cache is not None and text is None:
        problems += [t for t in (
            feedback.compare("cache.keys afterwards (the earlier keys, then the new token's key)",
                             expected["cache.keys"], observed["cache.keys"]),
            feedback.compare("cache.values afterwards (the earlier values, then the new token's value)",
                             expected["cache.values"], observed["cache.values"]),
        ) if t]
    counts = {kind: observed[f"calls.{kind}"] for kind in COUNT_WORDS}
    wanted = {kind: int(expected[f"calls.{kind}"]) for kind in COUNT_WORDS}
    if counts != wanted:
        problems.append(count_text(stored.function, counts, wanted))
    if not problems:
        return None, None
    mistake = diagnose_named(observed, expected, stored.mistakes) or count_mistake(stored.function, counts, wanted)
    return f"{header}\n\n" + "\n\n".join(problems), mistake


def count_text(function: str, counts: Mapping[str, int], wanted: Mapping[str, int]) -> str:
    """What the call counts should be and what they were."""
    rows = "\n".join(
        f"| `{COUNT_WORDS[kind]}` | {wanted[kind]} | {counts[kind]}{'' if counts[kind] == wanted[kind] else ' ✗'} |"
        for kind in COUNT_WORDS
    )
    table = f"| call | expected | yours |\n| --- | --- | --- |\n{rows}"
    return f"**{function}** made the wrong number of projections:\n\n{table}"


def count_mistake(function: str, counts: Mapping[str, int], wanted: Mapping[str, int]) -> str | None:
    """The mistake call counts alone reveal: a cached path that recomputes, a naive path that does not."""
    kv = ("key", "value")
    if function == "generate_cached" and any(counts[k] > wanted[k] for k in kv):
        return "cache_recomputes"
    if function == "generate_naive" and any(counts[k] < wanted[k] for k in kv):
        return "naive_no_recompute"
    return None


def diagnose_named(observed: Mapping[str, Any], expected: Mapping[str, Any], mistakes: Mapping[str, Any]) -> str | None:
    """The stored mistake whose named outputs all match the observed ones; failing that, whose ``out`` does."""
    for keys in (list(expected), ["out"]):
        for mistake_id, output in mistakes.items():
            if not isinstance(output, Mapping) or not all(k in output and k in observed for k in keys):
                continue
            if keys == ["out"] and same(output["out"], expected["out"]):
                continue
            if all(same(observed[k], output[k]) for k in keys):
                return mistake_id
    return None


def same(a: Any, b: Any) -> bool:
    """Equal within feedback's tolerance (NaN equals NaN)."""
    return feedback.diagnose(a, {"it": b}) == "it"


def _run_kv_cache(student: Any, stored: Case) -> tuple[str | None, str | None]:
    """``KVCache()`` then each append; after every append the keys, values and len are checked."""
    expected, ks, vs = stored.expected, stored.inputs["k"], stored.inputs["v"]
    steps = ", ".join(f"append(k {np.shape(k)}, v {np.shape(v)})" for k, v in zip(ks, vs))
    header = _header(stored, f"`cache = KVCache()`, then {steps}")
    lengths: list[int] = []
    try:
        cache = student.new("KVCache")
        for i, (k, v) in enumerate(zip(ks, vs)):
            cache.call("append", k, v)
            lengths.append(cache.len())
            n = int(expected["lengths"][i])
            for attr in ("keys", "values"):
                text = feedback.compare(f"cache.{attr} after append number {i + 1}", expected[attr][:n],
                                        cache.get(attr))
                if text:
                    return f"{header}\n\n{text}", _kv_mistake(stored, cache, lengths, i)
        if lengths != [int(n) for n in expected["lengths"]]:
            wanted = ", ".join(str(int(n)) for n in expected["lengths"])
            text = f"**len(cache)** after each append: expected {wanted}; yours {', '.join(map(str, lengths))}."
            return f"{header}\n\n{text}", _kv_mistake(stored, cache, lengths, len(ks) - 1)
    except StudentError as error:
        return f"{header}\n\n{error_text('KVCache', error)}", error_mistake(error)
    return None, None


def _kv_mistake(stored: Case, cache: Any, lengths: list[int], step: int) -> str | None:
    """Name a KVCache mistake: a stored variant's state at this step, or len() counting append calls."""
    if lengths == list(range(1, len(lengths) + 1)) and lengths != [int(n) for n in stored.expected["lengths"]]:
        return "cache_multi_token"
    try:
        keys, values = cache.get("keys"), cache.get("values")
    except StudentError:
        return None
    for mistake_id, output in stored.mistakes.items():
        if step == len(stored.inputs["k"]) - 1 and same(keys, output["keys"]) and same(values, output["values"]):
            return mistake_id
    last = np.atleast_2d(stored.inputs["k"][step])
    return "cache_overwrites" if step > 0 and same(keys, last) else None


# ----------------------------------------------------------------------------
# Describing a call
# ----------------------------------------------------------------------------


KEYWORDS = {"axis", "temperature", "n_k", "mask", "scale", "num_heads", "base", "rope_base"}


def describe_call(function: str, inputs: Mapping[str, Any]) -> str:
    """E.g. "`softmax(Z, axis=1, temperature=1)` with Z of shape (3, 4, 5)"."""
    shown, shapes, keyword = [], [], False
    for name, value in call_arguments(inputs):
        keyword = keyword or name in KEYWORDS
        if isinstance(value, Mapping):  # the grader's layer or cache
            shapes.append(_describe_object(name, value))
        elif isinstance(value, np.ndarray) and name == "positions" and value.size <= 8:
            shapes.append(f"positions = [{', '.join(f'{p:g}' for p in value)}]")
        elif isinstance(value, np.ndarray):
            kind = "boolean array" if value.dtype.kind == "b" else "shape"
            shapes.append(f"{name} of {kind} {value.shape}")
        text = name if isinstance(value, (Mapping, np.ndarray)) else _number(value)
        shown.append(f"{name}={text}" if keyword else text)
    call = f"`{function}({', '.join(shown)})`"
    return f"{call} with {', '.join(shapes)}" if shapes else call


def _describe_object(name: str, parts: Mapping[str, Any]) -> str:
    if name == "layer":
        D, d_k = np.shape(parts["W_Q"])
        return f"layer projecting D = {D} to d_k = {d_k}, d_v = {np.shape(parts['W_V'])[1]} (counted by the grader)"
    return f"cache holding {len(parts['keys'])} earlier tokens (the grader's correct cache)"


def _number(value: Any) -> str:
    return "np.pi / 2" if isinstance(value, float) and value == np.pi / 2 else repr(value)
