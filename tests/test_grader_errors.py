"""A grader error is never the student's (issue 11), and the student never chooses one (issue 22): the first
worker lost to a signal in a grading is retried once (it may have come from outside), a later loss is the
student's crash; a real internal error makes the whole submission a grader error (Gradescope: resubmit; batch:
not graded, retried on rerun), and ``grade`` prints the engine's log whenever a test hit an internal error."""

from __future__ import annotations

import os
import signal
from pathlib import Path

import pytest

from autograder import batch, runner
from autograder.batch import state
from autograder.commands import grade
from autograder.results.plugin import INTERNAL
from autograder.sandbox import student as student_module
from autograder.sandbox.supervisor import Sandbox
from tests import fixtures_export as fx
from tests.homework import TOTAL

REFERENCE = fx.REFERENCE.read_text()


def grade_source(tmp_path: Path, source: str) -> dict:
    folder = tmp_path / "submission"
    folder.mkdir()
    (folder / "attention.py").write_text(source)
    return runner.grade_folder(folder)


def test_an_internal_error_in_a_test_makes_the_whole_submission_a_grader_error(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    own = student_module.Student._own

    def broken(self: object, what: str, value: object, method: bool) -> object:
        if what == "softmax":
            raise KeyError("a bug in the grader")
        return own(self, what, value, method)

    monkeypatch.setattr(student_module.Student, "_own", broken)
    data = grade_source(tmp_path, REFERENCE)
    assert data["score"] == 0 and runner.GRADER_FAILED in data["output"]
    assert [t["name"] for t in data["tests"]] == ["Autograder"]  # no failed test of the student's
    assert data["extra_data"]["grader_error"].startswith("internal error in ")
    assert any(name.startswith("softmax") for name in data["extra_data"]["internal_errors"])
    assert "a bug in the grader" in capsys.readouterr().err  # the instructor's log has it


def test_a_worker_killed_once_from_outside_is_retried_and_the_test_counts_the_retry(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """While the first softmax call runs, its worker is SIGKILLed from outside (as an administrator or, before
    the user lock, another grading would): the test runs once more on a fresh worker and passes."""
    request, receive, killed = student_module.Student._request, Sandbox.receive, []

    def first_softmax_killed(self: object, what: str, *args: object, **kwargs: object) -> object:
        if what == "softmax" and not killed:
            killed.append(self.sandbox)
        return request(self, what, *args, **kwargs)

    def receive_after_a_kill(self: Sandbox, deadline: float) -> object:
        if killed and killed[0] is self and self.pid:
            os.kill(self.pid, signal.SIGKILL)
            killed[0] = None
        return receive(self, deadline)

    monkeypatch.setattr(student_module.Student, "_request", first_softmax_killed)
    monkeypatch.setattr(Sandbox, "receive", receive_after_a_kill)
    data = grade_source(tmp_path, REFERENCE)
    assert killed == [None], "the worker was killed once"
    assert "grader_error" not in data["extra_data"]
    assert data["score"] == TOTAL
    assert "running the test once more" in capsys.readouterr().err


def test_a_worker_that_kills_itself_every_time_is_the_students_crash(tmp_path: Path) -> None:
    source = REFERENCE + "\n\ndef softmax(*args, **kwargs):\n    import os\n    os.kill(os.getpid(), 9)\n"
    data = grade_source(tmp_path, source)
    assert "grader_error" not in data["extra_data"]
    failed = [t for t in data["tests"] if t["tags"] == ["softmax"]]
    assert failed and all(t["score"] == 0 for t in failed)
    assert any("killed by signal 9" in t["output"] for t in failed)
    assert not any(INTERNAL in t["output"] for t in data["tests"])


@pytest.mark.parametrize(("data", "failed"), [
    ({"tests": []}, True),
    ({"tests": [{"output": "ok"}], "extra_data": {"grader_error": "internal error in 1 tests"}}, True),
    ({"tests": [{"output": "ok"}, {"output": INTERNAL}], "extra_data": {}}, True),
    ({"tests": [{"output": "ok"}], "extra_data": {"notes": []}}, False),
])
def test_grade_prints_the_engine_log_whenever_a_test_hit_an_internal_error(data: dict, failed: bool) -> None:
    assert grade.engine_failed(data) is failed


def grader_error_grade(submission: Path) -> dict:
    """A stand-in for runner.grade_folder whose engine fails on submissions marked FAKE_GRADER_ERROR."""
    data = fx.fake_grade(submission)
    if "FAKE_GRADER_ERROR" in "".join(p.read_text() for p in submission.rglob("*.py")):
        data = runner.grader_error_results("internal error in 1 tests: softmax")
    return data


def test_a_batch_lists_a_grader_error_as_not_graded_and_a_rerun_retries_it(tmp_path: Path) -> None:
    good = fx.fake_source(*fx.FAKE_FUNCTIONS)
    export, ids = fx.write_export(tmp_path / "in", [good, good + "\n# FAKE_GRADER_ERROR\n"])
    out = tmp_path / "out"
    options = {"jobs": 2, "timeout": 30.0, "plain": True, "version": "e" * 64,
               "target": "tests.test_grader_errors:grader_error_grade"}
    assert batch.run(export, out, **options) == 1
    records = state.load_records(out)
    bad = sorted(ids)[1]
    assert records[bad].status == state.GRADER_ERROR and "internal error" in records[bad].error
    assert records[sorted(ids)[0]].graded
    assert "internal error in 1 tests" in (out / "report.html").read_text()
    assert batch.run(export, out, **options) == 1  # still failing: retried, not skipped
    assert len([line for line in (out / "state.jsonl").read_text().splitlines() if bad in line]) == 2
