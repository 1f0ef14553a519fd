"""The must-show of the private world, end to end: a submission that walks / and /proc and reads what it
can, graded by `grade` and `batch` as root, finds nothing of the checkout, the export, OUTDIR, another slot
or another process (namespaces available), or is refused before it runs (AUTOGRADER_NAMESPACES=0); and no
file of a sandbox user remains after a batch of them."""

from __future__ import annotations

import json
import os
import pwd
import re
import tempfile
from pathlib import Path

import pytest

from autograder import batch, contract
from autograder.batch import isolation, state
from autograder.commands import grade
from autograder.sandbox import namespace, reaper
from tests import fixtures_export as fx
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


def sandbox_uids() -> set[int]:
    return {account.pw_uid for account in pwd.getpwall() if account.pw_name.startswith(("agsandbox", "agsbtest",
            os.environ.get("AUTOGRADER_SANDBOX_USER") or "agsandbox"))}


def files_of(uids: set[int]) -> list[str]:
    """Anything owned by ``uids`` in every world-writable folder of the machine (all depths)."""
    left = []
    for top in reaper.world_writable_dirs(refresh=True):
        for folder, dirs, files in os.walk(top):
            for name in dirs + files:
                try:
                    if os.lstat(os.path.join(folder, name)).st_uid in uids:
                        left.append(os.path.join(folder, name))
                except OSError:
                    pass
    return left


@needs_world
def test_grade_in_a_private_world_the_explorer_finds_nothing(tmp_path: Path) -> None:
    folder = explorer(tmp_path / "sub", [str(REPO), os.path.realpath(REPO), "BEGIN SOLUTION", "autograder-root-"])
    results = grade.grade(folder)
    assert findings(results) == {(findings(results).pop()[0], 1, 0, 1, 0)}  # saw all; no hit, slot, process
    assert any(layer.startswith("namespaces:") for layer in results["extra_data"]["isolation_layers"])


def test_grade_without_namespaces_refuses_before_student_code_runs(tmp_path: Path, monkeypatch, capsys) -> None:
    monkeypatch.setenv(namespace.SWITCH, "0")
    folder = explorer(tmp_path / "sub", [str(REPO)])
    assert grade.main([str(folder)]) == 3
    err = capsys.readouterr().err
    assert "Student code was not run: the sandbox user" in err and "(namespaces are switched off" in err
    assert str(REPO / "reference") in err or str(REPO / "autograder") in err or str(REPO / "tests") in err
    assert "--allow-exposed" in err


@needs_world
def test_batch_of_explorers_finds_nothing_and_leaves_no_file_behind(tmp_path: Path) -> None:
    markers = [str(REPO), os.path.realpath(REPO), "BEGIN SOLUTION", str(tmp_path), "Lovelace",
               "student0@example.edu", "3030000000", "submission_metadata"]
    sources = [explore.submission(markers, list(contract.FUNCTIONS))] * 3 + [fx.REFERENCE.read_text()]
    export, ids = fx.write_export(tmp_path / "in", sources)
    out = tmp_path / "out"
    assert batch.run(export, out, jobs=2, plain=True) == 0
    scores = {}
    for sid in ids:
        results = json.loads(state.results_path(out, sid).read_text())
        scores[sid] = results["score"]
        if results["score"] == 0:
            assert {f[1:] for f in findings(results)} == {(1, 0, 1, 0)}, sid  # complete; nothing; own run; alone
    assert sorted(scores.values()) == [0, 0, 0, 100]
    assert oct(state.results_path(out, next(iter(ids))).stat().st_mode & 0o777) == "0o600"
    users = {pwd.getpwnam(name).pw_uid for name in isolation.slot_users(2)}
    assert files_of(users) == []
    assert [p for p, info in reaper.process_table().items() if info["uids"] & users] == []


def test_batch_without_namespaces_refuses_and_says_so_in_the_report(tmp_path: Path, monkeypatch, capsys) -> None:
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


def test_without_namespaces_a_batch_of_litterers_leaves_no_file_of_a_sandbox_user(tmp_path: Path,
                                                                                  monkeypatch) -> None:
    """The fallback's cleanup: every world-writable folder of the machine, nested ones included."""
    monkeypatch.setenv(namespace.SWITCH, "0")
    nested = Path(tempfile.mkdtemp(prefix="ag-world-writable-", dir="/var/tmp"))
    nested.chmod(0o1777)
    try:
        source = f"FOLDERS = [{str(nested)!r}]\n" + LITTER
        export, ids = fx.write_export(tmp_path / "in", [source] * 4)
        assert batch.run(export, tmp_path / "out", jobs=2, plain=True, allow_exposed=True) == 0
        outputs = [t["output"] for sid in ids
                   for t in json.loads(state.results_path(tmp_path / "out", sid).read_text())["tests"]]
        assert any("LEFT " in o and "LEFT 0" not in o for o in outputs)  # it did leave files
        users = {pwd.getpwnam(name).pw_uid for name in isolation.slot_users(2)}
        assert files_of(users) == []
        assert "Student code ran although the sandbox user" in (tmp_path / "out" / "report.html").read_text()
    finally:
        reaper.remove_tree(nested)
