"""``autograder demo``: build the zip, then grade what a course will see, in about 60 lines.

Grades, each through the same flow as Gradescope: the reference solution (full
marks), the blank student template (0), the homework's example buggy submissions
(``examples/buggy.json`` in its folder: points lost exactly where the bug is, with the mistake
named) and its hostile ones in ``examples/hostile/`` (0, and the grader survives).
Prints one table row per submission, one feedback excerpt and where the zip is;
``--full`` prints every submission's feedback.
"""

from __future__ import annotations

import argparse
import json
import tempfile
import time
from pathlib import Path

from autograder import contract
from autograder.commands import build, grade
from autograder.results import document

REPO = build.REPO
EXAMPLES = contract.HOMEWORK.folder / "examples"


EXCERPT_LINES = 18


def main(argv: list[str]) -> int:
    description = __doc__.splitlines()[0].replace("``", "`")
    parser = argparse.ArgumentParser(prog="autograder demo", description=description)
    parser.add_argument("-o", "--output", type=Path, default=Path("dist/autograder.zip"), help="default: %(default)s")
    parser.add_argument("--full", action="store_true", help="print every submission's full feedback")
    args = parser.parse_args(argv)

    from autograder.suite import stamp

    stale = stamp.refusal()
    if stale:
        print(f"demo: {stale}")
        return 3
    zip_path = build.build_zip(args.output)
    print(f"Built {zip_path} ({len(build.zip_members())} files): the zip to upload to Gradescope.\n")
    excerpt = ""
    with tempfile.TemporaryDirectory(prefix="autograder-demo-") as tmp:
        cases = [
            ("reference solution", contract.HOMEWORK.solution),
            ("blank student template", contract.HOMEWORK.template / f"{contract.UPLOAD}.py"),
        ]
        cases += [(f"buggy: {path.parent.name}", path) for _, path in write_buggy_examples(Path(tmp))]
        hostile = sorted(folder for folder in (EXAMPLES / "hostile").glob("*") if folder.is_dir())
        cases += [(f"hostile: {folder.name}", folder) for folder in hostile]
        width = max(len(title) for title, _ in cases)
        print(f"Each graded as on Gradescope ({len(cases)} submissions):\n")
        print(f"  {'submission':<{width}}  {'points':>9}  {'failing tests':>13}  {'time':>6}")
        print(f"  {'-' * width}  {'-' * 9}  {'-' * 13}  {'-' * 6}")
        for title, path in cases:
            started = time.monotonic()
            data = grade.grade(path)
            elapsed = time.monotonic() - started
            failing = sum(t.get("status") != "passed" for t in data.get("tests", []))
            points = f"{data['score']:g} / {max_score(data):g}"
            print(f"  {title:<{width}}  {points:>9}  {failing:>13}  {elapsed:>5.1f}s", flush=True)
            text = document.summary_text(data)
            if args.full:
                print(f"\n{text}\n")
            elif not excerpt and title.startswith("buggy"):
                excerpt = f"What a student sees for {title!r} (first failing test; --full shows everything):\n\n"
                excerpt += first_lines(_first_failure(text), EXCERPT_LINES)
    if excerpt:
        print(f"\n{excerpt}")
    print(f"\nUpload {zip_path} under Configure Autograder (Ubuntu 22.04); "
          f"try it first with `autograder check-zip {zip_path}`.")
    return 0


def _first_failure(summary: str) -> str:
    """The summary's first failing test, from its header line to the next test's (summary_text's layout)."""
    _, _, failures = summary.partition("\nFailing tests")
    tests = [block for block in failures.split("\n\n")[1:] if block and not block[0].isspace()]
    if not tests:
        return summary
    start = failures.index(tests[0])
    end = failures.find(tests[1], start) if len(tests) > 1 else len(failures)
    return failures[start:end].rstrip()


def write_buggy_examples(folder: Path) -> list[tuple[str, Path]]:
    """Materialise the homework's examples/buggy.json as ``folder/<name>/<UPLOAD>.py``; (description, path)."""
    source = contract.HOMEWORK.solution.read_text()
    made = []
    for name, spec in load_buggy_specs().items():
        path = folder / name / f"{contract.UPLOAD}.py"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(apply_replacements(source, spec["replace"], name))
        made.append((spec["description"], path))
    return made


def load_buggy_specs() -> dict[str, dict]:
    if not (EXAMPLES / "buggy.json").is_file():
        return {}
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
