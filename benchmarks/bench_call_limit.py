"""How close does correct but slow code come to the per-call time limit (the homework's ``CALL_SECONDS``)?

Grades a submission in this process (``runner.grade_folder``: the sandbox, the suite and its probes, as ``grade``
does) and times every call of the student's code in the student's time (``Student``'s clock: the worker's waits
for a CPU and the grader's answers to its callbacks left out). Prints the slowest calls, and the margin: the limit
over the slowest call. The default submission is ``tests/oracle_independent.py``, every function written with plain
Python loops and ``math.fsum``: the slow end of correct code.

    .venv/bin/python benchmarks/bench_call_limit.py [--submission PATH] [--busy N] [--rounds 3]

``--busy N`` runs N processes that only burn CPU beside the grading: the student's time of each call must not
grow with them (the limit decides grades, so it must not depend on the neighbours).

Goal: a margin of at least 20 for the loops (a machine 20x slower than this one still grades them right).
Exit status 0 when the goal is met and the submission scored full marks.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import multiprocessing
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from autograder import contract, runner  # noqa: E402
from autograder.sandbox import student as student_module  # noqa: E402
from autograder.sandbox import zygotes  # noqa: E402

GOAL = 20.0


def _burn() -> None:
    while True:
        pass


def timed_grading(submission: Path) -> tuple[float, float, list[tuple[float, str]]]:
    """(score, max score, [(student seconds, what)] of every call) of one grading of ``submission``."""
    calls: list[tuple[float, str]] = []
    request = student_module.Student._request

    def timed(self: student_module.Student, what: str, *args: object, **kwargs: object) -> object:
        with contextlib.suppress(Exception):
            self.start()  # a (re)load is not the call's time: it has its own limits
        began = self.sandbox.clock.now()
        try:
            return request(self, what, *args, **kwargs)
        finally:
            calls.append((self.sandbox.clock.now() - began, what))

    student_module.Student._request = timed  # type: ignore[method-assign]
    try:
        with tempfile.TemporaryDirectory(prefix="bench-call-limit-") as folder:
            root = Path(folder) / "submission"
            root.mkdir()
            shutil.copy(submission, root / f"{contract.UPLOAD}{submission.suffix}")
            with contextlib.redirect_stdout(io.StringIO()):  # pytest's report: not this benchmark's
                data = runner.grade_folder(root)
    finally:
        student_module.Student._request = request  # type: ignore[method-assign]
    score = sum(t.get("score", 0) for t in data["tests"])
    return score, sum(t.get("max_score", 0) for t in data["tests"]), calls


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--submission", type=Path, default=REPO / "tests" / "oracle_independent.py")
    parser.add_argument("--busy", type=int, default=0, help="CPU-burning processes beside the grading")
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args(argv)
    zygotes.on_demand["wanted"] = True  # as `autograder run`: restarts fork from a zygote
    burners = [multiprocessing.Process(target=_burn, daemon=True) for _ in range(args.busy)]
    for p in burners:
        p.start()
    try:
        slowest: list[float] = []
        full = True
        for _ in range(args.rounds):
            started = time.monotonic()
            score, most, calls = timed_grading(args.submission)
            calls.sort(reverse=True)
            slowest.append(calls[0][0])
            full &= score == most
            top = ", ".join(f"{what} {seconds * 1000:.1f} ms" for seconds, what in calls[:3])
            wall = time.monotonic() - started
            print(f"  {score:g}/{most:g} in {wall:.2f} s wall, {len(calls)} calls; slowest: {top}")
    finally:
        for p in burners:
            p.kill()
    worst = max(slowest)
    margin = contract.CALL_SECONDS / worst if worst > 0 else float("inf")
    verdict = "PASS" if margin >= GOAL and full else "FAIL"
    print(f"{verdict}  {args.submission.name} with {args.busy} busy processes beside it: slowest call "
          f"{worst * 1000:.1f} ms (median of the rounds' slowest {statistics.median(slowest) * 1000:.1f} ms) "
          f"of the student's time; limit CALL_SECONDS = {contract.CALL_SECONDS:g} s, margin {margin:.0f}x "
          f"(goal >= {GOAL:g}x)")
    return 0 if verdict == "PASS" else 1


if __name__ == "__main__":
    sys.exit(main())
