"""Public tests of your attention code: run ``python -m pytest -q`` in this folder.

Each test runs one function on a public case from ``public_cases.npz`` (inputs, the
expected output, and the outputs of known mistakes on the same inputs). A failing test
says what was compared, how many entries differ, the largest error and where, and,
when your output equals a known mistake's, which mistake that is. The graded tests
use other inputs: passing these is a good sign, not a guarantee.

Inputs are passed read-only, as the autograder passes them: code that writes into an
input (``Z /= T``, ``x[...] = ...``) fails here as it would there.

The code under test is, in order of preference: the file named by the environment
variable ``ATTENTION_IMPL``; a module already imported as ``attention`` (the notebook's
``check(...)`` cells register the notebook under that name); ``attention.py`` here.
``run_checks("softmax")`` runs one function's tests and prints a short summary (the
notebook's check cells call it).
"""

from __future__ import annotations

import importlib.util
import io
import json
import os
import sys
import traceback
import zipfile
from contextlib import contextmanager, redirect_stderr, redirect_stdout
from pathlib import Path
from typing import Any, NamedTuple

import numpy as np
import pytest

HERE = Path(__file__).resolve().parent


# ----------------------------------------------------------------------------
# Loading the code under test and the public cases
# ----------------------------------------------------------------------------


def _load_attention() -> tuple[Any, str]:
    """(module, "") or (None, why it could not be imported)."""
    chosen = os.environ.get("ATTENTION_IMPL")
    if not chosen and "attention" in sys.modules:
        return sys.modules["attention"], ""
    path = Path(chosen) if chosen else HERE / "attention.py"
    try:
        spec = importlib.util.spec_from_file_location("attention", path)
        module = importlib.util.module_from_spec(spec)
        sys.modules["attention"] = module
        spec.loader.exec_module(module)
        return module, ""
    except (Exception, SystemExit) as error:
        sys.modules.pop("attention", None)
        if isinstance(error, SyntaxError):
            return None, f"{path.name} has a syntax error on line {error.lineno}: {error.msg}"
        lines = [frame.lineno for frame in traceback.extract_tb(error.__traceback__) if frame.filename == str(path)]
        where = f" on line {lines[-1]}" if lines else ""
        return None, f"{path.name} could not be imported: {type(error).__name__}{where}: {error}"


def _load_feedback() -> Any:
    if str(HERE) not in sys.path:
        sys.path.insert(0, str(HERE))  # attention_feedback.py imports feedback_format.py from here
    return importlib.import_module("attention_feedback")


attention, IMPORT_PROBLEM = _load_attention()
feedback = _load_feedback()


class Case(NamedTuple):
    """One public case (the format is described in the autograder's cases.py)."""

    id: str
    function: str
    inputs: dict
    expected: Any
    mistakes: dict
    description: str


def load_cases(path: Path) -> dict[str, Case]:
    """Every case in ``path``, by id. Arrays are read with allow_pickle=False."""
    with zipfile.ZipFile(path) as archive:

        def value(node: dict) -> Any:
            kind = node["t"]
            if kind == "array":
                with archive.open(node["entry"]) as f:
                    return np.lib.format.read_array(f, allow_pickle=False)
            if kind == "num":
                return float(node["v"]) if isinstance(node["v"], str) else node["v"]  # 'nan', 'inf', '-inf'
            if kind == "tuple":
                return tuple(value(item) for item in node["items"])
            if kind == "dict":
                return {name: value(item) for name, item in node["items"]}
            return node.get("v")  # bool, str, none

        def named(pairs: list) -> dict:
            return {name: value(node) for name, node in pairs}

        index = json.loads(archive.read("index.json"))
        return {
            c["id"]: Case(c["id"], c["function"], named(c["inputs"]), value(c["expected"]), named(c["mistakes"]),
                          c["description"])
            for c in index["cases"]
        }


CASES = load_cases(HERE / "public_cases.npz")


TESTED: set[str] = set()  # functions with tests of their own below; any other gets test_every_other_function


def cases(function: str) -> list:
    """The public cases of ``function``, named by what they try (e.g. ``softmax[large-logits]``)."""
    TESTED.add(function)
    return [pytest.param(c, id=c.id[len(function) + 1 :]) for c in CASES.values() if c.function == function]


# ----------------------------------------------------------------------------
# Running the code under test
# ----------------------------------------------------------------------------


def fail(message: str) -> None:
    """Fail the test with ``message`` only: no traceback, no chained exception."""
    raise pytest.fail.Exception(message, pytrace=False) from None


def implementation(name: str) -> Any:
    """attention.<name>, or a one-line failure saying why there is none."""
    if attention is None:
        fail(IMPORT_PROBLEM)
    found = getattr(attention, name, None)
    if found is None:
        fail(f"`{name}` is missing: keep every name of the template.")
    return found


@contextmanager
def student_code(name: str):
    """Turn a NotImplementedError into a one-line failure: '<name> is not implemented yet (hint: ...)', and
    a write into a (read-only) input into the known mistake it is."""
    try:
        yield
    except NotImplementedError as error:
        fail(_not_implemented(name, error))
    except ValueError as error:
        if "read-only" not in str(error):
            raise
        fix = feedback.MISTAKES.get("modified_input", "compute into new arrays instead.")
        fail(f"`{name}` tried to change one of its input arrays in place{_where(error)}: inputs are read-only "
             f"here, as in the autograder.\n\n**Likely mistake:** {fix}")


def _where(error: BaseException) -> str:
    """' (attention.py, line 12)': the last line of the code under test in the traceback, if any."""
    files = {getattr(attention, "__file__", None), "<stdin>"}
    lines = [f for f in traceback.extract_tb(error.__traceback__)
             if f.filename in files or f.filename.startswith(("<ipython-input", "/tmp/ipykernel"))]
    return f" ({Path(lines[-1].filename).name}, line {lines[-1].lineno})" if lines else ""


def _not_implemented(name: str, error: NotImplementedError) -> str:
    tb = error.__traceback__
    while tb.tb_next is not None:
        tb = tb.tb_next
    function, owner = tb.tb_frame.f_code.co_name, tb.tb_frame.f_locals.get("self")
    raiser = f"{type(owner).__name__}.{function}" if owner is not None else function
    raiser = raiser.removesuffix(".__init__")
    hint = f" (hint: {error})" if str(error) else ""
    if raiser == name or raiser.startswith(name + "."):
        return f"{raiser} is not implemented yet{hint}"
    return f"{name} calls {raiser}, which is not implemented yet{hint}"


class ReferenceCache:
    """A correct KV cache with the contract's interface, so that decode_step is tested on its own."""

    def __init__(self, keys: np.ndarray, values: np.ndarray) -> None:
        self._keys, self._values = np.array(keys, dtype=float), np.array(values, dtype=float)

    def append(self, k: Any, v: Any) -> None:
        k, v = np.atleast_2d(np.asarray(k, dtype=float)), np.atleast_2d(np.asarray(v, dtype=float))
        for what, new, old in (("key", k, self._keys), ("value", v, self._values)):
            if new.ndim != 2 or new.shape[1] != old.shape[1]:
                fail(f"decode_step appended a {what} of shape {new.shape} to the cache; each cached "
                     f"{what} has shape ({old.shape[1]},)")
        self._keys, self._values = np.concatenate([self._keys, k]), np.concatenate([self._values, v])

    @property
    def keys(self) -> np.ndarray:
        return self._keys.copy()

    @property
    def values(self) -> np.ndarray:
        return self._values.copy()

    def __len__(self) -> int:
        return len(self._keys)


def run(case: Case) -> Any:
    """Call the case's function on read-only copies of its inputs and check that they were left unchanged.

    Part F functions give a dict of named outputs, like ``case.expected``: the result
    ("out"), the cache's contents and the layer's call counts.
    """
    given = {name: _copy(value) for name, value in case.inputs.items()}
    if case.function == "KVCache":
        output = _run_cache(given)
    else:
        args, layer, cache = _arguments(given)
        function = implementation(case.function)
        with student_code(case.function):
            output = function(*args)
        if layer is not None:
            output = {"out": output}
            if cache is not None:
                output |= {"cache.keys": cache.keys, "cache.values": cache.values}
            output |= {f"calls.{kind}": count for kind, count in layer.calls.items()}
    for name, original in case.inputs.items():
        if not _same(original, given[name]):
            fix = feedback.MISTAKES.get("modified_input", "compute into new arrays instead.")
            fail(f"**{describe(case)}** changed its input `{name}` in place.\n\n**Likely mistake:** {fix}")
    return output


def _run_cache(given: dict) -> dict:
    with student_code("KVCache"):
        cache, lengths = implementation("KVCache")(), []
        for k, v in zip(given["k"], given["v"]):
            cache.append(k, v)
            lengths.append(len(cache))
        return {"keys": cache.keys, "values": cache.values, "lengths": np.array(lengths)}


class _Slot(NamedTuple):
    """Where an object argument (``layer`` or ``cache``) goes in the argument list."""

    owner: str


def _arguments(given: dict) -> tuple[list, Any, Any]:
    """The positional arguments; dotted inputs (layer.W_Q, cache.keys, ...) become one object each."""
    args, parts = [], {}
    for name, value in given.items():
        owner, dot, part = name.partition(".")
        if not dot:
            args.append(value)
        elif owner in parts:
            parts[owner][part] = value
        else:
            parts[owner] = {part: value}
            args.append(_Slot(owner))
    layer = implementation("AttentionLayer")(**parts["layer"]) if "layer" in parts else None
    cache = ReferenceCache(**parts["cache"]) if "cache" in parts else None
    objects = {"layer": layer, "cache": cache}
    return [objects[a.owner] if isinstance(a, _Slot) else a for a in args], layer, cache


def _copy(value: Any) -> Any:
    """A read-only copy: the autograder passes every input array read-only."""
    if isinstance(value, tuple):
        return tuple(_copy(item) for item in value)
    if not isinstance(value, np.ndarray):
        return value
    copy = value.copy()
    copy.setflags(write=False)
    return copy


def _same(a: Any, b: Any) -> bool:
    if isinstance(a, tuple):
        return all(_same(x, y) for x, y in zip(a, b))
    if isinstance(a, np.ndarray):
        return isinstance(b, np.ndarray) and a.shape == b.shape and np.array_equal(a, b, equal_nan=a.dtype.kind == "f")
    return True


# ----------------------------------------------------------------------------
# Checking results
# ----------------------------------------------------------------------------

NAMES = {"qkv_project": ("Q", "K", "V"), "scaled_dot_product_attention": ("out", "weights")}
HEATMAPS = {"softmax": True, "scaled_dot_product_attention": {"weights"}}


def describe(case: Case) -> str:
    """The call, as a student would write it: ``softmax(Z of shape (3, 5), axis=-1, temperature=0.5)``."""
    if case.function == "KVCache":
        shapes = ", ".join(str(np.shape(k)) for k in case.inputs["k"])
        return f"KVCache after append(k, v) with k of shapes {shapes}"
    shown = []
    for name, value in case.inputs.items():
        owner, dot, _ = name.partition(".")
        if dot:
            if owner == "cache" and name == "cache.keys":
                shown.append(f"cache holding {len(value)} tokens")
            elif owner == "layer" and name == "layer.W_Q":
                shown.append("layer")
        elif isinstance(value, np.ndarray):
            shown.append(f"{name} of shape {value.shape}")
        else:
            shown.append(f"{name}={value!r}")
    return f"{case.function}({', '.join(shown)})"


def check(case: Case, actual: Any, names: tuple[str, ...] | None = None) -> None:
    """Fail with feedback's report unless ``actual`` matches the expected output.

    For Part F's named outputs, ``names`` picks which ones to compare.
    """
    expected = case.expected
    if names is not None:
        expected = {name: case.expected[name] for name in names}
        actual = {name: actual[name] for name in names}
    text = feedback.report(describe(case), expected, actual, case.mistakes,
                           heatmap=HEATMAPS.get(case.function, False), names=NAMES.get(case.function))
    if text:
        fail(f"{text}\n\n(public case `{case.id}`: {case.description})")


def check_values(case: Case, what: str, expected: Any, actual: Any) -> None:
    """Fail with feedback's report (no diagnosis) unless ``actual`` matches ``expected``."""
    text = feedback.compare(what, expected, actual)
    if text:
        fail(f"{text}\n\n(public case `{case.id}`: {case.description})")


def check_counts(case: Case, output: dict, rule: str) -> None:
    """Fail unless layer.query/key/value were called as often as ``rule`` says."""
    kinds = ("query", "key", "value")
    if all(output[f"calls.{k}"] == case.expected[f"calls.{k}"] for k in kinds):
        return
    lines = [f"- layer.{k}: {output[f'calls.{k}']} calls, expected {case.expected[f'calls.{k}']}" for k in kinds]
    text = f"**{describe(case)}** made the wrong number of projections ({rule}):\n\n" + "\n".join(lines)
    mistake = feedback.diagnose(output, case.mistakes, expected=case.expected)
    if mistake:
        text += f"\n\n**Likely mistake:** {feedback.MISTAKES.get(mistake, mistake)}"
    fail(f"{text}\n\n(public case `{case.id}`: {case.description})")


def shaped_like_expected(case: Case, actual: Any, expected: Any) -> None:
    """Properties need the right shape first: otherwise fail with the full comparison."""
    if not isinstance(actual, np.ndarray) or actual.shape != np.shape(expected):
        check(case, actual)


# ----------------------------------------------------------------------------
# Part A: projections and scores
# ----------------------------------------------------------------------------


@pytest.mark.parametrize("case", cases("qkv_project"))
def test_qkv_project_returns_the_expected_queries_keys_and_values(case):
    check(case, run(case))


@pytest.mark.parametrize("case", cases("qkv_project"))
def test_qkv_project_leaves_its_inputs_unchanged(case):
    run(case)


@pytest.mark.parametrize("case", cases("attention_scores"))
def test_attention_scores_returns_every_query_key_dot_product(case):
    check(case, run(case))


@pytest.mark.parametrize("case", cases("attention_scores"))
def test_attention_scores_leaves_its_inputs_unchanged(case):
    run(case)


# ----------------------------------------------------------------------------
# Part B: softmax
# ----------------------------------------------------------------------------


@pytest.mark.parametrize("case", cases("softmax"))
def test_softmax_returns_the_expected_weights(case):
    check(case, run(case))


@pytest.mark.parametrize("case", cases("softmax"))
def test_softmax_weights_sum_to_one_along_the_axis(case):
    weights, axis = run(case), case.inputs["axis"]
    shaped_like_expected(case, weights, case.expected)
    what = f"the sums along axis {axis} of {describe(case)} (1, or 0 for an all -inf slice)"
    check_values(case, what, np.sum(case.expected, axis=axis), np.sum(weights, axis=axis))


@pytest.mark.parametrize("case", cases("softmax"))
def test_softmax_leaves_its_inputs_unchanged(case):
    run(case)


# ----------------------------------------------------------------------------
# Part C: masks and scaled dot-product attention
# ----------------------------------------------------------------------------


@pytest.mark.parametrize("case", cases("causal_mask"))
def test_causal_mask_returns_the_expected_mask(case):
    check(case, run(case))


@pytest.mark.parametrize("case", cases("causal_mask"))
def test_causal_mask_is_a_bool_array_of_shape_n_q_by_n_k(case):
    mask = run(case)
    if not isinstance(mask, np.ndarray) or mask.dtype != bool or mask.shape != case.expected.shape:
        got = f"dtype {mask.dtype}, shape {mask.shape}" if isinstance(mask, np.ndarray) else type(mask).__name__
        fail(f"**{describe(case)}** must be a bool array of shape {case.expected.shape}; yours: {got}.")


@pytest.mark.parametrize("case", cases("causal_mask"))
def test_causal_mask_lets_the_last_query_see_every_key(case):
    mask = run(case)
    shaped_like_expected(case, mask, case.expected)
    check_values(case, f"the last row of {describe(case)} (the newest token sees every key)", case.expected[-1],
                 np.asarray(mask[-1]))


@pytest.mark.parametrize("case", cases("scaled_dot_product_attention"))
def test_scaled_dot_product_attention_returns_the_expected_output_and_weights(case):
    check(case, run(case))


@pytest.mark.parametrize("case", cases("scaled_dot_product_attention"))
def test_scaled_dot_product_attention_weights_rows_sum_to_one(case):
    result = run(case)
    weights = result[1] if isinstance(result, tuple) and len(result) == 2 else result
    shaped_like_expected(case, weights, case.expected[1])
    what = f"the row sums of the weights of {describe(case)} (1, or 0 for a fully masked row)"
    check_values(case, what, case.expected[1].sum(axis=-1), weights.sum(axis=-1))


@pytest.mark.parametrize("case", cases("scaled_dot_product_attention"))
def test_scaled_dot_product_attention_leaves_its_inputs_unchanged(case):
    run(case)


# ----------------------------------------------------------------------------
# Part D: multi-head attention
# ----------------------------------------------------------------------------


@pytest.mark.parametrize("case", cases("multi_head_attention"))
def test_multi_head_attention_returns_the_expected_output(case):
    check(case, run(case))


@pytest.mark.parametrize("case", cases("multi_head_attention"))
def test_multi_head_attention_leaves_its_inputs_unchanged(case):
    run(case)


# ----------------------------------------------------------------------------
# Part E: rotary positional embeddings
# ----------------------------------------------------------------------------


@pytest.mark.parametrize("case", cases("rotation_matrix"))
def test_rotation_matrix_returns_the_expected_matrix(case):
    check(case, run(case))


@pytest.mark.parametrize("case", cases("rotation_matrix"))
def test_rotation_matrix_is_a_rotation(case):
    R = run(case)
    shaped_like_expected(case, R, case.expected)
    check_values(case, f"R.T @ R for R = {describe(case)} (the identity)", np.eye(2), R.T @ R)
    check_values(case, f"the determinant of {describe(case)}", 1.0, float(np.linalg.det(R)))


@pytest.mark.parametrize("case", cases("rope"))
def test_rope_returns_the_expected_rotated_vectors(case):
    check(case, run(case))


@pytest.mark.parametrize("case", cases("rope"))
def test_rope_keeps_the_length_of_every_pair(case):
    out, x = run(case), case.inputs["x"]
    shaped_like_expected(case, out, case.expected)
    what = f"the length of each rotated pair (2i, 2i+1) of {describe(case)}"
    check_values(case, what, np.hypot(x[..., 0::2], x[..., 1::2]), np.hypot(out[..., 0::2], out[..., 1::2]))


@pytest.mark.parametrize("case", cases("rope"))
def test_rope_leaves_its_inputs_unchanged(case):
    run(case)


# ----------------------------------------------------------------------------
# Part F: KV caching (the given AttentionLayer counts the projections)
# ----------------------------------------------------------------------------


@pytest.mark.parametrize("case", cases("KVCache"))
def test_kv_cache_keeps_every_appended_key_and_value_in_order(case):
    check(case, run(case), names=("keys", "values"))


@pytest.mark.parametrize("case", cases("KVCache"))
def test_kv_cache_length_counts_the_cached_tokens(case):
    check(case, run(case), names=("lengths",))


@pytest.mark.parametrize("case", cases("decode_step"))
def test_decode_step_returns_the_attention_output_and_appends_to_the_cache(case):
    check(case, run(case), names=("out", "cache.keys", "cache.values"))


@pytest.mark.parametrize("case", cases("decode_step"))
def test_decode_step_projects_the_new_token_exactly_once(case):
    check_counts(case, run(case), "one call each of layer.query, layer.key and layer.value")


@pytest.mark.parametrize("case", cases("generate_cached"))
def test_generate_cached_returns_causal_attention_for_every_token(case):
    check(case, run(case), names=("out",))


@pytest.mark.parametrize("case", cases("generate_cached"))
def test_generate_cached_projects_each_token_exactly_once(case):
    check_counts(case, run(case), "with a cache: N calls each of query, key and value")


@pytest.mark.parametrize("case", cases("generate_naive"))
def test_generate_naive_returns_causal_attention_for_every_token(case):
    check(case, run(case), names=("out",))


@pytest.mark.parametrize("case", cases("generate_naive"))
def test_generate_naive_recomputes_every_key_and_value_at_each_step(case):
    check_counts(case, run(case), "without a cache: N(N+1)/2 key and value calls, N query calls")


# ----------------------------------------------------------------------------
# Any other function with public cases (one your instructor added): its expected output
# ----------------------------------------------------------------------------


OTHERS = [pytest.param(c, id=c.id) for c in CASES.values() if c.function not in TESTED]

if OTHERS:  # (no test at all, rather than one skipped, when there is none)

    @pytest.mark.parametrize("case", OTHERS)
    def test_every_other_function_returns_the_expected_output(case):
        check(case, run(case))


# ----------------------------------------------------------------------------
# A short summary for the notebook: run_checks("softmax") runs softmax's tests
# ----------------------------------------------------------------------------

SHOWN_PROBLEMS = 5  # distinct problems listed by run_checks; the rest are counted


class _Selected:
    """A pytest plugin: only the tests of some functions, and what each of them gave."""

    def __init__(self, functions: tuple[str, ...]) -> None:
        self.functions, self.passed, self.failed = functions, [], []

    def pytest_collection_modifyitems(self, config: Any, items: list) -> None:
        chosen = [item for item in items if self._function(item) in self.functions or not self.functions]
        config.hook.pytest_deselected(items=[item for item in items if item not in chosen])
        items[:] = chosen

    def pytest_runtest_logreport(self, report: Any) -> None:
        if report.when == "call" and report.passed:
            self.passed.append(report.nodeid)
        elif report.failed:
            self.failed.append(report)

    @staticmethod
    def _function(item: Any) -> str | None:
        case = getattr(item, "callspec", None) and item.callspec.params.get("case")
        return case.function if isinstance(case, Case) else None


def run_checks(*functions: str, verbose: bool = False) -> bool:
    """Run the public tests of ``functions`` (all of them if none is named) and print a short summary.

    Each distinct problem is shown once, with the tests it fails; ``verbose=True`` prints every
    failing test's full feedback. Returns True when every test passes.
    """
    unknown = sorted(set(functions) - {c.function for c in CASES.values()})
    if unknown:
        print(f"No public tests for {', '.join(unknown)}: check the spelling.")
        return False
    selected, said = _Selected(functions), io.StringIO()
    with redirect_stdout(said), redirect_stderr(said):  # pytest's own report: the summary below says it shorter
        code = pytest.main(["-q", "-p", "no:cacheprovider", str(Path(__file__).resolve())], plugins=[selected])
    if code not in (pytest.ExitCode.OK, pytest.ExitCode.TESTS_FAILED):
        print(f"The public tests could not run (pytest exit {int(code)}):\n{said.getvalue()[-2000:]}")
        return False
    names = ", ".join(functions) if functions else "every function"
    total = len(selected.passed) + len(selected.failed)
    if not selected.failed:
        print(f"{names}: all {total} public tests pass.")
        return True
    print(f"{names}: {len(selected.passed)} of {total} public tests pass, {len(selected.failed)} fail.")
    problems: dict[str, list[str]] = {}
    for report in selected.failed:
        text = _failure_text(report)
        if verbose:
            print(f"\n--- {_test_name(report.nodeid)}\n{text}")
        problems.setdefault(_first_line(text), []).append(_test_name(report.nodeid))
    for line, tests in list(problems.items())[:SHOWN_PROBLEMS]:
        more = f" and {len(tests) - 1} more" if len(tests) > 1 else ""
        print(f"  - {line}\n      ({tests[0]}{more})")
    if len(problems) > SHOWN_PROBLEMS:
        print(f"  ... and {len(problems) - SHOWN_PROBLEMS} other problems")
    if not verbose:
        print("Fix the first problem, re-run its cell, then this one. Full feedback: add verbose=True.")
    return False


def _failure_text(report: Any) -> str:
    longrepr = report.longrepr
    text = getattr(longrepr, "reprcrash", None) and longrepr.reprcrash.message
    return str(text or longrepr).strip().removeprefix("Failed: ")


def _first_line(text: str) -> str:
    lines = [line.strip() for line in text.splitlines() if line.strip() and not line.startswith("**Case")]
    line = lines[0] if lines else "failed"
    return line if len(line) <= 160 else line[:157] + "..."


def _test_name(nodeid: str) -> str:
    """test_attention.py::test_softmax_returns_the_expected_weights[rows] -> 'softmax returns ... [rows]'."""
    name = nodeid.rsplit("::", 1)[-1].removeprefix("test_")
    base, _, param = name.partition("[")
    return base.replace("_", " ") + (f" [{param}" if param else "")
