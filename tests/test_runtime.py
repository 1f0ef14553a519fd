"""What the worker runs, in the sandbox user's reach wherever the checkout lives (sandbox/runtime.py): the
permission bits as the private world shows them, and the root-owned copy of the venv readable by all."""

from __future__ import annotations

import os
import pwd
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

from autograder.sandbox import accounts, namespace, reaper, runfolder, runtime
from tests.hostile import sandbox_user

ROOT = os.geteuid() == 0
IN_VENV = sys.prefix != sys.base_prefix


@pytest.fixture(scope="module")
def user():
    with sandbox_user() as name:
        yield name


@pytest.fixture
def home(monkeypatch):
    """A folder of root's (0755) for the copies this test makes, instead of /var/lib/autograder/runtime."""
    folder = Path(tempfile.mkdtemp(prefix="ag-runtime-test-", dir="/tmp"))
    folder.chmod(0o755)
    monkeypatch.setattr(runtime, "HOMES", (str(folder),))
    monkeypatch.setattr(runtime, "_chosen", {})
    monkeypatch.setattr(runtime, "_copies", {})
    monkeypatch.setattr(namespace, "INSTEAD", {})
    yield folder
    reaper.remove_tree(folder)


def test_a_file_in_a_closed_folder_is_out_of_reach_on_the_host_but_not_in_a_world_that_binds_below_it(tmp_path):
    closed = tmp_path / "closed"
    (closed / "venv" / "lib").mkdir(parents=True)
    (closed / "venv" / "lib" / "numpy.py").write_text("")
    for path, mode in ((closed / "venv" / "lib" / "numpy.py", 0o644), (closed / "venv" / "lib", 0o755),
                       (closed / "venv", 0o755), (closed, 0o700)):
        path.chmod(mode)
    target = str(closed / "venv" / "lib" / "numpy.py")
    assert not runtime.may(runtime.OTHER, target, os.R_OK)
    assert runtime.may(runtime.OTHER, target, os.R_OK, [str(closed / "venv")])  # the world's folders above: 0755
    assert not runtime.may(runtime.OTHER, target, os.R_OK, ["/usr"])  # not shown in that world at all
    (closed / "venv" / "lib").chmod(0o700)
    assert not runtime.may(runtime.OTHER, target, os.R_OK, [str(closed / "venv")])  # below the bound folder: counts


def test_a_reachable_venv_or_another_interpreter_is_run_as_it_is(home) -> None:
    other = "/usr/bin/env"
    assert runtime.interpreter(other) == other and runtime.needed(other) is None
    if runtime.reachable(sys.executable):
        assert runtime.interpreter(sys.executable) == sys.executable
        assert list(home.iterdir()) == []


def forced(monkeypatch) -> None:
    """The grader's venv out of the sandbox user's reach (as in a 0700 folder); a copy judged as it is."""
    real = runtime.reachable
    monkeypatch.setattr(runtime, "reachable", lambda python, account=runtime.OTHER: python in runtime._copies
                        and real(python, account))


@pytest.mark.skipif(not (ROOT and IN_VENV), reason="the copy is made as root, of the grader's venv")
def test_an_unreachable_venv_is_served_by_a_root_owned_copy_the_sandbox_user_runs(user, home, monkeypatch) -> None:
    monkeypatch.setenv(namespace.SWITCH, "0")
    forced(monkeypatch)
    python = runtime.interpreter(sys.executable)
    folder = Path(python).parents[1]
    assert folder.parent == home and python != sys.executable
    assert os.readlink(python) == os.path.realpath(sys._base_executable)
    for path in [folder, *folder.rglob("*")]:
        info = path.lstat()
        assert info.st_uid == 0, path
        if not path.is_symlink():  # (a link's own mode is always 0777 and never used)
            assert not info.st_mode & 0o022, path  # root's alone
            assert info.st_mode & (0o005 if path.is_dir() else 0o004) == (0o005 if path.is_dir() else 0o004), path
    account = pwd.getpwnam(user)
    probe = "import numpy, sys; print(sys.prefix, numpy.__file__, numpy.ones(2).sum())"
    done = subprocess.run([python, "-I", "-c", probe], user=account.pw_uid, group=account.pw_gid, extra_groups=[],
                          cwd="/", env={"PATH": "/usr/bin:/bin"}, capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr
    prefix, numpy_file, total = done.stdout.split()
    assert prefix == str(folder) and numpy_file.startswith(str(folder) + "/") and total == "2.0"
    assert runfolder.argv(sys.executable, Path("/x"), 3, 4)[0] == python  # what the worker execs
    assert accounts.user_can_run(sys.executable, account) in ("", "readable")


@pytest.mark.skipif(not (ROOT and IN_VENV), reason="the copy is made as root, of the grader's venv")
def test_the_copy_is_made_once_and_a_folder_planted_in_its_place_is_never_used(user, home, monkeypatch) -> None:
    monkeypatch.setenv(namespace.SWITCH, "0")
    forced(monkeypatch)
    first = Path(runtime._copy())
    made = first.parents[1].stat().st_ino
    assert Path(runtime._copy()).parents[1].stat().st_ino == made  # found, not made again
    assert [p.name for p in home.iterdir()] == [first.parents[1].name]  # nothing of a build left beside it
    reaper.remove_tree(first.parents[1])
    account = pwd.getpwnam(user)
    planted = first.parents[1]
    planted.mkdir()  # the key's name, taken first by someone else
    os.chown(planted, account.pw_uid, account.pw_gid)
    again = Path(runtime._copy())
    assert again == first and again.parents[1].stat().st_uid == 0 and again.is_symlink()


@pytest.mark.skipif(not (ROOT and IN_VENV), reason="the copy is made as root, of the grader's venv")
def test_no_copy_is_made_below_a_folder_others_could_change(home, monkeypatch) -> None:
    loose = home / "loose"  # writable by all, not sticky: someone could swap the copy's folder
    loose.mkdir()
    loose.chmod(0o777)
    monkeypatch.setattr(runtime, "HOMES", (str(loose / "runtime"),))
    with pytest.raises(OSError, match="loose is not a folder only root can"):
        runtime._copy()
