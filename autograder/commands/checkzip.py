"""``autograder check-zip dist/autograder.zip``: try a zip the way Gradescope will, before uploading.

1. Layout: ``setup.sh``, ``run_autograder`` and ``requirements.txt`` at the zip's root
   (not inside a folder), both scripts executable with Unix line endings; no
   ``reference/``, ``tests/``, ``student_template/``, ``.venv/``, ``.git/`` or caches
   inside, no solution markers, no unsafe paths; the engine and graded suite present.
   Also says whether the zip matches the working tree (a stale zip is a warning).
2. Gradescope's steps in a temporary autograder root: unzip into ``source/``, run
   ``setup.sh`` there (builds the venv from requirements.txt: about a minute) with a
   Python 3.10 like Gradescope's image whenever one is found (``pythons.py``; ``--python``
   chooses another), saying loudly when it is not testing 3.10; then for the reference and
   for the blank template: the submission in ``submission/``, ``run_autograder``,
   ``results/results.json``.
3. Each results.json is validated against ``tests/schema/gradescope_results.schema.json``
   (plus structural checks: no nulls, valid enums, finite numbers); the reference must
   get full marks, the template 0 with every test reported and explained. A results.json
   that records reduced isolation (``extra_data["isolation"]``: student code ran as root,
   or unswitched, or could read the grader's files) FAILS the check: run it as root, as
   Gradescope runs ``run_autograder``.

Prints one PASS/FAIL/WARN line per check and a verdict; exit status 0 only if
nothing failed. Run as root, setup.sh also creates the sandbox user, as on Gradescope.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
import zipfile
from dataclasses import dataclass
from pathlib import Path, PurePosixPath

from autograder import contract
from autograder.commands import build, consistency, pythons
from autograder.results.check import SCHEMA, _jsonschema, validate

REPO = build.REPO
SCRIPTS = ("setup.sh", "run_autograder")
FORBIDDEN = {"reference", "tests", "student_template", ".venv", "venv", ".git", "__pycache__", ".pytest_cache"}
ANYWHERE = {"__pycache__", ".pytest_cache", ".git"}  # forbidden at any depth; the others at the top
REQUIRED = ("autograder/__init__.py", "autograder/__main__.py", "autograder/runner.py")


@dataclass
class Check:
    status: str  # PASS | FAIL | WARN
    name: str
    detail: str

    def line(self) -> str:
        return f"{self.status:<4}  {self.name}: {self.detail}"


class Report:
    def __init__(self) -> None:
        self.checks: list[Check] = []

    def add(self, status: str, name: str, detail: str) -> Check:
        check = Check(status, name, detail)
        self.checks.append(check)
        print(check.line(), flush=True)
        return check

    @property
    def failed(self) -> list[Check]:
        return [c for c in self.checks if c.status == "FAIL"]


def main(argv: list[str]) -> int:
    description = __doc__.splitlines()[0].replace("``", "`")
    parser = argparse.ArgumentParser(prog="autograder check-zip", description=description)
    parser.add_argument("zip", type=Path, nargs="?", default=Path("dist/autograder.zip"), help="default: %(default)s")
    parser.add_argument("--python", help="interpreter setup.sh builds the venv with (default: a Python 3.10 if one "
                        "is found, as on Gradescope)")
    parser.add_argument("--reference", type=Path, default=contract.HOMEWORK.solution)
    parser.add_argument("--template", type=Path, default=contract.HOMEWORK.template / f"{contract.UPLOAD}.py")
    parser.add_argument("--layout-only", action="store_true", help="only check the zip's contents (fast)")
    parser.add_argument("--keep", action="store_true", help="keep the temporary autograder root")
    args = parser.parse_args(argv)
    if not args.zip.is_file():
        print(f"check-zip: {args.zip} does not exist (build it: autograder build)", file=sys.stderr)
        return 2
    from autograder.suite import stamp

    stale = stamp.refusal()
    if stale:  # the reference and template it grades the zip with would not be what the zip was built from
        print(f"check-zip: {stale}", file=sys.stderr)
        return 3
    print(f"check-zip {args.zip}")
    report = Report()
    ok = check_layout(args.zip, report)
    tested = ""
    if ok and not args.layout_only:
        python = pythons.choose(args.python, warn=lambda text: report.add("WARN", "python", text))
        tested = run_like_gradescope(args.zip, report, python=python, cases=_cases(args), keep=args.keep)
    failed = report.failed
    if failed:
        print(f"RESULT: FAIL ({len(failed)} of {len(report.checks)} checks failed): do not upload this zip")
        return 1
    scope = "layout only" if args.layout_only else "ready to upload"
    if tested and not tested.startswith("Python 3.10"):
        scope += f", but tested on {tested}, NOT on Gradescope's Python 3.10"
    print(f"RESULT: PASS ({len(report.checks)} checks): {scope}")
    return 0


def _cases(args: argparse.Namespace) -> list[tuple[str, Path]]:
    return [("reference", args.reference), ("template", args.template)]


# ---------------------------------------------------------------- 1. the zip's contents


def check_layout(path: Path, report: Report) -> bool:
    """Check what is in the zip; False when it cannot be run at all."""
    try:
        zf = zipfile.ZipFile(path)
    except zipfile.BadZipFile:
        report.add("FAIL", "zip", f"{path} is not a zip file")
        return False
    with zf:
        infos = {info.filename: info for info in zf.infolist() if not info.is_dir()}
        runnable = _check_root(zf, infos, report)
        _check_contents(zf, infos, report)
        _check_fresh(zf, infos, report)
    return runnable


def _check_root(zf: zipfile.ZipFile, infos: dict[str, zipfile.ZipInfo], report: Report) -> bool:
    missing = [name for name in (*SCRIPTS, "requirements.txt") if name not in infos]
    if missing:
        nested = sorted({n for n in infos if PurePosixPath(n).name in SCRIPTS and "/" in n})
        hint = f" (found {', '.join(nested)}: zip the folder's contents, not the folder)" if nested else ""
        report.add("FAIL", "layout", f"missing at the zip's root: {', '.join(missing)}{hint}")
        return False
    problems = []
    for name in SCRIPTS:
        mode = (infos[name].external_attr >> 16) & 0o777
        if not mode & 0o111:
            problems.append(f"{name} is not executable (mode {mode:o})")
        data = zf.read(name)
        if not data.startswith(b"#!"):
            problems.append(f"{name} has no #! line")
        if b"\r\n" in data:
            problems.append(f"{name} has Windows line endings (bash fails with '\\r: command not found')")
    if problems:
        report.add("FAIL", "layout", "; ".join(problems))
        return False
    report.add("PASS", "layout", "setup.sh, run_autograder (executable, #!, LF) and requirements.txt at the root")
    return True


def _check_contents(zf: zipfile.ZipFile, infos: dict[str, zipfile.ZipInfo], report: Report) -> None:
    problems = []
    unsafe = [n for n in infos if n.startswith("/") or ".." in PurePosixPath(n).parts]
    if unsafe:
        problems.append(f"unsafe paths: {', '.join(unsafe[:5])}")
    forbidden = sorted(n for n in infos if _forbidden(n))
    if forbidden:
        tops = sorted({_first_forbidden(n) for n in forbidden})
        problems.append(f"{len(forbidden)} files that must not ship ({', '.join(tops)})")
    absent = [n for n in REQUIRED if n not in infos]
    if not any(re.fullmatch(rf"{build.SHIPPED_HOMEWORK}/tests/test_\w+\.py", n) for n in infos):
        absent.append(f"{build.SHIPPED_HOMEWORK}/tests/test_*.py")
    if f"{build.SHIPPED_HOMEWORK}/homework.py" not in infos:
        absent.append(f"{build.SHIPPED_HOMEWORK}/homework.py")
    if absent:
        problems.append(f"missing: {', '.join(absent)}")
    leaks = _solution_leaks(zf, infos)
    if leaks:
        problems.append(f"solution code inside: {', '.join(leaks[:5])}")
    if problems:
        report.add("FAIL", "contents", "; ".join(problems))
    else:
        report.add(
            "PASS",
            "contents",
            f"{len(infos)} files; the engine and graded suite; no reference, tests, venv, git or caches",
        )


def _forbidden(name: str) -> bool:
    parts = PurePosixPath(name).parts
    return bool(parts and parts[0] in FORBIDDEN) or bool(ANYWHERE & set(parts)) or name.endswith(".pyc")


def _first_forbidden(name: str) -> str:
    parts = PurePosixPath(name).parts
    hits = [p for i, p in enumerate(parts) if (p in FORBIDDEN and i == 0) or p in ANYWHERE]
    return f"{hits[0]}/" if hits else "*.pyc"


def _solution_leaks(zf: zipfile.ZipFile, infos: dict[str, zipfile.ZipInfo]) -> list[str]:
    reference = contract.HOMEWORK.solution
    solution = reference.read_bytes() if reference.is_file() else None
    leaks = []
    for name, info in infos.items():
        if info.file_size > 2_000_000 or not name.endswith((".py", ".ipynb", ".txt", ".md", ".sh")):
            continue
        data = zf.read(name)
        if (solution is not None and data == solution) or re.search(rb"^\s*# BEGIN SOLUTION", data, re.M):
            leaks.append(name)
    return leaks


def _check_fresh(zf: zipfile.ZipFile, infos: dict[str, zipfile.ZipInfo], report: Report) -> None:
    try:
        current = build.zip_members()
    except OSError:
        return
    stale = sorted(set(current) ^ set(infos))
    stale += [n for n in current if n in infos and zf.read(n) != build.source_of(n).read_bytes()]
    if stale:
        report.add(
            "WARN",
            "up to date",
            f"{len(stale)} files differ from the working tree (e.g. {stale[0]}): "
            "rebuild with `autograder build` if that is not intended",
        )
    else:
        report.add("PASS", "up to date", "identical to what `autograder build` makes from this tree")


# ---------------------------------------------------------------- 2. Gradescope's steps


def run_like_gradescope(
    zip_path: Path, report: Report, *, python: str | None, cases: list[tuple[str, Path]], keep: bool = False
) -> str:
    """Gradescope's steps in a temporary root; returns the venv's Python version ("" if none was built)."""
    # Directly under /tmp, like /autograder under /: the sandbox user can reach the venv
    # once run_autograder has locked the root down.
    root = Path(tempfile.mkdtemp(prefix="check-zip-", dir="/tmp" if Path("/tmp").is_dir() else None))
    spare = Path(tempfile.mkdtemp(prefix="ag-py-", dir=root.parent))  # outside the root: run_autograder locks it
    spare.chmod(0o755)  # (a short path: pythons.relocate writes it into the executable)
    try:
        unzip(zip_path, root / "source")
        python = pythons.reachable(python, spare / "p", warn=lambda text: report.add("WARN", "python", text))
        version = _setup(root, report, python)
        if not version:
            return ""
        shutil.copy2(root / "source" / "run_autograder", root / "run_autograder")
        reference_tests: list[str] = []
        for label, path in cases:
            reference_tests = _grade_case(root, report, label, path, reference_tests)
        return version
    finally:
        if keep:
            print(f"check-zip: kept the autograder root {root}")
        else:
            shutil.rmtree(root, ignore_errors=True)
        shutil.rmtree(spare, ignore_errors=True)


def unzip(zip_path: Path, destination: Path) -> None:
    """Extract keeping the executable bits, as Gradescope's unzip does."""
    with zipfile.ZipFile(zip_path) as zf:
        for info in zf.infolist():
            if info.is_dir():
                continue
            target = destination / info.filename
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes(zf.read(info))
            target.chmod((info.external_attr >> 16) & 0o777 or 0o644)


def clean_env(root: Path, **extra: str) -> dict[str, str]:
    """Our environment without anything that would make it unlike Gradescope's."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("AUTOGRADER_", "PYTHON", "VIRTUAL_ENV"))}
    if os.environ.get("AUTOGRADER_SANDBOX_USER"):  # a developer's own sandbox user, as for every grading here
        env["AUTOGRADER_SANDBOX_USER"] = os.environ["AUTOGRADER_SANDBOX_USER"]
    return dict(env, AUTOGRADER_ROOT=str(root), **extra)


def _setup(root: Path, report: Report, python: str | None) -> str:
    """Run setup.sh; the venv's Python version ("Python 3.10.13"), or "" when it failed."""
    if python:
        try:
            probe = _run(
                [python, "-c", "import venv, ensurepip, sys; print(sys.version.split()[0])"],
                root,
                {**os.environ},
                timeout=60,
            )
        except OSError as error:
            probe = subprocess.CompletedProcess([python], 1, f"{error}")
        if probe.returncode != 0:
            report.add("FAIL", "setup.sh", f"--python {python} cannot build a venv:\n{_tail(probe.stdout, 5)}")
            return ""
    print("....  setup.sh: building the venv from requirements.txt (about a minute)", flush=True)
    extra = {"AUTOGRADER_SETUP_PYTHON": python} if python else {}
    started = time.monotonic()
    try:
        done = _run(["bash", "setup.sh"], root / "source", clean_env(root, **extra), timeout=1800)
    except subprocess.TimeoutExpired:
        report.add("FAIL", "setup.sh", "did not finish within 30 minutes")
        return ""
    elapsed = time.monotonic() - started
    venv_python = root / "venv" / "bin" / "python"
    if done.returncode != 0 or not venv_python.exists():
        report.add("FAIL", "setup.sh", f"exit status {done.returncode} after {elapsed:.0f} s:\n{_tail(done.stdout)}")
        return ""
    version = _run([str(venv_python), "--version"], root, clean_env(root), timeout=60).stdout.strip()
    if version.startswith("Python 3.10"):
        report.add("PASS", "setup.sh", f"venv built with {version} (as on Gradescope) in {elapsed:.0f} s")
    else:
        report.add("WARN", "setup.sh", f"venv built with {version} in {elapsed:.0f} s: NOT TESTING PYTHON 3.10, "
                   "the version of Gradescope's image")
    return version or "an unknown Python"


def _grade_case(root: Path, report: Report, label: str, path: Path, reference_tests: list[str]) -> list[str]:
    """Grade ``path`` with run_autograder in ``root``; check and return the test names."""
    if not path.exists():
        report.add("FAIL", label, f"{path} does not exist")
        return reference_tests
    for folder in ("submission", "results"):
        shutil.rmtree(root / folder, ignore_errors=True)
        (root / folder).mkdir()
    shutil.copy2(path, root / "submission" / path.name)
    started = time.monotonic()
    try:
        done = _run([str(root / "run_autograder")], root, clean_env(root), timeout=900)
    except subprocess.TimeoutExpired:
        report.add("FAIL", label, "run_autograder did not finish within 15 minutes")
        return reference_tests
    elapsed = time.monotonic() - started
    results = root / "results" / "results.json"
    try:
        data = json.loads(results.read_text())
    except (OSError, ValueError) as error:
        report.add("FAIL", label, f"no readable results.json ({error}):\n{_tail(done.stdout)}")
        return reference_tests
    names = [str(t.get("name")) for t in data.get("tests", []) if isinstance(t, dict)]
    problems = validate(data) + expectations(label, data, reference_tests) + isolation_problems(data)
    score, top = _totals(data)
    summary = f"{score:g}/{top:g} points, {len(names)} tests, {elapsed:.1f} s"
    if problems:
        report.add("FAIL", label, f"{summary}:\n" + "\n".join(f"      - {p}" for p in problems))
    else:
        how = "schema" if SCHEMA.is_file() and _jsonschema() else "structural check only"
        report.add("PASS", label, f"{summary}; results.json valid ({how})")
    return names if label == "reference" else reference_tests


def expectations(label: str, data: dict, reference_tests: list[str]) -> list[str]:
    """What the reference (full marks) and the template (0, every test reported) must get."""
    tests = [t for t in data.get("tests", []) if isinstance(t, dict)]
    score, top = _totals(data)
    problems = []
    if not tests:
        return ["no tests in results.json (the grading engine failed?)"]
    if label == "reference":  # which tests lose points, and what each says (or why grading stopped)
        return problems + consistency.reference_problems(data)
    if not math.isclose(top, contract.TOTAL_POINTS):
        problems.append(f"the tests are worth {top:g} points, the homework's POINTS say {contract.TOTAL_POINTS:g}")
    if label == "template":
        if score != 0:
            problems.append(f"the blank template scores {score:g}, expected 0")
        names = [t.get("name") for t in tests]
        if reference_tests and sorted(names) != sorted(reference_tests):
            problems.append(f"{len(names)} tests reported, the reference had {len(reference_tests)}")
        silent = [t.get("name", "?") for t in tests if not str(t.get("output", "")).strip()]
        if silent:
            problems.append(f"{len(silent)} failing tests say nothing (e.g. {silent[0]})")
    return problems


def isolation_problems(data: dict) -> list[str]:
    """A results.json that records reduced isolation (student code as root, unswitched, ...) fails the check."""
    extra = data.get("extra_data")
    note = extra.get("isolation") if isinstance(extra, dict) else None
    if not note:
        return []
    hint = "" if os.geteuid() == 0 else " (run check-zip as root, as Gradescope runs run_autograder)"
    return [f"student code ran with reduced isolation: {note}{hint}"]


_totals = consistency.totals


def _run(command: list[str], cwd: Path, env: dict[str, str], *, timeout: float) -> subprocess.CompletedProcess:
    return subprocess.run(
        command,
        cwd=cwd,
        env=env,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        errors="replace",
        timeout=timeout,
        check=False,
    )


def _tail(text: str, lines: int = 25) -> str:
    return "\n".join("      | " + line for line in text.rstrip().splitlines()[-lines:])
