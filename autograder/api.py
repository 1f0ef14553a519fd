"""The engine's API for a homework folder: what its graded tests, case specs and diagnosis import.

A homework imports the engine through this module (and, for diagnosis machinery in general form, the modules it
names); no engine module imports a homework (``autograder.homework`` loads it by path).

Graded tests (``tests/test_*.py``)::

    from autograder.api import check, graded

    @graded("B.1", "softmax")                      # number, function; points come from homework.py
    def test_softmax_rows(student):
        \"\"\"softmax: each row sums to 1 along the last axis\"\"\"   # the title students and scores.csv see
        check(student, "softmax-rows", "softmax-square")        # stored case ids (cases/graded.py)

Case specs (``cases/graded.py``, ``cases/public.py``, dev-time only) import ``autograder.devapi`` as well.
Diagnosis hooks (``diagnosis/__init__.py``): see ``autograder.suite.graded.hooks``.
"""

from __future__ import annotations

from autograder import contract
from autograder.feedback import compare
from autograder.sandbox.callbacks import CallbackLimit, GraderObject, real_array
from autograder.sandbox.student import StudentError
from autograder.sandbox.values import answer, oddity
from autograder.suite.cases import Case, call_arguments, case_seed
from autograder.suite.graded import precision
from autograder.suite.graded.calls import case_header, describe_call, error_mistake, error_text, type_mistake
from autograder.suite.graded.naming import Candidates, Mistakes, diagnose, mistake_ids
from autograder.suite.graded.probing import ProbeBudgetError, probing
from autograder.suite.graded.raises import WHERE, where_raised
from autograder.suite.graded.support import check, crash_feedback, graded, record_evidence, run_case
from autograder.suite.graded.tools import items, matches, quiet


def points_of_test(number: str, function: str) -> float:
    """The points of graded test ``number`` (for a partial-credit test's ``check(..., points=...)``)."""
    return contract.points_of_test(number, function)


__all__ = [
    "WHERE", "CallbackLimit", "Candidates", "Case", "GraderObject", "Mistakes", "ProbeBudgetError", "StudentError",
    "answer", "call_arguments", "case_header", "case_seed", "check", "compare", "contract", "crash_feedback",
    "describe_call",
    "diagnose", "error_mistake", "error_text", "graded", "items", "matches", "mistake_ids", "oddity",
    "points_of_test", "precision", "probing", "quiet", "real_array", "record_evidence", "run_case", "type_mistake",
    "where_raised",
]
