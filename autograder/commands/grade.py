"""``autograder grade PATH``: grade locally, exactly as Gradescope would.

PATH is a student's ``<UPLOAD>.py``, ``<UPLOAD>.ipynb`` (the homework's upload name) or a folder holding
one; a file given directly is graded as ``<UPLOAD>.py`` (``<UPLOAD>.ipynb``) whatever its name, with a note.
The zip's contents are laid out in a temporary autograder root
(``source/``, ``submission/``, ``results/``) and the same ``run_autograder`` script
Gradescope runs grades it; then the result is summarised here: points by part and the
feedback of every failing test. One line on stderr says which isolation layers were active
(namespaces.py), another when student code ran with reduced isolation (e.g. as root because the
sandbox user cannot run this Python). As root, student code runs as a sandbox user: the pool's base user
(``agsandbox``, or ``$AUTOGRADER_SANDBOX_USER``) is created when missing, and when it cannot be made or cannot
run this Python, ``grade`` refuses (status 3) and names the command that fixes it. As root without namespaces,
it refuses (status 3) to run student code the sandbox user could read this checkout from, unless given
``--allow-exposed``.

Exit status: 0 when the submission was graded (whatever its score), 1 when the grader itself could not grade it
(the results say "a problem on our side"; the reason goes to stderr), 2 on usage errors, 3 when refused (also
when the homework's generated files are stale: ``autograder template`` and ``regen`` first).

A folder that looks like a whole class (Gradescope's export, with ``submission_metadata.yml``,
or several subfolders that each hold an <UPLOAD>.py/.ipynb) or a zip is refused: ``batch``
grades those, one submission each.
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

from autograder import contract
from autograder.commands import build
from autograder.feedback import markdown
from autograder.intake import modules
from autograder.intake.folder import copy_folder, special_kind
from autograder.intake.submission import NAMES
from autograder.results import document, hygiene
from autograder.sandbox import accounts

MAX_CONSOLE_LINES, MAX_CONSOLE_CHARS = 3_000, 300_000  # what `grade` prints, whatever the submission


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="autograder grade", description=__doc__.splitlines()[0].replace("``", "`"))
    parser.add_argument("path", type=Path, help=f"{NAMES[0]}, {NAMES[1]}, or a folder holding one")
    parser.add_argument("-o", "--output", type=Path, help="also write results.json here")
    parser.add_argument("--json", action="store_true", help="print results.json instead of the summary")
    parser.add_argument("--all", action="store_true", help="show hidden tests' feedback too (what a TA sees)")
    parser.add_argument(accounts.ALLOW_FLAG, action="store_true",
                        help="grade even though, with no namespaces here, the sandbox user can read this checkout")
    args = parser.parse_args(argv)
    if not args.path.exists():
        print(f"grade: {args.path} does not exist", file=sys.stderr)
        return 2
    from autograder.sandbox import namespace
    from autograder.suite import stamp

    namespace.probe_early()  # its ~5 ms pass while the homework is checked for staleness
    stale = stamp.refusal()
    if stale:
        print(f"grade: {stale}", file=sys.stderr)
        return 3
    why = looks_like_a_class(args.path)
    if why:
        print(f"grade: {args.path} {why}: `grade` grades one submission. To grade them all, one each:\n"
              f"  autograder batch {args.path} -o OUTDIR", file=sys.stderr)
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
        print(f"grade: {console(str(extra['isolation']))}", file=sys.stderr)
    if args.output:
        document.write_results(args.output, data)
    if args.json:
        print(json.dumps(data, indent=2))  # ASCII: every control character escaped
    else:
        print(console(document.summary_text(data, show_hidden=args.all)))
    if grader_failed(data):
        why = extra.get("grader_error") if isinstance(extra, dict) else ""
        print(f"grade: the grader could not grade this submission (a problem on our side, not the student's)"
              f"{': ' + console(str(why)) if why else ''}", file=sys.stderr)
        return 1
    return 0


def looks_like_a_class(path: Path) -> str:
    """Why ``path`` looks like several students' submissions (an export), or "" when it is one submission."""
    if path.is_file():
        return "is a zip (a Gradescope export?)" if path.suffix.lower() == ".zip" else ""
    if (path / EXPORT_METADATA).is_file():
        return f"is a Gradescope export ({EXPORT_METADATA})"
    if any((path / name).is_file() for name in NAMES):
        return ""
    holders = [sub for sub in _subfolders(path) if _holds_a_submission(sub)]
    if len(holders) >= MANY:
        return f"holds {len(holders)} folders with a submission each (e.g. {holders[0].name}/)"
    return ""


EXPORT_METADATA = "submission_metadata.yml"
MANY = 2


def _subfolders(path: Path) -> list[Path]:
    try:
        return sorted(p for p in path.iterdir() if p.is_dir() and not p.name.startswith((".", "__")))
    except OSError:
        return []


def _holds_a_submission(folder: Path, depth: int = 2) -> bool:
    if any((folder / name).is_file() for name in NAMES):
        return True
    return depth > 0 and any(_holds_a_submission(sub, depth - 1) for sub in _subfolders(folder)[:50])


def console(text: str) -> str:
    """Text for the TA's terminal: control and bidi characters shown as escapes, at most ``MAX_CONSOLE_LINES``."""
    return hygiene.bounded(hygiene.visible(text), MAX_CONSOLE_CHARS, MAX_CONSOLE_LINES)


class RefusedError(RuntimeError):
    """Student code would run where it could read this checkout (no namespaces, readable files)."""


def grade(path: Path, *, python: str | None = None, timeout: float | None = None, allow_exposed: bool = False) -> dict:
    """Grade ``path`` in a fresh temporary autograder root; return the parsed results.json.

    Raises RefusedError, before any student code runs: as root, when no sandbox user can run student code (the
    pool's base user is created when missing, like setup.sh makes it: ``accounts.sandbox_user_problem``); when
    the worker would get no private world and the sandbox user could read part of this checkout
    (accounts.refusal), unless ``allow_exposed``."""
    user = os.environ.get(accounts.USER_ENV) or accounts.DEFAULT_USER
    if os.geteuid() == 0:  # student code never runs as root: a user of the sandbox pool, made here when missing
        problem = accounts.sandbox_user_problem(user, python)
        if problem:
            raise RefusedError(f"as root, student code runs as a sandbox user, and {problem}. Nothing was graded.")
    refusal = accounts.refusal(user, [], allowed=allow_exposed)
    if refusal and not allow_exposed:
        raise RefusedError(refusal)
    if refusal:
        print(f"grade: {refusal}", file=sys.stderr)
    with tempfile.TemporaryDirectory(prefix="autograder-root-", dir=scratch()) as tmp:
        root = Path(tmp)
        build.copy_tree(root / "source", compiled=True)
        notes = copy_submission(path, root / "submission")
        log = run_root(root, python=python, timeout=timeout)
        data = json.loads((root / "results" / "results.json").read_text())
        if engine_failed(data) or os.environ.get("AUTOGRADER_VERBOSE"):
            print(console(log), file=sys.stderr)  # the engine failed: show the instructor why
        for note in reversed(notes):
            data = add_note(data, note)
        return data


SCRATCH, SCRATCH_FREE_MB = "/dev/shm", 256


def scratch() -> str | None:
    """Where ``grade`` lays out its temporary root: the tmpfs ``SCRATCH`` when it is one, writable, with
    ``SCRATCH_FREE_MB`` free (no journal, no disk: ~35 ms of a 0.45 s grading on this VM's ext4 /tmp: ~180 files
    made, locked down, read and removed); else None, the temp folder (also whenever ``$TMPDIR`` names one)."""
    if os.environ.get("TMPDIR") or not os.access(SCRATCH, os.W_OK | os.X_OK):
        return None
    try:
        with open("/proc/self/mounts") as mounts:
            mounted = any(line.split()[1:3] == [SCRATCH, "tmpfs"] for line in mounts)
        free = os.statvfs(SCRATCH)
    except (OSError, IndexError):
        return None
    return SCRATCH if mounted and free.f_bavail * free.f_frsize >= SCRATCH_FREE_MB * 2**20 else None


def grader_failed(data: dict) -> bool:
    """Whether the grader itself could not grade the submission (``grade`` exits 1): the runner's grader error
    (``extra_data.grader_error``), or run_autograder's own fallback when the engine left no results at all."""
    extra = data.get("extra_data")
    return bool(extra.get("grader_error")) if isinstance(extra, dict) else not data.get("tests")


def engine_failed(data: dict) -> bool:
    """Whether the engine itself failed on some test (then ``grade`` prints its log): no tests, a grader error,
    or any test with the plugin's internal-error message."""
    extra = data.get("extra_data")
    tests = data.get("tests") or []
    return (not tests or (isinstance(extra, dict) and bool(extra.get("grader_error")))
            or any(isinstance(t, dict) and document.INTERNAL in str(t.get("output", "")) for t in tests))


def copy_submission(path: Path, destination: Path) -> list[str]:
    """Put a file, or a folder's contents, where Gradescope puts the submission; notes for the student.

    A folder is copied by ``intake.folder.copy_folder`` (bounded; special files left out, with a note).
    A ``.py`` or ``.ipynb`` file is put there as ``<UPLOAD>.py`` or ``<UPLOAD>.ipynb``
    whatever its name (``grade loops.py`` grades loops.py), with a note naming the original. An
    ``<UPLOAD>.py``/``.ipynb`` comes with the ``.py`` files beside it that its code imports (``from helpers
    import softmax``), as Python would find them: its folder is the student's. A file of another name may sit
    among other students' files (``alice.py`` beside ``bob.py``), so it comes alone: no student's code reads
    another's.
    """
    if path.is_dir():
        return copy_folder(path, destination)
    destination.mkdir(parents=True)
    kind = special_kind(path.stat().st_mode)
    if kind:
        return [f"{markdown.code_span(path.name)} is {kind}, not a file: nothing was graded."]
    suffix = path.suffix.lower()
    name = f"{contract.UPLOAD}{suffix}" if suffix in (".py", ".ipynb") else path.name
    shutil.copy2(path, destination / name)
    proper = path.name.lower() in NAMES
    for module in modules.imported_siblings(path) if proper else []:
        shutil.copy2(module, destination / module.name, follow_symlinks=False)
    alone = [] if proper else modules.alone_notes(path)  # its own imports of files beside it fail: said why
    if name == path.name:
        return alone
    return [f"Your file is named {markdown.code_span(path.name)}; it was graded as `{name}`.", *alone]


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
    env.pop("AUTOGRADER_HOMEWORK", None)  # the root's own homework/, as on Gradescope
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
