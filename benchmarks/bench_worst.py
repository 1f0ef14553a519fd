"""How long does the worst submission we know of take to grade?

Writes a submission that spends almost the whole per-statement limit on each of six
top-level statements, and whose every graded function (and ``KVCache``) blocks SIGALRM,
forks a process that fork-bombs for a minute, and spins forever. Grades it with
``python -m autograder grade`` and prints the wall time, the score, whether the results
are valid, and the processes left behind afterwards.

    .venv/bin/python benchmarks/bench_worst.py

Goal (issue: grading engine): the worst possible submission is graded in at most 3 minutes,
with 0 points, a valid results.json and nothing left running. The time is bounded by the
engine's budget (``student.BUDGET``) plus pytest's own start-up and the final cleanup.
"""

from __future__ import annotations

import json
import os
import pwd
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from autograder import contract  # noqa: E402 - after the path is set
from autograder.results.check import validate  # noqa: E402
from autograder.sandbox import reaper, supervisor  # noqa: E402

GOAL = 180.0  # seconds

WORST = '''
import os, signal, time

def _busy(seconds):  # swallows the statement timeout's exception until the time is up
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        try:
            while time.monotonic() < end:
                pass
        except BaseException:
            pass

class _S1: _busy(4.9)
class _S2: _busy(4.9)
class _S3: _busy(4.9)
class _S4: _busy(4.9)
class _S5: _busy(4.9)
class _S6: _busy(4.9)

def _storm(seconds=60):
    end = time.time() + seconds
    while time.time() < end:
        try:
            if os.fork() == 0:
                continue
        except OSError:
            time.sleep(0.001)
    os._exit(0)

def _hang(*args, **kwargs):
    signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGALRM})
    if os.fork() == 0:
        _storm()
    while True:
        pass
'''


def submission() -> str:
    """The worst-case source: every contract function (and KVCache) hangs."""
    lines = [WORST]
    for name in contract.FUNCTIONS:
        if name == "KVCache":
            lines.append("class KVCache:\n    def __init__(self, *a, **k): _hang()\n")
        else:
            lines.append(f"def {name}(*a, **k): _hang()\n")
    return "\n".join(lines)


def main() -> int:
    with tempfile.TemporaryDirectory(prefix="bench-worst-") as tmp:
        path = Path(tmp) / "attention.py"
        path.write_text(submission())
        results = Path(tmp) / "results.json"
        started = time.perf_counter()
        proc = subprocess.run([sys.executable, "-m", "autograder", "grade", str(path), "-o", str(results), "--json"],
                              cwd=REPO, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, check=False)
        seconds = time.perf_counter() - started
        data = json.loads(results.read_text()) if results.is_file() else None
    left = leftovers()
    problems = validate(data) if data is not None else ["no results.json"]
    score = data["score"] if data else None
    print(f"worst submission graded in {seconds:.1f} s  (goal <= {GOAL:.0f} s), exit {proc.returncode}")
    print(f"score {score} / {contract.TOTAL_POINTS}; results.json {'valid' if not problems else problems}")
    print(f"processes left behind: {len(left)}")
    ok = seconds <= GOAL and not problems and score == 0 and not left
    print("PASS" if ok else "FAIL")
    return 0 if ok else 1


def leftovers() -> list[int]:
    """Processes still alive that student code started: the sandbox user's (by the uids in /proc/PID/status,
    since a non-dumpable process's /proc entry is owned by root), or any running worker.py."""
    try:
        sandbox_uid = pwd.getpwnam(os.environ.get(supervisor.USER_ENV) or supervisor.DEFAULT_USER).pw_uid
    except KeyError:
        sandbox_uid = None
    found = []
    for pid, info in reaper.process_table().items():
        try:
            command = reaper.read_proc(f"/proc/{pid}/cmdline")
        except OSError:
            continue  # it just exited
        if sandbox_uid in info["uids"] or b"worker.py" in command:
            found.append(pid)
    return found

if __name__ == "__main__":
    sys.exit(main())
