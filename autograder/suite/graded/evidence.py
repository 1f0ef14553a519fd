"""What backs each sentence of the current graded test's feedback (results.json's extra_data.evidence).

``graded`` (support.py) opens a list for each test; the diagnosis records into it (``record_evidence``), and
``failure_message`` keeps only what backs a sentence that is said.
"""

from __future__ import annotations

import contextvars
from collections.abc import Mapping
from typing import Any

recorded: contextvars.ContextVar[list[dict] | None] = contextvars.ContextVar("evidence", default=None)

OWN_LINE = "own_line"  # evidence of a "Where it fails" sentence that names no known mistake
MAX_ITEMS = 20  # evidence items kept for one test


def record_evidence(item: Mapping[str, Any]) -> None:
    """Note what backs a sentence of the current test's feedback (results.json's extra_data.evidence)."""
    found = recorded.get()
    if found is not None and len(found) < MAX_ITEMS:
        found.append(dict(item))
