"""How fast and how lean is grading one correct submission?

Prints the median wall time of ``python -m autograder grade reference/attention.py``
over the median of ``python -c "import numpy, pytest"`` (the floor any pytest-based
grader pays), both measured alternately in one run, and the peak memory of the
grading process tree (sum of the RSS of every process, sampled every 10 ms) and of
its largest process.

    .venv/bin/python benchmarks/bench_grade.py [--rounds 7] [--submission PATH | --bug NAME]

``--bug NAME`` grades the solution with one of the homework's example mistakes (``examples/buggy.json``) instead:
``forgot_scale`` makes all of attention wrong from scaled dot-product attention on (multi-head attention, the KV
cache, generation), the diagnosis probing each failing test.

Goals: ratio <= 3 for the solution (issue 29; 5 before), at most 2 s for ``--bug forgot_scale`` (issue 29), peak
memory < 400 MB.
"""

from __future__ import annotations

import argparse
import atexit
import contextlib
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--submission", type=Path, default=REPO / "reference" / "attention.py")
    parser.add_argument("--bug", help="grade the solution with this example mistake of examples/buggy.json")
    args = parser.parse_args()
    if args.bug:
        sys.path.insert(0, str(REPO))
        from tests.fixtures_export import buggy_sources

        folder = Path(tempfile.mkdtemp(prefix="bench-grade-"))
        atexit.register(shutil.rmtree, folder, True)
        args.submission = folder / "attention.py"
        args.submission.write_text(buggy_sources()[args.bug])

    baseline_cmd = [sys.executable, "-c", "import numpy, pytest"]
    grade_cmd = [sys.executable, "-m", "autograder", "grade", str(args.submission), "--json"]
    run(baseline_cmd)  # warm the page cache for both before measuring
    run(grade_cmd)
    baseline, grading, peaks_total, peaks_single = [], [], [], []
    for _ in range(args.rounds):
        baseline.append(run(baseline_cmd)[0])
        seconds, total, single = run(grade_cmd)
        grading.append(seconds)
        peaks_total.append(total)
        peaks_single.append(single)

    base, graded = statistics.median(baseline), statistics.median(grading)
    print(f"import numpy, pytest : median {base:.3f} s over {args.rounds} runs")
    print(f"grade {args.submission.name:<13}: median {graded:.3f} s over {args.rounds} runs")
    goal = f"goal <= 2 s for {args.bug}" if args.bug else "goal <= 3"
    print(f"ratio                : {graded / base:.2f}x  ({goal})")
    print(f"peak memory          : {max(peaks_total):.0f} MB for the whole process tree, "
          f"{max(peaks_single):.0f} MB for its largest process  (goal < 400 MB)")
    return 0


def run(cmd: list[str]) -> tuple[float, float, float]:
    """Run ``cmd`` from the repo; return (wall seconds, peak tree RSS MB, peak single-process RSS MB)."""
    started = time.perf_counter()
    proc = subprocess.Popen(cmd, cwd=REPO, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    peak_total = peak_single = 0.0
    while proc.poll() is None:
        sizes = [rss_mb(pid) for pid in process_tree(proc.pid)]
        peak_total = max(peak_total, sum(sizes))
        peak_single = max([peak_single, *sizes])
        time.sleep(0.01)
    elapsed = time.perf_counter() - started
    if proc.returncode != 0:
        raise SystemExit(f"{cmd} exited with {proc.returncode}")
    return elapsed, peak_total, peak_single


# Each task's children listed by the kernel (/proc/PID/task/TID/children): a few reads per sample, so that sampling
# every 10 ms takes little of the CPU the grading needs; without them, one scan of all of /proc per sample.
CHILDREN_FILES = os.path.exists(f"/proc/{os.getpid()}/task/{os.getpid()}/children")


def process_tree(root: int) -> list[int]:
    """``root`` and all its live descendants."""
    children = _listed_children if CHILDREN_FILES else _children_by_parent()
    tree, todo = [], [root]
    while todo:
        pid = todo.pop()
        tree.append(pid)
        todo += children(pid)
    return tree


def _listed_children(pid: int) -> list[int]:
    found: list[int] = []
    with contextlib.suppress(OSError, ValueError):  # it just ended
        for task in os.listdir(f"/proc/{pid}/task"):
            found += map(int, Path(f"/proc/{pid}/task/{task}/children").read_text().split())
    return found


def _children_by_parent() -> Callable[[int], list[int]]:
    children: dict[int, list[int]] = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue
            children.setdefault(int(fields[1]), []).append(int(entry.name))
    return lambda pid: children.get(pid, [])


def rss_mb(pid: int) -> float:
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    except OSError:
        pass
    return 0.0


if __name__ == "__main__":
    sys.exit(main())
