"""``autograder <command>`` (or ``python -m autograder <command>``): a thin dispatcher over one module per command.

Each command lives in its own module as ``main(argv: list[str]) -> int`` and is
imported only when used, so ``--help`` and ``grade`` start fast. ``make venv`` installs
the ``autograder`` console script (``.venv/bin/autograder``), which works from any folder:
the checkout it belongs to is put at the end of ``sys.path`` (in the grader's process only),
so that the commands that read ``reference/`` (``template``, ``regen``, ``demo``) find it.
"""

from __future__ import annotations

import importlib
import sys
from pathlib import Path

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
}


def usage() -> str:
    width = max(map(len, COMMANDS))
    lines = ["usage: autograder <command> [options]", "", "commands:"]
    lines += [f"  {name:<{width}}  {help_}" for name, (_, help_) in COMMANDS.items()]
    lines += ["", "Run `autograder <command> --help` for a command's options."]
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if not argv or argv[0] in {"-h", "--help", "help"}:
        print(usage())
        return 0
    command, rest = argv[0], argv[1:]
    if command not in COMMANDS:
        print(f"unknown command {command!r}\n\n{usage()}", file=sys.stderr)
        return 2
    if (CHECKOUT / "reference").is_dir() and str(CHECKOUT) not in sys.path:
        sys.path.append(str(CHECKOUT))  # a checkout (not a Gradescope root): reference/ importable from anywhere
    module = importlib.import_module(COMMANDS[command][0])
    return int(module.main(rest) or 0)
