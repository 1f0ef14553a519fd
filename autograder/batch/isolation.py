"""Who student code runs as during a batch: a user of the sandbox pool per grading at a time.

On Gradescope one container grades one submission. A batch grades several at once on
one machine, so two workers under one uid could signal or inspect each other. As root,
every grading locks a free user of the pool ``agsandbox``, ``agsandbox2``, ... (the base
name follows ``$AUTOGRADER_SANDBOX_USER``; see ``sandbox/lock.py``) for as long as it runs,
so gradings of this batch, of another batch or shard and a ``grade`` on the same machine
never share one. The first ``jobs`` users of the pool are created here up front, like
setup.sh creates the first one (more are made on demand: the pool has no fixed size, so
``--jobs`` gradings run at once on any machine). Not as root, every worker runs
as the TA's own user, and the batch says so.
"""

from __future__ import annotations

import os

from autograder.sandbox import accounts, lock, supervisor

USERS_ENV = "AUTOGRADER_BATCH_USERS"  # comma-separated, read by the warm grader to check them once


def slot_users(jobs: int) -> list[str]:
    """The sandbox users made up front for ``jobs`` parallel slots: the first ``jobs`` of the pool."""
    base = os.environ.get(supervisor.USER_ENV) or supervisor.DEFAULT_USER
    return lock.pool_names(base, max(1, jobs))


class RootStudentsError(RuntimeError):
    """As root, student code would run as root: refused unless the TA allows it."""


def slot_environments(jobs: int, *, allow_root: bool = False) -> tuple[list[dict[str, str]] | None, list[str]]:
    """Environment of each slot's grading processes (None: no user switch) and notes for the TA.

    Each grading locks its own user of the pool when it starts (``sandbox/lock.py``), so the
    slots' environments name none.
    Raises RootStudentsError, as root, when the sandbox users cannot be made or cannot run this
    Python (student code would run as root), unless ``allow_root``.
    """
    if not hasattr(os, "geteuid") or os.geteuid() != 0:
        return None, [
            f"Not root: student code runs as your own user (uid {os.getuid()}), each submission in its own "
            "session and time/memory limits, but submissions graded at the same time are not isolated from "
            "each other or from your files. Run the batch as root (with sandbox users) for full isolation."
        ]
    users = slot_users(jobs)
    problem = accounts.sandbox_user_problem(users[0])  # the base user: made when missing, runs this Python
    if problem:
        return None, _as_root(problem[0].upper() + problem[1:], allow_root)
    made = [name for name in users if lock.ensure_user(name)]
    os.environ[USERS_ENV] = ",".join(made)  # the warm grader (started after this) checks each once
    notes = [] if len(made) == len(users) else [
        f"Could not create the sandbox users {', '.join(sorted(set(users) - set(made)))}: gradings wait for a free "
        f"one, so fewer than {jobs} run at once."]
    return [{} for _ in users], notes


def _as_root(problem: str, allow_root: bool) -> list[str]:
    if not allow_root:
        raise RootStudentsError(f"{problem}. Student code would run as root, so nothing was graded; rerun with "
                           "--allow-root-students only if you trust every submission.")
    return [f"{problem}: student code ran as root (--allow-root-students)."]
