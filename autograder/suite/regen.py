"""``autograder regen [--check] [--only NAME]``: rebuild the stored cases from reference/.

Every case set in ``CASE_SETS`` is built by calling its builder (``"module:function"``,
returning ``list[Case]``), which makes each case with ``make_case``: the expected output
comes from ``reference.attention``, the known-mistake outputs from ``reference.mistakes``.
The set is written as one deterministic .npz (``cases.dumps_cases``) plus, if the set
has one, a manifest. ``--check`` builds everything in memory and exits 1 when a stored
file differs, without writing. Two runs give byte-identical files. "Differs" is judged by
``stored.differences``: structure, inputs, shapes and dtypes exactly, floating outputs within
a few ulps, so another CPU's rounding never makes a file stale (nor makes ``regen`` rewrite it).

To add a case set, append a ``CaseSet`` to ``CASE_SETS``. An ``optional`` set is
skipped, with a note, while its builder module does not exist yet.
"""

from __future__ import annotations

import argparse
import importlib
import importlib.util
import json
import warnings
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from autograder.suite import changes, stored
from autograder.suite.cases import Case, call_arguments, dumps_cases, dumps_manifest, loads_cases
from autograder.suite.stored import same_output

REPO = Path(__file__).resolve().parents[2]


@dataclass(frozen=True)
class CaseSet:
    """A named set of cases and where it is stored (paths relative to the repository)."""

    name: str
    npz: str
    builder: str  # "package.module:function", returning list[Case]
    manifest: str | None = None
    optional: bool = False


CASE_SETS: list[CaseSet] = [
    CaseSet("public", "student_template/public_cases.npz", "autograder.suite.public_cases:build_cases"),
    CaseSet(
        "graded",
        "autograder/suite/cases/graded.npz",
        "autograder.suite.graded_cases:build_cases",
        manifest="autograder/suite/cases/manifest.json",
        optional=True,
    ),
]


def main(argv: list[str]) -> int:
    description = "Rebuild the stored cases (public and graded) from reference/."
    parser = argparse.ArgumentParser(prog="autograder regen", description=description)
    parser.add_argument("--check", action="store_true", help="exit 1 if a stored file is stale (writes nothing)")
    parser.add_argument("--only", choices=[s.name for s in CASE_SETS], help="just this case set")
    args = parser.parse_args(argv)
    stale: dict[str, str] = {}
    for case_set in CASE_SETS:
        if args.only and case_set.name != args.only:
            continue
        if case_set.optional and not _builder_exists(case_set.builder):
            print(f"{case_set.name}: skipped ({case_set.builder.split(':')[0]} does not exist yet)")
            continue
        files = render(case_set)
        fresh = loads_cases(files[case_set.npz])
        print(f"{case_set.name}: {summary(fresh)}")
        for line in describe_changes(REPO / case_set.npz, fresh):
            print(f"  {line}")
        changed = stale_files(case_set, files)
        if args.check:
            stale.update(changed)
        else:
            for path in changed:
                (REPO / path).parent.mkdir(parents=True, exist_ok=True)
                (REPO / path).write_bytes(files[path])
            for path in files:
                print(f"  {'wrote' if path in changed else 'unchanged'} {path}")
    if stale:
        print("stale (run `autograder regen`):")
        for path, why in stale.items():
            print(f"  {path}{_numpy_note(path)}: {why}")
        return 1
    return 0


def describe_changes(path: Path, fresh: Mapping[str, Case]) -> list[str]:
    """What regenerating changes in the stored file at ``path`` (cases, known mistakes), in lines."""
    try:
        old = loads_cases(path.read_bytes())
    except FileNotFoundError:
        return [f"new file: {len(fresh)} cases"]
    except Exception as exc:  # an unreadable file is simply replaced
        return [f"the stored file is unreadable ({type(exc).__name__}), every case is new"]
    return changes.describe(changes.compare_sets(old, fresh), old, fresh)


def stale_files(case_set: CaseSet, files: dict[str, bytes]) -> dict[str, str]:
    """The set's stored files (under ``REPO``) that differ from ``files`` beyond float rounding: path -> why.

    A stored .npz equal to the fresh one within ``stored.REL`` is kept: ``files`` is updated to
    its bytes (and the manifest to its sha256), so ``regen`` on another CPU rewrites nothing.
    """
    fresh = loads_cases(files[case_set.npz])
    why: dict[str, str] = {}
    kept = _kept_npz(REPO / case_set.npz, fresh)
    if isinstance(kept, bytes):
        if kept != files[case_set.npz]:
            largest = stored.largest_relative_difference(loads_cases(kept), fresh)
            print(f"  {case_set.npz}: equal within {stored.REL:g} (largest relative difference {largest:.1e}, "
                  "float rounding of another CPU or numpy)")
        files[case_set.npz] = kept
    else:
        why[case_set.npz] = kept
    if case_set.manifest:
        files[case_set.manifest] = dumps_manifest(fresh.values(), files[case_set.npz],
                                                  npz_name=Path(case_set.npz).name)
        problem = _manifest_problem(REPO / case_set.manifest, files[case_set.manifest])
        if problem or case_set.npz in why:
            why[case_set.manifest] = problem or "describes the stale .npz"
    return why


def _kept_npz(path: Path, fresh: Mapping[str, Case]) -> bytes | str:
    """The stored file's bytes when it holds ``fresh`` up to float rounding, else why not."""
    if not path.is_file():
        return "missing"
    data = path.read_bytes()
    try:
        old = loads_cases(data)
    except Exception as exc:  # any unreadable file is simply stale
        return f"unreadable ({type(exc).__name__}: {exc})"
    found = stored.differences(old, fresh)
    if not found and dumps_cases(old.values()) != data:
        found = ["not in the deterministic layout that regen writes"]
    return "; ".join(found) if found else data


def _manifest_problem(path: Path, fresh: bytes) -> str:
    if not path.is_file():
        return "missing"
    try:
        old = json.loads(path.read_text())
    except ValueError as exc:
        return f"unreadable ({exc})"
    new = json.loads(fresh)
    found = stored.manifest_differences(old, new)
    if old.get("sha256") != new["sha256"]:
        found.append("its sha256 is not the stored .npz's")
    return "; ".join(found)


def render(case_set: CaseSet) -> dict[str, bytes]:
    """The set's files (repository-relative path -> bytes), built in memory."""
    module_name, _, function_name = case_set.builder.partition(":")
    cases = getattr(importlib.import_module(module_name), function_name)()
    files = {case_set.npz: dumps_cases(cases)}
    if case_set.manifest:
        files[case_set.manifest] = dumps_manifest(cases, files[case_set.npz], npz_name=Path(case_set.npz).name)
    return files


def summary(cases: Mapping[str, Case]) -> str:
    """One line: how many cases, functions and stored mistake outputs."""
    functions = {case.function for case in cases.values()}
    mistakes = sum(len(case.mistakes) for case in cases.values())
    return f"{len(cases)} cases of {len(functions)} functions, {mistakes} stored mistake outputs"


# ----------------------------------------------------------------------------
# Making a case: run the reference and every known mistake on the same inputs
# ----------------------------------------------------------------------------


def make_case(
    case_id: str, function: str, inputs: Mapping[str, Any], *, seed: int | None = None, description: str = ""
) -> Case:
    """A Case whose expected output is the reference's and whose mistakes are the differing variants.

    ``inputs`` follows the calling convention of ``autograder.suite.cases`` (dotted names for
    ``layer``/``cache`` parts; tuples ``k``, ``v`` for KVCache). Arrays are converted to
    float64 unless they are boolean or integer.
    """
    from reference import attention, mistakes

    inputs = {name: _canonical(value) for name, value in inputs.items()}
    expected = run(function, getattr(attention, function), inputs)
    found: dict[str, Any] = {}
    for mistake_id, variant in mistakes.VARIANTS.get(function, {}).items():
        try:
            output = run(function, variant, inputs)
        except Exception:  # a variant may not apply to these inputs (see reference/mistakes.py)
            continue
        if _storable(output) and not same_output(output, expected):
            found[mistake_id] = output
    return Case(case_id, function, inputs, expected, found, seed=seed, description=description)


def run(function: str, implementation: Callable, inputs: Mapping[str, Any]) -> Any:
    """Call ``implementation`` (the contract function ``function`` or a variant) on copies of the inputs.

    Stateful functions return the dict of named outputs described in ``autograder.suite.cases``.
    """
    from reference import attention

    inputs = {name: _copy(value) for name, value in inputs.items()}
    with warnings.catch_warnings(), np.errstate(all="ignore"):
        warnings.simplefilter("ignore")
        if function == "KVCache":
            cache, lengths = implementation(), []
            for k, v in zip(inputs["k"], inputs["v"]):
                cache.append(k, v)
                lengths.append(len(cache))
            return {"keys": cache.keys, "values": cache.values, "lengths": np.array(lengths, dtype=np.int64)}
        args, layer, cache = [], None, None
        for name, value in call_arguments(inputs):
            if name == "layer":
                layer = attention.AttentionLayer(value["W_Q"], value["W_K"], value["W_V"])
                args.append(layer)
            elif name == "cache":
                cache = attention.KVCache()
                if len(value["keys"]):
                    cache.append(value["keys"], value["values"])
                args.append(cache)
            else:
                args.append(value)
        output = implementation(*args)
    if layer is None:
        return output
    named = {"out": output}
    if cache is not None:
        named.update({"cache.keys": cache.keys, "cache.values": cache.values})
    named.update({f"calls.{kind}": count for kind, count in layer.calls.items()})
    return named


def _canonical(value: Any) -> Any:
    if isinstance(value, tuple):
        return tuple(_canonical(item) for item in value)
    if isinstance(value, np.ndarray) and value.dtype.kind not in "bi":
        return np.array(value, dtype=np.float64, order="C")
    return value


def _copy(value: Any) -> Any:
    if isinstance(value, tuple):
        return tuple(_copy(item) for item in value)
    if isinstance(value, np.ndarray):
        return value.copy()
    return value


def _storable(value: Any) -> bool:
    if isinstance(value, Mapping):
        return all(_storable(v) for v in value.values())
    if isinstance(value, tuple):
        return all(_storable(v) for v in value)
    if isinstance(value, np.ndarray):
        return value.dtype.kind in "biuf"
    return value is None or isinstance(value, (bool, int, float, str, np.bool_, np.integer, np.floating))


# ----------------------------------------------------------------------------
# Helpers of main
# ----------------------------------------------------------------------------


def _builder_exists(builder: str) -> bool:
    return importlib.util.find_spec(builder.partition(":")[0]) is not None


def _numpy_note(path: str) -> str:
    """Say so when a stale manifest was written by another numpy (outputs may differ in the last bit)."""
    if not path.endswith(".json") or not (REPO / path).is_file():
        return ""
    stored = json.loads((REPO / path).read_text()).get("numpy")
    return f" (written with numpy {stored}, this is numpy {np.__version__})" if stored != np.__version__ else ""
