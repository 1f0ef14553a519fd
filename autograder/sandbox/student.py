"""The API graded tests use to run student code: Student, Remote, StudentError (and GraderObject arguments).

``Student(program)`` loads the submission into a sandboxed worker (lazily, on first
use) and forwards calls to it. Every value that comes back is validated and copied
here; comparisons, counts and scores never leave the grader. When the student's code
gives no usable value, a ``StudentError`` says why in markdown the student can act on.

Time is bounded so that the worst submission is graded well under three minutes with
~40 tests: each call has a timeout (the homework's ``CALL_SECONDS``, 10 s unless it sets one, of the student's
time: wall-clock minus the time the worker waited for a CPU and the time the grader took to answer its callbacks,
with a CPU and a wall-clock backstop, see cputime.py), a function that timed out or
crashed the worker is not run again (later calls fail fast), and once the global budget
(150 s, loads included) is spent every further call fails fast with kind "budget".
After a timeout, crash or protocol error the worker is killed and the next call starts
a fresh one, re-running the Program (minus statements that stopped it).

The student never chooses "a problem on our side" (issue 22). Whatever happens once the load request
is sent is the student's: a malformed frame or one out of order, an early exit, a death. Only a worker
that cannot be started (before that request: nothing of the student's has run) raises SandboxError,
and a worker lost to a signal its code need not have sent is retried once per grading (WorkerLost),
since a process can send itself any signal: after that, every loss is the student's crash. The one
loss the student cannot cause, a machine too overloaded to run its worker alone, is detected by the
sandbox (supervisor.py, cputime.py).

Visibility by construction: notes (shown at the top of the results whatever the tests'
visibility) come from the first load only, which happens before any test input is sent.
A reload after a restart adds no note, and before it the sandbox user's files in the
shared temporary folders are removed (its home folder is a fresh one at every start), so
nothing a student's code saved from a hidden test's inputs can reach visible output.
"""

from __future__ import annotations

import contextlib
import os
import time
from collections import Counter
from typing import Any

import numpy as np

from autograder import contract
from autograder.feedback.markdown import code_span
from autograder.sandbox import cputime, protocol
from autograder.sandbox.callbacks import CallbackLimit, GraderObject, Served, answer_frame
from autograder.sandbox.messages import StudentError, from_reply, how, load_note
from autograder.sandbox.supervisor import (
    Limits,
    Sandbox,
    SandboxError,
    WorkerDied,
    WorkerLost,
    WorkerTimeout,
    lost_from_outside,
)
from autograder.sandbox.values import oddity

CALL_TIMEOUT = contract.CALL_SECONDS  # seconds per call (the homework's), the grader's answers to callbacks left out
GRACE = 1.0  # the worker's own alarm stops a call first and says where; the grader kills this much later
LOAD_TIMEOUT = 30.0  # seconds to load the Program (hard)
STATEMENT_TIMEOUT = 5.0  # seconds per top-level statement while loading
LOAD_BUDGET = 20.0  # after this much loading, only definitions and imports still run
BUDGET = 150.0  # seconds of worker time per Student, loads included
MAX_CRASHES = 2  # crashes of one function before it is not run again
MAX_LOADS = 3  # tries to load a Program whose statements stop the worker
MAX_NOTES = 20  # notes about top-level statements, at most
MAX_SERVED_ANSWERS = 2_000  # answers of served stand-ins in one grading (the buggy examples use under 100)
# GraderObject: callbacks.py
__all__ = ["GraderObject", "Remote", "SandboxError", "Student", "StudentError", "WorkerLost"]


class Remote:
    """A student object living in the worker (e.g. their KVCache), made by ``Student.new``."""

    def __init__(self, student: Student, handle: int, generation: int, class_name: str) -> None:
        self._student, self.handle, self.generation, self.class_name = student, handle, generation, class_name

    def call(self, method: str, /, *args: Any, **kwargs: Any) -> Any:
        header = {"op": "method", "handle": self.handle, "name": method}
        return self._student._request(f"{self.class_name}.{method}", header, args, kwargs, remote=self)

    def get(self, attr: str) -> Any:
        header = {"op": "getattr", "handle": self.handle, "name": attr}
        return self._student._request(f"{self.class_name}.{attr}", header, (), {}, remote=self)

    def len(self) -> int:
        what, header = f"len({self.class_name})", {"op": "len", "handle": self.handle}
        value = self._student._request(what, header, (), {}, remote=self)
        if type(value) is not int or value < 0:
            raise StudentError("invalid_output", f"{what} is not a non-negative integer")
        return value

    def __repr__(self) -> str:
        return f"<student {self.class_name} #{self.handle}>"


class Student:
    """A submission running in a sandboxed worker. Created from an intake Program."""

    def __init__(self, program: Any, *, call_timeout: float = CALL_TIMEOUT, load_timeout: float = LOAD_TIMEOUT,
                 statement_timeout: float = STATEMENT_TIMEOUT, load_budget: float = LOAD_BUDGET,
                 budget: float = BUDGET, user: str | None = None, switch_user: bool = True,
                 limits: Limits | None = None, python: str | None = None) -> None:
        self.chunks = [_chunk(c) for c in program.chunks]
        self.modules = [dict(_chunk(c), name=name) for name, c in getattr(program, "modules", {}).items()]
        self.notes: list[str] = list(getattr(program, "notes", []))
        self.output = ""
        self.entered: dict[str, int] | None = None  # top-level functions the last call entered (None: unknown)
        self.call_timeout, self.load_timeout, self.budget = call_timeout, load_timeout, budget
        self.statement_timeout, self.load_budget = statement_timeout, load_budget
        self.sandbox = Sandbox(user=user, switch_user=switch_user, limits=limits, python=python)
        self.isolation_note = self.sandbox.isolation_note
        self.spent = 0.0  # seconds of worker time so far (loads included)
        self.generation = 0  # bumped on every worker start; Remotes of older workers are gone
        self._names: dict[str, str] = {}
        self.first_names: dict[str, str] | None = None  # the top-level names of the first load (None: not loaded)
        self._skip: set[tuple[int, int]] = set()
        self._timed_out: dict[str, float] = {}
        self._crashes: Counter[str] = Counter()
        self.odd_values: dict[str, str] = {}  # test node id -> what was odd in a value returned during it (_odd)
        self.served_answers = 0  # answers of served stand-ins in this grading (at most MAX_SERVED_ANSWERS)
        self._free_retry = True  # the grading's one retry of a worker lost to a signal (see ``_lost_once``)
        self._not_loaded: StudentError | None = None
        self._woken = 0.0  # this process's wait for a CPU before it read the last frame (``_receive``)

    @classmethod
    def unloaded(cls, message: str, **options: Any) -> Student:
        """A Student whose code cannot run at all (intake failed): every call raises kind "not_loaded"."""
        student = cls(type("Program", (), {"chunks": [], "notes": []})(), **options)
        student._not_loaded = StudentError("not_loaded", message)
        return student

    def close(self) -> None:
        """Kill the worker and anything it left behind (call before writing results)."""
        self.sandbox.close()

    def __enter__(self) -> Student:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def has(self, name: str) -> bool:
        """Whether the submission defines ``name`` (at top level, after loading)."""
        self.start()
        return self._not_loaded is None and name in self._names

    def call(self, name: str, /, *args: Any, **kwargs: Any) -> Any:
        """Call the student's top-level function ``name``; the validated result, or StudentError."""
        value = self._request(name, {"op": "call", "name": name}, args, kwargs)
        if value is None:
            raise StudentError("invalid_output", f"{name} returned None (a missing `return`?)")
        return value

    def call_served(self, served: Served, name: str, /, *args: Any, **kwargs: Any) -> Any:
        """``call``, with the module-level names of ``served`` standing, for this call only, for correct
        functions whose answers this process computes (a probe). The worker is then spent: ``discard`` it.

        A probe's death is the probe's: it spends the grading's free retry (``_lost_once``), so no loss from now
        on re-runs a test, whose score comes from calls made before any probe (the retry would replay what the
        probe learnt from the stand-ins). Anything lost in it is a StudentError the probe reads as "not the answer".
        """
        self._free_retry = False
        if self.served_answers >= MAX_SERVED_ANSWERS:  # the grading's probes have had their share: no worker runs
            raise StudentError("budget", f"{name} (a probe): the stand-ins served in this grading gave "
                               f"{MAX_SERVED_ANSWERS:,} answers already")
        served.bound((args, kwargs))
        served.allowance = max(MAX_SERVED_ANSWERS - self.served_answers, 0)
        before = served.calls
        try:
            value = self._request(f"{name} (a probe)", {"op": "call", "name": name}, args, kwargs, served=served)
        except WorkerLost as e:  # the overloaded machine, during a probe: the probe found nothing
            raise StudentError("crash", f"{name} (a probe): {e}") from None
        finally:
            self.served_answers += served.calls - before
        if value is None:
            raise StudentError("invalid_output", f"{name} returned None (a missing `return`?)")
        return value

    def discard(self) -> None:
        """End the worker now (after a probe): the next request starts a fresh one, which loads the code anew."""
        if self.sandbox.running:
            self.sandbox.kill()

    def new(self, class_name: str, /, *args: Any, **kwargs: Any) -> Remote:
        """Instantiate the student's class ``class_name`` in the worker."""
        handle = self._request(class_name, {"op": "new", "name": class_name}, args, kwargs)
        return Remote(self, handle, self.generation, class_name)

    # -- loading ---------------------------------------------------------------

    def launch(self) -> None:
        """Start the worker process now without waiting for it (``start`` waits, then loads)."""
        if self._not_loaded is None and not self.sandbox.running:
            with contextlib.suppress(SandboxError):  # start() tries again and reports it
                self.sandbox.launch()

    def start(self) -> None:
        """Start the worker and load the Program unless running; a statement that stops the worker
        is skipped on the next try. SandboxError only when the worker could not be started (before the load
        request: nothing of the student's has run); whatever happens once the load request is sent is the
        student's (bad frames, a position that is not the next statement's, an early exit)."""
        for _ in range(MAX_LOADS + 1):  # + 1: the grading's free retry (``_lost_once``)
            if self.sandbox.running or self._not_loaded is not None:
                return
            if self.spent >= self.budget:
                self._not_loaded = StudentError("budget", f"the grading time budget ({self.budget:g} s) was used "
                                                "up while loading your code")
                return
            began, position = self.sandbox.clock.now(), None
            if self.generation and self.sandbox.world_missing:  # a restart: what the last worker saved (maybe from
                self.sandbox.remove_user_files()  # hidden inputs) goes first; a private world's went with it
            self.sandbox.start(self.load_timeout)
            limited = self.budget - self.spent < self.load_timeout
            deadline = self.sandbox.deadline(min(self.load_timeout, self.budget - self.spent))
            request = {"op": "load", "module": contract.UPLOAD, "chunks": self.chunks, "modules": self.modules,
                       "skip": sorted(self._skip),
                       "statement_timeout": self.statement_timeout, "load_budget": self.load_budget,
                       "cpu": self.sandbox.cpu}  # the grader's own (placement.py): the worker pins itself there
            try:
                try:
                    self.sandbox.send(request, deadline=deadline)
                except protocol.EncodeError:  # intake refuses programs this large (WIRE_LIMIT): not reached
                    self._not_loaded = StudentError("not_loaded", "Your code is too large to be loaded.")
                    return
                while (reply := self.sandbox.receive(deadline)[0]).get("op") == "progress":
                    position = self._progress(reply, position)
                if reply.get("op") != "loaded":
                    raise protocol.ProtocolError("unexpected reply to load")
                self._loaded(reply, first=self.generation == 0)
                self.generation += 1
            except (WorkerTimeout, WorkerDied, protocol.ProtocolError) as e:
                self.sandbox.kill()
                if isinstance(e, WorkerTimeout) and limited:
                    self.spent = self.budget  # reported as "budget" by the next check
                    continue
                if self._lost_once(e):
                    continue  # load again, skipping nothing
                if position is None:  # no statement started (the worker sends one frame before each)
                    self._not_loaded = StudentError("not_loaded", f"Your code could not be loaded: the worker "
                                                    f"process {how(e, self.load_timeout)} while loading it.")
                    return
                self._stopped_while_loading(position, e)
            finally:
                self.spent += self.sandbox.clock.now() - began
                self.output = self.sandbox.take_output()
        if not self.sandbox.running and self._not_loaded is None:
            self._not_loaded = StudentError("not_loaded", "Your code could not be loaded: it stopped the grader's "
                                            f"worker process {MAX_LOADS} times while loading.")

    def _progress(self, reply: dict, last: tuple[int, int, int] | None) -> tuple[int, int, int]:
        """The position a progress frame announces: ProtocolError unless it comes after ``last`` (the worker
        announces each statement once, in order) in a chunk that exists."""
        position = (_int(reply.get("chunk")), _int(reply.get("stmt")), _int(reply.get("line")))
        if not 0 <= position[0] < len(self.chunks) or position[1] < -1 or (last and position[:2] <= last[:2]):
            raise protocol.ProtocolError("a progress frame out of order")
        return position

    def _lost_once(self, error: Exception) -> bool:
        """Whether to try once more after losing the worker to ``error``: only the first time in this grading
        that it dies by a signal its code need not have sent (``exits.lost_from_outside``: an administrator,
        the OOM killer), unless the OOM killer acted within the slot's own memory cap. No evidence (a process
        can send itself any signal), so the grading's one free retry: any later loss is the student's,
        whatever the signal."""
        if not self._free_retry or not isinstance(error, WorkerDied) or not lost_from_outside(self.sandbox.exit_code):
            return False
        if self.sandbox.out_of_memory:  # evidence: the OOM killer acted within the slot's own memory cap
            return False
        self._free_retry = False
        return True

    def _stopped_while_loading(self, position: tuple[int, int, int], error: Exception) -> None:
        chunk, stmt, line = position
        self._skip.add((chunk, stmt))
        if self.generation:  # a reload after a restart: no note (its text could carry hidden inputs)
            return
        how = {WorkerTimeout: f"did not finish within {self.load_timeout:g} s",
               WorkerDied: f"stopped the worker process ({error})"}.get(type(error), "sent malformed data")
        self._note(f"{self.chunks[chunk]['label']}, line {line}: this statement {how}; it was skipped and the rest "
                   "of the code was loaded.")

    def _loaded(self, reply: dict, first: bool) -> None:
        """Take the names and notes of a load; notes only from the first (``first``): see the docstring."""
        names, notes = reply.get("names"), reply.get("notes")
        self._names = {k: v for k, v in names.items() if isinstance(k, str)} if isinstance(names, dict) else {}
        notes = [n for n in notes if isinstance(n, dict)] if isinstance(notes, list) else []
        for note in notes:
            if note.get("kind") == "timeout":
                self._skip.add((_int(note.get("chunk")), _int(note.get("stmt"))))
        if not first:
            return
        self.first_names = dict(self._names)
        more = reply.get("more_notes")
        total = len(notes) + (more if type(more) is int and more > 0 else 0)  # the worker sends 100 at most
        for note in notes[:MAX_NOTES]:
            self._note(load_note(note, self.statement_timeout))
        if total > MAX_NOTES:
            self._note(f"... and {total - MAX_NOTES} more top-level statements did not run cleanly.")

    def _note(self, text: str) -> None:
        if text not in self.notes:
            self.notes.append(text)

    # -- calls -----------------------------------------------------------------

    def _check(self, what: str) -> None:
        """Fail fast: a function that timed out or kept crashing, a spent budget, code that cannot load."""
        if what in self._timed_out:
            raise StudentError("timeout", f"{what} was not run again: it did not return within "
                               f"{self._timed_out[what]:g} s in an earlier test (infinite loop?)")
        if self._crashes[what] >= MAX_CRASHES:
            raise StudentError("crash", f"{what} was not run again: it crashed the worker process "
                               f"{self._crashes[what]} times in earlier tests")
        if self.spent >= self.budget:
            raise StudentError("budget", f"{what} was not run: the grading time budget ({self.budget:g} s) is "
                               "used up, mostly by earlier timeouts or crashes.")
        self.start()
        if self._not_loaded is not None:
            raise StudentError(self._not_loaded.kind, self._not_loaded.message)

    def _request(self, what: str, header: dict, args: tuple, kwargs: dict, remote: Remote | None = None,
                 served: Served | None = None) -> Any:
        self.entered = None
        self._check(what)
        refs: list[GraderObject | Served] = []
        self._outgoing(remote, refs)  # raises when that object died with an earlier worker
        tree, arrays = protocol.encode(self._outgoing((tuple(args), tuple(kwargs.values())), refs))
        timeout = max(min(self.call_timeout, self.budget - self.spent), 0.1)
        header = dict(header, args=tree, kw=list(kwargs), timeout=timeout)
        objects = {str(i): ref.interface() for i, ref in enumerate(refs) if isinstance(ref, GraderObject)}
        if objects:  # the interfaces the worker builds its proxies from
            header["objects"] = objects
        if served is not None:
            refs.append(served)
            header["served"] = {"ref": len(refs) - 1, "names": served.names,
                                "objects": {name: made.interface() for name, made in served.classes.items()}}
        began = self.sandbox.clock.now()  # the student's time (cputime.py), as every limit here
        deadline = self.sandbox.deadline(timeout + GRACE, now=began)
        try:
            self.sandbox.send(header, arrays, deadline=deadline)
            reply, arrays = self._receive(deadline, answers=bool(refs))
            while reply.get("op") == "callback":
                self._callback(reply, arrays, refs, deadline)
                reply, arrays = self._receive(deadline, answers=True)
            self.entered = _entered(reply.get("entered")) if header["op"] == "call" else None
            if reply.get("op") == "error":
                raise self._error(what, reply, timeout)
            if reply.get("op") != "result":
                raise protocol.ProtocolError("unexpected reply")
            if header["op"] == "new":
                return _int(reply.get("handle"))
            value = self._own(what, protocol.decode(reply.get("value"), arrays), method=remote is not None)
            self._odd(what, value)
            return value
        except CallbackLimit as e:  # the worker waits for an answer it will never get: start a fresh one
            self.sandbox.kill()
            raise StudentError("exception", f"{what} made {e}") from None
        except WorkerTimeout:
            self._timed_out[what] = timeout
            raise StudentError("timeout", f"{what} did not return within {timeout:g} s (infinite loop?)") from None
        except (WorkerDied, protocol.ProtocolError) as e:
            self.sandbox.kill()
            if self._lost_once(e):
                raise WorkerLost(f"the worker process {e} while running {what}, maybe not because of the student's "
                                 "code: the test is run once more") from None
            self._crashes[what] += 1
            raise StudentError("crash", f"the worker process {how(e, timeout)} while running {what}") from None
        finally:
            self.spent += self.sandbox.clock.now() - began
            if timeout < self.call_timeout and what in self._timed_out:  # stopped by the budget: it is spent
                self.spent = max(self.spent, self.budget)
            self.output = self.sandbox.take_output()

    def _odd(self, what: str, value: Any) -> None:
        """Record, for the test running now (pytest's ``PYTEST_CURRENT_TEST``), the first odd value the student's
        code returned in it (``oddity``): should the grader fail on that test, the test is the student's
        failure, with this sentence, and not the submission's grader error (runner.py)."""
        test = os.environ.get("PYTEST_CURRENT_TEST", "").rsplit(" (", 1)[0]
        if test and test not in self.odd_values and (odd := oddity(value)):
            name = code_span(what.split(" ", 1)[0])
            self.odd_values[test] = f"Your {name} returned a value the grader could not read: {odd}."

    def _outgoing(self, value: Any, refs: list) -> Any:
        """Grader objects become refs into ``refs``; Remotes become handle refs (of this worker only)."""
        if isinstance(value, GraderObject):
            refs.append(value)
            return protocol.Ref("object", len(refs) - 1)
        if isinstance(value, Remote):
            if value.generation != self.generation:
                raise StudentError("crash", f"this {value.class_name} object was lost when the worker process "
                                   "restarted after an earlier error; it cannot be used any more")
            return protocol.Ref("handle", value.handle)
        if type(value) in (tuple, list):
            return type(value)(self._outgoing(x, refs) for x in value)
        return value

    def _receive(self, deadline: float, *, answers: bool) -> tuple[dict, list]:
        """The worker's next frame. Where this process ``answers`` callbacks (the call passed grader objects or a
        served stand-in), ``_callback`` leaves out of the student's time how long it then waited for a CPU before
        reading the frame (the worker waits meanwhile when the frame is a callback); elsewhere a callback frame
        is refused at once, and nothing is left out for it but the refusal."""
        if not answers:
            self._woken = 0.0
            return self.sandbox.receive(deadline)
        waits = cputime.own_wait()
        frame = self.sandbox.receive(deadline)
        self._woken = cputime.own_wait() - waits
        return frame

    def _callback(self, reply: dict, arrays: list, refs: list, deadline: float) -> None:
        """Run one method of a grader object (or a served stand-in) the student's code called, here, and send back
        the answer (``callbacks.answer_frame``; a CallbackLimit reached leaves the worker waiting: the caller kills
        it, see ``_request``). The grader's time for it, from its wake-up to the answer sent, is not the student's
        (``StudentClock.exclude``): a loaded machine slows the grader's answers, not the student's code."""
        began = time.monotonic()
        try:
            self.sandbox.send_frame(answer_frame(reply, arrays, refs), deadline=deadline)
        finally:
            self.sandbox.clock.exclude(time.monotonic() - began + self._woken)

    def _own(self, what: str, value: Any, method: bool) -> Any:
        """Writable copies of arrays; refuse strings and foreign refs."""
        if isinstance(value, np.ndarray):
            return np.array(value)
        if isinstance(value, (tuple, list)):
            return type(value)(self._own(what, x, method) for x in value)
        if isinstance(value, protocol.Ref):
            if method and value.kind == "handle":
                return Remote(self, value.id, self.generation, "object")
            raise StudentError("invalid_output", f"{what} returned an object that cannot be graded")
        if isinstance(value, str):
            raise StudentError("invalid_output", f"{what} returned a str; expected numpy arrays of real numbers")
        return value

    def _error(self, what: str, reply: dict, timeout: float) -> StudentError:
        error = from_reply(what, reply, timeout, self.sandbox.limits)
        if error.kind == "timeout":
            self._timed_out[what] = timeout  # not run again (fails fast)
        return error


def _chunk(chunk: Any) -> dict:
    get = chunk.get if isinstance(chunk, dict) else lambda k, d=None: getattr(chunk, k, d)
    return {"label": str(get("label")), "filename": str(get("filename", get("label"))),
            "source": str(get("source")), "first_line": int(get("first_line", 1) or 1)}


def _entered(value: Any) -> dict[str, int] | None:
    """The worker's report of which top-level functions a call entered: names and counts, or None."""
    if not isinstance(value, dict) or len(value) > 500:
        return None
    return {k: v for k, v in value.items() if isinstance(k, str) and len(k) <= 100 and type(v) is int and v > 0}


def _int(value: Any) -> int:
    if type(value) is not int:
        raise protocol.ProtocolError("expected an integer")
    return value
