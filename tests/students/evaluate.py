"""Measure the diagnosis on the student corpus, development and validation halves apart.

    .venv/bin/python -m tests.students.evaluate [--out DIR] [--port NAME ...]

Every port is graded by the real engine (``runner.grade_folder``, as tests/test_realworld.py does) and each
failing test is judged against the port's declared causes (tests/students/__init__.py):

* a failing test of a deviating function names the real cause when a mistake it names
  (``extra_data.mistakes``) is one of the function's causes, or one whose sentence a cause's own sentence says too
  (the homework's COVERS: code that works only with exactly one leading axis fails without one), or its "Check
  first" cites a declared callee;
* a wrong sentence is a named mistake that is not among the function's causes, or a "Check first" citing a
  function that is not a declared callee of it;
* an unfair loss is a test of a function that does not deviate losing points;
* a grader error is a submission the engine could not grade (``extra_data.grader_error``).

The summary of both halves is printed, then each fresh batch's figure alone (``BATCHES``: parts of the validation
half, each ported after the one before was measured), then every miss and wrong sentence; with ``--out`` each
failing test's full output is written to DIR/<half>/<port>/<test>.md for review.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import re
import sys
import tempfile
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

from autograder import runner
from autograder.feedback import compare
from autograder.suite.graded import hooks
from autograder.suite.graded.probing import PROBE_CALLS
from tests.students import BATCHES, PORTS, Port, split

CITED = re.compile(r"your `(\w+)` (?:fails its own test|goes wrong in this call)")
HALVES = ("development", "validation")


def cited(output: str) -> set[str]:
    """The functions a test's "Check first" names (none without one)."""
    if "**Check first:**" not in output:
        return set()
    return set(CITED.findall(output.rsplit("**Check first:**", maxsplit=1)[-1]))


@dataclass
class Verdicts:
    """What one half of the corpus shows."""

    ports: int = 0
    failing: int = 0  # failing tests of deviating functions
    named: int = 0  # ... whose real cause is named
    wrong: list[str] = field(default_factory=list)  # "port test: sentence" for every wrong sentence
    missed: list[str] = field(default_factory=list)  # "port test (function): what was said" for every miss
    unfair: list[str] = field(default_factory=list)
    unevidenced: list[str] = field(default_factory=list)  # "port test: mistake" named without extra_data.evidence
    grader_errors: list[str] = field(default_factory=list)
    unnamed_causes: Counter = field(default_factory=Counter)  # cause without a feedback id -> failing tests


def judge(port: Port, data: dict, into: Verdicts) -> list[dict]:
    """Add one port's graded results to ``into``; returns its failing tests."""
    into.ports += 1
    if data.get("extra_data", {}).get("grader_error"):
        into.grader_errors.append(f"{port.name}: {data['extra_data']['grader_error']}")
    failing = [t for t in data["tests"] if t["score"] < t["max_score"]]
    for t in failing:
        (function,) = t["tags"]
        where = f"{port.name} {t['number']} ({function})"
        named = list(t.get("extra_data", {}).get("mistakes", []))
        causes, callees = set(port.causes.get(function, ())), set(port.callee.get(function, ()))
        causes |= {c for m in causes for c in hooks.covers().get(m, ())}  # what a cause's own sentence says too
        checks = cited(t["output"])
        into.wrong += [f"{where}: names `{m}`" for m in named if m not in causes]
        backed = {m for e in t.get("extra_data", {}).get("evidence", []) for m in str(e.get("sentence")).split(",")}
        into.unevidenced += [f"{where}: names `{m}`" for m in named if m not in backed]
        into.wrong += [f"{where}: Check first `{c}`" for c in sorted(checks - callees)]
        if function not in port.causes:
            into.unfair.append(f"{where}: {t['score']}/{t['max_score']}")
            continue
        into.failing += 1
        for cause in causes - set(compare.MISTAKES):
            into.unnamed_causes[cause] += 1
        if set(named) & causes or checks & callees:
            into.named += 1
        else:
            said = ", ".join(named) or "no known mistake"
            into.missed.append(f"{where}: said {said}{'; Check first ' + ', '.join(sorted(checks)) if checks else ''};"
                               f" real causes {', '.join(sorted(causes)) or '(callee only)'}"
                               f"{'; callees ' + ', '.join(sorted(callees)) if callees else ''}")
    return failing


@contextlib.contextmanager
def quiet() -> object:
    """pytest's own report of each grading (its progress and failures) goes to /dev/null, not into our summary."""
    sys.stdout.flush()
    saved = os.dup(1)
    with open(os.devnull, "w") as null:
        os.dup2(null.fileno(), 1)
        try:
            yield
        finally:
            sys.stdout.flush()
            os.dup2(saved, 1)
            os.close(saved)


def write_outputs(out: Path, port: Port, failing: list[dict]) -> None:
    folder = out / split(port) / port.name
    folder.mkdir(parents=True, exist_ok=True)
    for t in failing:
        (function,) = t["tags"]
        head = [
            f"# {port.name} {t['number']} `{function}`: {t['score']}/{t['max_score']}",
            f"- declared causes: {', '.join(port.causes.get(function, ())) or '(none: the function matches)'}",
            f"- declared callees: {', '.join(port.callee.get(function, ())) or '-'}",
            f"- named: {', '.join(t.get('extra_data', {}).get('mistakes', [])) or '-'}",
            f"- where the causes are: {port.notes}",
            "",
            "---",
            "",
        ]
        (folder / f"{t['number']}.md").write_text("\n".join(head) + t["output"] + "\n")


def grade(port: Port, tmp: Path) -> dict:
    """One port's results.json, graded by the real engine (pytest's own report silenced), on the functions it has
    (a function the homework gained after the port was written is not the port's)."""
    from tests.homework import UPLOAD, on_what_it_has

    folder = tmp / port.name
    folder.mkdir()
    (folder / f"{UPLOAD}.py").write_text(port.source())
    with quiet():
        return on_what_it_has(runner.grade_folder(folder), port.source())


VERDICTS_FILE = Path(__file__).resolve().parent / "verdicts.py"


def write_verdicts(named: dict[str, dict[str, tuple[str, ...]]]) -> None:
    """tests/students/verdicts.py: the mistakes the grader names on every failing test of every port."""
    order = lambda number: (number[0], int(number.split(".")[1]))  # noqa: E731
    lines = ['"""GENERATED by `python -m tests.students.evaluate --write-verdicts`, then reviewed: the mistakes the '
             'grader\nnames on every failing test of every port (tests/test_students.py asserts them)."""', "",
             "VERDICTS: dict[str, dict[str, tuple[str, ...]]] = {"]
    for port, tests in named.items():
        lines.append(f"    {port!r}: {{")
        lines += [f"        {number!r}: {tests[number]!r}," for number in sorted(tests, key=order)]
        lines.append("    },")
    lines.append("}")
    VERDICTS_FILE.write_text("\n".join(lines) + "\n")


def probe_calls(test: dict) -> int:
    """The calls a failing test's diagnosis made of the student's code (its results.json evidence), 0 without."""
    return max((int(e.get("calls", 0)) for e in test.get("extra_data", {}).get("evidence", [])
                if e.get("sentence") == "probes"), default=0)


def percent(part: int, whole: int) -> str:
    return f"{100 * part / whole:.0f}%" if whole else "-"


def report(half: str, v: Verdicts) -> list[str]:
    lines = [
        f"{half.upper()}: {v.ports} ports",
        f"  failing tests of deviating functions: {v.failing}",
        f"  real cause named: {v.named}/{v.failing} ({percent(v.named, v.failing)})",
        f"  wrong sentences: {len(v.wrong)}",
        f"  unfair losses: {len(v.unfair)}",
        f"  sentences without their evidence in extra_data: {len(v.unevidenced)}",
        f"  grader errors: {len(v.grader_errors)}",
    ]
    if v.unnamed_causes:
        lines.append("  failing tests whose function has a cause with no feedback id yet: "
                     + ", ".join(f"{c} {n}" for c, n in v.unnamed_causes.most_common()))
    return lines


def details(half: str, v: Verdicts) -> list[str]:
    lines = []
    for title, items in (("misses", v.missed), ("wrong sentences", v.wrong), ("unfair losses", v.unfair),
                         ("sentences without evidence", v.unevidenced), ("grader errors", v.grader_errors)):
        if items:
            lines += [f"{half} {title}:", *(f"  {item}" for item in items)]
    return lines


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tests.students.evaluate", description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", type=Path, help="write each failing test's full output under this folder")
    parser.add_argument("--port", action="append", help="grade only this port (repeatable)")
    parser.add_argument("--write-verdicts", action="store_true",
                        help=f"write every failing test's named mistakes to {VERDICTS_FILE.name} (after review)")
    args = parser.parse_args(argv)
    ports = [p for p in PORTS if not args.port or p.name in args.port]
    verdicts = {half: Verdicts() for half in HALVES}
    batches = {name: Verdicts() for name in BATCHES}  # each fresh batch alone (also counted in the validation half)
    named: dict[str, dict[str, tuple[str, ...]]] = {}
    probes: list[tuple[int, str]] = []  # (probe calls, "port test") of every failing test of every port
    with tempfile.TemporaryDirectory(prefix="students-") as tmp:
        for port in ports:
            print(f"grading {port.name} ({split(port)})", file=sys.stderr, flush=True)
            data = grade(port, Path(tmp))
            failing = judge(port, data, verdicts[split(port)])
            for batch, names in BATCHES.items():
                if port.name in names:
                    judge(port, data, batches[batch])
            named[port.name] = {t["number"]: tuple(t["extra_data"]["mistakes"]) for t in failing}
            probes += [(probe_calls(t), f"{port.name} {t['number']}") for t in failing]
            if args.out:
                write_outputs(args.out, port, failing)
    if args.write_verdicts:
        write_verdicts(named)
    lines = [line for half in HALVES for line in report(half, verdicts[half])]
    lines += [line for batch, v in batches.items() if v.ports for line in report(f"{batch} (part of validation)", v)]
    if probes:
        calls = sorted(probes)
        lines.append(f"PROBE CALLS per failing test (budget {PROBE_CALLS}): median {calls[len(calls) // 2][0]}, "
                     f"max {calls[-1][0]} ({calls[-1][1]})")
    lines += [""] + [line for half in HALVES for line in details(half, verdicts[half])]
    print("\n".join(lines))
    return 0


if __name__ == "__main__":
    sys.exit(main())
