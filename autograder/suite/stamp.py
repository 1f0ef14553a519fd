"""Is the homework's generated part what its sources give? A hash stamp, checked in milliseconds.

``template`` and ``regen`` each record, in the homework's ``generated/STAMP.json``, the sha256 of every file they
read (the solution, homework.py, sentences.py, student/..., the case specs and mistakes) and of every file they
wrote. ``grade``, ``batch`` and ``check-zip`` refuse a homework whose stamp no longer holds, naming the command to
run (``build`` regenerates everything in memory and compares, which is slower and finds the same). A Gradescope
root carries no sources: there is nothing to check (``build`` checked it).
"""

from __future__ import annotations

import hashlib
import json
import os
from collections.abc import Iterable, Mapping
from pathlib import Path

from autograder import contract
from autograder.homework import ENGINE, Homework

SECTIONS = ("template", "regen")


def PATH(homework: Homework) -> Path:  # noqa: N802 - a path, named like a constant
    return homework.generated / "STAMP.json"


def _files(folder: Path, pattern: str) -> list[Path]:
    return sorted(p for p in folder.glob(pattern) if p.is_file() and "__pycache__" not in p.parts)


def template_inputs(homework: Homework | None = None) -> list[Path]:
    """What ``template`` reads: the solution, the contract, the sentences, the student files, the feedback module."""
    homework = homework or contract.HOMEWORK
    found = [homework.solution, homework.folder / "homework.py", homework.folder / "sentences.py",
             *_files(homework.student, "**/*"), ENGINE / "feedback" / "compare.py",
             ENGINE / "feedback" / "feedback_format.py"]
    return [p for p in found if p.is_file()]


def regen_inputs(homework: Homework | None = None) -> list[Path]:
    """What ``regen`` reads: the solution, the contract (its tolerance), the mistakes and the case specs."""
    homework = homework or contract.HOMEWORK
    found = [homework.solution, homework.folder / "homework.py", homework.folder / "mistakes.py",
             *_files(homework.folder / "cases", "**/*.py")]
    return [p for p in found if p.is_file()]


def _key(homework: Homework, path: Path) -> str:
    """A path as the stamp records it: relative to the homework folder (the engine's files: ``autograder/...``)."""
    path = path.resolve()
    if path.is_relative_to(ENGINE):
        return "autograder/" + path.relative_to(ENGINE).as_posix()
    return Path(os.path.relpath(path, homework.folder)).as_posix()


def _sha(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def render(section: str, inputs: Iterable[Path], outputs: Mapping[str, bytes],
           homework: Homework | None = None) -> dict:
    """The stamp's ``section``: the hashes of ``inputs`` (as they are now) and of ``outputs`` (path -> bytes that
    the command writes; a README, edited by hand around its table, is left out)."""
    homework = homework or contract.HOMEWORK
    readme = homework.readme.resolve() if homework.readme else None
    written = {_key(homework, Path(p)): _sha(data) for p, data in outputs.items()
               if Path(p).resolve() != readme}
    read = {_key(homework, p): _sha(p.read_bytes()) for p in inputs}
    return {"inputs": read, "outputs": dict(sorted(written.items()))}


def read(homework: Homework | None = None) -> dict:
    homework = homework or contract.HOMEWORK
    try:
        data = json.loads(PATH(homework).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return data if isinstance(data, dict) else {}


def stale_section(section: str, rendered: Mapping, homework: Homework | None = None) -> bool:
    return read(homework).get(section) != rendered


def write(section: str, rendered: Mapping, homework: Homework | None = None) -> None:
    """Record ``section`` (the other one kept as it is)."""
    homework = homework or contract.HOMEWORK
    data = read(homework)
    data[section] = rendered
    data = {name: data[name] for name in SECTIONS if name in data}
    PATH(homework).parent.mkdir(parents=True, exist_ok=True)
    text = json.dumps(data, indent=1, sort_keys=False) + "\n"
    if not PATH(homework).is_file() or PATH(homework).read_text(encoding="utf-8") != text:
        PATH(homework).write_text(text, encoding="utf-8")


def problems(homework: Homework | None = None) -> list[str]:
    """Why the homework's generated files are stale, one line each with the command to run ([] when fresh, and in
    a Gradescope root, which carries no sources)."""
    homework = homework or contract.HOMEWORK
    if not homework.solution.is_file():
        return []
    data, found = read(homework), []
    for section in SECTIONS:
        recorded = data.get(section)
        run = f"run `autograder {section}`"
        if not isinstance(recorded, dict):
            found.append(f"{homework.relative(PATH(homework))} has no record of `autograder {section}`: {run}")
            continue
        for kind, files in (("inputs", recorded.get("inputs", {})), ("outputs", recorded.get("outputs", {}))):
            for key, sha in files.items():
                path = ENGINE.parent / key if key.startswith("autograder/") else homework.folder / key
                now = _sha(path.read_bytes()) if path.is_file() else None
                if now != sha:
                    what = "changed" if kind == "inputs" else "is not what it wrote"
                    found.append(f"{homework.relative(path)} {what} since the last `autograder {section}`: {run}")
        current = template_inputs(homework) if section == "template" else regen_inputs(homework)
        for path in current:
            if _key(homework, path) not in recorded.get("inputs", {}):
                found.append(f"{homework.relative(path)} is new since the last `autograder {section}`: {run}")
    return found


def refusal(homework: Homework | None = None) -> str:
    """A command's refusal to grade with a stale homework ("" when fresh)."""
    found = problems(homework)
    if not found:
        return ""
    shown = "\n".join(f"  - {line}" for line in found[:8]) + (f"\n  ... and {len(found) - 8} more" if len(found) > 8
                                                                 else "")
    return (f"the homework {(homework or contract.HOMEWORK).relative((homework or contract.HOMEWORK).folder)} is "
            f"stale: its generated files are not what its sources give, so grading would use an old oracle or old "
            f"cases. Regenerate it (`autograder template` then `autograder regen`), then run this again:\n{shown}")
