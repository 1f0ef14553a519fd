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
    assert sorted(Path(f).name for f in files) == ["protocol.py", "seccomp.py", "worker.py"]


def test_the_bytecode_names_no_folder_of_the_checkout() -> None:
    for name in runfolder.MODULES:
        code = runfolder.bytecode(name)
        assert str(REPO).encode() not in code and b"/autograder/" not in code


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
