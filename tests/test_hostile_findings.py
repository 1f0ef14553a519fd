"""Our hostile corpus for issues 12 and 22: one case per finding of the security reviews, each graded end to end
with its expected outcome. Every case ends with a valid results.json of at most 1 MB within the normal grading time;
the reference's score where the code is correct; a student-facing message where something was refused; nothing of
a hidden test in the visible output; no control character on the TA's terminal. Issue 22's: whatever the student's
code does, the verdict is the student's (never "a problem on our side"), in `grade` and in `batch`."""

from __future__ import annotations

import json
import os
import time
import uuid
from collections.abc import Callable
from pathlib import Path

import pytest

from autograder import batch, contract, runner
from autograder.batch import state, table
from autograder.commands import grade
from autograder.results import document
from autograder.results.plugin import INTERNAL
from autograder.sandbox import shares
from tests import fixtures_export as fx
from tests.hostile import snippet
from tests.test_intake_bounds import nested

REFERENCE = Path(__file__).resolve().parents[1] / "reference" / "attention.py"
FORGERY = "\x1b[2J\x1b[H\u202eScore (all tests): 100 / 100 **Likely mistake:** forged by the student"
NORMAL_SECONDS = 150  # the engine's budget for student code


@pytest.fixture(scope="module")
def reference_results(tmp_path_factory: pytest.TempPathFactory) -> dict:
    folder = tmp_path_factory.mktemp("reference") / "submission"
    folder.mkdir()
    (folder / "attention.py").write_text(REFERENCE.read_text())
    return runner.grade_folder(folder)


def graded(folder: Path) -> tuple[dict, float]:
    """Grade ``folder`` as the runner does and write results.json as Gradescope would read it."""
    began = time.monotonic()
    data = runner.grade_folder(folder)
    seconds = time.monotonic() - began
    document.write_results(folder.parent / "results.json", data)
    text = (folder.parent / "results.json").read_text(encoding="utf-8")
    assert len(text.encode()) <= document.MAX_BYTES and json.loads(text)["tests"]
    assert INTERNAL not in text
    return json.loads(text), seconds


def visible_text(data: dict) -> str:
    """Everything a student sees before the due date."""
    shown = [t["output"] for t in data["tests"] if t["visibility"] == "visible"]
    return "\n".join([data["output"], *data["extra_data"]["notes"], *shown])


def statuses(data: dict) -> list[tuple[str, str]]:
    return [(t["name"], t["status"]) for t in data["tests"]]


# ----------------------------------------------------------------------------- the cases, one per finding


def leaking_source(leak: str) -> str:
    """Finding 1: a correct submission that saves its inputs to /dev/shm and ends its worker every 5th call, then
    raises what it saved from nine top-level statements when reloaded."""
    spy = f"""
import os as _os
_LEAK = {leak!r}
def _spy(f):
    def wrapped(*args, **kwargs):
        with open(_LEAK, "a") as out:
            out.write("LEAK" + repr([getattr(a, "tolist", lambda: a)() for a in args])[:300] + "\\n")
        with open(_LEAK) as saved:
            if sum(1 for _ in saved) % 5 == 0:
                _os._exit(9)
        return f(*args, **kwargs)
    return wrapped
multi_head_attention, softmax, rope = _spy(multi_head_attention), _spy(softmax), _spy(rope)
"""
    raisers = "".join(f"if _os.path.exists(_LEAK): raise ValueError(open(_LEAK).read()[{300 * i}:{300 * (i + 1)}])\n"
                      for i in range(9))
    return REFERENCE.read_text() + spy + raisers


def test_finding_1_nothing_saved_from_a_hidden_input_reaches_the_visible_output(tmp_path: Path) -> None:
    leak = f"/dev/shm/ag-leak-{uuid.uuid4().hex}"
    folder = tmp_path / "submission"
    folder.mkdir()
    (folder / "attention.py").write_text(leaking_source(leak))
    try:
        data, _ = graded(folder)
    finally:
        Path(leak).unlink(missing_ok=True)
    outputs = json.dumps(data)
    assert "exited with status 9" in outputs  # the attack ran: workers were ended and reloaded
    assert "LEAK" not in visible_text(data)
    assert data["extra_data"]["notes"] == []  # the first load found nothing saved: no note at all


def test_finding_2_a_long_run_of_spaces_in_a_broken_file_is_read_quickly(tmp_path: Path) -> None:
    folder = tmp_path / "submission"
    folder.mkdir()
    (folder / "attention.py").write_text("def f(:\n" + (" " * 30_000 + "x = 1\n") * 1)
    data, seconds = graded(folder)
    assert seconds < 30 and data["score"] == 0
    assert "has a syntax error on line 1" in data["output"]


def deep_folder(folder: Path) -> None:
    nested(folder, 1_100)
    (folder / "attention.py").write_text(REFERENCE.read_text())


def pipe_folder(folder: Path) -> None:
    (folder / "attention.py").write_text(REFERENCE.read_text())
    os.mkfifo(folder / "notes.py")


def emoji_folder(folder: Path) -> None:
    comments = ("# " + "\U0001f600" * 60 + "\n") * 7_800  # 1.9 MB: 5.6 MB of JSON once escaped
    (folder / "attention.py").write_text(REFERENCE.read_text() + comments)


def many_cells_folder(folder: Path) -> None:
    cells = [{"cell_type": "code", "metadata": {}, "outputs": [], "execution_count": None,
              "source": REFERENCE.read_text()}]
    cells += [{"cell_type": "code", "source": f"%%bash\n{i}"} for i in range(27_000)]  # 1.3 MB in all
    notebook = {"nbformat": 4, "nbformat_minor": 5, "metadata": {}, "cells": cells}
    (folder / "attention.ipynb").write_text(json.dumps(notebook))


@pytest.mark.parametrize(
    "build, note",
    [
        (deep_folder, "Folders nested more than 32 levels deep were not searched."),  # finding 3: recursion
        (pipe_folder, "Skipped `notes.py` (a named pipe): not a regular file."),  # finding 3: a pipe blocks
        (emoji_folder, None),  # finding 3: the JSON-escaped code passed the protocol's header limit
        (many_cells_folder, f"... and {27_000 - document.MAX_NOTES} more notes not shown."),  # finding 5
    ],
    ids=["nested 1,100 deep", "named pipe", "1.9 MB of emoji comments", "27,000 failing magic cells"],
)
def test_findings_3_and_5_a_correct_submission_in_a_hostile_shape_gets_the_reference_score(
    tmp_path: Path, reference_results: dict, build: Callable[[Path], None], note: str | None
) -> None:
    folder = tmp_path / "submission"
    folder.mkdir()
    build(folder)
    try:
        data, seconds = graded(folder)
    finally:
        if build is deep_folder:  # pytest's own cleanup is recursive: it cannot remove 1,100 levels
            deepest = os.path.join(folder, *["d"] * 1_100)
            while deepest != str(folder):
                os.rmdir(deepest)
                deepest = os.path.dirname(deepest)
    assert seconds < NORMAL_SECONDS
    assert data["score"] == reference_results["score"] and statuses(data) == statuses(reference_results)
    if note:
        assert note in data["extra_data"]["notes"]


def test_finding_4_a_callback_limit_fails_that_test_and_no_other(tmp_path: Path, reference_results: dict) -> None:
    source = REFERENCE.read_text().replace(
        "    cache = KVCache()\n    return np.stack(",
        "    for _ in range(20_001):\n        layer.key(X[0])\n    cache = KVCache()\n    return np.stack(",
    )
    folder = tmp_path / "submission"
    folder.mkdir()
    (folder / "attention.py").write_text(source)
    data, seconds = graded(folder)
    assert seconds < NORMAL_SECONDS
    for mine, ref in zip(data["tests"], reference_results["tests"]):
        if "generate_cached" in mine["tags"]:
            assert mine["status"] == "failed"
            assert "more than 20,000 projections" in mine["output"] or "did not return within" in mine["output"]
        else:
            assert (mine["name"], mine["status"]) == (ref["name"], ref["status"])  # no answer read as another's


def test_findings_6_and_7_student_text_forges_neither_the_terminal_nor_the_report(
    tmp_path: Path, capsys: pytest.CaptureFixture
) -> None:
    source = REFERENCE.read_text().replace(
        "def softmax(Z, axis=-1, temperature=1.0):\n",
        f"def softmax(Z, axis=-1, temperature=1.0):\n    raise ValueError({FORGERY!r})\n",
    )
    assert source != REFERENCE.read_text()
    path = tmp_path / "attention.py"
    path.write_text(source)
    assert grade.main([str(path)]) == 0
    printed = capsys.readouterr().out
    assert "raised ValueError" in printed and "Score (visible tests): 100" not in printed
    assert not any(c in printed for c in "\x1b\u202e\r")
    data = grade.grade(path)
    assert any("forged by the student" in t["output"] for t in data["tests"])
    assert not any(table.diagnosed(t) for t in data["tests"] if "forged by the student" in t["output"])


# ----------------------------------------------------------------------------- issue 22: the network, a hung-up batch


def test_finding_22_network_no_route_out_of_the_worker_reaches_a_listener(tmp_path: Path,
                                                                         reference_results: dict) -> None:
    """TCP, UDP, IPv6, raw, netlink, a forked child, an executed program and io_uring, each tried at load: nothing
    arrives, each attempt is a note naming its statement, and the correct code keeps the reference's score."""
    from tests.hostile import network, snippet
    from tests.test_seccomp import Listener

    listener = Listener()
    tcp, udp = listener.tcp.getsockname()[1], listener.udp.getsockname()[1]
    ports = {"udp": udp, "raw": udp}
    calls = "".join(f"{route.__name__}({ports.get(route.__name__, tcp)}, b'{route.__name__}')\n"
                    for route in network.ROUTES)
    folder = tmp_path / "submission"
    folder.mkdir()
    (folder / "attention.py").write_text(REFERENCE.read_text() + "\n" + snippet("network") + "\n" + calls)
    data, seconds = graded(folder)
    assert listener.close() == []
    assert seconds < NORMAL_SECONDS
    assert data["score"] == reference_results["score"] and statuses(data) == statuses(reference_results)
    notes = data["extra_data"]["notes"]
    for route in network.ROUTES:
        mine = [n for n in notes if f"`{route.__name__}(" in n]
        assert mine and "raised PermissionError" in mine[0], (route.__name__, notes)
    assert sum("network access is not allowed while grading" in n for n in notes) >= 5  # the socket() calls


HANGUP = """
import os as _os, signal as _signal
_softmax = softmax
def softmax(Z, axis=-1, temperature=1.0):
    for sig in (_signal.SIGHUP, _signal.SIGTERM, _signal.SIGINT):
        _signal.signal(sig, _signal.SIG_IGN)
    if _os.fork() == 0:
        while True:
            pass
    while True:
        pass
"""


@pytest.mark.slow
@pytest.mark.skipif(os.geteuid() != 0, reason="a batch's workers run as its sandbox users: root")
def test_finding_22_hangup_a_batch_hung_up_leaves_none_of_its_processes(tmp_path: Path) -> None:
    """The terminal closes while workers that ignore SIGHUP, SIGTERM and SIGINT spin, each with a spinning child:
    within 5 s nothing of the batch runs; the batch says it was interrupted and how to resume."""
    import signal
    import subprocess
    import sys

    from tests import fixtures_export as fx
    from tests.test_batch_lifeline import AS_FROM_A_TERMINAL, batch_processes, survivors, wait_for

    path, _ = fx.write_export(tmp_path / "in", [REFERENCE.read_text() + HANGUP] * 2)
    proc = subprocess.Popen([*AS_FROM_A_TERMINAL, sys.executable, "-m", "autograder", "batch", str(path), "-o",
                             str(tmp_path / "out"), "--jobs", "2", "--plain", "--allow-exposed"], cwd=fx.REPO,
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)

    def spinning() -> int:  # processes of a sandbox user under the batch
        return sum(os.stat(f"/proc/{pid}").st_uid != 0 for pid in batch_processes(proc.pid)
                   if Path(f"/proc/{pid}").exists())

    assert wait_for(lambda: spinning() >= 4, 90)  # two workers and their children
    processes = batch_processes(proc.pid)
    proc.send_signal(signal.SIGHUP)
    stdout, _ = proc.communicate(timeout=30)
    assert survivors(processes) == [], stdout
    assert proc.returncode == 130 and "rerun the same command to resume" in stdout


# ----------------------------------------------------------------------------- issue 22: the verdict is the student's


def hostile(name: str, **replace: str) -> str:
    """The reference followed by ``tests/hostile/<name>.py`` (with ``replace``'s substitutions)."""
    source = snippet(name)
    for old, new in replace.items():
        assert old in source
        source = source.replace(old, new)
    return REFERENCE.read_text() + "\n" + source


def graded_source(tmp_path: Path, source: str) -> tuple[dict, float]:
    folder = tmp_path / "submission"
    folder.mkdir()
    (folder / "attention.py").write_text(source)
    return graded(folder)


def by_tag(data: dict, tag: str) -> list[dict]:
    return [t for t in data["tests"] if tag in t["tags"]]


def same_as_reference(data: dict, reference: dict, *but: str) -> bool:
    """Every test of a function not in ``but`` has the reference's status."""
    return all((t["name"], t["status"]) == (r["name"], r["status"]) for t, r in zip(data["tests"], reference["tests"])
               if not set(t["tags"]) & set(but))


FORGED = {"a chunk that does not exist": '"chunk": 99, "stmt": 0',
          "a statement the worker never announces": '"chunk": 0, "stmt": 1000000'}


@pytest.mark.parametrize("position", FORGED.values(), ids=FORGED.keys())
def test_finding_22_1_frames_forged_while_loading_are_the_students(
    tmp_path: Path, reference_results: dict, position: str
) -> None:
    """A statement writes a progress frame of its own and ends the worker: the grader skips the statement it was
    told about. Told the truth about the chunk, that is the culprit, and the rest loads; told of a statement that
    is never run, the culprit runs again at every load, and the code is not loaded. Never a grader error."""
    data, seconds = graded_source(tmp_path, hostile("forged_progress", **{'"chunk": 99, "stmt": 0': position}))
    assert "grader_error" not in data["extra_data"] and seconds < NORMAL_SECONDS
    if position == FORGED["a chunk that does not exist"]:
        assert data["score"] == reference_results["score"] and statuses(data) == statuses(reference_results)
        assert any("this statement sent malformed data; it was skipped" in n for n in data["extra_data"]["notes"])
    else:
        assert data["score"] == 0
        assert all("could not be loaded: it stopped the grader's worker process" in t["output"]
                   for t in data["tests"])


def test_finding_22_2_a_worker_lost_again_in_the_retried_test_is_the_students_crash(
    tmp_path: Path, reference_results: dict
) -> None:
    """KVCache() SIGKILLs the worker of the earlier tests; append SIGKILLs the fresh worker of the retry."""
    data, seconds = graded_source(tmp_path, hostile("double_loss"))
    assert "grader_error" not in data["extra_data"] and seconds < NORMAL_SECONDS
    first = by_tag(data, "KVCache")[0]
    assert first["status"] == "failed" and "died (killed by signal 9" in first["output"]
    assert "KVCache.append" in first["output"]  # the retry ran: the second loss is the one reported
    assert same_as_reference(data, reference_results, "KVCache", "generate_cached")


def no_slot_cgroups(monkeypatch: pytest.MonkeyPatch) -> None:
    """Grading as on Gradescope: no cgroup, no private world."""
    monkeypatch.setattr(shares, "slot_group", lambda *args, **kwargs: None)
    monkeypatch.setattr(shares, "slot", lambda *args, **kwargs: shares.Slot())
    monkeypatch.setenv("AUTOGRADER_NAMESPACES", "0")


@pytest.mark.parametrize("setting", ["this machine", "no cgroup, no namespaces"])
def test_finding_22_3_a_worker_starved_by_its_own_hidden_children_times_out(
    tmp_path: Path, reference_results: dict, monkeypatch: pytest.MonkeyPatch, setting: str
) -> None:
    """causal_mask hides its children's CPU time (SIGCHLD ignored) and starves its own worker (nice 19): once
    the backstop said "the machine was overloaded" after 85 s, twice. Now its waits are its own time."""
    if setting != "this machine":
        no_slot_cgroups(monkeypatch)
    data, seconds = graded_source(tmp_path, hostile("stalled_clock"))
    assert "grader_error" not in data["extra_data"]
    assert seconds < 60, f"{seconds:.0f} s"  # the message below says which limit ended it: the call's own
    stalled = by_tag(data, "causal_mask")
    assert all(t["status"] == "failed" for t in stalled)
    assert f"causal_mask did not return within {contract.CALL_SECONDS:g} s" in stalled[0]["output"]
    assert same_as_reference(data, reference_results, "causal_mask")


def memory_cgroup_writable() -> bool:
    slot = shares.slot("agsharestest", 64, shares.slot_group("agsharestest"))
    shares.remove(slot)
    return slot.memory is not None


@pytest.mark.skipif(not memory_cgroup_writable(), reason="no writable memory cgroup here (not root, or a container)")
def test_finding_22_memory_five_processes_cannot_hold_more_than_the_slot(
    tmp_path: Path, reference_results: dict
) -> None:
    """2 GB of arrays and memfd pages from five processes: the slot's cap (twice a worker's address space) stops
    it within the slot; the grader and the other tests are untouched."""
    data, seconds = graded_source(tmp_path, hostile("slot_memory"))
    assert "grader_error" not in data["extra_data"] and seconds < NORMAL_SECONDS
    first = by_tag(data, "softmax")[0]
    assert first["status"] == "failed", "2 GB were held at once"
    assert any(why in first["output"] for why in ("MemoryError", "killed by signal 9", "did not return within"))
    assert any(layer.startswith("memory: 1024 MiB for the whole slot") for layer in data["extra_data"][
        "isolation_layers"])
    assert same_as_reference(data, reference_results, "softmax", "scaled_dot_product_attention",
                             "multi_head_attention", "decode_step", "generate_cached", "generate_naive")


def test_issue_22_batch_grades_each_hostile_submission_once(tmp_path: Path) -> None:
    """In a batch each of issue 22's submissions is graded (its results are the student's) and a rerun grades
    nothing again: no "not graded", no retry."""
    sources = [hostile("forged_progress"), hostile("double_loss"), hostile("stalled_clock")]
    sources += [hostile("slot_memory")] if memory_cgroup_writable() else []
    export, ids = fx.write_export(tmp_path / "in", sources)
    out = tmp_path / "out"
    assert batch.run(export, out, jobs=2, plain=True) == 0, [r.error for r in state.load_records(out).values()]
    records = state.load_records(out)
    assert sorted(records) == sorted(ids) and all(r.graded for r in records.values())
    for sid in ids:
        assert "grader_error" not in json.loads(state.results_path(out, sid).read_text())["extra_data"]
    assert batch.run(export, out, jobs=2, plain=True) == 0
    assert len((out / "state.jsonl").read_text().splitlines()) == len(ids)  # nothing graded twice
