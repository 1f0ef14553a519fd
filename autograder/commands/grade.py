"""``python -m autograder grade PATH``: grade locally, exactly as Gradescope would.

PATH is a student's ``attention.py``, ``attention.ipynb`` or a folder holding one; a
file given directly is graded as ``attention.py`` (``attention.ipynb``) whatever its
name, with a note. The zip's contents are laid out in a temporary autograder root
(``source/``, ``submission/``, ``results/``) and the same ``run_autograder`` script
Gradescope runs grades it; then the result is summarised here: points by part and the
feedback of every failing test. One line on stderr says which isolation layers were active
(namespaces.py), another when student code ran with reduced isolation (e.g. as root because the
sandbox user cannot run this Python). As root without namespaces, it refuses (status 3) to run
student code the sandbox user could read this checkout from, unless given ``--allow-exposed``.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from autograder.commands import build
from autograder.feedback import markdown
from autograder.results import document
from autograder.sandbox import accounts, supervisor


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="python -m autograder grade", description=__doc__.splitlines()[0])
    parser.add_argument("path", type=Path, help="attention.py, attention.ipynb, or a folder holding one")
    parser.add_argument("-o", "--output", type=Path, help="also write results.json here")
    parser.add_argument("--json", action="store_true", help="print results.json instead of the summary")
    parser.add_argument("--all", action="store_true", help="show hidden tests' feedback too (what a TA sees)")
    parser.add_argument(accounts.ALLOW_FLAG, action="store_true",
                        help="grade even though, with no namespaces here, the sandbox user can read this checkout")
    args = parser.parse_args(argv)
    if not args.path.exists():
        print(f"grade: {args.path} does not exist", file=sys.stderr)
        return 2
    try:
        data = grade(args.path, allow_exposed=args.allow_exposed)
    except RefusedError as refused:
        print(f"grade: {refused}", file=sys.stderr)
        return 3
    extra = data.get("extra_data")
    if isinstance(extra, dict) and extra.get("isolation_layers"):
        print(f"grade: isolation: {'; '.join(map(str, extra['isolation_layers']))}", file=sys.stderr)
    if isinstance(extra, dict) and extra.get("isolation"):
        print(f"grade: {extra['isolation']}", file=sys.stderr)
    if args.output:
        document.write_results(args.output, data)
    if args.json:
        print(json.dumps(data, indent=2))
    else:
        print(document.summary_text(data, show_hidden=args.all))
    return 0


class RefusedError(RuntimeError):
    """Student code would run where it could read this checkout (no namespaces, readable files)."""


def grade(path: Path, *, python: str | None = None, timeout: float | None = None, allow_exposed: bool = False) -> dict:
    """Grade ``path`` in a fresh temporary autograder root; return the parsed results.json.

    Raises RefusedError, before any student code runs, when the worker would get no private world and the
    sandbox user could read part of this checkout (accounts.refusal), unless ``allow_exposed``."""
    user = os.environ.get(supervisor.USER_ENV) or supervisor.DEFAULT_USER
    refusal = accounts.refusal(user, [], allowed=allow_exposed)
    if refusal and not allow_exposed:
        raise RefusedError(refusal)
    if refusal:
        print(f"grade: {refusal}", file=sys.stderr)
    with tempfile.TemporaryDirectory(prefix="autograder-root-") as tmp:
        root = Path(tmp)
        build.copy_tree(root / "source")
        note = copy_submission(path, root / "submission")
        log = run_root(root, python=python, timeout=timeout)
        data = json.loads((root / "results" / "results.json").read_text())
        if not data.get("tests") or os.environ.get("AUTOGRADER_VERBOSE"):
            print(log, file=sys.stderr)  # the engine failed: show the instructor why
        return add_note(data, note) if note else data


def copy_submission(path: Path, destination: Path) -> str:
    """Put a file, or a folder's contents, where Gradescope puts the submission.

    A ``.py`` or ``.ipynb`` file is put there as ``attention.py`` or ``attention.ipynb``
    whatever its name (``grade loops.py`` grades loops.py); then a note naming the original
    is returned (otherwise "").
    """
    if path.is_dir():
        shutil.copytree(path, destination, symlinks=True)
        return ""
    destination.mkdir(parents=True)
    suffix = path.suffix.lower()
    name = f"attention{suffix}" if suffix in (".py", ".ipynb") else path.name
    shutil.copy2(path, destination / name)
    if name == path.name:
        return ""
    return f"Your file is named {markdown.code_span(path.name)}; it was graded as `{name}`."


def add_note(data: dict, note: str) -> dict:
    """``data`` (a results dict) with ``note`` first among its notes, as the runner would have put it."""
    output = str(data.get("output", ""))
    data["output"] = f"{note}\n\n{output}" if output else note
    extra = data.setdefault("extra_data", {})
    if isinstance(extra, dict):
        extra["notes"] = [note, *extra.get("notes", [])]
    return data


def run_root(root: Path, *, python: str | None = None, timeout: float | None = None) -> str:
    """Run ``run_autograder`` in ``root`` as Gradescope does; return its log (stdout + stderr).

    run_autograder always leaves a results.json, whatever the submission does.
    """
    env = dict(os.environ, AUTOGRADER_ROOT=str(root), AUTOGRADER_PYTHON=python or sys.executable)
    done = subprocess.run(
        ["bash", str(root / "source" / "run_autograder")],
        env=env,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        errors="replace",
        timeout=timeout,
        check=False,
    )
    return done.stdout
