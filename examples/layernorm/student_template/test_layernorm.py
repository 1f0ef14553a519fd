"""Public tests of your layernorm code: run ``python -m pytest -q`` in this folder.

Each test runs one function (or RunningStats) on a public case from ``public_cases.npz`` (inputs, the expected
output, and the outputs of known mistakes on the same inputs). A failing test says what was compared, where it
differs and, when your output equals a known mistake's, which mistake that is. The graded tests use other
inputs: passing these is a good sign, not a guarantee. Inputs are passed read-only, as the autograder passes
them.

The code under test is, in order of preference: the file named by the environment variable ``LAYERNORM_IMPL``;
a module already imported as ``layernorm`` (the notebook's ``check(...)`` cells register the notebook under that
name); ``layernorm.py`` here. ``run_checks("layer_norm")`` runs one function's tests and prints a short summary
(the notebook's check cells call it).
"""

from __future__ import annotations

import importlib.util
import io
import json
import os
import sys
import zipfile
from contextlib import redirect_stderr, redirect_stdout
from pathlib import Path
from typing import Any, NamedTuple

import numpy as np
import pytest

HERE = Path(__file__).resolve().parent
MODULE = "layernorm"


def _load_code() -> tuple[Any, str]:
    """(module, "") or (None, why it could not be imported)."""
    chosen = os.environ.get("LAYERNORM_IMPL")
    if not chosen and MODULE in sys.modules:
        return sys.modules[MODULE], ""
    path = Path(chosen) if chosen else HERE / f"{MODULE}.py"
    try:
        spec = importlib.util.spec_from_file_location(MODULE, path)
        module = importlib.util.module_from_spec(spec)
        sys.modules[MODULE] = module
        spec.loader.exec_module(module)
        return module, ""
    except (Exception, SystemExit) as error:
        sys.modules.pop(MODULE, None)
        if isinstance(error, SyntaxError):
            return None, f"{path.name} has a syntax error on line {error.lineno}: {error.msg}"
        return None, f"{path.name} could not be imported: {type(error).__name__}: {error}"


def _load_feedback() -> Any:
    if str(HERE) not in sys.path:
        sys.path.insert(0, str(HERE))  # layernorm_feedback.py imports feedback_format.py from here
    return importlib.import_module("layernorm_feedback")


code, IMPORT_PROBLEM = _load_code()
feedback = _load_feedback()


class Case(NamedTuple):
    id: str
    function: str
    inputs: dict
    expected: Any
    mistakes: dict
    description: str


def load_cases(path: Path) -> dict[str, Case]:
    """Every case in ``path``, by id (arrays read with allow_pickle=False)."""
    with zipfile.ZipFile(path) as archive:

        def value(node: dict) -> Any:
            kind = node["t"]
            if kind == "array":
                with archive.open(node["entry"]) as f:
                    return np.lib.format.read_array(f, allow_pickle=False)
            if kind == "num":
                return float(node["v"]) if isinstance(node["v"], str) else node["v"]
            if kind == "tuple":
                return tuple(value(item) for item in node["items"])
            if kind == "dict":
                return {name: value(item) for name, item in node["items"]}
            return node.get("v")

        def named(pairs: list) -> dict:
            return {name: value(node) for name, node in pairs}

        index = json.loads(archive.read("index.json"))
        return {c["id"]: Case(c["id"], c["function"], named(c["inputs"]), value(c["expected"]),
                              named(c["mistakes"]), c["description"]) for c in index["cases"]}


CASES = load_cases(HERE / "public_cases.npz")


def cases(function: str) -> list:
    """The public cases of ``function``, named by what they try (e.g. ``layer_norm[eps]``)."""
    return [pytest.param(c, id=c.id[len(function) + 1 :]) for c in CASES.values() if c.function == function]


# ----------------------------------------------------------------------------
# Running the code under test
# ----------------------------------------------------------------------------


def fail(message: str) -> None:
    """Fail the test with ``message`` only: no traceback."""
    raise pytest.fail.Exception(message, pytrace=False) from None


def implementation(name: str) -> Any:
    if code is None:
        fail(IMPORT_PROBLEM)
    found = getattr(code, name, None)
    if found is None:
        fail(f"`{name}` is missing: keep every name of the template.")
    return found


def _read_only(value: Any) -> Any:
    if isinstance(value, tuple):
        return tuple(_read_only(item) for item in value)
    if not isinstance(value, np.ndarray):
        return value
    copy = value.copy()
    copy.setflags(write=False)
    return copy


def run(case: Case) -> Any:
    """The case's output: a plain call, or RunningStats's named outputs (count, mean, var after every update, and
    normalize(x) at the end). A NotImplementedError or a write into an input fails in one line."""
    given = {name: _read_only(value) for name, value in case.inputs.items()}
    try:
        if case.function != "RunningStats":
            return implementation(case.function)(*given.values())
        options = {"eps": given["eps"]} if "eps" in given else {}
        stats = implementation("RunningStats")(given["num_features"], **options)
        history: dict[str, list] = {"count": [], "mean": [], "var": []}
        for batch in given["batches"]:
            stats.update(batch)
            for name, values in history.items():
                values.append(np.copy(getattr(stats, name)))
        output = {name: np.array(values) for name, values in history.items()}
        return output | {"normalized": stats.normalize(given["x"])}
    except NotImplementedError as error:
        hint = f" (hint: {error})" if str(error) else ""
        fail(f"{_raiser(error, case.function)} is not implemented yet{hint}")
    except ValueError as error:
        if "read-only" not in str(error):
            raise
        fix = feedback.MISTAKES.get("modified_input", "compute into new arrays instead.")
        fail(f"`{case.function}` tried to change one of its input arrays in place.\n\n**Likely mistake:** {fix}")


def _raiser(error: BaseException, name: str) -> str:
    tb = error.__traceback__
    while tb.tb_next is not None:
        tb = tb.tb_next
    function, owner = tb.tb_frame.f_code.co_name, tb.tb_frame.f_locals.get("self")
    raiser = f"{type(owner).__name__}.{function}" if owner is not None else function
    raiser = raiser.removesuffix(".__init__")
    return raiser if raiser == name or raiser.startswith(name + ".") else f"{name} calls {raiser}, which"


def describe(case: Case) -> str:
    """The call, as a student would write it."""
    if case.function == "RunningStats":
        shapes = ", ".join(str(np.shape(b)) for b in case.inputs["batches"])
        return f"RunningStats({case.inputs['num_features']}) updated with batches of shapes {shapes}"
    shown = [f"{name} of shape {value.shape}" if isinstance(value, np.ndarray) else f"{name}={value!r}"
             for name, value in case.inputs.items()]
    return f"{case.function}({', '.join(shown)})"


def check(case: Case, actual: Any) -> None:
    """Fail with the feedback's report unless ``actual`` matches the expected output."""
    text = feedback.report(describe(case), case.expected, actual, case.mistakes,
                           heatmap=case.function == "layer_norm")
    if text:
        fail(f"{text}\n\n(public case `{case.id}`: {case.description})")


# ----------------------------------------------------------------------------
# The tests
# ----------------------------------------------------------------------------


@pytest.mark.parametrize("case", cases("layer_norm"))
def test_layer_norm_returns_the_normalised_scaled_and_shifted_rows(case):
    check(case, run(case))


@pytest.mark.parametrize("case", cases("layer_norm"))
def test_layer_norm_rows_have_mean_beta_when_gamma_is_one(case):
    x = case.inputs["x"]
    ones, zeros = np.ones(x.shape[-1]), np.zeros(x.shape[-1])
    out = run(case._replace(inputs={**case.inputs, "gamma": ones, "beta": zeros}))
    if not isinstance(out, np.ndarray) or out.shape != x.shape:
        fail(f"layer_norm(x, ones, zeros) must have x's shape {x.shape}")
    text = feedback.compare("the row means of layer_norm(x, gamma=1, beta=0) (0 for every row)",
                            np.zeros(x.shape[:-1]), out.mean(axis=-1))
    if text:
        fail(text)


@pytest.mark.parametrize("case", cases("relu"))
def test_relu_returns_max_x_0(case):
    check(case, run(case))


@pytest.mark.parametrize("case", cases("feed_forward"))
def test_feed_forward_returns_the_two_layer_output(case):
    check(case, run(case))


@pytest.mark.parametrize("case", cases("pre_norm_block"))
def test_pre_norm_block_returns_x_plus_the_feed_forward_of_the_normalised_x(case):
    check(case, run(case))


@pytest.mark.parametrize("case", cases("RunningStats"))
def test_running_stats_tracks_count_mean_and_variance_and_normalizes(case):
    check(case, run(case))


# ----------------------------------------------------------------------------
# A short summary for the notebook: run_checks("layer_norm") runs layer_norm's tests
# ----------------------------------------------------------------------------


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
    """Run the public tests of ``functions`` (all of them if none is named) and print a short summary;
    ``verbose=True`` prints every failing test's full feedback. Returns True when every test passes."""
    unknown = sorted(set(functions) - {c.function for c in CASES.values()})
    if unknown:
        print(f"No public tests for {', '.join(unknown)}: check the spelling.")
        return False
    selected, said = _Selected(functions), io.StringIO()
    with redirect_stdout(said), redirect_stderr(said):
        code_ = pytest.main(["-q", "-p", "no:cacheprovider", str(Path(__file__).resolve())], plugins=[selected])
    if code_ not in (pytest.ExitCode.OK, pytest.ExitCode.TESTS_FAILED):
        print(f"The public tests could not run (pytest exit {int(code_)}):\n{said.getvalue()[-2000:]}")
        return False
    names = ", ".join(functions) if functions else "every function"
    total = len(selected.passed) + len(selected.failed)
    if not selected.failed:
        print(f"{names}: all {total} public tests pass.")
        return True
    print(f"{names}: {len(selected.passed)} of {total} public tests pass, {len(selected.failed)} fail.")
    problems: dict[str, list[str]] = {}  # each distinct problem once, with the tests it fails
    for report in selected.failed:
        crash = getattr(report.longrepr, "reprcrash", None)
        text = str((crash and crash.message) or report.longrepr).strip().removeprefix("Failed: ")
        name = report.nodeid.rsplit("::", 1)[-1].removeprefix("test_").replace("_", " ")
        if verbose:
            print(f"\n--- {name}\n{text}")
        first = next((line.strip() for line in text.splitlines() if line.strip()), "failed")
        problems.setdefault(first[:160], []).append(name)
    for first, names in problems.items():
        more = f" and {len(names) - 1} more" if len(names) > 1 else ""
        print(f"  - {first}\n      ({names[0]}{more})")
    if not verbose:
        print("Fix the first problem, re-run its cell, then this one. Full feedback: add verbose=True.")
    return False
