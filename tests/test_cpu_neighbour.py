"""A CPU-hogging neighbour does not change an honest neighbour's grade (issue 11: budgets count the student's time).

The hog forks children into sessions of their own and spins (the scheduler gives each session
a fair share, so the honest worker gets a sliver of a CPU); the honest submission precomputes
at top level for half its statement limit of CPU time. Every limit counts the student's time
(wall-clock minus the time the worker waited for a CPU, sandbox/cputime.py), so the honest
statement still runs to the end.
"""

from __future__ import annotations

import os
import time

import numpy as np
import pytest

from autograder.sandbox.student import Student
from tests.hostile import REFERENCE, program, sandbox_user

HOG = '''
import os, time

def hog(n, seconds):
    """n children, each in a session of its own, spinning for ``seconds``."""
    made = 0
    for _ in range(n):
        try:
            pid = os.fork()
        except OSError:
            break
        if pid == 0:
            os.setsid()
            end = time.monotonic() + seconds
            while time.monotonic() < end:
                pass
            os._exit(0)
        made += 1
    return made
'''
PRECOMPUTE = '''
import time as _time
_until = _time.process_time() + {cpu}
while _time.process_time() < _until:  # top-level precomputation: {cpu} s of CPU time
    pass
'''


@pytest.fixture(scope="module")
def user():
    with sandbox_user() as name:
        yield name


@pytest.mark.parametrize(("cpu", "limit"), [
    (1.0, 2.0),
    pytest.param(2.5, 5.0, marks=[pytest.mark.slow, pytest.mark.skipif(
        not os.environ.get("AUTOGRADER_SLOW"), reason="set AUTOGRADER_SLOW=1 (the issue's 2.5 s of 5 s, ~20 s)")]),
])
def test_a_cpu_hogging_neighbour_does_not_make_an_honest_statement_time_out(user, cpu: float, limit: float) -> None:
    with Student(program(HOG), user=user) as hog, \
            Student(program(REFERENCE.read_text() + PRECOMPUTE.format(cpu=cpu)), user=user,
                    statement_timeout=limit) as honest:
        assert hog.call("hog", 11, 6 * limit) >= 8
        began = time.monotonic()
        honest.start()
        wall = time.monotonic() - began
        assert not [n for n in honest.notes if "was stopped" in n], (honest.notes, f"{wall:.1f} s wall-clock")
        np.testing.assert_allclose(honest.call("softmax", np.zeros(4)), np.full(4, 0.25))
        assert honest.spent < limit + 2, f"{honest.spent:.1f} s of student's time counted, {wall:.1f} s wall-clock"
