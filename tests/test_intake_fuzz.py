"""Fuzzing intake (issue 12): random bytes, random nesting, random notebook JSON and random folders never give
an engine error. Intake either returns a Program the protocol can carry to the worker, or raises IntakeError
(a message for the student). Deterministic seeds; a few seconds in all."""

from __future__ import annotations

import json
import os
import random
import time
from pathlib import Path
from typing import Any

import pytest

from autograder.intake import source, submission
from autograder.intake.source import IntakeError
from autograder.sandbox import protocol

ROUNDS = 150
PIECES = ["(", ")", "[", "]", "{", "}", ":", "\n", "    ", "\t", " ", "a", ".", "=", "%", "!", "?", "#", '"', "'",
          "\\", "def f(x):", "return", "import numpy as np", "%%bash", "%time", "!pip install x", "\r", "\x0c", "\x1b",
          "\u202e", "😀", "é", "\ufeff", "# -*- coding: latin-1 -*-\n", "# coding: nope\n", "lambda", "*", "async "]


def accepted_or_refused(data: bytes, name: str) -> None:
    """Load ``data`` as ``name``; IntakeError is a fine outcome, anything else is an engine error."""
    began = time.monotonic()
    try:
        with source.time_budget():
            load = submission.load_notebook if name.endswith(".ipynb") else submission.load_py
            program = load(data, name)
        source.check_wire_size(program)
    except IntakeError as error:
        assert str(error).strip()
        return
    finally:
        assert time.monotonic() - began < source.SECONDS + 5
    chunks = [{"label": c.label, "filename": c.filename, "source": c.source, "first_line": c.first_line}
              for c in program.chunks]
    load = {"op": "load", "chunks": chunks}, (), protocol.MAX_REQUEST_HEADER
    header, _ = protocol.unpack_body(protocol.pack_frame(*load)[8:], protocol.MAX_REQUEST_HEADER)
    assert [c["source"] for c in header["chunks"]] == [c.source for c in program.chunks]
    assert all(isinstance(note, str) for note in program.notes)


def random_text(rng: random.Random, size: int) -> str:
    return "".join(rng.choice(PIECES) for _ in range(size))


def nested_text(rng: random.Random) -> str:
    depth = rng.choice([50, 200, 1_000, 5_000, 50_000])
    kind = rng.randrange(5)
    if kind == 0:
        return "x = " + "(" * depth + "1" + ")" * depth + "\n"
    if kind == 1:
        return "x = " + "[" * depth + "]" * depth + "\n"
    if kind == 2:
        return "x = a" + ".b" * depth + "\n"
    if kind == 3:
        return "".join(" " * i + "if x:\n" for i in range(min(depth, 200))) + " " * 200 + "pass\n"
    return "x = " + "-" * depth + "1\n"


def random_json(rng: random.Random, depth: int = 0) -> Any:
    roll = rng.random()
    if depth > 6 or roll < 0.3:
        return rng.choice([None, True, 0, -1.5, "", "x", random_text(rng, 5), 2**70, [], {}])
    if roll < 0.6:
        return [random_json(rng, depth + 1) for _ in range(rng.randrange(4))]
    keys = ["cells", "cell_type", "source", "nbformat", "nbformat_minor", "metadata", "worksheets", "input", "code"]
    return {rng.choice(keys): random_json(rng, depth + 1) for _ in range(rng.randrange(5))}


def random_notebook(rng: random.Random) -> Any:
    cells = []
    for _ in range(rng.randrange(6)):
        cell = {"cell_type": rng.choice(["code", "markdown", "raw", 3, None]),
                "source": rng.choice([random_text(rng, 20), [random_text(rng, 5), 7], None, {"a": 1}])}
        extra = random_json(rng, 4)
        if rng.random() < 0.3 and isinstance(extra, dict):
            cell.update(extra)
        cells.append(cell if rng.random() < 0.9 else random_json(rng, 3))
    notebook = {"nbformat": rng.choice([4, 3, 2, 1, 5, "4", None, True]), "nbformat_minor": rng.choice([0, 5, -1]),
                "metadata": {}, "cells": cells}
    if rng.random() < 0.2:
        notebook = {"nbformat": 3, "worksheets": [{"cells": cells}]}
    return notebook if rng.random() < 0.8 else random_json(rng)


@pytest.mark.parametrize("seed", range(3))
def test_random_bytes_and_text_never_give_an_engine_error(seed: int) -> None:
    rng = random.Random(seed)
    for _ in range(ROUNDS):
        if rng.random() < 0.3:
            data = bytes(rng.randrange(256) for _ in range(rng.randrange(1, 200)))
        else:
            data = random_text(rng, rng.randrange(1, 300)).encode("utf-8", "surrogatepass")
        accepted_or_refused(data, rng.choice(["attention.py", "attention.ipynb"]))


@pytest.mark.parametrize("seed", range(3))
def test_random_nesting_never_gives_an_engine_error(seed: int) -> None:
    rng = random.Random(100 + seed)
    for _ in range(20):
        code = nested_text(rng)
        accepted_or_refused(code.encode(), "attention.py")
        cell = {"cell_type": "code", "source": code}
        accepted_or_refused(json.dumps({"nbformat": 4, "nbformat_minor": 5, "metadata": {}, "cells": [cell]}).encode(),
                            "attention.ipynb")
    deep = "[" * 100_000 + "]" * 100_000  # JSON nested past the parser's recursion limit
    accepted_or_refused(deep.encode(), "attention.ipynb")


@pytest.mark.parametrize("seed", range(3))
def test_random_notebook_json_never_gives_an_engine_error(seed: int) -> None:
    rng = random.Random(200 + seed)
    for _ in range(ROUNDS):
        text = json.dumps(random_notebook(rng))
        if rng.random() < 0.2:  # and some of it cut short or corrupted
            cut = rng.randrange(len(text) + 1)
            text = text[:cut] + rng.choice(["", "\x00", "}", "\ud800", "😀"]) + text[cut:]
        accepted_or_refused(text.encode("utf-8", "surrogatepass"), "attention.ipynb")


def test_random_folders_never_give_an_engine_error(tmp_path: Path) -> None:
    rng = random.Random(7)
    for round_ in range(15):
        root = tmp_path / f"r{round_}"
        root.mkdir()
        for _ in range(rng.randrange(1, 12)):
            depth = rng.randrange(4)
            where = root.joinpath(*[rng.choice(["a", ".hidden", "__MACOSX", "sub dir", "\u202ex", "d"])
                                    for _ in range(depth)])
            where.mkdir(parents=True, exist_ok=True)
            name = rng.choice(["attention.py", "Attention.PY", "attention (2).ipynb", "x.txt", "attention.ipynb",
                               "\x1bname.py", "attention.zip"])
            target = where / name
            kind = rng.randrange(5)
            if target.exists() or target.is_symlink():
                continue
            if kind == 0:
                os.mkfifo(target)
            elif kind == 1:
                target.symlink_to(rng.choice(["/etc/passwd", "attention.py", "."]))
            else:
                target.write_bytes(random_text(rng, 40).encode("utf-8", "surrogatepass"))
        try:
            program = submission.intake(root)
        except IntakeError as error:
            assert str(error).strip()
        else:
            assert program.chunks and program.path
