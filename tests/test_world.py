"""The worker's private world (namespaces, minimal view, capped tmpfs) and the walk of / and /proc."""

from __future__ import annotations

import ast
import contextlib
import os
import pwd
import signal
import sys
import tempfile
from pathlib import Path

import pytest

from autograder.sandbox import namespace, reaper, supervisor
from autograder.sandbox.student import CALL_TIMEOUT, Student
from autograder.sandbox.supervisor import Sandbox
from tests.hostile import HERE, program, sandbox_user, snippet

REPO = HERE.parents[1]
WORLD = namespace.unavailable() == ""
needs_world = pytest.mark.skipif(not WORLD, reason=f"no private world here: {namespace.unavailable()}")


@pytest.fixture(scope="module")
def user():
    """$AUTOGRADER_SANDBOX_USER when it exists (a user of this test run alone), else the shared test user."""
    mine = os.environ.get("AUTOGRADER_SANDBOX_USER", "")
    with contextlib.suppress(KeyError):
        if os.geteuid() == 0 and mine and pwd.getpwnam(mine):
            yield mine
            return
    with sandbox_user() as name:
        yield name


def decoded(array) -> object:
    return ast.literal_eval(bytes(array).decode())


def interpreter_chain() -> set[str]:
    """The paths a world shows on the way to the interpreter's folders (a venv inside a checkout)."""
    shown = set()
    for path in {sys.prefix, os.path.realpath(sys.prefix), sys.base_prefix}:
        parts = Path(path).parts
        shown |= {str(Path(*parts[: i + 1])) for i in range(1, len(parts))}
    return shown


@needs_world
def test_the_walker_finds_nothing_of_the_checkout_another_slot_or_another_process(user, tmp_path) -> None:
    secret = tmp_path / "outdir" / "results.json"  # stands for an export, OUTDIR, a classmate's submission
    secret.parent.mkdir()
    secret.write_text("SECRET-TOKEN-of-another-student")
    secret.chmod(0o644)
    tmp_path.chmod(0o755)
    with Sandbox(user=user) as other, Student(program(snippet("explore")), user=user) as s:
        other.start()  # another slot, graded at the same time
        markers = [str(REPO), os.path.realpath(REPO), "BEGIN SOLUTION", str(tmp_path), "SECRET-TOKEN",
                   str(other._run_dir), "pytest"]
        read, complete, hits, commands, runs = decoded(s.call("explored", markers, 8.0))
    assert complete and read >= 1 and runs == 1  # its own two files at least, in its own run folder
    assert [h for h in hits if h not in interpreter_chain()] == []
    assert commands == []  # not even the world's init: only the worker's own processes are listed


@pytest.mark.skipif(os.geteuid() != 0, reason="the other processes are visible to the sandbox user only as root")
def test_without_namespaces_the_same_walker_sees_other_processes(user, monkeypatch) -> None:
    """The control: the walker is not blind, so the test above means something."""
    monkeypatch.setenv(namespace.SWITCH, "0")
    with Student(program(snippet("explore")), user=user) as s:
        assert s.sandbox.world_missing
        # its walk of the host's whole disk stops at a quarter of the call's limit, whatever the disk holds: the
        # processes, walked after it, must be reached within that limit
        _, _, _, commands, _ = decoded(s.call("explored", [], CALL_TIMEOUT / 4))
    assert commands  # the host's processes, this test's among them


@needs_world
def test_the_world_is_minimal_read_only_private_and_offline(user) -> None:
    with Student(program(snippet("world")), user=user) as s:
        top, pids, hostname, root_writable, home_writable = decoded(s.call("view"))
        interfaces = decoded(s.call("network"))
        layers = s.sandbox.layers
    assert set(top) <= {"usr", "bin", "sbin", "lib", "lib32", "lib64", "libx32", "etc", "tmp", "var", "dev",
                        "proc", *Path(sys.prefix).parts[1:2], *Path(os.path.realpath(sys.prefix)).parts[1:2]}
    assert pids == [2]  # the worker alone; its init (pid 1, root) is hidden
    assert hostname == "sandbox" and interfaces == ["lo"]
    assert not root_writable and home_writable
    assert any(layer.startswith("namespaces: mount, pid, net, ipc, uts") for layer in layers)


@needs_world
@pytest.mark.parametrize("folder", ["/tmp", "/dev/shm", "HOME"])
def test_the_private_tmpfs_are_capped_in_size_and_files(user, folder) -> None:
    mb, inodes = namespace.TMPFS["/dev/shm" if folder == "/dev/shm" else "/tmp"]
    with Student(program(snippet("world")), user=user) as s:
        s.start()
        where = s.sandbox._work_dir if folder == "HOME" else folder  # the same path inside the world
        written, full = s.call("fill", str(where), mb + 8)
        assert full and written <= mb
        s.sandbox.kill()  # a fresh worker, a fresh tmpfs (and home)
        s.start()
        where = s.sandbox._work_dir if folder == "HOME" else folder
        made, full = s.call("many", str(where), inodes + 100)
        assert full and made <= inodes


@needs_world
@pytest.mark.parametrize("what", ["daemon", "storm"])
def test_nothing_the_student_started_outlives_its_world(user, what) -> None:
    source = snippet("processes") + "\n" + snippet("resources")
    s = Student(program(source), user=user)
    if what == "daemon":
        s.call("daemon")
    else:
        s.call("storm", "chains", 4, 20.0)
    world = os.readlink(f"/proc/{s.sandbox.pid}/ns/pid_for_children")
    assert len(in_namespace(world)) >= 2  # the worker and what it started
    s.close()
    assert in_namespace(world) == []


@needs_world
def test_a_world_whose_first_process_stalls_is_still_ended_whole(user, monkeypatch) -> None:
    """A world's first process that does not end its world in time (stopped here, slow under load in a real run)
    is killed; the world's init dies with it, and close() returns only once the kernel has ended every process
    of the world and its init is reaped."""
    monkeypatch.setattr(supervisor, "KILL_DEADLINE", 1.0)
    s = Student(program(snippet("processes")), user=user)
    s.call("daemon")
    world = os.readlink(f"/proc/{s.sandbox.pid}/ns/pid_for_children")
    os.kill(s.sandbox.pid, signal.SIGSTOP)
    s.close()
    assert in_namespace(world) == []


@needs_world
def test_a_restart_leaves_nothing_of_its_world_and_the_scan_for_leftovers_to_close(user, monkeypatch) -> None:
    """A worker restarted (after a probe: ``discard``) in a private world: the kernel ended every process of the
    old world with its init, so no scan of /proc runs then (a cost per restart that grows with the machine's
    processes); close() still scans once, whatever the worlds."""
    scans: list[int] = []
    real = reaper.kill_leftovers
    monkeypatch.setattr(reaper, "kill_leftovers", lambda *a, **k: scans.append(1) or real(*a, **k))
    uid = pwd.getpwnam(user).pw_uid if user else os.getuid()
    s = Student(program(snippet("processes")), user=user)
    for _ in range(2):
        s.call("daemon")
        world = os.readlink(f"/proc/{s.sandbox.pid}/ns/pid_for_children")
        assert len(in_namespace(world)) >= 2  # the worker and its daemon
        s.discard()
        assert in_namespace(world) == [] and not scans
        assert not [pid for pid, info in reaper.process_table().items() if uid in info["uids"]] or not user
    s.close()
    assert scans == [1]


def in_namespace(world: str) -> list[int]:
    """Processes (zombies included) in the PID namespace ``world`` (as /proc/PID/ns/pid names it)."""
    found = []
    for pid in reaper.process_table():
        with contextlib.suppress(OSError):
            if os.readlink(f"/proc/{pid}/ns/pid") == world:
                found.append(pid)
    return found


def test_the_switch_turns_the_world_off_and_says_so(monkeypatch) -> None:
    monkeypatch.setenv(namespace.SWITCH, "0")
    assert namespace.unavailable() == "namespaces are switched off (AUTOGRADER_NAMESPACES=0)"
    layers = namespace.layers("agsandbox", namespace.unavailable())
    assert layers[0] == "user agsandbox" and layers[-1].startswith("no private world (namespaces are switched off")


def test_symlinks_on_the_way_to_the_interpreter_are_recreated(tmp_path) -> None:
    (tmp_path / "real" / "bin").mkdir(parents=True)
    (tmp_path / "real" / "bin" / "python3.11").write_text("")
    (tmp_path / "venv").symlink_to(tmp_path / "real")
    (tmp_path / "real" / "bin" / "python").symlink_to("python3.11")
    chain, real = namespace._resolve(str(tmp_path / "venv" / "bin" / "python"))
    assert real == str(tmp_path / "real" / "bin" / "python3.11")
    assert chain == [(str(tmp_path / "venv"), str(tmp_path / "real")),
                     (str(tmp_path / "real" / "bin" / "python"), "python3.11")]


@pytest.mark.parametrize(("code", "meaning"), [(0, 0), (1, 1), (121, 121), (137, -9), (139, -11), (200, 200)])
def test_the_worlds_exit_status_is_read_back_as_the_workers(code, meaning) -> None:
    assert namespace.exit_code(code) == meaning


@pytest.mark.skipif(os.geteuid() != 0, reason="the sandbox user needs root")
def test_without_a_world_files_left_in_any_world_writable_folder_are_removed(user, monkeypatch) -> None:
    monkeypatch.setenv(namespace.SWITCH, "0")
    nested = Path(tempfile.mkdtemp(prefix="ag-world-writable-", dir="/var/tmp"))  # root's, 1777, not top-level
    nested.chmod(0o1777)
    folders = [str(nested), *(d for d in ("/run/lock", "/var/crash", "/dev/mqueue") if is_world_writable(d))]
    try:
        assert set(folders) <= set(reaper.world_writable_dirs(refresh=True))
        with Student(program(snippet("world")), user=user) as s:
            assert s.sandbox.world_missing
            tag = f"ag-left-{os.getpid()}"
            assert [s.call("plant", folder, tag) for folder in folders] == [3] * len(folders)
        assert [p for folder in folders for p in os.listdir(folder) if p.startswith(tag)] == []
    finally:
        reaper.remove_tree(nested)


def is_world_writable(folder: str) -> bool:
    with contextlib.suppress(OSError):
        return bool(os.stat(folder).st_mode & 0o002)
    return False


@needs_world
@pytest.mark.parametrize("switch", [True, False], ids=["sandbox-user", "no-user-switch"])
def test_closing_one_world_spares_another_live_one(user, switch) -> None:
    with Student(program(snippet("world")), user=user, switch_user=switch) as a:
        a.start()
        worker = a.sandbox.pid
        with Student(program(snippet("processes")), user=user, switch_user=switch) as b:
            b.call("daemon")
        assert a.sandbox.pid == worker and decoded(a.call("network")) == ["lo"]
