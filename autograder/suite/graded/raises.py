"""Where a raise came from in the student's own files: their frames, the line to quote, what the raise says.

A traceback's frames are read against the submission's own sources (not the traceback's text), so a quoted line is
always the student's; a line of ours or of a library is never quoted. ``crashes`` explains such a line by probes;
a homework's own search (a method of an object's) quotes it through ``where_raised``.
"""

from __future__ import annotations

import ast
import io
import re
import tokenize
from collections.abc import Mapping, Sequence
from typing import Any, NamedTuple

from autograder import contract
from autograder.feedback.markdown import code_span, plain
from autograder.sandbox.student import StudentError

FRAME = re.compile(r'^  File "(?P<file>[^"\n]+)", line (?P<line>\d+), in (?P<name>[^\n]+)$', re.MULTILINE)
class Frame(NamedTuple):
    """One frame of the traceback in the student's files: where (label, line), in which function, the code."""

    label: str
    line: int
    function: str
    code: str


WHERE = "**Where it fails:**"  # the paragraph of a case's text that quotes the student's line


def without_line(text: str) -> str:
    """A case's text without its paragraph quoting the student's line (``WHERE``)."""
    return "\n\n".join(block for block in text.split("\n\n") if not block.startswith(WHERE))


def frames(student: Any, error: StudentError) -> list[Frame]:
    """The traceback's frames in the student's own files (their code read from the submission, not the
    traceback), outermost first; [] without a traceback."""
    text = getattr(error, "traceback", "") or ""
    sources = _sources(student)
    found = []
    for match in FRAME.finditer(text):
        source = sources.get(match["file"])
        if source is None:
            continue
        label, first, lines = source
        index = int(match["line"]) - first
        if 0 <= index < len(lines) and lines[index].strip():
            found.append(Frame(label, int(match["line"]), match["name"].strip(), _code(lines[index])))
    return found


def _code(line: str) -> str:
    """A line of code without its comment (a ``#`` inside a string is kept), stripped."""
    try:
        for token in tokenize.generate_tokens(io.StringIO(line.strip() + "\n").readline):
            if token.type == tokenize.COMMENT:
                return line.strip()[:token.start[1]].rstrip() or line.strip()
    except (tokenize.TokenError, IndentationError, SyntaxError):
        pass
    return line.strip()


def _sources(student: Any) -> dict[str, tuple[str, int, list[str]]]:
    """Every name a traceback may give a student file (its filename, its label), with its label, first line and
    lines."""
    out: dict[str, tuple[str, int, list[str]]] = {}
    for chunk in [*getattr(student, "chunks", []), *getattr(student, "modules", [])]:
        if not isinstance(chunk, Mapping):
            continue
        entry = (str(chunk.get("label")), int(chunk.get("first_line") or 1), str(chunk.get("source")).splitlines())
        for name in (chunk.get("filename"), chunk.get("label")):
            if name and str(name) not in out:
                out[str(name)] = entry
    return out


def where_raised(student: Any, error: StudentError) -> str | None:
    """The quote of a raise's line in the student's files ("Your line `...` (file, line N)"), for a homework's own
    search (a method of an object's); None without one (a library's raise alone, or no traceback)."""
    found = frames(student, error) if error.kind == "exception" else []
    return quote(checked_at(error, found[-1], found)) if found else None


def quote(frame: Frame, lead: str = "") -> str:
    """The quote of a line, "Your line `...` (file, line N)"; after ``lead``, "your line ..."."""
    return f"{lead}{'your' if lead else 'Your'} line {code_span(frame.code)} ({plain(frame.label)}, line {frame.line})"


def own_frame(student: Any, error: StudentError, function: str) -> Frame | None:
    """The innermost frame of the student's code when the raise is in ``function``'s own code (its frames, or
    helpers of the student's that are no contract function); None when it is a callee's (another contract
    function's frame is on the way), a library's alone, or unknown."""
    if error.kind != "exception":
        return None
    found = frames(student, error)
    if not found or not any(f.function == function for f in found):
        return None
    inner = found[max(i for i, f in enumerate(found) if f.function == function):]
    if any(f.function in contract.FUNCTIONS and f.function != function and _top_level(student, f) for f in inner):
        return None
    return inner[-1]


def _top_level(student: Any, frame: Frame) -> bool:
    """Whether ``frame`` runs in a function defined at the top level of its file under the frame's name (a contract
    function's, when the name is one): not a helper of the same name nested in the function or in a class. True
    when the file cannot be read."""
    source = _sources(student).get(frame.label)
    if source is None:
        return True
    _, first, lines = source
    try:
        tree = ast.parse("\n".join(lines))
    except (SyntaxError, ValueError, RecursionError, MemoryError):  # the student's file, whatever it holds
        return True
    return any(isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and node.name == frame.function
               and node.lineno <= frame.line - first + 1 <= (node.end_lineno or node.lineno) for node in tree.body)


def lines(found: Sequence[Frame]) -> list[tuple[str, int]]:
    return [(f.label, f.line) for f in found]


def stopped_before(original: Sequence[Frame], new: Sequence[Frame]) -> bool:
    """Whether a raise (frames ``new``) came before the original one's line: in the first frame where the two
    calls' stacks part, both in the same function, the new one stood at an earlier line (e.g. a rewriting that
    removes a batch axis makes an earlier line raise)."""
    for old, now in zip(original, new):
        if (old.label, old.function) != (now.label, now.function):
            return False
        if old.line != now.line:
            return now.line < old.line
    return False


def _bare(error: StudentError, frame: Frame) -> bool:
    """Whether the line is a ``raise`` whose exception says nothing (``raise AssertionError``)."""
    said = re.sub(r"\s*\([^()]*, line \d+\)$", "", error.message)  # without where it was raised
    return re.match(r"raise\b", frame.code) is not None and not said.split(":", 1)[-1].strip()


def checked_at(error: StudentError, frame: Frame, chain: Sequence[Frame]) -> Frame:
    """The line to quote: the raise's own, or for a bare ``raise`` in a checking helper the line that called the
    helper with what it checks (``_check(Q.ndim == 3)``)."""
    return chain[-2] if _bare(error, frame) and len(chain) > 1 else frame


def says(error: StudentError, frame: Frame, chain: Sequence[Frame] = ()) -> str:
    """What a raise says of its cause: its message, and for an ``assert`` statement its condition too (an assert
    without a message says nothing else: ``assert Q.ndim == 3`` is what failed); a bare ``raise`` with no message
    (a checking helper's: ``def _check(c): if not c: raise AssertionError``) says what the lines that called it
    (``chain``: the raise's frames in the student's files) passed it, read as asserts."""
    if re.match(r"assert\b", frame.code):
        return f"{error.message}\n{frame.code}"
    if _bare(error, frame):
        return error.message + "".join(f"\nassert {f.code}" for f in chain[:-1])
    return error.message


def operands(error: StudentError, code: str = "") -> str | None:
    """What the exception itself says the line assumed, where Python's own rules say it (``code``: the line)."""
    message = error.message
    if "unsupported operand type(s) for ^" in message or "ufunc 'bitwise_xor' not supported" in message:
        return ("uses `^` as a power: in Python `^` is bitwise XOR, defined for integers and booleans only, so it "
                "raises on floats; a power is `**` (e.g. `d_k ** 0.5`).")
    if "'numpy.ndarray' object is not callable" in message:
        if re.search(r"\.T\(", code):
            return ("calls `.T` as a method: `.T` is the transposed array itself (an attribute), so `.T(...)` calls "
                    "an array; to swap the last two axes of an array `a` write `np.swapaxes(a, -2, -1)`.")
        return "calls an array as if it were a function (an array is indexed with `[...]`, not called with `(...)`)."
    return None
