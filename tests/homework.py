"""The homework our tests run on, and its modules as the engine loads them (one module object each).

``HOMEWORK`` is the engine's homework (``reference/`` unless ``AUTOGRADER_HOMEWORK`` says otherwise); ``module``
imports one of its modules (``"attention"``, ``"cases.graded"``, ``"diagnosis.masks"``) under the package name the
engine gives it, so a test and the graded suite share that module's state.
"""

from __future__ import annotations

import types

from autograder import contract
from autograder.homework import ENGINE

HOMEWORK = contract.HOMEWORK
UPLOAD = contract.UPLOAD
SOLUTION = HOMEWORK.solution
TEMPLATE = HOMEWORK.template / f"{UPLOAD}.py"
TOTAL = contract.TOTAL_POINTS  # the homework's total, as results.json gives it
TOTAL_TEXT = f"{TOTAL:g}"  # ... and as scores.csv and the console show it


# The graded suite's modules: the engine's and the homework's (its tests and diagnosis).
GRADED_MODULES = sorted([*(ENGINE / "suite" / "graded").glob("*.py"), *HOMEWORK.tests.glob("*.py"),
                         *(HOMEWORK.folder / "diagnosis").glob("*.py")])


def module(dotted: str) -> types.ModuleType:
    return HOMEWORK.module(dotted)


def on_what_it_has(data: dict, source: str) -> dict:
    """``data`` (a results dict) with only the tests of functions ``source`` defines at top level: a corpus port or
    a mutant written before the homework gained a function is graded on what it has."""
    from autograder.intake.scan import scan

    defined = scan(source).defined
    return {**data, "tests": [t for t in data["tests"] if set(t.get("tags", ())) <= defined]}
