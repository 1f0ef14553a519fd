"""Submission intake: find the student's file and parse it into a Program. Never executes it.

``intake(folder)`` = ``find_submission`` + ``load_program``. Every problem a student can
fix raises ``IntakeError`` whose text (markdown) names the file, and the line where
there is one; problems we can work around become ``Program.notes``.

Syntax is checked with ``compile(..., "exec")`` (bytecode is built, nothing runs), not
``ast.parse``: on Python 3.10 ``ast.parse`` segfaults on a long ``a.b.b.b...`` chain,
while ``compile`` raises RecursionError/MemoryError, which we catch and report.
"""

from __future__ import annotations

import codecs
import io
import json
import os
import re
import stat
import tokenize
from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal

MAX_BYTES = 2 * 2**20
Error = tuple[str, str]  # (headline "a syntax error on line 3: ...", markdown snippet or "")
NAMES = ("attention.py", "attention.ipynb")
SKIP_DIRS = {"__MACOSX", "__pycache__", "site-packages", "dist-packages", "node_modules"}
MAX_WALK = 20_000  # directory entries looked at, at most
CELL_MAGICS_KEPT = {"time", "capture"}  # Jupyter runs their body as ordinary Python: so do we


class IntakeError(Exception):
    """The submission cannot be graded; str(error) is markdown for the student."""

    student_facing = True


@dataclass
class Chunk:
    """One unit of student code, executed in order by the worker.

    ``label`` names it in messages: ``"attention.py"``, or ``"code cell N"`` where N counts
    the notebook's code cells only (markdown and raw cells are not counted), from 1, in
    notebook order, empty code cells included: the N-th code box from the top. Jupyter's
    ``In [7]`` execution counts are not used (they change on every run). ``filename`` is
    what tracebacks should show; line numbers in ``source`` start at ``first_line`` (1: a
    .py file is one chunk, and notebook lines are counted per cell, as Jupyter shows them).
    """

    label: str
    filename: str
    source: str
    first_line: int = 1


@dataclass
class Program:
    """A parsed submission: its display path (relative to the submission root), kind, code, notes."""

    path: str
    kind: Literal["py", "ipynb"]
    chunks: list[Chunk]
    notes: list[str] = field(default_factory=list)


def intake(folder: Path) -> Program:
    """Find the submission in ``folder`` (or take the file given) and parse it."""
    folder = Path(folder)
    path, notes = find_submission(folder)
    program = load_program(path, root=folder if folder.is_dir() else path.parent)
    program.notes[:0] = notes
    return program


def find_submission(folder: Path) -> tuple[Path, list[str]]:
    """The file to grade and notes about the choice; raises IntakeError when there is none.

    Looks anywhere under ``folder`` (skipping hidden folders, ``__MACOSX``, virtualenvs and
    symlinks). ``attention.py`` wins over ``attention.ipynb``; among several, the shallowest
    (then alphabetical) wins. A name differing only in case is accepted with a note. A
    direct path to a ``.py`` or ``.ipynb`` file is accepted whatever its name.
    """
    folder = Path(folder)
    if folder.is_symlink():
        raise IntakeError(f"`{folder.name}` is a symbolic link. Upload the file itself.")
    if folder.is_file():
        if folder.suffix.lower() in {".py", ".ipynb"}:
            return folder, []
        raise IntakeError(f"`{folder.name}` is not a Python file or notebook. Submit `attention.py`.")
    if not folder.is_dir():
        raise IntakeError("No submission was found (the submission folder does not exist).")
    files, links = _walk(folder)
    for name in NAMES:
        exact = [p for p in files if p.name == name]
        loose = [p for p in files if p.name.lower() == name]
        if exact or loose:
            chosen = (exact or loose)[0]
            return chosen, _choice_notes(folder, chosen, exact or loose, files)
    found = [_rel(folder, p) for p in files]
    if not found:
        raise IntakeError(
            "Your submission is empty: no `attention.py` or `attention.ipynb` was uploaded."
            + (" (Symbolic links are not followed; upload the file itself.)" if links else "")
        )
    shown = ", ".join(found[:8]) + (f" and {len(found) - 8} more" if len(found) > 8 else "")
    hint = "Name your file `attention.py` (or `attention.ipynb` for a notebook) and resubmit."
    if any(name.lower().endswith(".zip") for name in found):
        hint += " Upload the file itself rather than a zip archive."
    raise IntakeError(f"No `attention.py` or `attention.ipynb` in your submission (found: {shown}). {hint}")


def _walk(folder: Path) -> tuple[list[Path], bool]:
    """Regular files under ``folder``, shallowest first; and whether symlinks were skipped."""
    found: list[Path] = []
    links = False
    seen = 0
    for top, dirs, names in os.walk(folder):
        keep = []
        for d in sorted(dirs):
            full = Path(top, d)
            links |= full.is_symlink()
            if not (d.startswith(".") or d in SKIP_DIRS or full.is_symlink() or (full / "pyvenv.cfg").exists()):
                keep.append(d)
        dirs[:] = keep
        for name in names:
            seen += 1
            full = Path(top, name)
            try:
                mode = full.lstat().st_mode
            except OSError:
                continue
            links |= stat.S_ISLNK(mode)
            if not name.startswith(".") and stat.S_ISREG(mode):
                found.append(full)
        if seen > MAX_WALK:
            break
    found.sort(key=lambda p: (len(p.relative_to(folder).parts), str(p).lower()))
    return found, links


def _choice_notes(folder: Path, chosen: Path, same: list[Path], files: list[Path]) -> list[str]:
    notes = []
    if chosen.name not in NAMES:
        proper = chosen.name.lower()
        notes.append(f"Your file is named `{chosen.name}`; it was graded as `{proper}`. Please name it `{proper}`.")
    if len(same) > 1:
        others = ", ".join(f"`{_rel(folder, p)}`" for p in same[1:4])
        notes.append(f"Several `{chosen.name}` files were found; graded `{_rel(folder, chosen)}`, ignored {others}.")
    if chosen.suffix.lower() == ".py":
        notebooks = [p for p in files if p.name.lower() == NAMES[1]]
        if notebooks:
            notes.append(f"Graded `{_rel(folder, chosen)}`; `{_rel(folder, notebooks[0])}` was ignored.")
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
    data = _read_bytes(path, name)
    if path.suffix.lower() == ".ipynb":
        return _load_notebook(data, name)
    return _load_py(data, name)


def _read_bytes(path: Path, name: str) -> bytes:
    try:
        info = path.lstat()
        if stat.S_ISLNK(info.st_mode) or not stat.S_ISREG(info.st_mode):
            raise IntakeError(f"`{name}` is not a regular file (a link or a device?). Upload the file itself.")
        if info.st_size > MAX_BYTES:
            raise IntakeError(f"`{name}` is too large ({info.st_size / 2**20:.1f} MB; the limit is 2 MB).")
        with open(path, "rb") as f:
            data = f.read(MAX_BYTES + 1)
    except OSError as error:
        raise IntakeError(f"`{name}` could not be read ({error.strerror or error}).") from None
    if len(data) > MAX_BYTES:
        raise IntakeError(f"`{name}` is too large (the limit is 2 MB).")
    if not data.strip():
        raise IntakeError(f"`{name}` is empty. Did you upload the right file, and save it first?")
    if data.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)):
        raise IntakeError(f"`{name}` is saved as UTF-16. Save it as UTF-8 (your editor's encoding menu).")
    if b"\0" in data:
        kind = "a zip archive" if data.startswith(b"PK\x03\x04") else "a binary file"
        offset = data.index(b"\0")
        raise IntakeError(f"`{name}` is {kind}, not text (NUL byte at byte offset {offset}). Upload the source file.")
    return data


def _decode(data: bytes, name: str, encoding: str = "utf-8") -> str:
    skip = len(codecs.BOM_UTF8) if data.startswith(codecs.BOM_UTF8) else 0
    try:
        text = data[skip:].decode("utf-8" if encoding == "utf-8-sig" else encoding)
    except UnicodeDecodeError as error:
        offset = skip + error.start
        line = data[:offset].count(b"\n") + 1
        label = "UTF-8" if encoding.startswith("utf-8") else encoding
        raise IntakeError(
            f"`{name}` is not valid {label} text: byte {data[offset]:#04x} at byte offset {offset} (line {line}) "
            "cannot be decoded. Save the file as UTF-8 (your editor's encoding menu)."
        ) from None
    except LookupError:
        raise IntakeError(f"`{name}` declares an unknown encoding `{encoding}`; save it as UTF-8.") from None
    return text.replace("\r\n", "\n").replace("\r", "\n")


def _load_py(data: bytes, name: str) -> Program:
    try:  # a PEP 263 coding cookie is honoured, as `python attention.py` would
        encoding = tokenize.detect_encoding(io.BytesIO(data).readline)[0]
    except SyntaxError as error:
        if "unknown encoding" in str(error.msg):
            raise IntakeError(f"`{name}`: {error.msg}. Save the file as UTF-8.") from None
        encoding = "utf-8"  # undecodable first lines: _decode says where
    source = _decode(data, name, encoding)
    if not source.strip():
        raise IntakeError(f"`{name}` is empty. Did you upload the right file, and save it first?")
    code, removed, error = _check(source, name, report_raw=True)
    if error is not None:
        headline, snippet = error
        raise IntakeError(
            f"`{name}` has {headline}. Fix it and resubmit (`python {Path(name).name}` shows the same error)." + snippet
        )
    notes = [_removed_note(f"`{name}`", removed)] if removed else []
    return Program(name, "py", [Chunk(name, name, code)], notes)


def _load_notebook(data: bytes, name: str) -> Program:
    text = _decode(data, name)
    try:
        raw = json.loads(text)
    except json.JSONDecodeError as error:
        raise IntakeError(
            f"`{name}` is not a valid notebook: its JSON is broken at line {error.lineno}, column {error.colno} "
            f"({error.msg}). Was it saved completely? Open it in Jupyter, save it, and upload it again."
        ) from None
    except (RecursionError, MemoryError, ValueError):
        raise IntakeError(f"`{name}` is not a valid notebook: its JSON is nested too deeply.") from None
    if not isinstance(raw, dict):
        raise IntakeError(f"`{name}` is not a Jupyter notebook (its JSON is not an object with cells).")
    cells = _notebook_cells(raw, text, name)
    notes: list[str] = []
    sources = [source for kind, source in cells if kind == "code"]
    if not sources:
        raise IntakeError(f"`{name}` has no code cells. Put your functions in code cells (not markdown) and save.")
    if not any(s.strip() for s in sources):
        raise IntakeError(f"`{name}`: all {len(sources)} code cells are empty. Did you save the notebook?")
    chunks = []
    for number, source in enumerate(sources, 1):
        chunk = _load_cell(name, number, source.replace("\r\n", "\n").replace("\r", "\n"), notes)
        chunks += [chunk] if chunk is not None else []
    if not chunks:
        raise IntakeError(f"None of the code cells of `{name}` could be loaded.\n\n" + "\n\n".join(notes))
    return Program(name, "ipynb", chunks, notes)


def _notebook_cells(raw: dict, text: str, name: str) -> list[tuple[str, str]]:
    """(cell_type, source) in order. nbformat first (converts v3 and older); raw JSON if it refuses."""
    major = raw.get("nbformat")
    if isinstance(major, int) and not isinstance(major, bool):
        try:
            import nbformat

            nb = nbformat.convert(nbformat.reader.reads(text), 4)
            try:
                nbformat.validate(nb)
            except Exception:  # harmless schema slips are common in student notebooks
                pass
            return [(str(c.get("cell_type", "")), _joined(c.get("source", ""))) for c in nb.cells]
        except Exception:
            pass  # read the raw JSON instead
    cells = raw.get("cells")
    if not isinstance(cells, list):  # versions 2 and 3 keep their cells in worksheets
        sheets = raw.get("worksheets")
        sheets = sheets if isinstance(sheets, list) else []
        cells = [c for w in sheets if isinstance(w, dict) and isinstance(w.get("cells"), list) for c in w["cells"]]
        if not sheets:
            if isinstance(major, int) and major < 3:
                raise IntakeError(
                    f"`{name}` uses notebook format version {major}, which is too old to read. "
                    "Open it in a current Jupyter, save it, and upload it again."
                )
            raise IntakeError(f"`{name}` is not a Jupyter notebook (its JSON has no `cells`).")
    result = []
    for cell in cells:
        if isinstance(cell, dict):
            source = next((cell[k] for k in ("source", "input", "code") if k in cell), "")
            result.append((str(cell.get("cell_type", "")), _joined(source)))
    return result


def _joined(source: object) -> str:
    """A cell's source: a string, or a list of lines to join (anything else: empty)."""
    lines = source if isinstance(source, list) else [source]
    return "".join(s for s in lines if isinstance(s, str))


def _load_cell(name: str, number: int, source: str, notes: list[str]) -> Chunk | None:
    label = f"code cell {number}"
    if not source.strip():
        return None
    lines = source.split("\n")
    first = next(i for i, line in enumerate(lines) if line.strip())
    if lines[first].lstrip().startswith("%%"):
        magic = lines[first].lstrip()[2:].split(maxsplit=1)
        magic_name = magic[0] if magic else ""
        if magic_name not in CELL_MAGICS_KEPT:
            notes.append(f"{label} of `{name}` is a `%%{magic_name}` cell (not Python); it was skipped.")
            return None
        lines[first] = ""
        source = "\n".join(lines)
    filename = f"{name} ({label})"
    code, removed, error = _check(source, filename, report_raw=False)
    if error is not None:
        headline, snippet = error
        notes.append(f"{label} of `{name}` has {headline}. It was skipped; the other cells were loaded.{snippet}")
        return None
    if removed:
        notes.append(_removed_note(f"{label} of `{name}`", removed))
    return Chunk(label, filename, code)


_IPYTHON_LINE = re.compile(
    r"\s*([%!]"  # line magic, shell command
    r"|[\w.\[\]\s,()*]+?\s*=\s*[%!]"  # x = !ls, t = %timeit -o f()
    r"|\?{1,2}[\w.*]+\s*$|[\w.*]+\?{1,2}\s*$"  # ?np.dot, np.dot??
    r"|(pip|conda|mamba)\s+(install|uninstall)\b)"  # automagic pip
)


def strip_ipython(source: str) -> tuple[str, list[tuple[int, str]]]:
    """Blank out IPython-only lines, keeping line numbers; returns (source, [(line, text)]).

    Handled: line magics (``%matplotlib inline``), shell lines (``!pip install``), their
    assignment forms (``files = !ls``, ``t = %timeit -o f()``), help (``np.dot?``, ``??x``)
    and automagic ``pip install``. An indented line becomes ``pass`` so its block stays valid.
    Callers only use this when the source does not compile as is: a line that IPython would
    treat as a magic is never valid Python, so valid code is never changed.
    """
    out, removed = [], []
    for number, line in enumerate(source.split("\n"), 1):
        if _IPYTHON_LINE.match(line):
            indent = line[: len(line) - len(line.lstrip())]
            out.append(indent + "pass" if indent else "")
            removed.append((number, line.strip()))
        else:
            out.append(line)
    return "\n".join(out), removed


def _removed_note(where: str, removed: list[tuple[int, str]]) -> str:
    shown = ", ".join("line {} `{}`".format(n, text[:60].replace("`", "'")) for n, text in removed[:3])
    more = f" and {len(removed) - 3} more" if len(removed) > 3 else ""
    return f"{where}: IPython-only lines were ignored ({shown}{more}); they are not Python and do nothing here."


def _check(source: str, filename: str, *, report_raw: bool) -> tuple[str, list[tuple[int, str]], Error | None]:
    """Compile-check ``source``; if it fails, retry without IPython-only lines.

    Returns (code to run, removed IPython lines, error). On failure the error is the
    original one (``report_raw``: what ``python file.py`` says) or the one left after
    removing IPython lines (a notebook cell: what Jupyter would say).
    """
    error = _syntax_error(source, filename)
    if error is None:
        return source, [], None
    cleaned, removed = strip_ipython(source)
    if not removed:
        return source, [], error
    second = _syntax_error(cleaned, filename)
    if second is None:
        return cleaned, removed, None
    return source, [], error if report_raw else second


def _syntax_error(source: str, filename: str) -> Error | None:
    """None if ``source`` compiles (nothing is run); else (headline, markdown snippet)."""
    try:
        compile(source, filename, "exec", dont_inherit=True)
    except SyntaxError as error:
        return _describe_syntax_error(error, source)
    except (RecursionError, MemoryError, OverflowError):
        return "code nested too deeply for Python to compile (an expression thousands of levels deep)", ""
    except Exception as error:  # ValueError or anything else a hostile file provokes
        return f"code Python cannot compile ({type(error).__name__}: {str(error)[:200]})", ""
    return None


def _describe_syntax_error(error: SyntaxError, source: str) -> Error:
    kind = "an indentation error" if isinstance(error, IndentationError) else "a syntax error"
    message = (error.msg or "invalid syntax").rstrip(".")
    if not error.lineno:
        return f"{kind}: {message}", ""
    lines = source.split("\n")
    text = lines[error.lineno - 1] if 0 < error.lineno <= len(lines) else (error.text or "").rstrip("\n")
    shown = block = text[:200]
    if error.offset and 0 < error.offset <= len(shown) + 1:
        start = error.offset - 1
        end = error.end_offset if error.end_offset and error.end_offset > error.offset else error.offset + 1
        if error.end_lineno not in (None, error.lineno):
            end = start + 1
        caret_prefix = "".join(c if c == "\t" else " " for c in shown[:start])
        block += "\n" + caret_prefix + "^" * max(1, min(end, len(shown) + 1) - start)
    return f"{kind} on line {error.lineno}: {message}", "\n\n" + _fenced(block)


def _fenced(text: str) -> str:
    """A markdown code block that ``text`` cannot break out of."""
    longest = max((len(m) for m in re.findall(r"`+", text)), default=0)
    fence = "`" * max(3, longest + 1)
    return f"{fence}\n{text}\n{fence}"
