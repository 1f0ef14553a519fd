"""The graded tests (``graded/``, run by pytest in the grader) and their stored cases (``cases/``).

``graded/`` reads only the stored cases and talks to student code through ``sandbox.student``;
``regen`` and the case specs (``graded_cases``, ``random_cases``, ``public_cases``, ``case_variants``) rebuild the
cases from ``reference/`` and are never imported by ``graded/``. Never imports ``commands/`` or ``batch/``.
"""
