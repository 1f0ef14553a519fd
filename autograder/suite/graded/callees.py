"""Evidence for "Check first": the failing case run again with correct stand-ins for the functions it calls.

The stand-ins are the oracle's functions and classes (the homework's generated oracle), served by the grader
(``Student.call_served``): the worker's module-level names stand for them during that one call, and
their answers come from this process. The probe runs after the test's scored calls, and the worker
is discarded after it, so no stand-in outlives its probe.
"""

from __future__ import annotations

import contextvars
import functools
import inspect
from collections.abc import Callable, Collection, Mapping, Sequence
from itertools import combinations
from typing import Any

from autograder import contract
from autograder.feedback import compare
from autograder.sandbox.callbacks import Served
from autograder.sandbox.student import StudentError
from autograder.suite.cases import Case, call_arguments
from autograder.suite.graded import crashes, hooks, probing, raises
from autograder.suite.graded.tools import matches, quiet


class Note(str):
    """Fix-this-first advice, with the callees whose stand-ins make the case it shows pass (``cited``; others it
    cites make other failing cases of the test pass)."""

    cited: tuple[str, ...] = ()


def callee_note(student: Any, cases: Sequence[Case], failing: Mapping[str, list[str]],
                record: Callable[[Mapping[str, Any]], None] = lambda item: None) -> Note | None:
    """Fix-this-first advice, only with a probe's evidence (``served_probe``): the first failing case, run again
    with correct stand-ins for failing callees, passes. Cites the fewest callees that make it pass, and those that
    make the test's other failing cases pass; None when no set of them makes the first one pass (the test fails for
    a reason of its own, or the probe could not tell)."""
    passing = served_probe(student, cases, list(failing), record)
    if not passing:
        return None
    function, first = cases[0].function, passing[cases[0].id]
    shown = [name for name in failing if any(name in names for names in passing.values())]
    said = [_fails(name, failing[name]) for name in shown]
    them = "it" if len(shown) == 1 else "them"
    others: dict[tuple[str, ...], int] = {}
    for case in cases[1:]:
        if case.id in passing:
            others[passing[case.id]] = others.get(passing[case.id], 0) + 1
    right = "this case" + (f" and {_cases(others.pop(first))} of this test" if first in others else "") + " right"
    right += "".join(f"; with a correct {_stand_ins(names)}, {_cases(n)} of this test too"
                     for names, n in others.items())
    note = Note(f"**Check first:** your {' and your '.join(said)}. With a correct {_stand_ins(first)} standing in for "
                f"yours{_given(function, first, failing)}, `{function}` gets {right}: fix {them} first, then look at "
                "this test again.")
    note.cited = tuple(first)
    return note


def companions(function: str, names: Sequence[str]) -> list[str]:
    """The classes served beside ``names`` in a probe of ``function``: a stand-in runs in the grader, so it cannot be
    handed an object of the student's own (a correct ``decode_step`` given the student's cache), and every class the
    homework serves (``SERVED_OBJECTS``) that ``function`` calls is served too whenever a function is; none when only
    classes are served. One that fails its own tests counts as standing in only where the student's own class,
    asked the same calls, answers them otherwise (``_same_answers``)."""
    if all(_is_class(name) for name in names):
        return []
    return [name for name in contract.callees(function) if name in servable() and _is_class(name)
            and name not in names]


def _given(function: str, names: Sequence[str], failing: Collection[str]) -> str:
    extra = [name for name in companions(function, names) if name not in failing]  # the failing ones answered as
    # the student's own do (``_tried``)
    return f" (given a correct {_stand_ins(extra)} too: a stand-in cannot use yours)" if extra else ""


def _fails(name: str, tests: Sequence[str]) -> str:
    return f"`{name}` fails its own test{'s' if len(tests) > 1 else ''} {', '.join(tests)}"


def _stand_ins(names: Sequence[str]) -> str:
    return " and ".join(f"`{name}`" for name in names)


def _cases(n: int) -> str:
    return f"{n} other failing case{'s' if n > 1 else ''}"


def served_probe(student: Any, cases: Sequence[Case], callees: Sequence[str],
                 record: Callable[[Mapping[str, Any]], None] = lambda item: None) -> dict[str, tuple[str, ...]]:
    """Which callees' correct stand-ins (served ones only) make the failing ``cases`` pass on the student's function:
    by case id, for each case that then passes, the fewest callees (tried first: those already cited for an earlier
    case). {} when none make the first case (the one the feedback shows) pass. Runs after the test's scored calls;
    the worker is discarded after it, so no stand-in outlives its probe. ``record`` notes each try for results.json
    (``evidence``)."""
    served = servable()
    servable_names = [name for name in callees if name in served]
    if not cases or not servable_names or _is_class(cases[0].function):
        return {}
    tried = [names for size in range(1, len(servable_names) + 1)
             for names in combinations(servable_names, size)][:MAX_TRIES]
    passing: dict[str, tuple[str, ...]] = {}
    try:
        for case in cases:
            cited = [name for name in servable_names if any(name in names for names in passing.values())]
            subsets = [names for names in tried if not set(names) <= set(cited)]
            for names in [tuple(cited)] * bool(cited) + subsets:  # the fewest first: only what the case needs
                if _tried(student, case, names, record, companions(case.function, names), callees):
                    passing[case.id] = names
                    break
            if not passing:
                return {}  # the first case fails even with correct callees: no Check first
        return passing
    finally:
        student.discard()


MAX_TRIES = 7  # served probes per failing case (every subset of three callees)


def _tried(student: Any, case: Case, names: Sequence[str], record: Callable[[Mapping[str, Any]], None],
           beside: Sequence[str] = (), failing: Collection[str] = ()) -> bool:
    """Whether ``case`` passes with ``names`` served (and the classes ``beside`` them: ``companions``), each of
    ``names`` giving at least one answer; a class beside them that fails its own tests only where the student's own
    answers every call the probe made of it as the served one did (``_same_answers``)."""
    passed, served = _passes_served(student, case, [*names, *beside])
    replayed = [name for name in beside if name in failing]
    same = passed and all(served.used.get(name) for name in names) and _same_answers(student, served, replayed)
    record({"sentence": "check_first", "probe": f"case {case.id} with correct {', '.join([*names, *beside])} served",
            "served_calls": sum(served.used.values()), "passed": passed}
           | ({"own_classes_answer_alike": same} if passed and replayed else {}))
    return same


def _same_answers(student: Any, served: Served, classes: Collection[str]) -> bool:
    """Whether the student's own ``classes``, each made afresh and asked every call the probe made of a served
    instance (the same arguments, in order), answer them all as it did: then the probe would have gone the same
    way with the student's own (a stand-in reads a cache only through its interface). One probe call per call, on a
    fresh worker (the probe's is spent)."""
    if classes:
        student.discard()
    for index, instance in enumerate(served.instances):
        name = next((n for n, made in served.classes.items() if isinstance(instance, made)), None)
        if name not in classes:
            continue
        try:
            own = student.new(name)
            for method, args, value in served.log.get(index, ()):
                got = own.len() if method == "len" else own.get(method) if method in type(instance).PROPERTIES \
                    else own.call(method, *args)
                if value is not None and not matches(got, value):
                    return False
        except StudentError:
            return False
    return True


def passes_with_all(student: Any, stored: Case, callees: Sequence[str],
                    record: Callable[[Mapping[str, Any]], None] = lambda item: None) -> bool:
    """Whether ``stored`` passes with correct stand-ins for all of ``callees`` at once (one probe; the worker is
    then discarded): if so, the function's own code is right on the case."""
    names = [name for name in callees if name in servable()]
    if not names or _is_class(stored.function):
        return False
    try:
        passed, served = _passes_served(student, stored, names)
        record({"sentence": "own_code", "probe": f"case {stored.id} with correct {', '.join(names)} served",
                "served_calls": sum(served.used.values()), "passed": passed})
        return passed
    finally:
        student.discard()


def culprit_note(student: Any, stored: Case, callees: Sequence[str], failing: Mapping[str, list[str]],
                 record: Callable[[Mapping[str, Any]], None] = lambda item: None) -> Note | None:
    """Fix-this-first advice when ``stored`` passes with correct stand-ins for all of ``callees`` (``passes_with_all``)
    but no set of the callees failing their own visible tests (``failing``) makes it pass: the fewest of ``callees``,
    nearest first, whose stand-ins alone make it pass (at most MAX_TRIES probes; the worker is then discarded). A
    callee without a failing visible test is cited by this case alone ("goes wrong in this call"): what it shows comes
    from the case the student sees, never from a hidden test. None when no proper subset does it."""
    names = [name for name in callees if name in servable()]
    tried = [subset for size in range(1, len(names)) for subset in combinations(names, size)
             if not set(subset) <= set(failing)][:MAX_TRIES]  # subsets of ``failing`` alone: callee_note's, failed
    if not tried or _is_class(stored.function):
        return None
    try:
        for subset in tried:
            if _tried(student, stored, subset, record, companions(stored.function, subset), failing):
                return _cited(stored.function, subset, failing)
        return None
    finally:
        student.discard()


def _cited(function: str, names: Sequence[str], failing: Mapping[str, list[str]]) -> Note:
    said = [_fails(name, failing[name]) if name in failing else f"`{name}` goes wrong in this call" for name in names]
    them = "it" if len(names) == 1 else "them"
    note = Note(f"**Check first:** your {' and your '.join(said)}. With a correct {_stand_ins(names)} standing in for "
                f"yours{_given(function, names, list(failing))}, `{function}` gets this case right: fix {them} first, "
                "then look at this test again.")
    note.cited = tuple(names)
    return note


def explain_crash(student: Any, stored: Case, named: Mapping[str, Any], error: StudentError) -> crashes.Crash | None:
    """A raise on ``stored`` explained at the student's own line (``crashes.explain``). When it came from a callee's
    code (a contract function the function calls), the function's own code is judged with correct stand-ins for
    every callee the grader serves: if the same call then raises at a line of its own, that line is explained
    through the same stand-ins (every probe served; the worker is then discarded), so a callee that raises first
    does not hide the function's own mistake. None when there is nothing to say."""
    def properties(raised: StudentError) -> Callable[[], list[crashes.Property]]:
        return lambda: [crashes.Property(*p) for p in hooks.crash_properties(stored, dict(named), raised)]

    student = probing.probing(student)
    crash = crashes.explain(student, stored, dict(named), error, properties(error))
    if crash is not None or _is_class(stored.function) or error.kind != "exception" \
            or raises.own_frame(student, error, stored.function) is not None:
        return crash
    names = [name for name in contract.callees(stored.function) if name in servable()
             and name not in contract.unused_callees(stored.function, stored.inputs)]
    if not {f.function for f in raises.frames(student, error)} & set(names):  # not a callee's raise
        return None
    try:
        return _served_crash(student, stored, named, names, properties)
    finally:
        student.discard()


@quiet(None)
def _served_crash(student: Any, stored: Case, named: Mapping[str, Any], names: Sequence[str],
                  properties: Callable[[StudentError], Callable[[], list[crashes.Property]]]) -> crashes.Crash | None:
    served = Served({name: servable()[name] for name in names})
    serving = _Serving(student, served, stored.function)
    try:
        serving.call(stored.function, *named.values())
    except StudentError as again:
        used = [name for name in names if served.used.get(name)]
        if not used:
            return None
        lead = f"With a correct {_stand_ins(used)} standing in for yours (yours raised first: below), "
        found = crashes.explain(serving, stored, dict(named), again, properties(again), lead=lead)
        # only the line's own reading: what the answer shows beside it may be a share of the work the student gave
        # their callee (a scale applied in their scores), which the stand-in does not do
        return found._replace(how=f"correct {', '.join(used)} served in every call; {found.how}", more=()) \
            if found else None
    return None  # with correct callees it returns: "Check first" speaks of it


def _passes_served(student: Any, stored: Case, names: Sequence[str]) -> tuple[bool, Served]:
    """(whether the case passes with ``names`` served, the ``Served``: how many answers each stand-in gave, what was
    asked of its instances). A raise in it is not explained (``in_served_probe``)."""
    served = Served({name: servable()[name] for name in names})
    token = _in_probe.set(True)
    try:
        ran = hooks.run_case(_Serving(student, served, stored.function), stored)
        if ran is not None:
            return ran[0] is None, served
        named = call_arguments(stored.inputs)
        actual = student.call_served(served, stored.function, *(value for _, value in named))
    except StudentError:
        return False, served
    finally:
        _in_probe.reset(token)
    return compare.compare("probe", stored.expected, actual) is None, served


_in_probe: contextvars.ContextVar[bool] = contextvars.ContextVar("in_served_probe", default=False)


def in_served_probe() -> bool:
    """Whether a served probe is running (a homework's ``run_case`` then only reports: its crashes are not searched)."""
    return _in_probe.get()


class _Serving:
    """The student, whose calls of ``function`` get ``served`` stand-ins (for the homework's ``run_case``)."""

    def __init__(self, student: Any, served: Served, function: str) -> None:
        self._student, self._served, self._function = student, served, function

    def call(self, name: str, /, *args: Any, **kwargs: Any) -> Any:
        if name == self._function:
            return self._student.call_served(self._served, name, *args, **kwargs)
        return self._student.call(name, *args, **kwargs)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._student, name)


@functools.lru_cache(maxsize=1)
def servable() -> dict[str, Callable[..., Any]]:
    """The callees a probe can serve: the contract's functions in the homework's generated oracle, and its classes
    for which the homework's diagnosis names a grader object to serve (``SERVED_OBJECTS``)."""
    oracle = contract.HOMEWORK.optional("generated.oracle")
    objects = hooks.hook("SERVED_OBJECTS", {})
    found = {name: getattr(oracle, name) for name in contract.FUNCTIONS
             if hasattr(oracle, name) and not inspect.isclass(getattr(oracle, name))}
    return found | {name: made for name, made in objects.items() if name in contract.FUNCTIONS}


def _is_class(function: str) -> bool:
    """A class of the contract (its case is made by the homework's own ``run_case``; no stand-in is served in it)."""
    oracle = contract.HOMEWORK.optional("generated.oracle")
    return inspect.isclass(getattr(oracle, function, None))
