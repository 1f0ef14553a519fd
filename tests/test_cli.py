"""The command line a newcomer meets: help texts, batch's options and messages, grade given a whole class."""

from __future__ import annotations

import csv
import importlib
import io
import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from autograder import batch, cli
from autograder.batch import progress
from autograder.commands import grade
from tests import fixtures_export as fx
from tests.homework import TOTAL, TOTAL_TEXT

REPO = Path(__file__).resolve().parent.parent


@pytest.mark.parametrize("command", sorted(cli.COMMANDS))
def test_help_texts_have_no_rst_double_backticks(command: str, capsys: pytest.CaptureFixture) -> None:
    module = importlib.import_module(cli.COMMANDS[command][0])
    with pytest.raises(SystemExit) as stop:
        module.main(["--help"])
    out = capsys.readouterr().out
    assert stop.value.code == 0 and f"usage: autograder {command}" in out
    assert "``" not in out


def test_the_top_level_help_names_the_console_script(capsys: pytest.CaptureFixture) -> None:
    assert cli.main(["--help"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("usage: autograder <command>") and "``" not in out


def test_batch_usage_line_shows_every_option(capsys: pytest.CaptureFixture) -> None:
    usage = batch._parser().format_usage()
    for option in ("--jobs", "--shard", "--timeout", "--force", "--plain", "--allow-root-students", "--merge"):
        assert option in usage, option


@pytest.mark.parametrize("jobs", ["0", "-2", "two"])
def test_batch_refuses_fewer_than_one_job(jobs: str, tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    with pytest.raises(SystemExit) as stop:
        batch.main([str(tmp_path), "-o", str(tmp_path / "out"), "--jobs", jobs])
    assert stop.value.code == 2
    assert "--jobs" in capsys.readouterr().err
    assert not (tmp_path / "out").exists()


def test_a_resumed_batch_says_how_many_are_left(tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    good = fx.fake_source(*fx.FAKE_FUNCTIONS)
    path, _ = fx.write_export(tmp_path / "in", [good] * 5)
    options = {"jobs": 1, "timeout": 20.0, "plain": True, "target": fx.FAKE_GRADER, "version": "v" * 64}
    assert batch.run(path, tmp_path / "out", shard=(1, 2), **options) == 0  # 3 of the 5
    capsys.readouterr()
    batch.run(path, tmp_path / "out", **options)
    out = capsys.readouterr().out
    assert "2 left to grade (3 of 5 already graded" in out, out


class Log(io.StringIO):
    def isatty(self) -> bool:
        return False


class Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


@pytest.mark.parametrize("total", [7, 100, 1000])
def test_without_a_terminal_progress_prints_about_a_line_per_tenth(total: int) -> None:
    log = Log()
    bar = progress.Progress(total, stream=log)
    for i in range(total):
        bar.update(str(i))
    bar.close()
    lines = log.getvalue().splitlines()
    assert "\r" not in log.getvalue() and bar.note == ""
    assert 1 <= len(lines) <= 12, lines
    assert lines[-1].startswith(f"[{total}/{total}]")


def test_plain_progress_on_a_terminal_is_still_throttled() -> None:
    terminal = Terminal()
    bar = progress.Progress(500, stream=terminal, plain=True)
    for i in range(500):
        bar.update(str(i))
    assert len(terminal.getvalue().splitlines()) <= 3  # the first, the last, maybe one every 2 s


def test_a_grader_error_is_always_reported_even_in_a_log() -> None:
    log = Log()
    bar = progress.Progress(100, stream=log)
    bar.update("a")
    bar.update("b", error=True)
    assert "could not grade b" in log.getvalue()


def make_class(root: Path, names: list[str], *, metadata: bool = False) -> Path:
    for name in names:
        (root / name).mkdir(parents=True)
        (root / name / "attention.py").write_text("x = 1\n")
    if metadata:
        (root / "submission_metadata.yml").write_text("{}\n")
    return root


@pytest.mark.parametrize(
    ("layout", "refused"),
    [
        (lambda p: make_class(p / "export", ["submission_1", "submission_2"], metadata=True), "Gradescope export"),
        (lambda p: make_class(p / "class", ["alice", "bob", "carol"]), "holds 3 folders"),
        (lambda p: make_class(p / "nested", ["alice/v1", "bob/v1"]), "holds 2 folders"),
        (lambda p: (p / "export.zip").write_bytes(b"PK\x05\x06" + b"\0" * 18) and p / "export.zip", "is a zip"),
    ],
    ids=["export with metadata", "folder of students", "nested", "zip"],
)
def test_grade_refuses_a_whole_class_and_suggests_batch(layout, refused: str, tmp_path: Path,
                                                        capsys: pytest.CaptureFixture) -> None:
    path = layout(tmp_path)
    assert grade.main([str(path)]) == 2
    err = capsys.readouterr().err
    assert refused in err and f"autograder batch {path} -o OUTDIR" in err


def versions_beside_a_top_level_file(root: Path) -> Path:
    make_class(root / "mixed", ["old", "new"])
    (root / "mixed" / "attention.py").write_text("x = 1\n")
    return root / "mixed"


@pytest.mark.parametrize(
    "layout",
    [
        lambda p: make_class(p / "one", ["attention_dir"]) / "attention_dir",  # a folder holding attention.py
        lambda p: make_class(p / "one", ["only_student"]),  # one subfolder: one submission
        versions_beside_a_top_level_file,
    ],
    ids=["folder with attention.py", "one subfolder", "versions beside a top-level file"],
)
def test_one_submission_is_not_taken_for_a_class(layout, tmp_path: Path) -> None:
    assert grade.looks_like_a_class(layout(tmp_path)) == ""


def test_the_console_script_entry_point_works_from_any_folder(tmp_path: Path) -> None:
    """`autograder = autograder.cli:main` (pyproject.toml), as `.venv/bin/autograder` runs it: from `/`, with
    the package importable but the checkout not on sys.path, reference/ is still found (regen needs it)."""
    assert 'autograder = "autograder.cli:main"' in (REPO / "pyproject.toml").read_text()
    code = (f"import sys; sys.path[:] = [p for p in sys.path if p not in ('', {str(REPO)!r})]; "
            f"sys.path.insert(0, {str(tmp_path)!r}); import autograder.cli as c; "
            "sys.exit(c.main(['regen', '--check', '--only', 'public']))")
    (tmp_path / "autograder").symlink_to(REPO / "autograder")  # like the editable install's finder
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    done = subprocess.run([sys.executable, "-c", code], cwd="/", env=env, capture_output=True, text=True,
                          timeout=300, check=False)
    assert done.returncode == 0, done.stdout + done.stderr


# ----------------------------------------------------------------------------- CLI conventions (issue 23)


def run_cli(*args: str, stdout: int | None = subprocess.PIPE, env: dict | None = None,
            timeout: float = 600) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "autograder", *args], cwd=REPO, stdout=stdout,
                          stderr=subprocess.PIPE, text=True, env=env, timeout=timeout, check=False)


def test_version_names_the_package_and_the_contents_batch_records(capsys: pytest.CaptureFixture) -> None:
    from autograder import __version__
    from autograder.batch import state

    assert cli.main(["--version"]) == 0
    out = capsys.readouterr().out.strip()
    assert out == f"autograder {__version__} (contents {state.autograder_version()[:12]})"


@pytest.mark.parametrize("argv", [[], ["no-such-command"]], ids=["bare", "unknown command"])
def test_usage_errors_go_to_stderr_with_status_2(argv: list[str], capsys: pytest.CaptureFixture) -> None:
    assert cli.main(argv) == 2
    captured = capsys.readouterr()
    assert captured.out == "" and "usage: autograder <command>" in captured.err


def test_a_bare_autograder_command_exits_2() -> None:
    done = run_cli()
    assert done.returncode == 2 and done.stdout == "" and "a command is required" in done.stderr


def closed_pipe() -> int:
    """The write end of a pipe whose reader has gone, as `| head` leaves it once it has read enough."""
    read, write = os.pipe()
    os.close(read)
    return write


def test_a_quiet_pipe_drops_output_once_its_reader_has_gone() -> None:
    write = closed_pipe()
    stream = open(write, "w", buffering=1)  # line-buffered: each line is written at once
    quiet = cli._QuietPipe(stream)
    quiet.write("first line\n")  # EPIPE: silenced, no exception
    quiet.write("more\n" * 10_000)
    quiet.flush()
    assert quiet._gone and quiet.isatty() is False
    stream.close()


def test_grade_into_a_closed_pipe_ends_quietly_with_its_status(tmp_path: Path) -> None:
    write = closed_pipe()
    try:
        done = run_cli("grade", str(fx.REFERENCE), "--json", "-o", str(tmp_path / "r.json"), stdout=write)
    finally:
        os.close(write)
    assert done.returncode == 0, done.stderr
    assert "Traceback" not in done.stderr and "BrokenPipe" not in done.stderr, done.stderr
    assert json.loads((tmp_path / "r.json").read_text())["score"] == TOTAL


def test_regen_into_a_closed_pipe_ends_quietly_with_its_status() -> None:
    write = closed_pipe()
    try:
        done = run_cli("regen", "--check", "--only", "public", stdout=write)
    finally:
        os.close(write)
    assert done.returncode == 0, done.stderr
    assert "Traceback" not in done.stderr and "BrokenPipe" not in done.stderr, done.stderr


def test_batch_into_a_closed_pipe_keeps_grading_and_writes_everything(tmp_path: Path) -> None:
    path, _ = fx.write_export(tmp_path / "in", [fx.REFERENCE.read_text(), fx.blank_source()])
    write = closed_pipe()
    try:
        done = run_cli("batch", str(path), "-o", str(tmp_path / "out"), "--jobs", "2", "--plain", stdout=write)
    finally:
        os.close(write)
    assert done.returncode == 0, done.stderr
    assert "Traceback" not in done.stderr and "BrokenPipe" not in done.stderr, done.stderr
    with open(tmp_path / "out" / "scores.csv", newline="") as f:
        rows = list(csv.DictReader(f))
    assert sorted(r["status"] for r in rows) == ["graded", "graded"] and {r["total"] for r in rows} == {TOTAL_TEXT, "0"}


def test_grade_exits_1_when_the_grader_itself_failed(monkeypatch: pytest.MonkeyPatch,
                                                     capsys: pytest.CaptureFixture) -> None:
    monkeypatch.setattr(sys, "executable", "/bin/false")  # run_autograder's Python fails: its fallback result
    assert grade.main([str(fx.REFERENCE)]) == 1
    err = capsys.readouterr().err
    assert "the grader could not grade this submission" in err


AUTO_SHARDS = {
    "slurm 1-based": ({"SLURM_ARRAY_TASK_ID": "3", "SLURM_ARRAY_TASK_MIN": "1", "SLURM_ARRAY_TASK_COUNT": "4"}, None,
                      (3, 4)),
    "slurm 0-based": ({"SLURM_ARRAY_TASK_ID": "0", "SLURM_ARRAY_TASK_MIN": "0", "SLURM_ARRAY_TASK_COUNT": "4"}, None,
                      (1, 4)),
    "slurm from 10": ({"SLURM_ARRAY_TASK_ID": "12", "SLURM_ARRAY_TASK_MIN": "10", "SLURM_ARRAY_TASK_COUNT": "3"},
                      None, (3, 3)),
    "slurm with a step": ({"SLURM_ARRAY_TASK_ID": "4", "SLURM_ARRAY_TASK_MIN": "0", "SLURM_ARRAY_TASK_STEP": "2",
                           "SLURM_ARRAY_TASK_COUNT": "4"}, None, (3, 4)),
    "slurm count given": ({"SLURM_ARRAY_TASK_ID": "2", "SLURM_ARRAY_TASK_MIN": "1"}, 5, (2, 5)),
    "kubernetes with --shards": ({"JOB_COMPLETION_INDEX": "0"}, 3, (1, 3)),
    "kubernetes with the env": ({"JOB_COMPLETION_INDEX": "2", "AUTOGRADER_SHARDS": "3"}, None, (3, 3)),
}


@pytest.mark.parametrize("env, shards, expected", AUTO_SHARDS.values(), ids=AUTO_SHARDS.keys())
def test_shard_auto_reads_the_schedulers_array_index(env: dict, shards: int | None, expected: tuple) -> None:
    assert batch.auto_shard(env, shards) == expected


AUTO_SHARD_ERRORS = {
    "nothing set": ({}, None, "neither is set"),
    "slurm without a count": ({"SLURM_ARRAY_TASK_ID": "1"}, None, "give --shards N"),
    "slurm off the range": ({"SLURM_ARRAY_TASK_ID": "3", "SLURM_ARRAY_TASK_MIN": "0", "SLURM_ARRAY_TASK_STEP": "2",
                             "SLURM_ARRAY_TASK_COUNT": "4"}, None, "not on the array's range"),
    "slurm past the count": ({"SLURM_ARRAY_TASK_ID": "5", "SLURM_ARRAY_TASK_MIN": "1",
                              "SLURM_ARRAY_TASK_COUNT": "4"}, None, "slice 5 of 4"),
    "kubernetes without a count": ({"JOB_COMPLETION_INDEX": "0"}, None, "AUTOGRADER_SHARDS"),
    "not a number": ({"JOB_COMPLETION_INDEX": "x", "AUTOGRADER_SHARDS": "2"}, None, "not a whole number"),
}


@pytest.mark.parametrize("env, shards, message", AUTO_SHARD_ERRORS.values(), ids=AUTO_SHARD_ERRORS.keys())
def test_shard_auto_says_what_is_missing(env: dict, shards: int | None, message: str) -> None:
    with pytest.raises(ValueError, match=re.escape(message)):
        batch.auto_shard(env, shards)


def test_shard_auto_without_a_scheduler_is_a_usage_error(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                         capsys: pytest.CaptureFixture) -> None:
    for name in ("SLURM_ARRAY_TASK_ID", "JOB_COMPLETION_INDEX"):
        monkeypatch.delenv(name, raising=False)
    assert batch.main([str(tmp_path), "-o", str(tmp_path / "out"), "--shard", "auto"]) == 2
    assert "SLURM_ARRAY_TASK_ID" in capsys.readouterr().err and not (tmp_path / "out").exists()


def test_the_readmes_slurm_recipe_an_array_job_then_merge(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                          capsys: pytest.CaptureFixture) -> None:
    """The README's recipe, as Slurm runs it: `batch EXPORT -o out/shard-$SLURM_ARRAY_TASK_ID --shard auto` for
    each task of `--array=1-3` (here in sequence), then `batch --merge out/shard-* -o out/all`."""
    readme = (REPO / "README.md").read_text()
    assert "--shard auto" in readme and "--array=1-3" in readme and "batch --merge" in readme
    bugs = fx.buggy_sources()
    sources = [fx.REFERENCE.read_text(), fx.blank_source(), bugs["forgot_scale"], fx.REFERENCE.read_text()]
    path, ids = fx.write_export(tmp_path / "in", sources)
    for task in ("1", "2", "3"):
        monkeypatch.setenv("SLURM_ARRAY_TASK_ID", task)
        monkeypatch.setenv("SLURM_ARRAY_TASK_MIN", "1")
        monkeypatch.setenv("SLURM_ARRAY_TASK_COUNT", "3")
        assert batch.main([str(path), "-o", str(tmp_path / "out" / f"shard-{task}"), "--shard", "auto",
                           "--jobs", "1", "--plain"]) == 0
        assert f"shard {task}/3" in capsys.readouterr().out
    shards = sorted(str(p) for p in (tmp_path / "out").glob("shard-*"))
    assert batch.main(["--merge", *shards, "-o", str(tmp_path / "out" / "all")]) == 0
    with open(tmp_path / "out" / "all" / "scores.csv", newline="") as f:
        rows = {r["submission_id"]: r for r in csv.DictReader(f)}
    assert sorted(rows) == sorted(ids) and all(r["status"] == "graded" for r in rows.values())
    assert [rows[sid]["total"] for sid in sorted(ids, key=int)][:2] == [TOTAL_TEXT, "0"]


@pytest.mark.skipif(os.geteuid() != 0 or not shutil.which("useradd"), reason="root makes sandbox users")
def test_cleanup_removes_the_pool_root_runs_made_and_refuses_while_one_is_held(
        tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    """With a pool of its own (another base name), so that the gradings running beside it keep theirs."""
    from autograder.commands import cleanup
    from autograder.sandbox import lock, shares

    base = f"agcl{os.getpid() % 100000}"
    assert lock.ensure_user(base)
    first = lock.acquire(base, wait=5)
    second = lock.acquire(base, wait=5)  # the base is held: makes base2
    assert first and second and second.name == f"{base}2"
    groups = [shares.slot_group(name) for name in (base, f"{base}2")]
    sleeper = subprocess.Popen(["sleep", "300"], user=first.name)
    litter = Path("/tmp") / f"{base}-litter"
    litter.write_text("x")
    os.chown(litter, first.account.pw_uid, -1)
    folder = Path(lock.lock_dir())
    try:
        assert cleanup.main(["--user", base]) == 1  # held: nothing removed
        assert "held by a running grading" in capsys.readouterr().err
        assert lock._exists(base) and (folder / f"{base}.lock").exists()
        first.release()
        second.release()
        assert cleanup.main(["--user", base, "--dry-run"]) == 0
        assert f"would remove the user `{base}2`" in capsys.readouterr().out and lock._exists(f"{base}2")
        assert cleanup.main(["--user", base]) == 0
        out = capsys.readouterr().out
        assert sleeper.wait(timeout=10) == -9
        assert not lock._exists(base) and not lock._exists(f"{base}2")
        assert not (folder / f"{base}.lock").exists() and not (folder / f"{base}2.lock").exists()
        assert not litter.exists()
        assert all(group is None or not group.exists() for group in groups), out
        assert cleanup.main(["--user", base]) == 0 and "nothing to remove" in capsys.readouterr().out
    finally:
        sleeper.kill()
        for name in (base, f"{base}2"):
            subprocess.run(["userdel", name], capture_output=True, check=False)
            (folder / f"{name}.lock").unlink(missing_ok=True)
        litter.unlink(missing_ok=True)


def test_grade_takes_a_folder_of_several_python_files_for_one_students(tmp_path: Path) -> None:
    """One student's upload may hold several files (a renamed solution and a scratch file): `grade` grades the one
    defining the contract, as Gradescope would, rather than take them for a class (batch reads a lone folder of
    loose files as a class: there, each is a student's)."""
    (tmp_path / "Attn_final.py").write_text(fx.REFERENCE.read_text())
    (tmp_path / "scratch.py").write_text("def softmax(Z, axis=-1, temperature=1.0):\n    return Z\n")
    assert grade.looks_like_a_class(tmp_path) == ""
