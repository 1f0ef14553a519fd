"""The command line a newcomer meets: help texts, batch's options and messages, grade given a whole class."""

from __future__ import annotations

import importlib
import io
import os
import subprocess
import sys
from pathlib import Path

import pytest

from autograder import batch, cli
from autograder.batch import progress
from autograder.commands import grade
from tests import fixtures_export as fx

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
