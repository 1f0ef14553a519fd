"""The worker's run folder: its modules' bytecode is written once per grader and used, and names no folder."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest

from autograder.sandbox import namespace, runfolder
from autograder.sandbox.supervisor import Sandbox

REPO = Path(__file__).resolve().parent.parent


def test_this_interpreter_gets_the_bytecode_of_both_modules(tmp_path: Path) -> None:
    umask = os.umask(0o077)  # a batch's, as root
    try:
        files = runfolder.populate(tmp_path, sys.executable)
    finally:
        os.umask(umask)
    assert (tmp_path / "__pycache__").stat().st_mode & 0o777 == 0o755
    tag = sys.implementation.cache_tag
    assert sorted(Path(f).relative_to(tmp_path).as_posix() for f in files) == sorted(
        [f"__pycache__/{name}.{tag}.pyc" for name in runfolder.MODULES] + [f"{name}.py" for name in runfolder.MODULES])
    assert all(Path(f).stat().st_mode & 0o777 == 0o644 for f in files)


def test_another_interpreter_gets_the_sources_only(tmp_path: Path) -> None:
    files = runfolder.populate(tmp_path, "/bin/sh")  # its cache tag and magic number are not ours
    assert sorted(Path(f).name for f in files) == sorted(f"{name}.py" for name in runfolder.MODULES)
    assert "worker.py" in {Path(f).name for f in files}


def test_the_bytecode_names_no_folder_of_the_checkout() -> None:
    for name in runfolder.MODULES:
        code = runfolder.bytecode(name)
        assert str(REPO).encode() not in code and b"/autograder/" not in code


def test_the_bytecode_is_kept_for_the_next_grading_process_and_a_stale_copy_replaced() -> None:
    """`autograder run` grades one submission per process: the next one takes the compiled modules from the
    checkout's __pycache__, checked by the source's hash, instead of compiling them again."""
    name = "worker_proxies"
    cached = runfolder.HERE / "__pycache__" / runfolder.cached_name(name)
    compiled = runfolder.bytecode.__wrapped__(name)  # as a fresh process would
    assert cached.read_bytes() == compiled
    before = cached.stat().st_mtime_ns
    assert runfolder.bytecode.__wrapped__(name) == compiled and cached.stat().st_mtime_ns == before  # taken, not made
    partial = cached.with_name(cached.name + ".stale")
    partial.write_bytes(compiled[:8] + bytes(8) + compiled[16:])  # the pyc of another source (its hash differs)
    partial.replace(cached)
    assert runfolder.bytecode.__wrapped__(name) == compiled
    assert cached.read_bytes() == compiled  # written again


@pytest.mark.parametrize("world", ["1", "0"], ids=["private-world", "no-world"])
def test_a_worker_runs_from_the_bytecode_without_reading_the_sources(world, monkeypatch) -> None:
    monkeypatch.setenv(namespace.SWITCH, world)  # "0": the sandbox user reads the run folder itself
    umask = os.umask(0o077)  # a batch's, as root
    try:
        box = Sandbox()
    finally:
        os.umask(umask)
    with box:
        for name in runfolder.MODULES:  # sources that would not even compile: only the bytecode can start it
            (box._run_dir / f"{name}.py").write_text("this is not python (\n")
        assert box.start()["op"] == "ready"


@pytest.mark.parametrize("how", ["discarded", "killed from outside"])
def test_a_worker_started_again_survives_its_removed_run_folder(how: str) -> None:
    """Issue 28: beside another `make test`, a worker killed by SIGKILL was retried and the retry found its run folder
    gone (FileNotFoundError in mkdtemp: a grader error for 38 tests). The folders are made anew when missing."""
    import signal
    import time

    import numpy as np

    from autograder.sandbox import reaper
    from autograder.sandbox.student import Student, StudentError, WorkerLost
    from tests.hostile import REFERENCE, program, sandbox_user

    with sandbox_user() as user, Student(program(REFERENCE.read_text()), user=user) as student:
        assert student.call("causal_mask", 2).tolist() == [[True, False], [True, True]]
        gone = (student.sandbox._run_dir, student.sandbox._private)
        for folder in gone:
            reaper.remove_tree(folder)
        if how == "discarded":
            student.discard()
        else:
            pid = student.sandbox.pid
            os.kill(pid, signal.SIGKILL)
            deadline = time.monotonic() + 30
            while not (_ended(pid) and _hung_up(student.sandbox._rfd)) and time.monotonic() < deadline:
                time.sleep(0.01)  # in a world, pid is its unshare: the worker itself ends a moment later
            with pytest.raises((WorkerLost, StudentError)):  # lost (the free retry), or a world's init killed
                student.call("causal_mask", 2)
        assert np.array_equal(student.call("causal_mask", 2), [[True, False], [True, True]])
        assert all(not folder.exists() for folder in gone) and student.sandbox._run_dir.is_dir()


def _hung_up(fd: int) -> bool:
    """Whether every writer of the worker's pipe to the grader is gone (the worker has ended, not only its parent)."""
    import select

    poller = select.poll()
    poller.register(fd, select.POLLIN)
    return any(event & select.POLLHUP for _, event in poller.poll(0))


def _ended(pid: int) -> bool:
    """Whether ``pid`` has ended (a zombie until its parent reaps it)."""
    from autograder.sandbox import reaper

    try:
        return reaper.read_proc(f"/proc/{pid}/stat").rsplit(b")", 1)[1].split()[0] in b"ZX"
    except OSError:
        return True
