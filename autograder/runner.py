"""The run_autograder flow: grade ``$ROOT/submission`` into ``$ROOT/results/results.json``.

``run_autograder`` (Gradescope, and ``python -m autograder grade`` locally) calls
``python -m autograder run --root ROOT``. The flow:

1. intake: find and parse the student's file (never executing it here);
2. start the sandboxed worker that runs the student's code;
3. run the graded pytest suite in this process, with the results plugin;
4. kill everything the student started, then write results.json atomically.

Whatever goes wrong, a valid results.json is written: a broken submission gets
0 points with an explanation, a crash of the engine itself a fallback result.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
import traceback
from pathlib import Path

from autograder import contract, results

GRADED_DIR = Path(__file__).resolve().parent / "graded"


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="python -m autograder run", description=__doc__.splitlines()[0])
    parser.add_argument(
        "--root",
        type=Path,
        default=Path(os.environ.get("AUTOGRADER_ROOT", "/autograder")),
        help="the autograder root holding submission/ and results/ (default $AUTOGRADER_ROOT or /autograder)",
    )
    args = parser.parse_args(argv)
    run(args.root)
    return 0


def run(root: Path) -> dict:
    """Grade ``root/submission`` and write ``root/results/results.json``; return the results."""
    started = time.monotonic()
    results_path = root / "results" / "results.json"
    try:
        data = grade_folder(root / "submission")
    except BaseException:  # the engine itself failed: still answer
        traceback.print_exc()
        data = results.fallback_results(
            "**The autograder could not finish grading** because of a problem on our side, "
            "not in your code. Please resubmit; if this message stays, tell your course staff."
        )
    data["execution_time"] = round(time.monotonic() - started, 3)
    results.write_results(results_path, data)
    return data


def grade_folder(submission: Path) -> dict:
    """Intake, sandbox, graded suite; returns Gradescope's results dict (not yet written)."""
    import pytest

    from autograder import intake, plugin, student

    started = time.monotonic()
    notes: list[str] = []
    try:
        program = intake.intake(submission)
        notes += program.notes
        grader = student.Student(program)
    except intake.IntakeError as error:
        notes.append(str(error))
        grader = student.Student.unloaded(str(error))
    collector = plugin.ResultsPlugin(expected_points={name: pts for name, (_, pts) in contract.FUNCTIONS.items()})
    fixtures = _student_fixture(pytest, grader)
    try:
        grader.start()
        notes += grader.notes
        pytest.main(_pytest_args(), plugins=[collector, fixtures])
    finally:
        grader.close()  # every student process is gone before results are written
    if grader.isolation_note:
        print(grader.isolation_note, file=sys.stderr)
    return results.build_results(
        collector.tests, execution_time=time.monotonic() - started, notes=_unique(notes + grader.notes)
    )


def _pytest_args() -> list[str]:
    """Our suite, our config only: a submission's conftest.py or pytest.ini is never seen."""
    return [
        str(GRADED_DIR),
        "--rootdir",
        str(GRADED_DIR),
        "-c",
        str(GRADED_DIR / "pytest.ini"),
        "-p",
        "no:cacheprovider",
        "-q",
        "--no-header",
        "-rN",
    ]


def _student_fixture(pytest: object, grader: object) -> object:
    """A plugin object handing the session's Student to the graded tests as ``student``."""

    class StudentFixture:
        @pytest.fixture(scope="session")
        def student(self) -> object:
            return grader

    return StudentFixture()


def _unique(items: list[str]) -> list[str]:
    return list(dict.fromkeys(items))
