"""Python source as the grader reads it: the Program model, decoding, and compile checks. Never executes it.

Shared by ``.py`` files (``load_py``) and notebooks (``notebook.py``). Syntax is checked with
``compile(..., "exec")`` (bytecode is built, nothing runs), not ``ast.parse``: on Python 3.10
``ast.parse`` segfaults on a long ``a.b.b.b...`` chain, while ``compile`` raises
RecursionError/MemoryError, which we catch and report.
"""

from __future__ import annotations

import codecs
import contextlib
import io
import json
import math
import re
import stat
import time
import tokenize
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal, NamedTuple

from autograder.feedback.markdown import code_span, fenced, plain

CELL_MAGICS_KEPT = {"time", "capture"}  # Jupyter runs their body as ordinary Python: so do we
SECONDS = 20.0  # reading one submission (decoding, notebook parsing, compile checks) stops after this long
_deadline = [math.inf]
# Bytes of JSON the chunks of one Program take in the worker's load request (``wire_size``). The protocol's
# header limit (sandbox/protocol.py MAX_HEADER) is set above it, and this is above the worst case of a .py file
# intake accepts (2 MiB of control characters, 6 bytes each once JSON-escaped): tests/test_intake_bounds.py
# checks both. A notebook of very many cells can exceed it: refused with a student-facing message.
WIRE_LIMIT = 15 * 2**20
MAX_BYTES = 2 * 2**20  # bytes of one submitted file


class IntakeError(Exception):
    """The submission cannot be graded; str(error) is markdown for the student.

    ``kind`` says why in a word, for a TA's table (batch's scores.csv status, report.html): ``KINDS``."""

    student_facing = True

    def __init__(self, message: str, kind: str = "unreadable") -> None:
        super().__init__(message)
        self.kind = kind if kind in KINDS else "unreadable"


# why a submission was not graded: nothing uploaded; no Python file or notebook among its files; a file without
# code; code that does not compile; a file that cannot be read as text or a notebook (encoding, size, binary)
KINDS = ("missing", "misnamed", "empty", "syntax error", "unreadable")


@contextlib.contextmanager
def time_budget(seconds: float = SECONDS) -> Iterator[None]:
    """Within this block, ``check_time`` raises IntakeError once ``seconds`` have passed."""
    previous, _deadline[0] = _deadline[0], time.monotonic() + seconds
    try:
        yield
    finally:
        _deadline[0] = previous


def check_time() -> None:
    """Called between steps of reading a submission (lines, cells, compile checks): intake is bounded in time."""
    if time.monotonic() > _deadline[0]:
        raise IntakeError(f"Reading your submission took more than {SECONDS:g} s, so it was not graded. Is it "
                          "unusually large (thousands of cells or lines that do not compile)? Submit only your "
                          "functions.")


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
    # the student's own modules beside the graded file that it imports (module name -> its source, one Chunk):
    # the worker makes them importable, as they were on the student's machine
    modules: dict[str, Chunk] = field(default_factory=dict)


def wire_size(chunks: list[Chunk]) -> int:
    """Bytes of JSON the chunks take in the load request the worker receives (as the sandbox encodes them; a
    module's name adds a few bytes more, within the request's margin above ``WIRE_LIMIT``)."""
    fields = [{"label": c.label, "filename": c.filename, "source": c.source, "first_line": c.first_line}
              for c in chunks]
    return len(json.dumps(fields, separators=(",", ":")))


def check_wire_size(program: Program) -> None:
    """IntakeError (student-facing) when ``program`` (its modules included) is too large to be sent to the worker."""
    size = wire_size(program.chunks + list(program.modules.values()))
    if size > WIRE_LIMIT:
        raise IntakeError(f"{code_span(program.path)} is too large to load: its code takes {size / 2**20:.1f} MB "
                          f"once encoded for the grader (the limit is {WIRE_LIMIT // 2**20} MB). Remove large "
                          "comments, outputs or unused cells and resubmit.")


def decode_text(data: bytes, shown: str, encoding: str = "utf-8") -> str:
    skip = len(codecs.BOM_UTF8) if data.startswith(codecs.BOM_UTF8) else 0
    try:
        text = data[skip:].decode("utf-8" if encoding == "utf-8-sig" else encoding)
    except UnicodeDecodeError as error:
        offset = skip + error.start
        line = data[:offset].count(b"\n") + 1
        label = "UTF-8" if encoding.startswith("utf-8") else encoding
        raise IntakeError(
            f"{shown} is not valid {label} text: byte {data[offset]:#04x} at byte offset {offset} (line {line}) "
            "cannot be decoded. Save the file as UTF-8 (your editor's encoding menu)."
        ) from None
    except LookupError:
        raise IntakeError(f"{shown} declares an unknown encoding {code_span(encoding)}; save it as UTF-8.") from None
    return text.replace("\r\n", "\n").replace("\r", "\n")


def decode_py(data: bytes, name: str) -> str:
    """The text of a ``.py`` file, as ``python`` reads it: a PEP 263 coding cookie is honoured."""
    try:
        encoding = tokenize.detect_encoding(io.BytesIO(data).readline)[0]
    except SyntaxError as error:
        if "unknown encoding" in str(error.msg):
            raise IntakeError(f"{code_span(name)}: {plain(error.msg)}. Save the file as UTF-8.") from None
        encoding = "utf-8"  # undecodable first lines: _decode says where
    return decode_text(data, code_span(name), encoding)


def load_py(data: bytes, name: str) -> Program:
    source = decode_py(data, name)
    if not source.strip():
        raise IntakeError(f"{code_span(name)} is empty. Did you upload the right file, and save it first?", "empty")
    code, removed, error = check_source(source, name, report_raw=True)
    if error is not None:
        run = code_span("python " + Path(name).name)
        raise IntakeError(f"{code_span(name)} has {error.headline()}. Fix it and resubmit ({run} shows the same "
                          "error)." + error.snippet, "syntax error")
    notes = [removed_note(plain(name), removed)] if removed else []
    return Program(name, "py", [Chunk(name, name, code)], notes)


# Applied to each line after its indentation is removed, with ``match``: every quantified run is followed by a
# character its class excludes, so each pattern runs in time linear in the line (tests/test_intake_bounds.py
# times them on adversarial 100,000-character lines).
IPYTHON_PATTERNS = (
    re.compile(r"[%!]"),  # line magic, shell command
    re.compile(r"[\w.\[\]\s,()*]+=\s*[%!]"),  # x = !ls, t = %timeit -o f()
    re.compile(r"\?\??[\w.*]+\s*\Z"),  # ?np.dot, ??x
    re.compile(r"[\w.*]+\?\??\s*\Z"),  # np.dot?, x??
    re.compile(r"(?:pip|conda|mamba)\s+(?:install|uninstall)\b"),  # automagic pip
)


def is_ipython_line(line: str) -> bool:
    """Whether IPython would treat ``line`` as a magic, a shell command, help or automagic pip (never valid Python)."""
    text = line.lstrip()
    return any(pattern.match(text) for pattern in IPYTHON_PATTERNS)


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
        if number % 256 == 0:
            check_time()
        if is_ipython_line(line):
            indent = line[: len(line) - len(line.lstrip())]
            out.append(indent + "pass" if indent else "")
            removed.append((number, line.strip()))
        else:
            out.append(line)
    return "\n".join(out), removed


def removed_note(where: str, removed: list[tuple[int, str]]) -> str:
    """``code cell 2, lines 1, 4: IPython-only code ignored (`%time`, `!ls`); ...`` (``where``: a label)."""
    more = f" and {len(removed) - 3} more" if len(removed) > 3 else ""
    lines = ", ".join(str(n) for n, _ in removed[:3]) + more
    shown = ", ".join(code_span(text, 60) for _, text in removed[:3]) + more
    s = "s" if len(removed) > 1 else ""
    return f"{where}, line{s} {lines}: IPython-only code ignored ({shown}); it is not Python, so it does nothing here."


class Error(NamedTuple):
    """Why code does not compile: kind ("syntax error", ...), line (0: unknown), message, markdown snippet."""

    kind: str
    line: int = 0
    message: str = ""
    snippet: str = ""

    def headline(self) -> str:  # "a syntax error on line 3: expected ':'"
        article = "an " if self.kind.startswith("indentation") else "a " if self.kind.endswith("error") else ""
        text = f"{article}{self.kind}" + (f" on line {self.line}" if self.line else "")
        return f"{text}: {self.message}" if self.message else text


def check_source(source: str, filename: str, *, report_raw: bool) -> tuple[str, list[tuple[int, str]], Error | None]:
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
    """None if ``source`` compiles (nothing is run); else what is wrong, and where."""
    check_time()
    try:
        compile(source, filename, "exec", dont_inherit=True)
    except SyntaxError as error:
        return _describe_syntax_error(error, source)
    except (RecursionError, MemoryError, OverflowError):
        return Error("code nested too deeply for Python to compile (an expression thousands of levels deep)")
    except Exception as error:  # ValueError or anything else a hostile file provokes
        return Error("code Python cannot compile", message=plain(f"{type(error).__name__}: {error}", 200))
    return None


def _describe_syntax_error(error: SyntaxError, source: str) -> Error:
    kind = "indentation error" if isinstance(error, IndentationError) else "syntax error"
    message = plain((error.msg or "invalid syntax").rstrip("."))
    if not error.lineno:
        return Error(kind, message=message)
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
    return Error(kind, error.lineno, message, "\n\n" + fenced(block))


def relative(root: Path, path: Path) -> str:
    """``path`` relative to ``root`` (a submission folder), as shown to the student; its name when outside."""
    try:
        return path.relative_to(root).as_posix()
    except ValueError:
        return path.name


def read_bytes(path: Path, shown: str) -> bytes:
    """The bytes of one submitted file: a regular file (never a link or device), at most ``MAX_BYTES``, text."""
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
        raise IntakeError(f"{shown} is empty. Did you upload the right file, and save it first?", "empty")
    if data.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)):
        raise IntakeError(f"{shown} is saved as UTF-16. Save it as UTF-8 (your editor's encoding menu).")
    if b"\0" in data:
        kind = "a zip archive" if data.startswith(b"PK\x03\x04") else "a binary file"
        offset = data.index(b"\0")
        raise IntakeError(f"{shown} is {kind}, not text (NUL byte at byte offset {offset}). Upload the source file.")
    return data


