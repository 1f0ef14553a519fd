"""``python -m autograder demo``: build the zip, then grade what a course will see.

Grades, each through the same flow as Gradescope: the reference solution (full
marks), the blank student template (0), the example buggy submissions of
``examples/buggy.json`` (points lost exactly where the bug is, with the mistake
named) and the hostile ones in ``examples/hostile/`` (0, and the grader survives).
"""

from __future__ import annotations

import argparse
import json
import tempfile
import time
from pathlib import Path

from autograder.commands import build, grade
from autograder.results import document

REPO = build.REPO
EXAMPLES = REPO / "examples"


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="python -m autograder demo", description=__doc__.splitlines()[0])
    parser.add_argument("-o", "--output", type=Path, default=Path("dist/autograder.zip"), help="default: %(default)s")
    parser.add_argument("--full", action="store_true", help="print every submission's full feedback")
    args = parser.parse_args(argv)

    zip_path = build.build_zip(args.output)
    print(f"== built {zip_path} ({len(build.zip_members())} files)\n")
    with tempfile.TemporaryDirectory(prefix="autograder-demo-") as tmp:
        cases = [
            ("reference solution", REPO / "reference" / "attention.py"),
            ("blank student template", REPO / "student_template" / "attention.py"),
        ]
        cases += [(f"buggy: {desc}", path) for desc, path in write_buggy_examples(Path(tmp))]
        hostile = sorted(folder for folder in (EXAMPLES / "hostile").iterdir() if folder.is_dir())
        cases += [(f"hostile: {folder.name}", folder) for folder in hostile]
        for title, path in cases:
            started = time.monotonic()
            data = grade.grade(path)
            elapsed = time.monotonic() - started
            print(f"== {title}: {data['score']:g} / {max_score(data):g} points ({elapsed:.1f} s)")
            text = document.summary_text(data)
            print(text if args.full or title.startswith("buggy") else first_lines(text, 12))
            print()
    return 0


def write_buggy_examples(folder: Path) -> list[tuple[str, Path]]:
    """Materialise examples/buggy.json as ``folder/<name>/attention.py``; return (description, path)."""
    source = (REPO / "reference" / "attention.py").read_text()
    made = []
    for name, spec in load_buggy_specs().items():
        path = folder / name / "attention.py"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(apply_replacements(source, spec["replace"], name))
        made.append((spec["description"], path))
    return made


def load_buggy_specs() -> dict[str, dict]:
    specs = json.loads((EXAMPLES / "buggy.json").read_text())
    return {name: spec for name, spec in specs.items() if not name.startswith("_")}


def apply_replacements(source: str, replacements: list[list[str]], name: str) -> str:
    """Apply exact replacements; each ``old`` must occur exactly once in the source."""
    for old, new in replacements:
        count = source.count(old)
        if count != 1:
            raise ValueError(f"example {name!r}: expected exactly one occurrence of {old!r}, found {count}")
        source = source.replace(old, new)
    return source


def max_score(data: dict) -> float:
    return sum(test.get("max_score", 0) for test in data.get("tests", []))


def first_lines(text: str, n: int) -> str:
    lines = text.splitlines()
    return "\n".join(lines[:n] + (["  ..."] if len(lines) > n else []))
