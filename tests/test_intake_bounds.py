"""Intake is bounded in time, depth and size whatever the submission (issue 12): no pattern applied to student
text is super-linear, walks and copies are iterative with a depth limit, special files are skipped with a note,
and every file intake accepts fits the protocol that carries it to the worker."""

from __future__ import annotations

import json
import os
import re
import socket
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from autograder.batch import export
from autograder.feedback import markdown
from autograder.intake import folder, source, submission
from autograder.intake.source import IntakeError
from autograder.sandbox import protocol

ADVERSARIAL_LENGTH = 100_000


def adversarial_strings() -> list[str]:
    """Long runs of the characters our patterns quantify, each ending in a character that forces a failure."""
    pieces = [" ", "\t", "a", "1", ".", "=", "%", "!", "?", "(", "[", ",", "*", "`", ":", "-", "#", "\\", "'", "_"]
    out = []
    for piece in pieces:
        out += [piece * ADVERSARIAL_LENGTH + "\x00", piece * ADVERSARIAL_LENGTH]
    for a, b in [(" ", "a"), ("a", " "), ("a", "="), (" ", "="), ("a", "?"), ("- ", "x"), ("a", ":"), (" ", "#")]:
        out.append((a + b) * (ADVERSARIAL_LENGTH // 2) + "\x00")
        out.append(a * (ADVERSARIAL_LENGTH // 2) + b * (ADVERSARIAL_LENGTH // 2) + "\x00")
    out += ["?" + "a" * 50_000 + " " * 50_000 + "x", "attention" + " " * ADVERSARIAL_LENGTH + "(1).py"]
    return out


STUDENT_TEXT_PATTERNS = {  # every regex applied to text a student (or an export's metadata) controls, as it is used
    **{f"ipython line {i}": (p, "match") for i, p in enumerate(source.IPYTHON_PATTERNS)},
    "renamed copy": (submission.COPY, "fullmatch"),
    "backtick run": (re.compile(r"`+"), "search"),  # markdown.code_span and fenced (findall)
    "note place": (re.compile(r"(?:code cell (\d+)|attention\.py), lines? (\d+)\b"), "match"),  # runner.note_place
    "metadata line": (export._LINE, "match"),
    "metadata comment": (re.compile(r"(?<!\s)\s+#.*$"), "search"),  # export._scalar (sub)
}


@pytest.mark.parametrize("name", sorted(STUDENT_TEXT_PATTERNS))
def test_no_pattern_on_student_text_is_slow_on_adversarial_input(name: str) -> None:
    pattern, mode = STUDENT_TEXT_PATTERNS[name]
    for text in adversarial_strings():
        began = time.process_time()
        getattr(pattern, mode)(text)
        assert time.process_time() - began < 0.1, (name, text[:20])  # CPU time: other load does not count


def test_the_ipython_check_and_markdown_quoting_are_linear_on_long_lines() -> None:
    for text in adversarial_strings():
        began = time.process_time()
        source.is_ipython_line(text)
        markdown.code_span(text)
        markdown.fenced(text)
        export._scalar("a" + text)  # a metadata value (names and SIDs in an export)
        assert time.process_time() - began < 0.1, text[:20]


@pytest.mark.parametrize(
    "line, magic",
    [("%time f()", True), ("!ls", True), ("  files = !ls", True), ("t = %timeit -o f()", True), ("x[0], y = !ls", True),
     ("np.dot?", True), ("??x", True), ("pip install numpy", True), ("x == !y", False), ("a = 1", False),
     ("x != 3", False), ("a = b % c", False), ("print('?')", False)],
)
def test_ipython_lines_are_still_recognised(line: str, magic: bool) -> None:
    assert source.is_ipython_line(line) is magic


def test_a_file_with_a_long_run_of_spaces_is_read_quickly(tmp_path: Path) -> None:
    (tmp_path / "attention.py").write_text("def f(:\n" + " " * 30_000 + "x\n" * 1000)
    began = time.monotonic()
    with pytest.raises(IntakeError, match="syntax error"):
        submission.intake(tmp_path)
    assert time.monotonic() - began < 2


def test_intake_stops_with_a_message_once_its_time_budget_is_spent(monkeypatch: pytest.MonkeyPatch) -> None:
    cells = [{"cell_type": "code", "source": f"def f{i}(:\n"} for i in range(200)]
    data = json.dumps({"nbformat": 4, "nbformat_minor": 5, "metadata": {}, "cells": cells}).encode()
    monkeypatch.setattr(source, "SECONDS", 0.0)
    with source.time_budget(0.0), pytest.raises(IntakeError, match="took more than 0 s"):
        time.sleep(0.001)
        submission.load_notebook(data, "attention.ipynb")


# ----------------------------------------------------------------------------- sizes


def test_the_protocol_carries_every_program_intake_accepts() -> None:
    worst_py = source.wire_size([source.Chunk("attention.py", "attention.py", "\x01" * submission.MAX_BYTES)])
    assert worst_py <= source.WIRE_LIMIT
    assert source.WIRE_LIMIT + 2**20 <= protocol.MAX_REQUEST_HEADER  # the rest of the load request fits in 1 MiB


def test_a_large_file_of_emoji_comments_is_sent_to_the_worker_whole() -> None:
    code = "def f(x):\n    return x\n" + ("# " + "\U0001f600" * 60 + "\n") * 7_800  # about 1.9 MB
    assert len(code.encode()) < submission.MAX_BYTES
    program = submission.load_py(code.encode(), "attention.py")
    source.check_wire_size(program)
    chunks = [{"label": c.label, "filename": c.filename, "source": c.source, "first_line": c.first_line}
              for c in program.chunks]
    load = {"op": "load", "chunks": chunks}, (), protocol.MAX_REQUEST_HEADER
    header, _ = protocol.unpack_body(protocol.pack_frame(*load)[8:], protocol.MAX_REQUEST_HEADER)
    assert header["chunks"][0]["source"] == code


def test_a_notebook_too_large_once_encoded_is_refused_with_a_message(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(source, "WIRE_LIMIT", 1000)
    program = submission.load_py(b"x = 1\n" * 300, "attention.py")
    with pytest.raises(IntakeError, match="too large to load"):
        source.check_wire_size(program)


# ----------------------------------------------------------------------------- folders


def nested(root: Path, depth: int) -> Path:
    """``root/d/d/.../d`` ``depth`` levels deep, made without recursion."""
    here = os.open(root, os.O_RDONLY)
    for _ in range(depth):
        os.mkdir("d", dir_fd=here)
        inner = os.open("d", os.O_RDONLY, dir_fd=here)
        os.close(here)
        here = inner
    os.close(here)
    return root


@pytest.fixture
def hostile_folder(tmp_path: Path) -> Iterator[Path]:
    root = tmp_path / "submission"
    root.mkdir()
    (root / "attention.py").write_text("x = 1\n")
    nested(root, 1_100)
    os.mkfifo(root / "pipe.py")
    with socket.socket(socket.AF_UNIX) as sock:
        sock.bind(str(root / "sock"))
    yield root
    deepest = os.path.join(root, *["d"] * 1_100)  # pytest's own cleanup is recursive: it cannot remove this
    while deepest != str(root):
        os.rmdir(deepest)
        deepest = os.path.dirname(deepest)


def test_a_deep_folder_with_a_pipe_and_a_socket_is_walked_with_notes(hostile_folder: Path) -> None:
    program = submission.intake(hostile_folder)
    assert program.path == "attention.py"
    assert "Skipped `pipe.py` (a named pipe), `sock` (a socket): not a regular file." in program.notes
    assert f"Folders nested more than {folder.MAX_DEPTH} levels deep were not searched." in program.notes


def test_a_deep_folder_with_a_pipe_is_copied_without_blocking(hostile_folder: Path, tmp_path: Path) -> None:
    notes = folder.copy_folder(hostile_folder, tmp_path / "copy")
    assert (tmp_path / "copy" / "attention.py").read_text() == "x = 1\n"
    assert not (tmp_path / "copy" / "pipe.py").exists() and len(notes) == 2


def test_a_pipe_named_like_the_submission_is_not_opened(tmp_path: Path) -> None:
    os.mkfifo(tmp_path / "attention.py")
    with pytest.raises(IntakeError, match=r"empty.*Skipped `attention.py` \(a named pipe\)"):
        submission.intake(tmp_path)
    with pytest.raises(IntakeError, match="is a named pipe"):
        submission.intake(tmp_path / "attention.py")


def test_a_folder_of_too_many_entries_is_searched_in_part(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(folder, "MAX_ENTRIES", 50)
    for i in range(100):
        (tmp_path / f"f{i}.txt").write_text("")
    with pytest.raises(IntakeError, match="only part of it was searched"):
        submission.intake(tmp_path)
