"""Grade many submissions in parallel, each in its own process forked from a warm grader.

* One fork server per batch (``multiprocessing``'s "forkserver") imports numpy, pytest,
  the grading engine and the graded suite once (:mod:`autograder.batch.warm`).
* Each submission is graded in a fresh fork of it that calls the very function the
  Gradescope path calls (``runner.grade_folder``) on a copy of the submission laid
  out as Gradescope lays it out, and writes that submission's results.json. A fork
  costs a few milliseconds and guarantees that nothing one submission does to the
  grading process (module state, leaked threads, pytest state) can change another's
  grade: each gets the result ``grade`` gives it alone.
* At most ``jobs`` forks run at once. The engine enforces its per-call time limits
  and total budget; on top of that an outer wall-clock guard kills a grading
  process (and everything it started) that overruns ``timeout`` and records that
  the grader could not grade that submission. Nothing else is affected.

Why not long-lived graders calling ``grade_folder`` again and again? ``pytest.main``
can be called repeatedly in one process, but measured on the reference (2-core
machine, one at a time) that was slower, 1.12 s per submission against 0.96 s for a
fork each (the heap grows and pytest's end-of-session garbage collections get
slower), before the fork server also froze its heap for the collector and pre-read
the suite and its stored cases (0.7-0.8 s). And a fork per submission needs no
argument that state cannot leak between submissions.

Unix only (the engine itself needs /proc, rlimits and process groups).
"""

from __future__ import annotations

import contextlib
import gc
import importlib
import multiprocessing
import os
import shutil
import signal
import sys
import tempfile
import time
import traceback
import types
import uuid
from collections import deque
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from multiprocessing.connection import wait
from pathlib import Path

from autograder.batch import lifeline, state
from autograder.intake.folder import copy_folder
from autograder.intake.modules import alone_notes
from autograder.sandbox import reaper

GRADE_FUNCTION = "autograder.runner:grade_folder"
PRELOAD = ["autograder.batch.warm", "autograder.batch.pool"]
DEFAULT_TIMEOUT = 600.0  # when the engine's budget is unknown: Gradescope's default limit (10 minutes)
GRADER_MARGIN = 120.0  # the grader's own work on top of the engine's budget for student code
GRADER_FAILED = (
    "**The autograder could not finish grading** because of a problem on our side, "
    "not in your code. Please resubmit; if this message stays, tell your course staff."
)


@dataclass
class Task:
    id: str
    path: str  # the submission: a folder (its contents are submitted) or a single file
    results: str  # where to write its results.json
    log: str  # where the grader's own output goes


@dataclass
class Outcome:
    id: str
    status: str  # state.GRADED or state.GRADER_ERROR
    seconds: float
    error: str = ""


def default_timeout() -> float:
    """The outer limit per submission: the engine's budget for student code and loading, plus a margin.

    The engine stops a submission's code after its own budget; this limit only fires if
    the grader itself is stuck.
    """
    try:
        from autograder.sandbox import student

        return float(student.BUDGET + student.LOAD_TIMEOUT + GRADER_MARGIN)
    except Exception:
        return DEFAULT_TIMEOUT


def context() -> multiprocessing.context.BaseContext:
    """The fork server context (modules preloaded once), or spawn where fork is missing."""
    if "forkserver" in multiprocessing.get_all_start_methods():
        ctx = multiprocessing.get_context("forkserver")
        ctx.set_forkserver_preload(PRELOAD)
        return ctx
    return multiprocessing.get_context("spawn")


def grade_all(
    tasks: Iterable[Task],
    on_done: Callable[[Outcome], None],
    *,
    jobs: int = 2,
    timeout: float = DEFAULT_TIMEOUT,
    target: str = GRADE_FUNCTION,
    environments: list[dict[str, str]] | None = None,
) -> None:
    """Grade every task, at most ``jobs`` at a time; call ``on_done`` as each finishes.

    ``target`` ("module:function", default the Gradescope path's ``grade_folder``) is
    called with the submission folder and returns the results dict. ``environments``
    (one per parallel slot; their number overrides ``jobs``) are environment variables
    set in the grading processes of that slot, e.g. a sandbox user per slot should an
    engine ever need one. On return, or if interrupted, no grading process is left running.
    """
    ctx = context()
    slots = environments or [{} for _ in range(max(1, jobs))]
    free = list(range(len(slots)))
    pending = deque(tasks)
    running: dict[int, _Running] = {}
    scratch = Path(tempfile.mkdtemp(prefix="autograder-batch-"))
    scratch.chmod(0o711)  # like /autograder: the sandbox user may traverse it to its own files
    reaper.mark_owner(scratch, os.getpid())  # should this process be killed, the next batch removes it (lifeline)
    lifeline.for_fork_server()
    try:
        while pending or running:
            while pending and free:
                slot = free.pop(0)
                job = _start(ctx, pending.popleft(), target, timeout, slot, slots[slot], scratch)
                running[job.process.sentinel] = job
            now = time.monotonic()
            wake = min(job.deadline for job in running.values())
            ready = wait(list(running), timeout=max(0.0, min(wake - now, 1.0)))
            for sentinel in ready:
                job = running.pop(sentinel)
                free.append(job.slot)
                outcome = _finish(job)
                if os.path.lexists(job.root):  # the grading process removes it itself unless it died first
                    shutil.rmtree(job.root, ignore_errors=True)
                on_done(outcome)
            now = time.monotonic()
            for sentinel in [s for s, job in running.items() if now >= job.deadline]:
                job = running.pop(sentinel)
                stop([job.process])
                shutil.rmtree(job.root, ignore_errors=True)
                free.append(job.slot)
                on_done(_failed(job, f"the grader did not finish within the time limit of {timeout:g} s"))
    finally:
        stop([job.process for job in running.values()])
        shutil.rmtree(scratch, ignore_errors=True)


@dataclass
class _Running:
    task: Task
    process: multiprocessing.process.BaseProcess
    reader: object  # the child's end sends one outcome message
    started: float
    deadline: float
    slot: int
    root: Path  # the grading process's own autograder root and temporary files (made and removed by it)


def _start(
    ctx: multiprocessing.context.BaseContext,
    task: Task,
    target: str,
    timeout: float,
    slot: int,
    env: dict[str, str],
    scratch: Path,
) -> _Running:
    root = scratch / f"s{uuid.uuid4().hex[:16]}"  # made by the grading process: not here, one at a time
    reader, writer = ctx.Pipe(duplex=False)
    process = ctx.Process(target=_child, args=(task, target, writer, env, str(root)), name=f"grade-{task.id}")
    started = time.monotonic()
    with _without_main():
        process.start()
    writer.close()
    return _Running(task, process, reader, started, started + timeout, slot, root)


@contextlib.contextmanager
def _without_main() -> Iterator[None]:
    """Start processes without re-running the parent's ``__main__`` in them.

    multiprocessing re-imports the main script in every child it does not fork
    directly (a benchmark script, a ``python -`` session...); the grading processes
    need only this module, so they are started as if there were no main script.
    """
    main = sys.modules.get("__main__")
    sys.modules["__main__"] = types.ModuleType("__main__")
    try:
        yield
    finally:
        if main is not None:
            sys.modules["__main__"] = main


def _finish(job: _Running) -> Outcome:
    job.process.join()
    message = None
    try:
        if job.reader.poll():
            message = job.reader.recv()
    except (EOFError, OSError):
        message = None
    finally:
        job.reader.close()
    if not isinstance(message, dict):
        code = job.process.exitcode
        how = f"was killed by signal {-code}" if code and code < 0 else f"exited with code {code}"
        return _failed(job, f"the grading process {how} before writing results")
    seconds = time.monotonic() - job.started
    return Outcome(job.task.id, message["status"], round(seconds, 3), message.get("error", ""))


def _failed(job: _Running, reason: str) -> Outcome:
    """Record a submission the grader could not grade: fallback results, and why."""
    try:
        job.reader.close()
    except OSError:
        pass
    seconds = time.monotonic() - job.started
    data = fallback_results(GRADER_FAILED)
    data["execution_time"] = round(seconds, 3)
    try:  # a full disk must not stop the batch here: the record says why
        write_results(Path(job.task.results), data)
        Path(job.task.log).parent.mkdir(parents=True, exist_ok=True)
        with open(job.task.log, "a", encoding="utf-8") as log:
            log.write(f"\n[batch] {reason}\n")
    except OSError as error:
        reason += f"; its results or log could not be written ({error.strerror or error})"
    return Outcome(job.task.id, state.GRADER_ERROR, round(seconds, 3), reason)


def fallback_results(message: str) -> dict:
    """The engine's fallback results.json (0 points, ``message``), or an equivalent one."""
    try:
        from autograder.results import document

        return document.fallback_results(message)
    except Exception:
        return {
            "score": 0,
            "execution_time": 0,
            "output": message,
            "output_format": "md",
            "stdout_visibility": "hidden",
            "tests": [],
        }


def write_results(path: Path, data: dict) -> None:
    """Write a results.json exactly as run_autograder does (atomically)."""
    try:
        from autograder.results import document
    except Exception:
        state.write_json(path, data)
    else:
        document.write_results(path, data)


def stop(processes: list[multiprocessing.process.BaseProcess]) -> None:
    """Stop grading processes: SIGTERM first, which each handles by closing its sandboxes (its sandbox user's
    processes killed, daemons included: lifeline.py), then, past ``lifeline.END_SECONDS``, SIGKILL to each
    and all it started."""
    trees = {process: [process.pid, *descendants(process.pid)] for process in processes if process.pid}
    for process in trees:
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.kill(process.pid, signal.SIGTERM)
    deadline = time.monotonic() + lifeline.END_SECONDS + 1
    for process in trees:
        process.join(timeout=max(0.0, deadline - time.monotonic()))
    for process, victims in trees.items():
        if process.exitcode is None:  # its cleanup did not end it (a process that has ended, with its
            kill_tree(process, victims)  # pid free for reuse, is not signalled; its workers died with it)


def kill_tree(process: multiprocessing.process.BaseProcess, victims: list[int]) -> None:
    """SIGKILL a grading process and ``victims``: it and every process it started, found before it was stopped."""
    pid = process.pid
    if pid is None:
        return
    try:
        os.killpg(pid, signal.SIGKILL)  # the child made itself a process group leader
    except (ProcessLookupError, PermissionError, AttributeError):
        pass
    for victim in victims:
        try:
            os.kill(victim, signal.SIGKILL)
        except (ProcessLookupError, PermissionError):
            pass
    process.join(timeout=5)


def descendants(pid: int) -> list[int]:
    """Every live descendant of ``pid`` (Linux /proc; empty elsewhere)."""
    children: dict[int, list[int]] = {}
    for entry in Path("/proc").glob("[0-9]*"):
        try:
            stat = (entry / "stat").read_text()
        except OSError:
            continue
        fields = stat[stat.rfind(")") + 2 :].split()
        children.setdefault(int(fields[1]), []).append(int(entry.name))
    found, todo = [], [pid]
    while todo:
        for child in children.get(todo.pop(), []):
            found.append(child)
            todo.append(child)
    return found


# ---------------------------------------------------------------- inside the grading process


def _child(task: Task, target: str, writer: object, env: dict[str, str], root: str) -> None:
    """Grade one submission exactly as run_autograder would, write its results.json.

    ``root`` is this process's autograder root, made and at the end removed here (in parallel with the other
    gradings, not in the batch's one process); every temporary file it or the engine makes goes under it, so
    the batch removes all of it even after killing us.
    """
    lifeline.in_grading()  # dies with the fork server, and so with the batch
    os.mkdir(root, 0o711)
    os.chmod(root, 0o711)  # like /autograder: the sandbox user may traverse it to its own files (whatever the umask)
    os.environ.update(env, TMPDIR=root)
    tempfile.tempdir = root
    gc.freeze()  # the warm heap inherited from the fork server is never garbage (see warm.py)
    try:
        os.setsid()  # our own process group: the guard can kill all we start, Ctrl-C does not reach us
    except OSError:
        pass
    _redirect_output(task.log)
    started = time.monotonic()
    outcome = {"status": state.GRADED, "error": ""}
    try:
        data = _grade(Path(task.path), target, Path(root))
        extra = data.get("extra_data")
        if isinstance(extra, dict) and extra.get("grader_error"):  # e.g. a test hit an internal error
            outcome = {"status": state.GRADER_ERROR, "error": str(extra["grader_error"])[:500]}
    except BaseException as error:  # the engine itself failed: still answer, and say so
        traceback.print_exc()
        data = fallback_results(GRADER_FAILED)
        outcome = {"status": state.GRADER_ERROR, "error": f"{type(error).__name__}: {error}"[:500]}
    data["execution_time"] = round(time.monotonic() - started, 3)
    try:
        write_results(Path(task.results), data)
    except OSError as error:  # a full disk: not graded, and why (the results are not there to say it)
        outcome = {"status": state.GRADER_ERROR, "error": f"its results.json could not be written: {error}"[:500]}
    with contextlib.suppress(OSError):
        sys.stdout.flush()
        sys.stderr.flush()
    os.chdir("/")
    shutil.rmtree(root, ignore_errors=True)  # before the batch sees this process end (it joins it)
    writer.send(outcome)
    writer.close()


def _grade(path: Path, target: str, root: Path) -> dict:
    grade_folder = resolve(target)
    submission = root / "submission"
    notes = copy_submission(path, submission)
    (root / "results").mkdir()
    os.chdir(root)
    data = grade_folder(submission)
    if notes and isinstance(data.get("extra_data"), dict):  # what the copy left out (special files, depth)
        data["extra_data"]["notes"] = [*notes, *data["extra_data"].get("notes", [])]
        data["output"] = "\n\n".join([*notes, str(data.get("output", ""))])
    return data


def copy_submission(path: Path, destination: Path) -> list[str]:
    """Where Gradescope (and ``grade``) put a submission: a folder's contents (bounded, special files left out:
    ``intake.folder.copy_folder``), or the file. Notes about what was left out."""
    if path.is_dir():
        return copy_folder(path, destination)
    else:
        destination.mkdir(parents=True)
        shutil.copy2(path, destination / path.name)
        return alone_notes(path)  # a loose file is graded alone: an import of a file beside it fails, and says why


def resolve(target: str) -> Callable[[Path], dict]:
    module, _, name = target.partition(":")
    return getattr(importlib.import_module(module), name)


def _redirect_output(log: str) -> None:
    """Send this process's stdout/stderr (and its children's) to the submission's log."""
    try:
        Path(log).parent.mkdir(parents=True, exist_ok=True)
        fd = os.open(log, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
    except OSError:  # a full disk (no inode left): grade anyway, without a log
        fd = os.open(os.devnull, os.O_WRONLY)
    sys.stdout.flush()
    sys.stderr.flush()
    os.dup2(fd, 1)
    os.dup2(fd, 2)
    os.close(fd)
    devnull = os.open(os.devnull, os.O_RDONLY)
    os.dup2(devnull, 0)
    os.close(devnull)
