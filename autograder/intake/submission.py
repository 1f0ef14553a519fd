"""Submission intake: find the student's file and parse it into a Program. Never executes it.

``intake(folder)`` = ``find_submission`` + ``load_program`` (notebooks: ``notebook.py``). Every problem a student can
fix raises ``IntakeError`` whose text (markdown) names the file, and the line where
there is one; problems we can work around become ``Program.notes``. Reading the code
itself (decoding, compile checks) is ``source.py``.
"""

from __future__ import annotations

import codecs
import contextlib
import re
import stat
from pathlib import Path

from autograder.feedback.markdown import code_span
from autograder.intake.folder import special_kind, walk
from autograder.intake.notebook import load_notebook
from autograder.intake.source import IntakeError, Program, check_wire_size, load_py, time_budget

MAX_BYTES = 2 * 2**20
NAMES = ("attention.py", "attention.ipynb")
COPY = re.compile(r"attention(?: ?\(\d+\)|[ _-]\d+)\.(?:py|ipynb)", re.IGNORECASE)  # attention (1).py, attention_3.py


def intake(folder: Path) -> Program:
    """Find the submission in ``folder`` (or take the file given) and parse it."""
    folder = Path(folder)
    path, notes = find_submission(folder)
    with time_budget():
        program = load_program(path, root=folder if folder.is_dir() else path.parent)
    check_wire_size(program)
    program.notes[:0] = notes
    return program


def find_submission(folder: Path) -> tuple[Path, list[str]]:
    """The file to grade and notes about the choice; raises IntakeError when there is none.

    Looks anywhere under ``folder`` (skipping hidden folders, ``__MACOSX``, virtualenvs and
    symlinks). ``attention.py`` wins over ``attention.ipynb``; among several, the shallowest
    (then alphabetical) wins. A name differing only in case is accepted with a note; failing
    that, a browser-renamed copy (``attention (1).py``, ``attention-2.ipynb``: ``COPY``), with
    a note. A direct path to a ``.py`` or ``.ipynb`` file is accepted whatever its name.
    """
    folder = Path(folder)
    if folder.is_symlink():
        raise IntakeError(f"{code_span(folder.name)} is a symbolic link. Upload the file itself.")
    if folder.is_file():
        if folder.suffix.lower() in {".py", ".ipynb"}:
            return folder, []
        raise IntakeError(f"{code_span(folder.name)} is not a Python file or notebook. Submit `attention.py`.")
    if not folder.is_dir():
        with contextlib.suppress(OSError):
            if special_kind(folder.lstat().st_mode):
                raise IntakeError(f"{code_span(folder.name)} is {special_kind(folder.lstat().st_mode)}, not a file.")
        raise IntakeError("No submission was found (the submission folder does not exist).")
    found_files = walk(folder)
    files, links = found_files.files, found_files.links
    exact = [[p for p in files if p.name == name] or [p for p in files if p.name.lower() == name] for name in NAMES]
    copies = [[p for p in files if COPY.fullmatch(p.name) and p.suffix.lower() == s] for s in (".py", ".ipynb")]
    for same in filter(None, exact + copies):
        return same[0], found_files.notes + _choice_notes(folder, same[0], same, files)
    found = [code_span(_rel(folder, p)) for p in files]
    if not found:
        raise IntakeError(
            "Your submission is empty: no `attention.py` or `attention.ipynb` was uploaded."
            + (" (Symbolic links are not followed; upload the file itself.)" if links else "")
            + "".join(f" {note}" for note in found_files.notes)
        )
    shown = ", ".join(found[:8]) + (f" and {len(found) - 8} more" if len(found) > 8 else "")
    hint = "Name your file `attention.py` (or `attention.ipynb` for a notebook) and resubmit."
    if any(p.name.lower().endswith(".zip") for p in files):
        hint += " Upload the file itself rather than a zip archive."
    hint += "".join(f" {note}" for note in found_files.notes)
    raise IntakeError(f"No `attention.py` or `attention.ipynb` in your submission (found: {shown}). {hint}")


def _choice_notes(folder: Path, chosen: Path, same: list[Path], files: list[Path]) -> list[str]:
    notes = []
    proper = "attention" + chosen.suffix.lower()
    if chosen.name != proper:
        notes.append(f"Your file is named {code_span(chosen.name)}; it was graded as `{proper}`. "
                     f"Please name it `{proper}`.")
    if len(same) > 1:
        what = f"{code_span(chosen.name)} files" if {p.name for p in same} == {chosen.name} else f"copies of `{proper}`"
        others = ", ".join(code_span(_rel(folder, p)) for p in same[1:4])
        notes.append(f"Several {what} were found; graded {code_span(_rel(folder, chosen))}, ignored {others}.")
    notebooks = [p for p in files if p.name.lower() == NAMES[1]]
    if chosen.suffix.lower() == ".py" and notebooks:
        shown = [code_span(_rel(folder, p)) for p in (chosen, notebooks[0])]
        notes.append(f"Graded {shown[0]}; {shown[1]} was ignored.")
    return notes


def _rel(root: Path, path: Path) -> str:
    try:
        return path.relative_to(root).as_posix()
    except ValueError:
        return path.name


def load_program(path: Path, *, root: Path | None = None) -> Program:
    """Read and syntax-check ``path`` (``.py``: one chunk; ``.ipynb``: one chunk per code cell).

    ``root`` makes ``Program.path`` relative to the submission folder (default: the file name).
    """
    path = Path(path)
    name = _rel(root, path) if root is not None else path.name
    data = _read_bytes(path, code_span(name))
    if path.suffix.lower() == ".ipynb":
        return load_notebook(data, name)
    return load_py(data, name)


def _read_bytes(path: Path, shown: str) -> bytes:
    try:
        info = path.lstat()
        if stat.S_ISLNK(info.st_mode) or not stat.S_ISREG(info.st_mode):
            raise IntakeError(f"{shown} is not a regular file (a link or a device?). Upload the file itself.")
        if info.st_size > MAX_BYTES:
            raise IntakeError(f"{shown} is too large ({info.st_size / 2**20:.1f} MB; the limit is 2 MB).")
        with open(path, "rb") as f:
            data = f.read(MAX_BYTES + 1)
    except OSError as error:
        raise IntakeError(f"{shown} could not be read ({error.strerror or error}).") from None
    if len(data) > MAX_BYTES:
        raise IntakeError(f"{shown} is too large (the limit is 2 MB).")
    if not data.strip():
        raise IntakeError(f"{shown} is empty. Did you upload the right file, and save it first?")
    if data.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)):
        raise IntakeError(f"{shown} is saved as UTF-16. Save it as UTF-8 (your editor's encoding menu).")
    if b"\0" in data:
        kind = "a zip archive" if data.startswith(b"PK\x03\x04") else "a binary file"
        offset = data.index(b"\0")
        raise IntakeError(f"{shown} is {kind}, not text (NUL byte at byte offset {offset}). Upload the source file.")
    return data


