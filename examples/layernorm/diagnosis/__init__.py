"""What the diagnosis knows of the layernorm homework: the hooks ``autograder.suite.graded.hooks`` reads.

Part C's cases run the student's own ``RunningStats`` in the worker (``stateful.py``); every other case is a plain
call, explained by the engine's defaults (a stored mistake's output, a list where an array is due, low precision).
"""

from __future__ import annotations

from typing import Any

from autograder.api import Case

from .stateful import run_running_stats

__all__ = ["KEYWORDS", "run_case"]

# Arguments shown as keywords in a call (and every argument after the first of them).
KEYWORDS = {"eps"}


def run_case(student: Any, stored: Case) -> tuple[str | None, Any] | None:
    """RunningStats's cases: the student's object, updated batch by batch (None: a plain call)."""
    if stored.function == "RunningStats":
        return run_running_stats(student, stored)
    return None
