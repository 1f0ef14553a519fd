"""Hostile findings of issue 12 on the worker's side, each kept fixed: nothing a student's code produces after a
restart reaches the notes (shown whatever the tests' visibility), the worker's temporary files do not survive a
restart, and a callback limit is the student's test failing, never a desynchronised worker."""

from __future__ import annotations

import os
import textwrap

import numpy as np
import pytest

from autograder.sandbox.student import Student, StudentError
from tests.homework import module as homework_module
from tests.hostile import program, sandbox_user

objects = homework_module("diagnosis.objects")
Layer = objects.Layer


@pytest.fixture(scope="module")
def user():
    with sandbox_user() as name:
        yield name


LEAKER = textwrap.dedent("""
    import os, numpy as np
    SAVED = os.path.join("/dev/shm", "leak-%d" % os.getuid())
    if os.path.exists(SAVED):
        raise ValueError("leaked: " + open(SAVED).read())
    raise ValueError("worker %d" % os.getpid())  # differs at every load

    def softmax(Z):
        with open(SAVED, "w") as f:
            f.write(repr(Z.tolist()))
        os._exit(3)

    def saved():
        return int(os.path.exists(SAVED)) + 10 * len([n for n in os.listdir(os.path.expanduser("~"))])

    def keep(name):
        open(os.path.expanduser("~/" + name), "w").close()
        return 1
""")


def test_a_reload_after_a_restart_adds_no_note_and_finds_no_saved_file(user) -> None:
    with Student(program(LEAKER), user=user) as s:
        s.start()
        first = list(s.notes)
        assert len(first) == 1 and "worker" in first[0]
        assert s.call("keep", "mine") == 1
        with pytest.raises(StudentError) as info:
            s.call("softmax", np.full((2, 2), 0.123456))
        assert info.value.kind == "crash"
        found = s.call("saved")  # a fresh worker: reloaded, home folder new, /dev/shm wiped if switched
        assert s.notes == first
        assert "0.123456" not in " ".join(s.notes)
        if s.sandbox.account is not None:
            assert found == 0
        else:  # unswitched (not root): only the home folder is private to the worker
            assert found % 10 == 0


def test_a_callback_limit_fails_that_call_and_the_next_call_is_answered_correctly(user, monkeypatch) -> None:
    limit = 200  # the real one (20,000 round trips) takes longer than a call may on a slow machine
    monkeypatch.setattr(objects, "MAX_PROJECTIONS", limit)
    source = textwrap.dedent("""
        import numpy as np

        def generate_cached(layer, X):
            for _ in range(LIMIT + 1):
                layer.key(X[0])
            return X

        def double(x):
            return 2 * x
    """).replace("LIMIT", str(limit))
    W = np.eye(3)
    with Student(program(source), user=user) as s:
        layer = Layer(W, W, W)
        with pytest.raises(StudentError) as info:
            s.call("generate_cached", layer, np.ones((2, 3)))
        assert info.value.kind == "exception"
        assert str(info.value).startswith(f"generate_cached made more than {limit} projections")
        assert layer.counts["key"] == limit
        for value in (1.0, 2.5):
            np.testing.assert_array_equal(s.call("double", np.full(2, value)), np.full(2, 2 * value))


@pytest.mark.skipif(os.geteuid() != 0, reason="the shared folders are wiped for the sandbox user (root only)")
def test_files_the_sandbox_user_left_in_shared_folders_are_removed_at_a_restart(user) -> None:
    source = textwrap.dedent("""
        import os
        def write():
            open("/tmp/left-%d" % os.getuid(), "w").write("x")
            return 1
        def crash():
            os._exit(5)
        def found():
            return int(os.path.exists("/tmp/left-%d" % os.getuid()))
    """)
    with Student(program(source), user=user) as s:
        assert s.call("write") == 1 and s.call("found") == 1
        with pytest.raises(StudentError):
            s.call("crash")
        assert s.call("found") == 0


def test_thousands_of_failing_statements_and_huge_names_still_load(user) -> None:
    source = "raise ValueError('m' * 2000)\n" * 5_000  # 20 MB of notes, tracebacks included, if all were sent
    source += "globals()['n' * 10**6] = 1\n" + "def one():\n    return 1\n"
    with Student(program(source), user=user) as s:
        assert s.call("one") == 1
        assert len(s.notes) == 21 and s.notes[-1] == "... and 4980 more top-level statements did not run cleanly."
