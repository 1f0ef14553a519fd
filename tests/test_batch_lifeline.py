"""A batch dies with all its gradings (batch/lifeline.py): a SIGHUP (a closed terminal) or a SIGKILL to its main
process leaves none of its processes (fork server, gradings, zygote, worlds, workers) within a few seconds, and
the next run removes the scratch a killed one left in TMPDIR, then resumes where it stopped."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pytest

from autograder.batch import lifeline, pool, state
from autograder.sandbox import reaper, runfolder, zygotes
from tests import fixtures_export as fx
from tests.test_batch import GOOD, VERSION, run_fake

STOPS = [signal.SIGHUP, signal.SIGKILL]


# the prefix of the command of a batch that a test hangs up: SIGHUP back at its default, as a terminal's child has it,
# then the batch itself by exec (same pid), even when this test run was started under nohup, which leaves SIGHUP
# ignored in every child (the batch then rightly goes on: test_under_nohup_a_hangup_does_not_stop_the_batch)
AS_FROM_A_TERMINAL = [sys.executable, "-c", "import os, signal, sys; signal.signal(signal.SIGHUP, signal.SIG_DFL); "
                      "os.execv(sys.argv[1], sys.argv[1:])"]


def batch_processes(main: int) -> dict[int, int]:
    """pid -> start time of ``main`` and every process under it."""
    return {pid: reaper.start_time(pid) for pid in [main, *pool.descendants(main)]}


def survivors(processes: dict[int, int], seconds: float = 5.0) -> list[str]:
    """Which of ``processes`` still run after at most ``seconds`` (what /proc says of them). Waits for their zombies
    to be reaped too (``reap``), but a zombie runs nothing: one still there at the end is not counted."""
    deadline = time.monotonic() + seconds
    while True:
        reap(processes)
        present = [pid for pid, start in processes.items() if start != -1 and reaper.start_time(pid) == start]
        if not present or time.monotonic() > deadline:
            break
        time.sleep(0.1)
    return [what(pid) for pid in present if not zombie(pid)]


def what(pid: int) -> str:
    try:
        return f"{pid} {Path(f'/proc/{pid}/stat').read_text()[:80]} {Path(f'/proc/{pid}/cmdline').read_bytes()[:80]!r}"
    except OSError:  # it has just ended
        return f"{pid} (ended)"


def reap(processes: dict[int, int]) -> None:
    """Reap those of ``processes`` that ended as children of this process: a test process that became a subreaper
    (by grading in-process) inherits a killed batch's orphans, whose zombies would otherwise stay for the session."""
    for pid in processes:
        try:
            os.waitpid(pid, os.WNOHANG)
        except ChildProcessError:
            pass


def zombie(pid: int) -> bool:
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] in "ZX"
    except (OSError, IndexError):
        return True


def owned_by(top: Path, processes: dict[int, int]) -> list[Path]:
    """Folders of ``top`` whose owner file (reaper.mark_owner: "PID START") names one of ``processes`` (pid -> start
    time). The start time counts: a full test run wraps the pids (pid_max is 32768 here), and a folder another test
    left, whose owner's pid a process of this batch now has, is not this batch's."""
    found = []
    for path in top.iterdir():
        try:
            pid, start = (int(x) for x in (path / reaper.OWNER_FILE).read_text().split())
        except (OSError, ValueError):
            continue
        if processes.get(pid) == start:
            found.append(path)
    return found


def leftovers(folders: list[Path], names: dict[int, str]) -> str:
    """What a failed check shows of the folders left: each one's owner (the batch process it names, as it was seen
    before the stop) and its entries."""
    lines = []
    for folder in folders:
        try:
            owner = (folder / reaper.OWNER_FILE).read_text().strip()
            entries = sorted(p.name for p in folder.iterdir())
        except OSError as e:
            owner, entries = f"({e})", []
        pid = int(owner.split()[0]) if owner[:1].isdigit() else -1
        lines.append(f"{folder}: owner {owner!r} = {names.get(pid, '?')}; entries {entries[:20]}")
    return "\n".join(lines)


def wait_for(condition, seconds: float) -> bool:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if condition():
            return True
        time.sleep(0.1)
    return False


@pytest.mark.parametrize("stop", STOPS, ids=lambda s: s.name)
def test_a_stopped_or_killed_batch_is_resumed_by_the_next_run_which_removes_its_scratch(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, stop: signal.Signals) -> None:
    path, _ = fx.write_export(tmp_path / "in", [GOOD, GOOD, "FAKE_HANG", "FAKE_HANG", GOOD, GOOD])
    out, scratch = tmp_path / "out", tmp_path / "tmp"
    scratch.mkdir()
    driver = (
        "import sys; from pathlib import Path; from autograder import batch; "
        f"sys.exit(batch.run(Path({str(path)!r}), Path({str(out)!r}), jobs=2, plain=True, "
        f"target={fx.FAKE_GRADER!r}, version={VERSION!r}))"
    )
    proc = subprocess.Popen([*AS_FROM_A_TERMINAL, sys.executable, "-c", driver], cwd=fx.REPO, stdout=subprocess.PIPE,
                            text=True, env=dict(os.environ, TMPDIR=str(scratch)))
    assert wait_for(lambda: len(state.load_records(out)) >= 2, 60)
    time.sleep(0.5)  # both graders are now stuck on the hanging submissions
    processes = batch_processes(proc.pid)
    assert len(processes) >= 4  # main, fork server, two gradings (and multiprocessing's resource tracker)
    proc.send_signal(stop)
    stdout, _ = proc.communicate(timeout=30)
    assert proc.returncode == (130 if stop == signal.SIGHUP else -signal.SIGKILL), stdout
    assert survivors(processes) == []
    expected = [] if stop == signal.SIGHUP else ["autograder", "pymp"]  # the killed one's

    def left() -> list[str]:
        return sorted(p.name.split("-")[0] for p in scratch.iterdir())

    # a stopped batch's zygote removes its folder as it ends; under load the zygote may be ended (it dies with its
    # parent) before it does: then its ag-zygote-* folder, marked with its owner, is the next run's to remove
    wait_for(lambda: left() == expected, 10)
    assert [kind for kind in left() if kind != "ag" or stop != signal.SIGHUP] == expected, list(scratch.iterdir())
    assert all(p.name.startswith("ag-zygote-") for p in scratch.iterdir() if p.name.startswith("ag-"))
    monkeypatch.setattr(tempfile, "tempdir", str(scratch))
    killed = set(scratch.iterdir())
    # a folder is a leftover once the process its owner file names has ended: under load a zygote the batch started
    # late (after the snapshot above) may still be ending, and the next run rightly leaves a live owner's folder
    marked = [p for p in killed if (p / reaper.OWNER_FILE).exists()]
    assert wait_for(lambda: all(reaper.owner_gone(p) for p in marked if p.exists()), 10), [
        (p / reaper.OWNER_FILE).read_text() for p in marked if p.exists()]
    assert run_fake(path, out, timeout=3.0) == 1  # the hanging ones are grader errors this time
    assert not killed & set(scratch.iterdir())
    assert len((out / "state.jsonl").read_text().splitlines()) == 6  # 2 graded before, 4 by the rerun


def test_only_dead_owners_scratch_is_removed(tmp_path: Path) -> None:
    live, dead, unmarked, link = (tmp_path / f"autograder-batch-{n}" for n in ("live", "dead", "unmarked", "link"))
    for folder in (live, dead, unmarked):
        folder.mkdir()
    reaper.mark_owner(live, os.getpid())
    child = subprocess.Popen(["true"])
    child.wait()
    (dead / reaper.OWNER_FILE).write_text(f"{child.pid} 1\n")  # a start time no live process has
    link.symlink_to(dead)
    assert lifeline.remove_stale(str(tmp_path)) == [str(dead)]
    assert live.is_dir() and unmarked.is_dir() and link.is_symlink()


def test_a_zygote_folder_has_its_owner_before_it_is_filled(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A process killed while it fills the zygote's folder (or starts the zygote) leaves a folder the next run
    removes: the folder names its maker as owner from the start (the zygote's pid replaces it once it runs)."""
    from autograder.sandbox import zygotes

    if zygotes.namespace.unavailable():
        pytest.skip("no zygote without namespaces")
    seen = []

    def populate(folder: Path, *args: object, **kwargs: object) -> list[str]:
        seen.append((folder, (folder / reaper.OWNER_FILE).read_text().split()))
        raise OSError("killed here")

    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    monkeypatch.setattr(zygotes.runfolder, "populate", populate)
    monkeypatch.setattr(zygotes, "_zygote", {})
    with pytest.raises(OSError, match="killed here"):
        zygotes.start()
    [(folder, owner)] = seen
    assert owner == [str(os.getpid()), str(reaper.start_time(os.getpid()))]
    assert not reaper.owner_gone(folder)  # its maker lives: not a leftover yet


def test_a_pymp_folder_goes_only_when_no_process_listens_on_its_socket(tmp_path: Path) -> None:
    import socket

    listening, stale, other = (tmp_path / f"pymp-{n}" for n in ("listening", "stale", "other"))
    for folder in (listening, stale, other):
        folder.mkdir()
    server = socket.socket(socket.AF_UNIX)
    server.bind(str(listening / "listener-a"))
    server.listen()
    gone = socket.socket(socket.AF_UNIX)
    gone.bind(str(stale / "listener-b"))
    gone.close()  # the socket file stays, bound by nobody: a killed fork server's
    (other / "data").write_text("not a fork server's")
    try:
        assert lifeline.remove_stale(str(tmp_path)) == [str(stale)]
    finally:
        server.close()
    assert listening.is_dir() and other.is_dir()


@pytest.mark.slow
@pytest.mark.skipif(os.geteuid() != 0, reason="workers in worlds or as the sandbox user need root")
@pytest.mark.parametrize("stop", STOPS, ids=lambda s: s.name)
def test_a_hung_up_or_killed_batch_leaves_none_of_its_processes(tmp_path: Path, stop: signal.Signals) -> None:
    """The real engine: workers (in worlds forked by the zygote where namespaces work) running an endless loop."""
    path, _ = fx.write_export(tmp_path / "in", [fx.HOSTILE.read_text()] * 2)
    proc = subprocess.Popen([*AS_FROM_A_TERMINAL, sys.executable, "-m", "autograder", "batch", str(path), "-o",
                             str(tmp_path / "out"), "--jobs", "2", "--plain", "--allow-exposed"], cwd=fx.REPO,
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)

    def workers() -> int:  # processes of a sandbox user (uid != 0) under the batch: its workers run
        return sum(os.stat(f"/proc/{pid}").st_uid != 0 for pid in pool.descendants(proc.pid)
                   if Path(f"/proc/{pid}").exists())

    assert wait_for(lambda: workers() >= 2, 60)
    time.sleep(1.0)
    processes = batch_processes(proc.pid)
    names = {pid: what(pid) for pid in processes}
    proc.send_signal(stop)
    stdout, _ = proc.communicate(timeout=30)
    assert survivors(processes) == [], stdout
    if stop == signal.SIGHUP:  # a stopped batch's zygote removes its folder as it ends: under load, late
        wait_for(lambda: not owned_by(Path(tempfile.gettempdir()), processes), 10)
    left = owned_by(Path(tempfile.gettempdir()), processes)
    # a killed batch leaves its scratch (its zygote removed its own), unless another batch on this machine started
    # since and removed it already, as it should: the next run's removal is checked here and, in a private TMPDIR,
    # by test_a_stopped_or_killed_batch_is_resumed_by_the_next_run_which_removes_its_scratch
    assert len(left) == 0 if stop == signal.SIGHUP else len(left) <= 1, leftovers(left, names)
    lifeline.remove_stale()
    assert not [p for p in left if p.exists()]


def test_under_nohup_a_hangup_does_not_stop_the_batch(tmp_path: Path) -> None:
    path, _ = fx.write_export(tmp_path / "in", [GOOD, GOOD, "FAKE_HANG", "FAKE_HANG"])
    out = tmp_path / "out"
    driver = (
        "import sys; from pathlib import Path; from autograder import batch; "
        f"sys.exit(batch.run(Path({str(path)!r}), Path({str(out)!r}), jobs=2, plain=True, timeout=5.0, "
        f"target={fx.FAKE_GRADER!r}, version={VERSION!r}))"
    )
    proc = subprocess.Popen(["nohup", sys.executable, "-c", driver], cwd=fx.REPO, stdout=subprocess.PIPE,
                            stderr=subprocess.DEVNULL, text=True)
    assert wait_for(lambda: len(state.load_records(out)) >= 2, 60)  # the hanging ones have up to 5 s left
    processes = batch_processes(proc.pid)
    proc.send_signal(signal.SIGHUP)
    stdout, _ = proc.communicate(timeout=60)
    assert proc.returncode == 1, stdout  # it went on: the hanging ones reached their limit (grader errors)
    assert len(state.load_records(out)) == 4
    assert survivors(processes) == []


def test_an_owned_folder_loses_its_owner_file_last(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A folder being removed (a zygote's, at the end of a batch) keeps its owner file to the end: a remover killed
    midway leaves a folder the next run can still tell is a leftover."""
    folder = tmp_path / "ag-zygote-x"
    folder.mkdir()
    for i in range(30):
        (folder / f"module{i}.py").write_text("")
    reaper.mark_owner(folder, os.getpid())
    removed, unlink = [], os.unlink

    def recorded(name, *args, **kwargs):
        removed.append(name)
        return unlink(name, *args, **kwargs)

    monkeypatch.setattr(os, "unlink", recorded)
    reaper.remove_tree(folder)
    assert not folder.exists() and removed[-1] == reaper.OWNER_FILE and len(removed) == 31


def test_the_zygote_names_the_owner_file_as_the_reaper_does() -> None:
    from autograder.sandbox import zygote

    assert zygote.OWNER_FILE == reaper.OWNER_FILE  # the zygote removes its own folder, its owner file last


def test_a_zygote_told_to_stop_again_while_it_removes_its_folder_removes_it_all(tmp_path: Path) -> None:
    """A starter that dies ends the zygote's socket and sends it SIGTERM (PDEATHSIG) at once: a SIGTERM that came
    just after the owner file went cut the removal short, leaving an empty folder no run could tell was a leftover
    (tens of them in /tmp after a few make tests)."""
    folder = tmp_path / "ag-zygote-x"
    folder.mkdir()
    runfolder.populate(folder, sys.executable, modules=zygotes.MODULES)
    reaper.mark_owner(folder, os.getpid())
    script = (
        "import os, signal, socket, sys\n"
        f"sys.path.insert(0, {str(folder)!r}); import zygote; del sys.path[0]\n"
        "unlink = os.unlink\n"
        "def unlink_then_stop(path, *args, **kwargs):\n"
        "    unlink(path, *args, **kwargs)\n"
        f"    if os.path.basename(str(path)) == {reaper.OWNER_FILE!r}: os.kill(os.getpid(), signal.SIGTERM)\n"
        "os.unlink = unlink_then_stop\n"
        "ours, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)\n"
        "theirs.close()  # its starter has gone\n"
        "sys.exit(zygote.main(['zygote', str(ours.fileno())]))\n"
    )
    done = subprocess.run([sys.executable, "-I", "-c", script], capture_output=True, text=True, timeout=60, check=False)
    assert done.returncode == 0, done.stderr
    assert not folder.exists(), sorted(p.name for p in folder.iterdir())


def test_the_next_run_removes_an_empty_scratch_folder_a_minute_old_and_no_other(tmp_path: Path) -> None:
    old, fresh, kept = (tmp_path / name for name in ("ag-zygote-old", "ag-zygote-fresh", "ag-zygote-full"))
    for folder in (old, fresh, kept):
        folder.mkdir()
    (kept / "worker.py").write_text("")  # not empty, no owner file: not known to be a leftover
    minute_ago = time.time() - lifeline.ABANDONED_SECONDS - 5
    for folder in (old, kept):
        os.utime(folder, (minute_ago, minute_ago))
    assert lifeline.remove_stale(str(tmp_path)) == [str(old)]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["ag-zygote-fresh", "ag-zygote-full"]
