"""``autograder <command>`` (or ``python -m autograder <command>``): a thin dispatcher over one module per command.

Each command lives in its own module as ``main(argv: list[str]) -> int`` and is
imported only when used, so ``--help`` and ``grade`` start fast. ``make venv`` installs
the ``autograder`` console script (``.venv/bin/autograder``), which works from any folder.
``--homework DIR``, anywhere after the command, picks the homework folder (``autograder.homework``).

Conventions: ``--version``; usage errors on stderr with status 2 (a bare ``autograder`` too); output piped
into a reader that stops early (``autograder batch ... | head``) is dropped quietly from then on, and the
command goes on (``_QuietPipe``): no BrokenPipeError traceback, and a batch keeps grading.
"""

from __future__ import annotations

import contextlib
import importlib
import os
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any, TextIO

CHECKOUT = Path(__file__).resolve().parent.parent

COMMANDS: dict[str, tuple[str, str]] = {
    "grade": ("autograder.commands.grade", "grade a file or folder locally, exactly as Gradescope would"),
    "run": ("autograder.runner", "the run_autograder flow inside an autograder root (used by run_autograder)"),
    "build": ("autograder.commands.build", "build the Gradescope zip (setup.sh and run_autograder at its root)"),
    "check-zip": ("autograder.commands.checkzip", "run a built zip on the reference and the template before uploading"),
    "template": ("autograder.commands.template", "generate student_template/ from reference/ (--check: fail if stale)"),
    "regen": ("autograder.suite.regen", "rebuild stored outputs and public fixtures (--check: fail if stale)"),
    "batch": ("autograder.batch", "regrade a whole class from a Gradescope export"),
    "demo": ("autograder.commands.demo", "build the zip and grade the reference, the template and example mistakes"),
    "cleanup": ("autograder.commands.cleanup", "as root: remove the sandbox users, lock files and cgroups of gradings"),
}


def usage() -> str:
    width = max(map(len, COMMANDS))
    lines = ["usage: autograder <command> [--homework DIR] [options]", "", "commands:"]
    lines += [f"  {name:<{width}}  {help_}" for name, (_, help_) in COMMANDS.items()]
    lines += ["", "--homework DIR (every command): the homework folder to use (default $AUTOGRADER_HOMEWORK, else "
              "reference/ in a checkout)",
              "Run `autograder <command> --help` for a command's options; `autograder --version` for the version."]
    return "\n".join(lines)


def _homework_option(argv: list[str]) -> list[str]:
    """``argv`` without ``--homework DIR`` (or ``--homework=DIR``), which becomes this process's homework (and its
    children's: ``AUTOGRADER_HOMEWORK``) before any command module is imported."""
    from autograder import homework

    rest, i = [], 0
    while i < len(argv):
        arg = argv[i]
        if arg == "--":
            rest += argv[i:]
            break
        if arg == "--homework" or arg.startswith("--homework="):
            value = arg.split("=", 1)[1] if "=" in arg else (argv[i + 1] if i + 1 < len(argv) else "")
            if not value:
                raise ValueError("--homework needs a folder")
            if not (Path(value) / "homework.py").is_file():
                raise ValueError(f"--homework {value}: not a homework folder (no homework.py in it)")
            homework.choose(value)
            i += 1 if "=" in arg else 2
            continue
        rest.append(arg)
        i += 1
    return rest


def version() -> str:
    """``autograder 0.1.0 (contents 1a2b3c4d5e6f)``: the package's version and the hash ``batch`` records (a sha256
    of what goes into the Gradescope zip: a changed test or stored case changes it)."""
    text = f"autograder {importlib.import_module('autograder').__version__}"
    try:
        return f"{text} (contents {importlib.import_module('autograder.batch.state').autograder_version()[:12]})"
    except (OSError, ImportError):  # not a checkout (a Gradescope root lacks the zip's own files)
        return text


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    with quiet_pipes() as (stdout, _):
        try:
            return _dispatch(argv)
        except BrokenPipeError:  # not through the streams (a print to sys.__stdout__): the reader has gone all the same
            stdout.silence()
            return 0


def _dispatch(argv: list[str]) -> int:
    if argv and argv[0] in {"-h", "--help", "help"}:
        print(usage())
        return 0
    if argv and argv[0] in {"-V", "--version"}:
        print(version())
        return 0
    if not argv:
        print(f"autograder: a command is required\n\n{usage()}", file=sys.stderr)
        return 2
    command, rest = argv[0], argv[1:]
    try:
        rest = _homework_option(rest)
    except ValueError as error:
        print(f"autograder {command}: {error}", file=sys.stderr)
        return 2
    if command not in COMMANDS:
        print(f"unknown command {command!r}\n\n{usage()}", file=sys.stderr)
        return 2
    from autograder.homework import HomeworkError

    try:
        module = importlib.import_module(COMMANDS[command][0])
        return int(module.main(rest) or 0)
    except HomeworkError as error:  # the homework folder cannot be loaded: say where, not a traceback
        print(f"autograder {command}: the homework cannot be loaded: {error}", file=sys.stderr)
        return 2


class _QuietPipe:
    """``stream`` until its reader goes away (``| head`` has read enough): then what is written is dropped, and
    the file descriptor points at /dev/null so that what Python still holds in its buffer (flushed at exit) and
    the command's children write nowhere too. Everything else is the stream's own (``isatty``, ``fileno``...)."""

    def __init__(self, stream: TextIO) -> None:
        self._stream, self._gone = stream, False

    def write(self, text: str) -> int:
        if not self._gone:
            try:
                return self._stream.write(text)
            except BrokenPipeError:
                self.silence()
        return len(text)

    def flush(self) -> None:
        try:
            self._stream.flush()
        except BrokenPipeError:
            self.silence()

    def silence(self) -> None:
        self._gone = True
        with contextlib.suppress(OSError, ValueError, AttributeError):
            devnull = os.open(os.devnull, os.O_WRONLY)
            os.dup2(devnull, self._stream.fileno())
            os.close(devnull)
        with contextlib.suppress(OSError, ValueError, AttributeError):
            self._stream.flush()  # what it held goes to /dev/null now

    def __getattr__(self, name: str) -> Any:
        return getattr(self._stream, name)


@contextlib.contextmanager
def quiet_pipes() -> Iterator[tuple[_QuietPipe, _QuietPipe]]:
    """stdout and stderr as ``_QuietPipe``s while a command runs."""
    saved = sys.stdout, sys.stderr
    sys.stdout, sys.stderr = _QuietPipe(sys.stdout), _QuietPipe(sys.stderr)
    try:
        yield sys.stdout, sys.stderr
    finally:
        sys.stdout, sys.stderr = saved
