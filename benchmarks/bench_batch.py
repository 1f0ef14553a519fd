"""Benchmark ``python -m autograder batch`` and check it against ``grade`` alone.

    .venv/bin/python benchmarks/bench_batch.py [--n 60] [--jobs 2] [--correct 60] [--no-compare]

1. Throughput: a class of ``--correct`` copies of the reference, graded with
   ``--jobs`` warm graders; prints submissions/s end to end (goal: at least 4/s with
   --jobs 2 on a 2-core machine, "SHORT" below it; below 1.5/s is a failure).
2. A realistic class of ``--n`` submissions (correct, buggy, blank and one hostile
   infinite loop) exported like Gradescope (zip with submission_metadata.yml),
   regraded by batch; prints submissions/s and the time of the slowest one.
3. Unless ``--no-compare``: every submission of (2) graded alone with ``grade``
   (the run_autograder path, one fresh process each); every total in scores.csv
   must be the same.

With ``--scaling``, instead: the scaling curve. The same class graded with ``--jobs`` 1, 2, 4, ... up to the
core count (and the core count itself), for ``--correct`` correct submissions and for a realistic class of
``--n`` (as in 2, without the hostile loop, whose time limit would dominate a small class); each line gives
submissions/s end to end and in the grading phase, and the grading phase's efficiency against ``--jobs 1``
(rate / (jobs x rate at --jobs 1); goal: at least 0.8 up to the core count).

    .venv/bin/python benchmarks/bench_batch.py --scaling [--correct 24] [--n 24] [--max-jobs CORES]

Exit status 0 when the totals agree and the throughput is at least 1.5/s (with ``--scaling``: when every run
graded every submission).
"""

from __future__ import annotations

import argparse
import contextlib
import csv
import io
import os
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from autograder import batch  # noqa: E402
from autograder.batch import export  # noqa: E402
from autograder.commands import grade  # noqa: E402
from tests import fixtures_export as fx  # noqa: E402

TARGET, FLOOR = 4.0, 1.5  # the goal of issue 11 (--jobs 2 on 2 cores), and what fails the exit status


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=60, help="submissions in the realistic class (default 60)")
    parser.add_argument("--correct", type=int, default=60, help="correct submissions for the throughput run")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--no-compare", action="store_true", help="skip grading each submission alone")
    parser.add_argument("--keep", type=Path, help="keep the exports and outputs in this folder")
    parser.add_argument("--scaling", action="store_true", help="print the scaling curve over --jobs 1, 2, 4, ...")
    parser.add_argument("--max-jobs", type=int, default=cores(),
                        help="with --scaling: the last --jobs (default: the cores)")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="bench-batch-") as tmp:
        work = args.keep or Path(tmp)
        work.mkdir(parents=True, exist_ok=True)
        if args.scaling:
            return scaling(work, args.correct, args.n, args.max_jobs)
        ok = True
        if args.correct:
            rate = throughput(work / "correct", args.correct, args.jobs)
            verdict = "PASS" if rate >= TARGET else "SHORT" if rate >= FLOOR else "FAIL"
            print(f"{verdict}  throughput: {rate:.2f} submissions/s for correct submissions with --jobs {args.jobs}")
            ok &= rate >= FLOOR
        if args.n:
            ok &= realistic(work / "class", args.n, args.jobs, compare=not args.no_compare)
    return 0 if ok else 1


def throughput(folder: Path, n: int, jobs: int) -> float:
    """Submissions/s of the whole `batch` command (start-up and report included) on correct ones."""
    path, _ = fx.write_export(folder / "in", [fx.REFERENCE.read_text()] * n)
    stats: dict = {}
    started = time.monotonic()
    status = batch.run(path, folder / "out", jobs=jobs, force=True, plain=True, stats=stats)
    elapsed = time.monotonic() - started
    totals = [row["total"] for row in read_csv(folder / "out" / "scores.csv")]
    print(
        f"      {n} correct submissions in {elapsed:.1f} s end to end (exit {status}; totals {sorted(set(totals))}); "
        f"grading phase {stats['seconds']:.1f} s = {n / stats['seconds']:.2f}/s, "
        f"fixed start-up and report {elapsed - stats['seconds']:.1f} s"
    )
    return n / elapsed


def cores() -> int:
    return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1


def job_counts(most: int) -> list[int]:
    """1, 2, 4, ... up to ``most``, and ``most`` itself."""
    counts = [1]
    while counts[-1] * 2 <= most:
        counts.append(counts[-1] * 2)
    return counts + ([most] if counts[-1] != most else [])


def scaling(work: Path, correct: int, n: int, most: int) -> int:
    """The scaling curve for correct submissions and a realistic class; 0 when every run graded everything."""
    classes = [("correct", [fx.REFERENCE.read_text()] * correct)] if correct else []
    if n:
        classes.append(("realistic", [source for _, source in fx.class_plan(n, hostile=False)]))
    print(f"scaling on {cores()} cores (os.sched_getaffinity), --jobs {', '.join(map(str, job_counts(most)))}")
    ok = True
    for label, sources in classes:
        path, _ = fx.write_export(work / label / "in", sources)
        print(f"{label} ({len(sources)} submissions)\n  --jobs  end-to-end/s  grading/s  efficiency")
        first = None
        for jobs in job_counts(most):
            stats: dict = {}
            started = time.monotonic()
            with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
                status = batch.run(path, work / label / f"out-{jobs}", jobs=jobs, force=True, plain=True, stats=stats)
            elapsed = time.monotonic() - started
            rate = stats["graded"] / stats["seconds"]
            first = first or rate
            print(f"  {jobs:6d}  {len(sources) / elapsed:12.2f}  {rate:9.2f}  {rate / (jobs * first):10.2f}"
                  + ("" if status == 0 and stats["graded"] == len(sources) else f"  (exit {status})"), flush=True)
            ok &= stats["graded"] == len(sources)
    return 0 if ok else 1


def realistic(folder: Path, n: int, jobs: int, *, compare: bool) -> bool:
    path, kinds = fx.class_export(folder / "in", n, as_zip=True)
    out = folder / "out"
    started = time.monotonic()
    status = batch.run(path, out, jobs=jobs, force=True, plain=True)
    elapsed = time.monotonic() - started
    rows = {row["submission_id"]: row for row in read_csv(out / "scores.csv")}
    counts = dict(Counter(kind.split(":")[0] for kind in kinds.values()))
    print(f"      class of {n} {counts}: {elapsed:.1f} s, {n / elapsed:.2f} submissions/s (exit {status})")
    print(f"      outputs: {out / 'scores.csv'}, {out / 'report.html'}, {out / 'plots'}")
    ok = status == 0 and len(rows) == n
    if not compare:
        return ok
    subs = export.open_export(path, folder / "alone").submissions
    started = time.monotonic()
    alone = {s.id: grade.grade(s.path)["score"] for s in subs}  # one at a time: truly alone
    print(f"      graded each alone with `grade` in {time.monotonic() - started:.1f} s")
    mismatches = [
        (sid, kinds[sid], rows[sid]["total"], score)
        for sid, score in alone.items()
        if not same(rows[sid]["total"], score)
    ]
    for sid, kind, got, want in mismatches:
        print(f"      MISMATCH {sid} ({kind}): batch {got!r}, grade alone {want!r}")
    verdict = "PASS" if not mismatches and ok else "FAIL"
    print(f"{verdict}  totals: {n - len(mismatches)} of {n} equal to grading each submission alone")
    return ok and not mismatches


def same(csv_total: str, score: float) -> bool:
    return csv_total != "" and abs(float(csv_total) - float(score)) < 1e-9


def read_csv(path: Path) -> list[dict[str, str]]:
    with open(path, newline="", encoding="utf-8") as f:
        return list(csv.DictReader(f))


if __name__ == "__main__":
    sys.exit(main())
