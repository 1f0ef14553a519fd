"""How a graded case is shown to the student: the call, its arguments, and what went wrong in it."""

from __future__ import annotations

import os
from collections.abc import Mapping
from typing import Any

import numpy as np

from autograder.sandbox.student import StudentError
from autograder.suite.cases import Case, call_arguments
from autograder.suite.graded import hooks

NOT_IMPLEMENTED = "is not implemented yet"
TRACEBACK_LINES = 10  # the last lines of a traceback shown (the student's own frames are last)


def case_header(stored: Case, call: str) -> str:
    return f"**Case:** {stored.description}.  \n**Call:** {call}"


def error_mistake(error: StudentError) -> str | None:
    """The mistake an error itself names: writing to a (read-only) input."""
    return "modified_input" if error.kind == "modified_input" else None


def error_text(function: str, error: StudentError) -> str:
    """The student-facing text of a StudentError, with a plain word for NotImplementedError."""
    text = str(error).strip()
    lines = error.traceback.strip().splitlines() if error.traceback else []
    if len(lines) > TRACEBACK_LINES and os.environ.get("AUTOGRADER_FULL_FEEDBACK") != "1":
        text = str(StudentError(error.kind, error.message, "\n".join(["...", *lines[-TRACEBACK_LINES:]])))
    if error.kind == "exception" and "NotImplementedError" in text:
        text = f"`{function}` {NOT_IMPLEMENTED}: it raised NotImplementedError.\n\n{text}"
    return text


def type_mistake(expected: Any, actual: Any) -> str | None:
    """"returned_list" when a Python list stands where a numpy array is due (also as an item of a tuple)."""
    if isinstance(expected, tuple) and isinstance(actual, (tuple, list)):
        return next((m for e, a in zip(expected, actual) if (m := type_mistake(e, a))), None)
    return "returned_list" if isinstance(expected, np.ndarray) and isinstance(actual, list) else None


# ----------------------------------------------------------------------------
# Describing a call
# ----------------------------------------------------------------------------


def describe_call(function: str, inputs: Mapping[str, Any]) -> str:
    """E.g. "`softmax(Z, axis=1, temperature=1)` with Z of shape (3, 4, 5)"."""
    shown, shapes, keyword = [], [], False
    for name, value in call_arguments(inputs):
        keyword = keyword or name in hooks.keywords()  # from the first keyword on, every argument is named
        if isinstance(value, Mapping):  # an object the grader makes (its parts are dotted inputs)
            shapes.append(hooks.describe_object(name, value))
        elif isinstance(value, np.ndarray) and name == "positions" and value.size <= 8:
            shapes.append(f"positions = [{', '.join(f'{p:g}' for p in value)}]")
        elif isinstance(value, np.ndarray):
            kind = "boolean array" if value.dtype.kind == "b" else "shape"
            shapes.append(f"{name} of {kind} {value.shape}")
        text = name if isinstance(value, (Mapping, np.ndarray)) else _number(value)
        shown.append(f"{name}={text}" if keyword else text)
    call = f"`{function}({', '.join(shown)})`"
    return f"{call} with {', '.join(shapes)}" if shapes else call


def _number(value: Any) -> str:
    return "np.pi / 2" if isinstance(value, float) and value == np.pi / 2 else repr(value)
