"""``autograder regen [--check] [--only NAME]``: rebuild the stored cases from the homework's solution.

Every case set in ``case_sets()`` is built by calling its builder (the homework's ``cases/graded.py`` and
``cases/public.py``: ``build_cases()``, returning ``list[Case]``), which makes each case with ``make_case``: the
expected output comes from the homework's solution (``<UPLOAD>.py``), the known-mistake outputs from its
``mistakes.py`` (``VARIANTS``). A homework whose functions need more than a plain call (objects made from dotted
inputs, a class appended to) runs them itself: its ``cases/__init__.py`` defines ``run(function, implementation,
inputs, solution)``, returning ``NotImplemented`` for a plain call.
The set is written as one deterministic .npz (``cases.dumps_cases``) plus, if the set
has one, a manifest. ``--check`` builds everything in memory and exits 1 when a stored
file differs, without writing. Two runs give byte-identical files. "Differs" is judged by
``stored.differences``: structure, inputs, shapes and dtypes exactly, floating outputs within
a few ulps, so another CPU's rounding never makes a file stale (nor makes ``regen`` rewrite it).

An ``optional`` set is skipped, with a note, while the homework has no builder for it.
"""

from __future__ import annotations

import argparse
import json
import warnings
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from autograder import contract
from autograder.suite import changes, stamp, stored
from autograder.suite.cases import Case, call_arguments, dumps_cases, dumps_manifest, loads_cases
from autograder.suite.stored import same_output

REPO = Path(__file__).resolve().parents[2]


@dataclass(frozen=True)
class CaseSet:
    """A named set of cases and where it is stored (absolute paths, or relative to the repository)."""

    name: str
    npz: str
    builder: str  # "module:function" of the homework ("cases.graded:build_cases"), returning list[Case]
    manifest: str | None = None
    optional: bool = False


def case_sets() -> list[CaseSet]:
    """The homework's case sets: public (in the student template, optional) and graded (in generated/cases/)."""
    homework = contract.HOMEWORK
    return [
        CaseSet("public", str(homework.template / "public_cases.npz"), "cases.public:build_cases", optional=True),
        CaseSet("graded", str(homework.cases_file), "cases.graded:build_cases",
                manifest=str(homework.cases_file.with_name("manifest.json"))),
    ]


def main(argv: list[str]) -> int:
    description = "Rebuild the stored cases (public and graded) from the homework's solution."
    parser = argparse.ArgumentParser(prog="autograder regen", description=description)
    parser.add_argument("--check", action="store_true", help="exit 1 if a stored file is stale (writes nothing)")
    parser.add_argument("--only", choices=["public", "graded"], help="just this case set")
    args = parser.parse_args(argv)
    stale: dict[str, str] = {}
    written: dict[str, bytes] = {}  # every set's files as they are (or will be) stored: the stamp's outputs
    for case_set in case_sets():
        if args.only and case_set.name != args.only:
            continue
        if case_set.optional and not _builder_exists(case_set.builder):
            module = case_set.builder.split(":")[0].replace(".", "/")
            print(f"{case_set.name}: skipped (the homework has no {module}.py)")
            continue
        files = render(case_set)
        fresh = loads_cases(files[case_set.npz])
        print(f"{case_set.name}: {summary(fresh)}")
        for line in describe_changes(REPO / case_set.npz, fresh):
            print(f"  {line}")
        changed = stale_files(case_set, files)
        written |= files
        if args.check:
            stale.update(changed)
        else:
            for path in changed:
                (REPO / path).parent.mkdir(parents=True, exist_ok=True)
                (REPO / path).write_bytes(files[path])
            for path in files:
                print(f"  {'wrote' if path in changed else 'unchanged'} {_shown(path)}")
    if not args.only:  # the stamp records a whole regen
        rendered = stamp.render("regen", stamp.regen_inputs(), written)
        if args.check and stamp.stale_section("regen", rendered):
            stale[str(stamp.PATH(contract.HOMEWORK))] = "does not record this regen (run `autograder regen`)"
        elif not args.check:
            stamp.write("regen", rendered)
    if not args.check:
        _next_step()
    if stale:
        print("stale (run `autograder regen`):")
        for path, why in stale.items():
            print(f"  {_shown(path)}{_numpy_note(path)}: {why}")
        return 1
    return 0


def _shown(path: str) -> str:
    return contract.HOMEWORK.relative(REPO / path)


def _next_step() -> None:
    """Say so when what ``template`` generates is stale too (the oracle, after a solution change): the stamp's
    record of the last template no longer holds."""
    stale = [line.split(" since the last", 1)[0] for line in stamp.problems() if "`autograder template`" in line]
    if stale:
        print(f"next: run `autograder template`: {', '.join(stale[:4])}{' ...' if len(stale) > 4 else ''} "
              "(grading refuses a stale homework; the oracle is generated from the solution)")


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
            print(f"  {_shown(case_set.npz)}: equal within {stored.REL:g} (largest relative difference {largest:.1e}, "
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
    cases = getattr(contract.HOMEWORK.module(module_name), function_name)()
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
    solution = contract.HOMEWORK.module(contract.UPLOAD)
    mistakes = contract.HOMEWORK.optional("mistakes")
    inputs = {name: _canonical(value) for name, value in inputs.items()}
    expected = run(function, getattr(solution, function), inputs)
    found: dict[str, Any] = {}
    for mistake_id, variant in getattr(mistakes, "VARIANTS", {}).get(function, {}).items():
        try:
            output = run(function, variant, inputs)
        except Exception:  # a variant may not apply to these inputs (see the homework's mistakes.py)
            continue
        if _storable(output) and not same_output(output, expected):
            found[mistake_id] = output
    return Case(case_id, function, inputs, expected, found, seed=seed, description=description)


def run(function: str, implementation: Callable, inputs: Mapping[str, Any]) -> Any:
    """Call ``implementation`` (the contract function ``function`` or a variant) on copies of the inputs: a plain
    call, unless the homework's ``cases/__init__.py`` runs ``function`` itself (``run``: stateful functions return
    a dict of named outputs, as ``autograder.suite.cases`` describes)."""
    inputs = {name: _copy(value) for name, value in inputs.items()}
    own = getattr(contract.HOMEWORK.optional("cases"), "run", None)
    with warnings.catch_warnings(), np.errstate(all="ignore"):
        warnings.simplefilter("ignore")
        if own is not None:
            output = own(function, implementation, inputs, contract.HOMEWORK.module(contract.UPLOAD))
            if output is not NotImplemented:
                return output
        return implementation(*(value for _, value in call_arguments(inputs)))


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
    return contract.HOMEWORK.optional(builder.partition(":")[0]) is not None


def _numpy_note(path: str) -> str:
    """Say so when a stale manifest was written by another numpy (outputs may differ in the last bit)."""
    if not path.endswith("manifest.json") or not (REPO / path).is_file():
        return ""
    stored = json.loads((REPO / path).read_text()).get("numpy")
    return f" (written with numpy {stored}, this is numpy {np.__version__})" if stored != np.__version__ else ""
