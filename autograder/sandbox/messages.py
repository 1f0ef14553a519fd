"""What the student reads when their code gives no usable value: ``StudentError`` and the sentences about the
worker (how it was lost, a hint for an exception type, a note about a top-level statement that did not run)."""

from __future__ import annotations

from typing import Any

from autograder.feedback.markdown import code_span, fenced, plain
from autograder.sandbox.supervisor import Limits, WorkerDied, WorkerTimeout

KINDS = ("exception", "timeout", "crash", "invalid_output", "modified_input", "missing", "not_loaded", "budget")
SHOWN = 500  # characters of student-controlled text in one message


class StudentError(Exception):
    """The student's code gave no usable value; ``str(e)`` is markdown for the student."""

    def __init__(self, kind: str, message: str, traceback: str = "") -> None:
        super().__init__(message)
        self.kind, self.message, self.traceback = kind, message, traceback

    def __str__(self) -> str:
        return f"{self.message}\n\n{fenced(self.traceback)}" if self.traceback else self.message


def how(error: Exception, timeout: float) -> str:
    """What happened to the worker, after "the worker process": "died (killed by signal 9: ...)"."""
    if isinstance(error, WorkerDied):
        return f"died ({error})"
    if isinstance(error, WorkerTimeout):
        return f"did not answer within {timeout:g} s"
    return "sent malformed data to the grader (does your code write to the grader's pipes?)"


def plain_text(value: Any) -> str:
    """Student-controlled text for one markdown line, outside code spans: capped, no HTML, links or code."""
    return plain(value, SHOWN)


def hint(exc_type: str, message: str, limits: Limits) -> str:
    hints = {"MemoryError": f" (memory limit {limits.memory_mb} MB)", "RecursionError": " (infinite recursion?)",
             "SystemExit": " (`sys.exit()` or `exit()` was called; return a value instead)"}
    if exc_type == "OSError" and "File too large" in message:
        return f" (more than {limits.file_mb} MB of output was printed or written)"
    return hints.get(exc_type, "")


def load_note(note: dict, statement_timeout: float) -> str:
    """A student-facing note about one top-level statement that did not run cleanly ("code cell 3, line 2: ...")."""
    text = {k: plain_text(note.get(k, "")) for k in ("label", "line", "type", "message")}
    where = f"{text['label']}, line {text['line']}"
    code = code_span(note.get("code"), SHOWN) if str(note.get("code") or "").strip() else "this statement"
    # in a .py file, importing it (the student's own tests) stops there; the worker runs the rest anyway
    stops = (" Python itself stops importing your file at this line (your own tests would fail): remove or fix it."
             if str(note.get("label", "")).lower().endswith(".py") else "")
    inside = plain_text(note.get("where", ""))  # where it raised: in the student's own module that was imported
    inside = f" in {inside}" if inside and not inside.startswith(f"{text['label']}, ") else ""
    return {
        "import": f"{where}: {code} failed ({text['type']}{inside}: {text['message']}); the rest of the code was "
                  "loaded.",
        "timeout": f"{where}: {code} was stopped after {statement_timeout:g} s and is skipped when grading (put "
                   "long experiments under `if __name__ == \"__main__\":`).",
        "skipped": f"{where}: {code} was skipped: {text['message']}.",
        "syntax": f"{where}: syntax error ({text['message']}); this part was skipped.",
    }.get(str(note.get("kind")), f"{where}: {code} raised {text['type']}: {text['message']}; the rest of the code "
                                 f"was loaded.{stops}")


def from_reply(what: str, reply: dict, timeout: float, limits: Limits) -> StudentError:
    """The StudentError a worker's error frame stands for, in words the student can act on."""
    kind = reply.get("kind") if reply.get("kind") in KINDS else "exception"
    text = {k: plain_text(reply.get(k, "")) for k in ("type", "message", "where")}
    where, traceback = f" ({text['where']})" if text["where"] else "", str(reply.get("traceback", ""))[-6000:]
    if kind == "missing":
        found = text["message"] if text["message"] != "not defined" else "not defined in your submission"
        return StudentError(kind, f"{what} is {found}")
    if kind == "invalid_output":
        return StudentError(kind, f"{what} returned something that cannot be graded: {text['message']} "
                            "(expected numpy arrays of real numbers)")
    if kind == "timeout":
        return StudentError(kind, f"{what} did not return within {timeout:g} s (infinite loop?); "
                            f"it was stopped{' at ' + text['where'] if text['where'] else ''}", traceback)
    if kind == "modified_input":
        params = [str(p) for p in reply.get("params", [])][:10] if isinstance(reply.get("params"), list) else []
        name = f"its input {code_span(params[0])}" if len(params) == 1 else "one of its input arrays"
        return StudentError(kind, f"{what} modified {name} in place; work on a copy{where}", traceback)
    why = hint(text["type"], text["message"], limits)
    return StudentError("exception", f"{what} raised {text['type']}: {text['message']}{where}{why}", traceback)
