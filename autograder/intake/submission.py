"""Submission intake: find the student's file and parse it into a Program. Never executes it.

``intake(folder)`` = ``find_submission`` + ``load_program`` (notebooks: ``notebook.py``). Every problem a student can
fix raises ``IntakeError`` whose text (markdown) names the file, and the line where
there is one; problems we can work around become ``Program.notes``. Reading the code
itself (decoding, compile checks) is ``source.py``.
"""

from __future__ import annotations

import contextlib
import functools
import re
from collections.abc import Collection
from pathlib import Path

from autograder import contract
from autograder.feedback.markdown import code_span
from autograder.intake import modules
from autograder.intake.folder import special_kind, walk
from autograder.intake.modules import ours
from autograder.intake.notebook import load_notebook
from autograder.intake.source import (  # noqa: F401 (MAX_BYTES: the limit of one file, here since intake began)
    MAX_BYTES,
    IntakeError,
    Program,
    check_wire_size,
    load_py,
    read_bytes,
    relative,
    time_budget,
)

UPLOAD = contract.UPLOAD  # the homework's upload name: UPLOAD.py or UPLOAD.ipynb
NAMES = (f"{UPLOAD}.py", f"{UPLOAD}.ipynb")
# a browser-renamed copy: UPLOAD (1).py, UPLOAD_3.py, UPLOAD-2.ipynb
COPY = re.compile(rf"{re.escape(UPLOAD)}(?: ?\(\d+\)|[ _-]\d+)\.(?:py|ipynb)", re.IGNORECASE)


def intake(folder: Path, wanted: Collection[str] = ()) -> Program:
    """Find the submission in ``folder`` (or take the file given) and parse it, with the student's own modules
    beside it that it imports. ``wanted``: the contract's names (how to choose among several candidate files)."""
    folder = Path(folder)
    with time_budget():
        path, notes, files = _find(folder, wanted)
        root = folder if folder.is_dir() else path.parent
        program = load_program(path, root=root)
        program.modules, more = modules.imported_modules(program, path, files, functools.partial(relative, root))
        notes += more + (modules.alone_notes(path) if folder.is_file() else [])
    check_wire_size(program)
    program.notes[:0] = notes
    return program


def find_submission(folder: Path, wanted: Collection[str] = ()) -> tuple[Path, list[str]]:
    """The file to grade and notes about the choice; raises IntakeError when there is none.

    Looks anywhere under ``folder`` (skipping hidden folders, ``__MACOSX``, virtualenvs and
    symlinks). ``attention.py`` wins over ``attention.ipynb``; among several, the shallowest
    (then alphabetical) wins. A name differing only in case is accepted with a note; failing
    that, a browser-renamed copy (``attention (1).py``, ``attention-2.ipynb``: ``COPY``), with
    a note. Failing that, the submission's only ``.py`` or ``.ipynb`` (our own files left aside:
    ``ours``) whatever its name, or among several the one defining most of ``wanted`` (read, never run),
    with a note. A direct path to a ``.py`` or ``.ipynb`` file is accepted whatever its name.
    """
    path, notes, _ = _find(Path(folder), wanted)
    return path, notes


def _find(folder: Path, wanted: Collection[str]) -> tuple[Path, list[str], list[Path]]:
    """``find_submission``, and the files of the submission folder (none for a file given directly)."""
    if folder.is_symlink():
        raise IntakeError(f"{code_span(folder.name)} is a symbolic link. Upload the file itself.")
    if folder.is_file():
        if folder.suffix.lower() in {".py", ".ipynb"}:
            return folder, [], []
        raise IntakeError(f"{code_span(folder.name)} is not a Python file or notebook. Submit `{NAMES[0]}`.",
                          "misnamed")
    if not folder.is_dir():
        with contextlib.suppress(OSError):
            if special_kind(folder.lstat().st_mode):
                raise IntakeError(f"{code_span(folder.name)} is {special_kind(folder.lstat().st_mode)}, not a file.")
        raise IntakeError("No submission was found (the submission folder does not exist).", "missing")
    found_files = walk(folder)
    files, links = found_files.files, found_files.links
    exact = [[p for p in files if p.name == name] or [p for p in files if p.name.lower() == name] for name in NAMES]
    copies = [[p for p in files if COPY.fullmatch(p.name) and p.suffix.lower() == s] for s in (".py", ".ipynb")]
    for same in filter(None, exact + copies):
        return same[0], found_files.notes + _choice_notes(folder, same[0], same, files), files
    candidates = [p for p in files if p.suffix.lower() in (".py", ".ipynb") and not ours(p.name)]
    if candidates:
        chosen, notes = modules.choose(candidates, wanted, lambda p: relative(folder, p))
        return chosen, found_files.notes + notes, files
    found = [code_span(relative(folder, p)) for p in files]
    if not found:
        raise IntakeError(
            f"Your submission is empty: no `{NAMES[0]}` or `{NAMES[1]}` was uploaded."
            + (" (Symbolic links are not followed; upload the file itself.)" if links else "")
            + "".join(f" {note}" for note in found_files.notes), "missing"
        )
    shown = ", ".join(found[:8]) + (f" and {len(found) - 8} more" if len(found) > 8 else "")
    hint = f"Name your file `{NAMES[0]}` (or `{NAMES[1]}` for a notebook) and resubmit."
    if any(p.name.lower().endswith(".zip") for p in files):
        hint += " Upload the file itself rather than a zip archive."
    hint += "".join(f" {note}" for note in found_files.notes)
    raise IntakeError(f"No `{NAMES[0]}` or `{NAMES[1]}` in your submission (found: {shown}). {hint}",
                      "misnamed")


def _choice_notes(folder: Path, chosen: Path, same: list[Path], files: list[Path]) -> list[str]:
    notes = []
    proper = UPLOAD + chosen.suffix.lower()
    if chosen.name != proper:
        notes.append(f"Your file is named {code_span(chosen.name)}; it was graded as `{proper}`. "
                     f"Please name it `{proper}`.")
    if len(same) > 1:
        what = f"{code_span(chosen.name)} files" if {p.name for p in same} == {chosen.name} else f"copies of `{proper}`"
        others = ", ".join(code_span(relative(folder, p)) for p in same[1:4])
        notes.append(f"Several {what} were found; graded {code_span(relative(folder, chosen))}, ignored {others}.")
    notebooks = [p for p in files if p.name.lower() == NAMES[1]]
    if chosen.suffix.lower() == ".py" and notebooks:
        shown = [code_span(relative(folder, p)) for p in (chosen, notebooks[0])]
        notes.append(f"Graded {shown[0]}; {shown[1]} was ignored.")
    return notes


def load_program(path: Path, *, root: Path | None = None) -> Program:
    """Read and syntax-check ``path`` (``.py``: one chunk; ``.ipynb``: one chunk per code cell).

    ``root`` makes ``Program.path`` relative to the submission folder (default: the file name).
    """
    path = Path(path)
    name = relative(root, path) if root is not None else path.name
    data = read_bytes(path, code_span(name))
    if path.suffix.lower() == ".ipynb":
        return load_notebook(data, name)
    return load_py(data, name)
