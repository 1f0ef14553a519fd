"""The run_autograder flow: grade ``$ROOT/submission`` into ``$ROOT/results/results.json``.

``run_autograder`` (Gradescope, and ``python -m autograder grade`` locally) calls
``python -m autograder run --root ROOT``. The flow:

1. intake: find and parse the student's file (never executing it here);
2. start the sandboxed worker that runs the student's code;
3. run the graded pytest suite in this process, with the results plugin;
4. kill everything the student started, then write results.json atomically.

Whatever goes wrong, a valid results.json is written: a broken submission gets
0 points with an explanation, a crash of the engine itself a fallback result. A grader
error is never scored as the student's: when a test hit an internal error (after the
results plugin's one retry of a test whose worker was lost from outside), the whole
submission is a grader error ("a problem on our side, resubmit"), ``extra_data.grader_error``
says why (``batch`` lists it as not graded and retries it on the next run).
"""

from __future__ import annotations

import argparse
import atexit
import contextlib
import functools
import gc
import os
import re
import sys
import time
import traceback
from collections.abc import Callable
from pathlib import Path
from typing import Any, NoReturn

from autograder import contract
from autograder.results import document

PYTEST_INI = Path(__file__).resolve().parent / "suite" / "graded" / "pytest.ini"  # the engine's, never a homework's
NOT_GRADED = "Not graded: see the message at the top"  # each test's output when the submission cannot be read
GRADER_FAILED = (
    "**The autograder could not finish grading** because of a problem on our side, "
    "not in your code. Please resubmit; if this message stays, tell your course staff."
)


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="autograder run", description=__doc__.splitlines()[0].replace("``", "`"))
    parser.add_argument(
        "--root",
        type=Path,
        default=Path(os.environ.get("AUTOGRADER_ROOT", "/autograder")),
        help="the autograder root holding submission/ and results/ (default $AUTOGRADER_ROOT or /autograder)",
    )
    args = parser.parse_args(argv)
    from autograder.sandbox import namespace, seccomp

    namespace.probe_early()  # the sandbox's two probes run while this process imports numpy and the engine
    seccomp.probe_early()
    from autograder.sandbox import zygotes

    zygotes.on_demand["wanted"] = True  # this process grades one submission: its restarts fork from a zygote
    run(args.root)
    leave()


def leave() -> NoReturn:
    """End this process, its one grading done and results.json written: the exit handlers run and the streams
    are flushed as at any exit; only the interpreter's teardown is skipped (freeing numpy's, pytest's and the
    engine's modules object by object: ~9 ms of a 0.33 s ``run``, and nothing after it can change the results)."""
    atexit._run_exitfuncs()
    for stream in (sys.stdout, sys.stderr, sys.__stdout__, sys.__stderr__):
        with contextlib.suppress(Exception):  # a reader gone (cli.quiet_pipes), a closed stream: nothing to save
            stream.flush()
    os._exit(0)


def run(root: Path) -> dict:
    """Grade ``root/submission`` and write ``root/results/results.json``; return the results."""
    started = time.monotonic()
    results_path = root / "results" / "results.json"
    try:
        data = grade_folder(root / "submission")
    except BaseException:  # the engine itself failed: still answer
        traceback.print_exc()
        data = grader_error_results(f"the engine failed: {traceback.format_exc(limit=1).strip()[-500:]}")
    data["execution_time"] = round(time.monotonic() - started, 3)
    document.write_results(results_path, data)
    return data


def grade_folder(submission: Path) -> dict:
    """Intake, sandbox, graded suite; returns Gradescope's results dict (not yet written)."""
    from autograder.intake.source import IntakeError
    from autograder.intake.submission import intake
    from autograder.sandbox import student

    started = time.monotonic()
    program, not_read, note = None, None, ""
    try:
        program = intake(submission, wanted=contract.FUNCTIONS)
        first = list(program.notes)
        grader = student.Student(program)
    except IntakeError as error:
        first = [str(error)]  # in full at the top; each test only points there
        grader = student.Student.unloaded(not_graded(str(error)))
        not_read = {"status": error.kind, "message": str(error)[:2000]}
    try:
        grader.launch()  # the worker starts (numpy) while this process imports and collects
        import pytest  # the suite: its first call waits for the worker and loads the code (Student.start)

        from autograder.results import plugin

        collector = plugin.ResultsPlugin(expected_points={name: pts for name, (_, pts) in contract.FUNCTIONS.items()})
        fixtures = _student_fixture(pytest, grader)
        gc.freeze()  # what is loaded by now lives to the end: pytest's end-of-session collections skip it
        run_pytest([collector, fixtures])
    finally:
        grader.close()  # every student process is gone before results are written
    note = none_defined_note(grader, program) if program is not None else ""
    first += [note] if note else []
    place = functools.partial(note_place, path=program.path if program is not None else "")
    known = set(first)  # a set: a notebook may bring tens of thousands of notes
    notes = ordered_notes(_unique(first), [n for n in _unique(grader.notes) if n not in known], place)
    data = document.build_results(collector.tests, execution_time=time.monotonic() - started, notes=notes)
    if collector.internal_errors:  # a grader error, unless each test failed on an odd value the student returned
        blamed = [nodeid for nodeid, why in grader.odd_values.items() if collector.blame_student(nodeid, why)]
        names = collector.internal_errors
        print(f"[grader] internal error in {len(names) + len(blamed)} tests, {len(blamed)} on a value the student's "
              f"code returned{'' if names else ': those tests failed'}", file=sys.stderr)
        data = document.build_results(collector.tests, execution_time=time.monotonic() - started, notes=notes)
        if names:  # evidence the student cannot produce: the whole submission is not graded
            data = grader_error_results(f"internal error in {len(names)} tests: {'; '.join(names)[:400]}", names)
    elif not_read is not None:  # why the score is 0: for a TA's table (batch's status column), not shown to students
        data["extra_data"]["intake"] = not_read
    elif note:  # it ran, but defines none of the graded names (the wrong file?): said in batch's status column too
        data["extra_data"]["defines_none"] = True
    data["extra_data"]["isolation_layers"] = grader.sandbox.layers  # which were active; `grade` prints them
    if grader.isolation_note:  # not for students (extra_data is not shown to them); `grade` prints it
        print(grader.isolation_note, file=sys.stderr)
        data["extra_data"]["isolation"] = grader.isolation_note
    return data


def grader_error_results(reason: str, tests: list[str] | None = None) -> dict:
    """The results of a submission the grader could not grade: 0 points, "a problem on our side, resubmit",
    and ``extra_data.grader_error`` (the reason, for the instructor: extra_data is not shown to students)."""
    data = document.fallback_results(GRADER_FAILED)
    data["extra_data"] = {"grader_error": reason, "internal_errors": list(tests or [])}
    return data


def not_graded(message: str) -> str:
    """What each test says when the submission could not be read: a pointer to the full message at the top."""
    line = message.strip().split("\n", 1)[0].strip()
    return f"{NOT_GRADED}: {line}" if len(line) <= 300 else f"{NOT_GRADED}."


def none_defined_note(grader: Any, program: Any) -> str:
    """A note when the loaded code defines none of the graded names ("" otherwise): wrong file, or all hidden away.
    From the names of the grading's first load (``Student.first_names``): none when the code never loaded."""
    defined = getattr(grader, "first_names", None)  # top-level name -> "function" | "class" | "other", from the worker
    if defined is None or any(name in defined for name in contract.FUNCTIONS):
        return ""
    from autograder.feedback.markdown import code_span

    found = [code_span(n, 60) for n, kind in defined.items() if kind in ("function", "class")]
    if found:
        more = f" and {len(found) - 12} more" if len(found) > 12 else ""
        found_text = f"Top-level functions and classes found: {', '.join(found[:12])}{more}."
    else:
        found_text = "It defines no top-level function or class at all."
    graded = ", ".join(f"`{name}`" for name in contract.FUNCTIONS)
    top = "of a code cell" if program.kind == "ipynb" else "of the file"
    return (f"{code_span(program.path)} defines none of the graded functions ({graded}). {found_text} "
            f"Did you upload the right file? Functions must be defined at the top level {top}, not inside "
            '`if __name__ == "__main__":`, a class or another function.')


def note_place(note: str, path: str = "") -> tuple[int, int] | None:
    """(code cell, line) a note starts with ("code cell 3, line 2: ...", "attention.py, lines 4, 9: ..."), else None."""
    match = _place_pattern(path).match(note)
    return (int(match[1] or 0), int(match[2])) if match else None


@functools.lru_cache(maxsize=8)
def _place_pattern(path: str) -> re.Pattern:
    """The pattern of ``note_place`` for one submission path (built once: a notebook may bring thousands of notes)."""
    from autograder.feedback.markdown import plain

    files = "|".join(sorted(re.escape(p) for p in {path, plain(path)} if p)) or "(?!)"
    return re.compile(rf"(?:code cell (\d+)|{files}), lines? (\d+)\b")


def ordered_notes(first: list[str], later: list[str], place: Callable[[str], Any]) -> list[str]:
    """Notes in reading order: general notes from intake first, then every note about a place in the code
    by cell and line (intake's and the worker's together), then the worker's general notes."""
    located = sorted((n for n in first + later if place(n) is not None), key=place)
    return [n for n in first if place(n) is None] + located + [n for n in later if place(n) is None]


UNUSED_PLUGINS = ("logging", "warnings", "unittest", "legacypath", "tmpdir", "recwarn", "debugging", "setuponly",
                  "setupplan", "threadexception", "unraisableexception", "skipping", "subtests", "monkeypatch")


def _pytest_args() -> list[str]:
    """Our suite, our config only: a submission's conftest.py or pytest.ini is never seen, nor a plugin installed in
    the grader's Python (pytest-randomly would reorder and reseed the graded tests)."""
    return [
        str(contract.HOMEWORK.tests),
        "--disable-plugin-autoload",  # no entry point is looked up either: ~10 ms of a grading's start-up
        "--rootdir",
        str(contract.HOMEWORK.tests),
        "-c",
        str(PYTEST_INI),
        "--import-mode=importlib",  # the homework's tests/ by path, under names of their own (never sys.path)
        "-p",
        "no:cacheprovider",
        "-q",
        "--no-header",
        "-rN",
        "--assert=plain",  # the graded tests fail with pytest.fail(feedback): no assertion rewriting to pay for
        "--capture=no",  # they print nothing (student output is the worker's, in its own file): no capture per test
        *("-p", "no:doctest", "-p", "no:junitxml", "-p", "no:pastebin", "-p", "no:stepwise"),
        # plugins the graded tests never use, each paid for on every test (~8% of a grading's own CPU):
        # their log and warning capture, unittest classes, tmp_path/tmpdir, recwarn, --pdb, --setup-only/plan,
        # the hooks around each test for exceptions in threads and __del__ (the grader runs neither), skip and
        # xfail marks (none: pytest.skip() itself needs no plugin), subtests, the monkeypatch fixture
        *(arg for name in UNUSED_PLUGINS for arg in ("-p", f"no:{name}")),
    ]


_prepared: list[Any] = []  # a pytest config made ahead of time (prepare_pytest), for the next session only


def prepare_pytest() -> None:
    """Make the graded session's pytest config now: its arguments parsed, its plugins loaded (~0.02 s of a
    grading). A batch's fork server does it once, and every fork uses its own copy once (run_pytest)."""
    from _pytest.config import _prepareconfig

    _prepared[:] = [_prepareconfig(_pytest_args())]


def run_pytest(plugins: list[object]) -> int:
    """``pytest.main(_pytest_args(), plugins=plugins)``: the same steps, from the config prepared ahead of
    time when there is one (the plugins are then registered into it: none of them takes part in parsing)."""
    import pytest

    if not _prepared:
        return pytest.main(_pytest_args(), plugins=plugins)
    config = _prepared.pop()
    for plugin in plugins:
        config.pluginmanager.register(plugin)
    previous = os.environ.get("PYTEST_VERSION")
    os.environ["PYTEST_VERSION"] = pytest.__version__  # as pytest.main sets it for the session
    try:
        return config.hook.pytest_cmdline_main(config=config)
    finally:
        config._ensure_unconfigure()
        if previous is None:
            os.environ.pop("PYTEST_VERSION", None)
        else:
            os.environ["PYTEST_VERSION"] = previous


def _student_fixture(pytest: object, grader: object) -> object:
    """A plugin object handing the session's Student to the graded tests as ``student``."""

    class StudentFixture:
        @pytest.fixture(scope="session")
        def student(self) -> object:
            return grader

    return StudentFixture()


def _unique(items: list[str]) -> list[str]:
    return list(dict.fromkeys(items))
