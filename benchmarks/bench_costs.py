"""Where a grading's CPU time goes: the figures behind ``batch``'s throughput.

``batch --jobs 2`` on 2 cores is CPU-bound (each job is a grader and its worker taking turns),
so its throughput is about ``cores / (CPU seconds per submission)``. This prints, for a correct
submission graded as a batch fork grades it (warm: imports, suite and stored cases loaded first):

* the CPU seconds of the grader and of the worker (median of ``--rounds`` gradings) and the
  throughput they allow on this machine's cores;
* what the grading exchanges with the worker: requests (calls) and callbacks (``layer.query``...
  run by the grader, the contract's one token per call: generate_naive's are quadratic);
* the cost of one request and one callback round trip, and of one worker start (wall and CPU), measured alone:
  forked from the zygote as in a batch (as root with namespaces) and from scratch as ``grade`` starts one.

    .venv/bin/python benchmarks/bench_costs.py [--rounds 8] [--submission PATH]

As root, with the sandbox as ``grade`` and ``batch`` use it. Nothing here is a test: it prints figures.
"""

from __future__ import annotations

import argparse
import contextlib
import gc
import io
import os
import statistics
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

REQUEST_PROGRAM = "def softmax(Z, axis=-1):\n    return Z * 2\n"
CALLBACK_PROGRAM = """
import numpy as np
def qkv_project(layer, n):
    x = np.ones(4)
    for _ in range(int(n)):
        layer.query(x)
    return np.zeros(1)
"""


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=8)
    parser.add_argument("--submission", type=Path, default=REPO / "reference" / "attention.py")
    args = parser.parse_args()
    from autograder.batch import warm  # noqa: F401 - its import warms this process up as a batch's fork server

    gc.collect()
    gc.freeze()
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp) / "submission"
        folder.mkdir()
        (folder / "attention.py").write_bytes(args.submission.read_bytes())
        os.chmod(tmp, 0o755)
        os.chmod(folder, 0o755)
        rounds = [grade_in_a_fork(folder) for _ in range(args.rounds)]
        requests, callbacks = exchanges(folder)
    grader = statistics.median(r[0] for r in rounds)
    worker = statistics.median(r[1] for r in rounds)
    wall = statistics.median(r[2] for r in rounds)
    cores = os.cpu_count() or 1
    print(f"one grading ({args.submission.name}), median of {args.rounds}: {wall:.3f} s wall, "
          f"CPU {grader:.3f} s grader + {worker:.3f} s worker = {grader + worker:.3f} s")
    print(f"  -> at most {cores / (grader + worker):.2f} submissions/s on {cores} cores (CPU-bound)")
    print(f"exchanges with the worker: {requests} requests, {callbacks} callbacks")
    per_request, per_callback = request_cost(), callback_cost()
    print(f"one request round trip: {per_request * 1e6:.0f} us wall -> {requests * per_request:.3f} s of every grading")
    print(f"one callback round trip: {per_callback * 1e6:.0f} us wall -> {callbacks * per_callback:.3f} s "
          "of every grading")
    from autograder.sandbox import zygotes

    if zygotes.running(sys.executable):  # (warm.py started it, as in a batch's fork server)
        wall, cpu = worker_start()
        print(f"one worker start forked from the zygote (ready; private world): {wall:.3f} s wall, {cpu:.3f} s CPU")
        zygotes.stop()
    wall, cpu = worker_start()
    print(f"one worker start from scratch (interpreter, numpy, ready; private world as available): {wall:.3f} s "
          f"wall, {cpu:.3f} s CPU")
    return 0


def grade_in_a_fork(folder: Path) -> tuple[float, float, float]:
    """(grader CPU, worker CPU, wall) of one grading in a fork, as batch grades (``runner.grade_folder``)."""
    from autograder import runner
    from autograder.sandbox import cputime, supervisor

    read, write = os.pipe()
    began = time.perf_counter()
    pid = os.fork()
    if pid == 0:  # the child: grade, report CPU times on the pipe, leave without cleanup of the parent's state
        os.close(read)
        worker_cpu = [0.0]
        kill = supervisor.Sandbox.kill

        def counting_kill(self: supervisor.Sandbox) -> None:
            if self._proc is not None:  # the worker and every process of its world, before they are killed
                worker_cpu[0] += cputime.tree_cpu(self._proc.pid)
            kill(self)

        supervisor.Sandbox.kill = counting_kill
        started = time.process_time()
        with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
            runner.grade_folder(folder)
        os.write(write, f"{time.process_time() - started} {worker_cpu[0]}".encode())
        os._exit(0)
    os.close(write)
    os.waitpid(pid, 0)
    wall = time.perf_counter() - began
    grader, worker = (float(x) for x in os.read(read, 200).split())
    os.close(read)
    return grader, worker, wall


def exchanges(folder: Path) -> tuple[int, int]:
    """(requests, callbacks) of one grading, counted on the grader's side."""
    from autograder import runner
    from autograder.sandbox import student

    counts: Counter = Counter()
    request, callback = student.Student._request, student.Student._callback

    def counted_request(self: student.Student, *a: object, **k: object) -> object:
        counts["requests"] += 1
        return request(self, *a, **k)

    def counted_callback(self: student.Student, *a: object, **k: object) -> None:
        counts["callbacks"] += 1
        return callback(self, *a, **k)

    student.Student._request, student.Student._callback = counted_request, counted_callback
    try:
        with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
            runner.grade_folder(folder)
    finally:
        student.Student._request, student.Student._callback = request, callback
    return counts["requests"], counts["callbacks"]


def callback_cost(n: int = 2000) -> float:
    """Wall seconds of one layer.query round trip (worker -> grader -> worker), measured over ``n``."""
    import numpy as np

    from autograder import contract

    Layer = contract.HOMEWORK.module("diagnosis.objects").Layer

    with _student(CALLBACK_PROGRAM) as s:
        weights = np.ones((4, 3))
        s.call("qkv_project", Layer(weights, weights, weights), 20)
        began = time.perf_counter()
        s.call("qkv_project", Layer(weights, weights, weights), n)
        return (time.perf_counter() - began) / n


def request_cost(n: int = 2000) -> float:
    """Wall seconds of one request round trip (a call of a function of one small array), measured over ``n``."""
    import numpy as np

    with _student(REQUEST_PROGRAM) as s:
        Z = np.ones((3, 4))
        for _ in range(50):
            s.call("softmax", Z)
        began = time.perf_counter()
        for _ in range(n):
            s.call("softmax", Z)
        return (time.perf_counter() - began) / n


def _student(source: str) -> object:
    """A Student running ``source`` as its attention.py (use it in a ``with``)."""
    from autograder.intake.submission import intake
    from autograder.sandbox.student import Student

    with tempfile.TemporaryDirectory() as tmp:
        os.chmod(tmp, 0o755)
        (Path(tmp) / "attention.py").write_text(source)
        program = intake(Path(tmp))
    return Student(program)


def worker_start(rounds: int = 6) -> tuple[float, float]:
    """Median (wall seconds from starting a worker to its ready frame, CPU seconds of its world's processes)."""
    from autograder.sandbox import cputime
    from autograder.sandbox.supervisor import Sandbox

    times, cpus = [], []
    with Sandbox() as box:
        for _ in range(rounds):
            began = time.perf_counter()
            box.start()
            times.append(time.perf_counter() - began)
            cpus.append(cputime.tree_cpu(box._proc.pid))
            box.kill()
    return statistics.median(times), statistics.median(cpus)


if __name__ == "__main__":
    sys.exit(main())
