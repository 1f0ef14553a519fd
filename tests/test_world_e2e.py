"""The must-show of the private world, end to end: a submission that walks / and /proc and reads what it
can, graded by `grade` and `batch` as root, finds nothing of the checkout, the export, OUTDIR, another slot
or another process (namespaces available), or is refused before it runs (AUTOGRADER_NAMESPACES=0) where the
sandbox user could read a checkout; and no file of a sandbox user remains after a batch of them.

Other gradings may run on this machine meanwhile (a TA's batch, another checkout's tests): leftovers are
counted only for the users this test's gradings ran as, while this test holds them (``held``), so no
other grading's live processes or files are counted."""

from __future__ import annotations

import contextlib
import json
import os
import pwd
import re
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from autograder import batch, contract
from autograder.batch import state
from autograder.commands import grade
from autograder.sandbox import accounts, lock, namespace, reaper
from tests import fixtures_export as fx
from tests.homework import TOTAL
from tests.hostile import explore

REPO = Path(__file__).resolve().parent.parent
ROOT = os.geteuid() == 0
pytestmark = pytest.mark.skipif(not ROOT, reason="the sandbox users and namespaces need root")
needs_world = pytest.mark.skipif(not namespace.unavailable() == "", reason=f"no namespaces: {namespace.unavailable()}")
FOUND = re.compile(r"EXPLORED read=(\d+) complete=(\d) hits=(\d+) runs=(\d+) commands=(\d+) first=(\S*) END")


def explorer(folder: Path, markers: list[str]) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "attention.py").write_text(explore.submission(markers, list(contract.FUNCTIONS)))
    return folder


def findings(results: dict) -> set[tuple[int, ...]]:
    """(read, complete, hits, runs, commands) as each test's output reports them (one walk: all equal)."""
    found = {m.groups() for t in results["tests"] for m in [FOUND.search(t.get("output", ""))] if m}
    assert found, [t.get("output", "")[:300] for t in results["tests"][:3]]
    return {(int(r), int(c), int(h), int(n), int(p)) for r, c, h, n, p, _ in found}


def users_of(out: Path, ids) -> set[str]:
    """The sandbox users this batch's gradings ran as (each results.json's isolation layers name its user)."""
    names = set()
    for sid in ids:
        layers = json.loads(state.results_path(out, sid).read_text())["extra_data"]["isolation_layers"]
        names |= {layer.split(" ", 1)[1] for layer in layers if layer.startswith("user ")}
    assert names, "no grading ran as a sandbox user"
    return names


@contextlib.contextmanager
def held(names: set[str], seconds: float = 120.0) -> Iterator[set[int]]:
    """Hold the sandbox users ``names`` as a grading does (their locks, sandbox/lock.py) and yield their uids:
    while held, no other grading on this machine runs as them, so a process or file of theirs is a leftover."""
    fds = []
    try:
        for name in sorted(names):
            deadline, fd = time.monotonic() + seconds, None
            while fd is None and time.monotonic() < deadline:
                fd = lock._try_lock(lock.lock_dir(), name)
                if fd is None:
                    time.sleep(0.002)  # another grading holds it for a second or so
            assert fd is not None, f"{name} stayed busy for {seconds:g} s"
            fds.append(fd)
        yield {pwd.getpwnam(name).pw_uid for name in names}
    finally:
        for fd in fds:
            os.close(fd)


def files_of(uids: set[int], since: float) -> list[str]:
    """Anything owned by ``uids`` and changed since ``since`` (time.time()) in every world-writable folder of the
    machine (all depths)."""
    left = []
    for top in reaper.world_writable_dirs(refresh=True):
        for folder, dirs, files in os.walk(top):
            for name in dirs + files:
                with contextlib.suppress(OSError):
                    info = os.lstat(os.path.join(folder, name))
                    if info.st_uid in uids and info.st_ctime >= since - 1:
                        left.append(os.path.join(folder, name))
    return left


def processes_of(uids: set[int]) -> list[int]:
    return [p for p, info in reaper.process_table().items() if info["uids"] & uids]


@pytest.fixture
def exposed_checkout(monkeypatch) -> Iterator[Path]:
    """A checkout the sandbox user can read (its reference/, autograder/ and tests/ readable by all), standing
    for this one, which may be private (cloned into a 0700 folder) and then rightly exposes nothing."""
    top = Path(tempfile.mkdtemp(prefix="ag-exposed-checkout-", dir="/tmp"))
    try:
        for name in accounts.CHECKOUT_PRIVATE:
            (top / name).mkdir()
            (top / name / "answers.py").write_text("# BEGIN SOLUTION\n")
            (top / name / "answers.py").chmod(0o644)
            (top / name).chmod(0o755)
        top.chmod(0o755)
        monkeypatch.setattr(accounts, "checkout_paths", lambda: [top / name for name in accounts.CHECKOUT_PRIVATE])
        yield top
    finally:
        reaper.remove_tree(top)


@needs_world
def test_grade_in_a_private_world_the_explorer_finds_nothing(tmp_path: Path) -> None:
    folder = explorer(tmp_path / "sub", [str(REPO), os.path.realpath(REPO), "BEGIN SOLUTION", "autograder-root-"])
    results = grade.grade(folder)
    assert findings(results) == {(findings(results).pop()[0], 1, 0, 1, 0)}  # saw all; no hit, slot, process
    assert any(layer.startswith("namespaces:") for layer in results["extra_data"]["isolation_layers"])


def test_grade_without_namespaces_refuses_before_student_code_runs(tmp_path: Path, monkeypatch, capsys,
                                                                  exposed_checkout: Path) -> None:
    monkeypatch.setenv(namespace.SWITCH, "0")
    folder = explorer(tmp_path / "sub", [str(REPO)])
    assert grade.main([str(folder)]) == 3
    err = capsys.readouterr().err
    assert "Student code was not run: the sandbox user" in err and "(namespaces are switched off" in err
    assert str(exposed_checkout / "reference") in err or str(exposed_checkout / "autograder") in err
    assert "--allow-exposed" in err


@needs_world
def test_batch_of_explorers_finds_nothing_and_leaves_no_file_behind(tmp_path: Path) -> None:
    markers = [str(REPO), os.path.realpath(REPO), "BEGIN SOLUTION", str(tmp_path), "Lovelace",
               "student0@example.edu", "3030000000", "submission_metadata"]
    sources = [explore.submission(markers, list(contract.FUNCTIONS))] * 3 + [fx.REFERENCE.read_text()]
    export, ids = fx.write_export(tmp_path / "in", sources)
    out, began = tmp_path / "out", time.time()
    assert batch.run(export, out, jobs=2, plain=True) == 0
    scores = {}
    for sid in ids:
        results = json.loads(state.results_path(out, sid).read_text())
        scores[sid] = results["score"]
        if results["score"] == 0:
            assert {f[1:] for f in findings(results)} == {(1, 0, 1, 0)}, sid  # complete; nothing; own run; alone
    assert sorted(scores.values()) == [0, 0, 0, TOTAL]
    assert oct(state.results_path(out, next(iter(ids))).stat().st_mode & 0o777) == "0o600"
    with held(users_of(out, ids)) as uids:
        assert files_of(uids, began) == []
        assert processes_of(uids) == []


def test_batch_without_namespaces_refuses_and_says_so_in_the_report(tmp_path: Path, monkeypatch, capsys,
                                                                    exposed_checkout: Path) -> None:
    monkeypatch.setenv(namespace.SWITCH, "0")
    export, ids = fx.write_export(tmp_path / "in", [explore.submission([str(REPO)], list(contract.FUNCTIONS))])
    out = tmp_path / "out"
    assert batch.run(export, out, jobs=1, plain=True) == 2
    assert "batch: Student code was not run: the sandbox user" in capsys.readouterr().err
    assert "Student code was not run" in (out / "report.html").read_text()
    assert not state.results_path(out, next(iter(ids))).exists()


LITTER = '''
import os

def _litter(folders):
    """Leave a file in every folder given and in every world-writable shared folder: how many were left."""
    left = 0
    for top in [*folders, "/tmp", "/var/tmp", "/dev/shm", "/run/lock", "/var/crash", "/dev/mqueue"]:
        try:
            with open(os.path.join(top, f"litter-{os.getpid()}"), "w") as f:
                f.write("x")
            left += 1
        except OSError:
            pass
    return left

LEFT = _litter(FOLDERS)

def softmax(*args, **kwargs):
    raise RuntimeError(f"LEFT {LEFT}")
'''


def test_without_namespaces_a_batch_of_litterers_leaves_no_file_of_a_sandbox_user(tmp_path: Path, monkeypatch,
                                                                                  exposed_checkout: Path) -> None:
    """The fallback's cleanup: every world-writable folder of the machine, nested ones included."""
    monkeypatch.setenv(namespace.SWITCH, "0")
    nested = Path(tempfile.mkdtemp(prefix="ag-world-writable-", dir="/var/tmp"))
    nested.chmod(0o1777)
    try:
        source = f"FOLDERS = [{str(nested)!r}]\n" + LITTER
        export, ids = fx.write_export(tmp_path / "in", [source] * 4)
        began = time.time()
        assert batch.run(export, tmp_path / "out", jobs=2, plain=True, allow_exposed=True) == 0
        outputs = [t["output"] for sid in ids
                   for t in json.loads(state.results_path(tmp_path / "out", sid).read_text())["tests"]]
        assert any("LEFT " in o and "LEFT 0" not in o for o in outputs)  # it did leave files
        with held(users_of(tmp_path / "out", ids)) as uids:
            assert files_of(uids, began) == []
            assert processes_of(uids) == []
        assert "Student code ran although the sandbox user" in (tmp_path / "out" / "report.html").read_text()
    finally:
        reaper.remove_tree(nested)


# -- a checkout the sandbox user cannot reach ------------------------------------------------------------------

UID_REPORTER = '''

def softmax(x, axis=-1):
    import os
    raise RuntimeError(f"UID-REPORT {os.getuid()} END")
'''


def grading_packages() -> list[str]:
    """The distributions grading and batch need (requirements.txt, requirements-ta.txt and what they require)."""
    import importlib.metadata

    from packaging.requirements import Requirement

    todo = [Requirement(line.split("#")[0]).name for name in ("requirements.txt", "requirements-ta.txt")
            for line in (REPO / name).read_text().splitlines() if line.split("#")[0].strip()
            and not line.startswith("-")]
    found: dict[str, importlib.metadata.Distribution] = {}
    while todo:
        name = todo.pop()
        try:
            dist = importlib.metadata.distribution(name)
        except importlib.metadata.PackageNotFoundError:
            continue  # (a marker's: not for this Python)
        if dist.metadata["Name"].lower() not in found:
            found[dist.metadata["Name"].lower()] = dist
            todo += [r.name for r in map(Requirement, dist.requires or [])
                     if r.marker is None or r.marker.evaluate({"extra": ""})]
    return sorted({str(dist.locate_file(entry.parts[0])) for dist in found.values() for entry in dist.files or ()
                   if entry.parts and entry.parts[0] != ".."})


def make_venv(checkout: Path) -> Path:
    """checkout/.venv from the base interpreter, with this venv's grading packages (hard links where the
    file system allows) and the checkout on its path (as `pip install -e .` puts it): what `make venv` makes."""
    subprocess.run([os.path.realpath(sys._base_executable), "-m", "venv", "--without-pip", str(checkout / ".venv")],
                   check=True)
    site = checkout / ".venv" / "lib" / f"python{sys.version_info[0]}.{sys.version_info[1]}" / "site-packages"
    for top in map(Path, grading_packages()):
        if top.is_dir():
            shutil.copytree(top, site / top.name, symlinks=True, copy_function=_link_or_copy)
        elif top.exists():
            _link_or_copy(str(top), str(site / top.name))
    (site / "attention-autograder.pth").write_text(f"{checkout}\n")
    return checkout / ".venv" / "bin" / "python"


def _link_or_copy(source: str, target: str) -> None:
    try:
        os.link(source, target)
    except OSError:
        shutil.copy2(source, target)


@pytest.fixture(scope="module")
def private_clone() -> Iterator[Path]:
    """A fresh clone of this repository (`git clone -q`, its committed state) in a folder only root can enter (0700,
    as `mktemp -d` makes it; root's home or a 0750 home are the same to the sandbox user), with its venv inside."""
    if not (REPO / ".git").exists() or not shutil.which("git"):
        pytest.skip("not a git checkout")
    top = Path(tempfile.mkdtemp(prefix="ag-private-checkout-"))
    try:
        assert top.stat().st_mode & 0o777 == 0o700
        subprocess.run(["git", "clone", "-q", str(REPO), str(top / "p")], check=True)
        make_venv(top / "p")
        yield top / "p"
    finally:
        reaper.remove_tree(top)


def run_there(checkout: Path, *args: str, world: str) -> subprocess.CompletedProcess:
    """``python -m autograder ARGS`` in ``checkout``: in a private ``world`` ("private-world"; "private-venv":
    its venv's folders closed to others too, as a umask of 077 makes them) or with "no-namespaces"."""
    env = {**os.environ, namespace.SWITCH: "0" if world == "no-namespaces" else "1"}
    with closed_folders(checkout / ".venv", world == "private-venv"):
        return subprocess.run([str(checkout / ".venv" / "bin" / "python"), "-m", "autograder", *args],
                              cwd=checkout, env=env, capture_output=True, text=True, timeout=600, check=False)


@contextlib.contextmanager
def closed_folders(top: Path, close: bool) -> Iterator[None]:
    """Every folder under ``top`` 0700 meanwhile (``close``). Folders only: the files may be hard links."""
    folders = [top, *(p for p in top.rglob("*") if p.is_dir() and not p.is_symlink())] if close else []
    for folder in folders:
        folder.chmod(0o700)
    try:
        yield
    finally:
        for folder in folders:
            folder.chmod(0o755)


def pool_uids() -> set[int]:
    base = os.environ.get(accounts.USER_ENV) or accounts.DEFAULT_USER
    return {pwd.getpwnam(name).pw_uid for name in lock.members(base)}


def reported_uids(results: dict) -> set[int]:
    return {int(uid) for t in results["tests"] for uid in re.findall(r"UID-REPORT (\d+) END", t.get("output", ""))}


WORLDS = [pytest.param("private-world", marks=needs_world), pytest.param("private-venv", marks=needs_world),
          "no-namespaces"]


@pytest.mark.slow
@pytest.mark.parametrize("world", WORLDS)
def test_from_a_checkout_in_a_0700_folder_grade_runs_student_code_as_the_sandbox_user(private_clone: Path,
                                                                                      tmp_path: Path, world) -> None:
    assert lock.ensure_user(os.environ.get(accounts.USER_ENV) or accounts.DEFAULT_USER)  # as setup.sh makes it
    (tmp_path / "uid.py").write_text(fx.REFERENCE.read_text() + UID_REPORTER)
    (tmp_path / "uid.py").chmod(0o644)
    reference = run_there(private_clone, "grade", str(private_clone / "reference" / "attention.py"), "--json",
                          world=world)
    assert reference.returncode == 0, reference.stderr
    results = json.loads(reference.stdout)
    assert results["score"] == sum(t["max_score"] for t in results["tests"]) > 0
    layers = results["extra_data"]["isolation_layers"]
    assert layers[0].startswith("user "), results["extra_data"]
    copied = any("the venv's runtime from a root-owned copy" in layer for layer in layers)
    assert copied == (world != "private-world"), layers  # a world shows a venv whose own files others can read
    assert "isolation" not in results["extra_data"], results["extra_data"]["isolation"]  # nothing reduced
    reporter = run_there(private_clone, "grade", str(tmp_path / "uid.py"), "--json", world=world)
    uids = reported_uids(json.loads(reporter.stdout))
    assert uids and uids <= pool_uids() and 0 not in uids, (uids, reporter.stderr)


@pytest.mark.slow
@pytest.mark.parametrize("world", WORLDS)
def test_from_a_checkout_in_a_0700_folder_batch_runs_student_code_as_the_sandbox_users(private_clone: Path,
                                                                                       tmp_path: Path, world) -> None:
    for name, source in (("alice", fx.REFERENCE.read_text() + UID_REPORTER), ("bob", fx.REFERENCE.read_text())):
        (tmp_path / "in" / name).mkdir(parents=True)
        (tmp_path / "in" / name / "attention.py").write_text(source)
    out = tmp_path / "out"
    done = run_there(private_clone, "batch", str(tmp_path / "in"), "-o", str(out), "--plain", world=world)
    assert done.returncode == 0, done.stderr
    alice, bob = (json.loads(state.results_path(out, name).read_text()) for name in ("alice", "bob"))
    assert bob["score"] == sum(t["max_score"] for t in bob["tests"]) > 0
    uids = reported_uids(alice)
    assert uids and uids <= pool_uids() and 0 not in uids, (uids, done.stderr)
    assert "student code runs as root" not in done.stderr.lower()
