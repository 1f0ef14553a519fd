"""What a homework's dev-time files import (its case specs and mistakes; never shipped in a zip, like regen).

Case specs (``cases/graded.py``, ``cases/public.py``): ``build_cases() -> list[Case]``, each made with
``make_case(id, function, inputs, seed=case_seed(set, id), description=...)``; the expected output is the
solution's, the known-mistake outputs its ``mistakes.py`` variants' (``autograder regen`` runs them).
"""

from __future__ import annotations

from autograder.suite.cases import Case, call_arguments, case_seed
from autograder.suite.regen import make_case, run
from autograder.suite.stored import same_output

__all__ = ["Case", "call_arguments", "case_seed", "make_case", "run", "same_output"]
