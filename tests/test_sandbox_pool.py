"""The pool of sandbox users has no fixed size: gradings at once follow ``--jobs`` on any machine, ``cleanup``
removes however many users they made, and ``grade`` as root never runs student code as root.

Each test uses a pool of its own (another base name), so that gradings running beside it keep theirs, and
removes it with ``autograder cleanup`` (which is what is tested) or, should that fail, ``userdel``.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from autograder.commands import cleanup, grade
from autograder.sandbox import accounts, lock
from tests import fixtures_export as fx

ROOT = os.geteuid() == 0
as_root = pytest.mark.skipif(not ROOT or not shutil.which("useradd"), reason="root makes sandbox users")


def test_members_are_the_base_and_its_numbered_users_in_pool_order(tmp_path: Path) -> None:
    for name in ("zq", "zq2", "zq10", "zq9", "zq1", "zq02", "zqx", "zq2x", "other3"):
        (tmp_path / f"{name}.lock").write_text("clean")
    assert lock.members("zq", [str(tmp_path)]) == ["zq", "zq2", "zq9", "zq10"]


@contextlib.contextmanager
def own_pool(prefix: str) -> Iterator[str]:
    """A fresh base name for this test's pool; afterwards every user of it is gone (cleanup, else userdel)."""
    base = f"{prefix}{os.getpid() % 100000}p"  # a letter last: no other pool's numbered user
    try:
        yield base
    finally:
        cleanup.cleanup(base)
        for name in lock.members(base, lock.LOCK_DIRS):
            subprocess.run(["userdel", name], capture_output=True, check=False)


@as_root
def test_the_pool_grows_past_eight_users_and_cleanup_removes_them_all(capsys: pytest.CaptureFixture) -> None:
    with own_pool("agpl") as base:
        assert lock.ensure_user(base)
        held: list[lock.UserLock] = []
        try:
            for _ in range(11):  # a fixed pool of 8 would wait, then fail
                held.append(lock.acquire(base, wait=5))
            assert [h.name for h in held] == lock.pool_names(base, 11)
            assert len({h.account.pw_uid for h in held}) == 11
            assert cleanup.main(["--user", base]) == 1  # held: nothing removed
        finally:
            for h in held:
                if h is not None:
                    h.release(clean=True)
        again = lock.acquire(base, wait=5)  # the first free one of those that exist: none is made
        assert again is not None and again.name == base and lock.members(base) == lock.pool_names(base, 11)
        again.release(clean=True)
        capsys.readouterr()
        assert cleanup.main(["--user", base]) == 0
        out = capsys.readouterr().out
        assert f"removed the user `{base}11`" in out
        assert lock.members(base, lock.LOCK_DIRS) == []


@as_root
def test_grade_as_root_makes_the_missing_sandbox_user(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    with own_pool("aggr") as base:
        monkeypatch.setenv(accounts.USER_ENV, base)
        assert not lock._exists(base)
        path = tmp_path / "attention.py"
        path.write_text(fx.REFERENCE.read_text())
        data = grade.grade(path)
        assert lock._exists(base)
        extra = data["extra_data"]
        assert not extra.get("isolation"), extra.get("isolation")  # student code ran as the sandbox user
        assert any(base in layer for layer in extra["isolation_layers"]), extra["isolation_layers"]
        assert data["score"] == 100


@as_root
def test_grade_as_root_refuses_when_no_sandbox_user_can_be_made(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, capsys: pytest.CaptureFixture
) -> None:
    base = f"agno{os.getpid() % 100000}"
    monkeypatch.setenv(accounts.USER_ENV, base)
    monkeypatch.setattr(lock, "ensure_user", lambda name: False)  # no useradd here
    path = tmp_path / "attention.py"
    path.write_text("import os\nos.system('touch /tmp/ran-as-root')\n")
    monkeypatch.setattr(grade, "run_root", lambda *a, **k: pytest.fail("student code must not run"))
    assert grade.main([str(path)]) == 3
    err = capsys.readouterr().err
    assert f"useradd --system --no-create-home --shell /usr/sbin/nologin {base}" in err
    assert "Nothing was graded" in err and not lock._exists(base)


WAIT_FOR_GO = """import signal as _signal
_signal.signal(_signal.SIGUSR1, lambda *_: None)
_signal.pause()  # until the test has seen every grading of the batch hold a sandbox user at once
"""
USR1 = 1 << (signal.SIGUSR1 - 1)  # its bit in /proc/<pid>/status's SigCgt


def _waiting(uids: set[int]) -> dict[int, int]:
    """pid -> uid of the processes of ``uids`` that catch SIGUSR1: the workers of WAIT_FOR_GO's submissions."""
    found = {}
    for entry in Path("/proc").glob("[0-9]*"):
        try:
            fields = dict(line.split(":", 1) for line in (entry / "status").read_text().splitlines() if ":" in line)
        except OSError:
            continue
        uid = int(fields["Uid"].split()[0])
        if uid in uids and int(fields["SigCgt"], 16) & USR1:
            found[int(entry.name)] = uid
    return found


@as_root
def test_batch_jobs_12_grades_12_at_once_as_12_sandbox_users(tmp_path: Path) -> None:
    """On a 2-core machine, ``--jobs 12`` holds 12 sandbox users at once: every submission waits at its import
    until this test has seen all 12 workers waiting, each as its own user (a pool of 8 never gets there)."""
    import pwd

    jobs = 12
    source = fx.REFERENCE.read_text() + "\n" + WAIT_FOR_GO
    path, _ = fx.write_export(tmp_path / "in", [source] * jobs)
    with own_pool("agbj") as base:
        env = dict(os.environ, **{accounts.USER_ENV: base})
        proc = subprocess.Popen([sys.executable, "-m", "autograder", "batch", str(path), "-o", str(tmp_path / "out"),
                                 "--jobs", str(jobs), "--plain"], cwd=fx.REPO, env=env,
                                stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        try:
            most: dict[int, int] = {}
            deadline = time.monotonic() + 120
            while time.monotonic() < deadline and len(set(most.values())) < jobs and proc.poll() is None:
                uids = {pwd.getpwnam(name).pw_uid for name in lock.members(base)}
                now = _waiting(uids)
                most = now if len(set(now.values())) > len(set(most.values())) else most
                time.sleep(0.05)
            for pid in _waiting({pwd.getpwnam(name).pw_uid for name in lock.members(base)}):
                with contextlib.suppress(ProcessLookupError):
                    os.kill(pid, signal.SIGUSR1)
            out, _ = proc.communicate(timeout=300)
        finally:
            if proc.poll() is None:
                proc.kill()
        assert len(set(most.values())) == jobs, (most, out)
        assert proc.returncode == 0, out
        totals = [line.split(",")[4] for line in (tmp_path / "out" / "scores.csv").read_text().splitlines()[1:]]
        assert totals == ["100"] * jobs, out
