"""The contract of the homework this process grades, as the engine uses it: parts, graded names, points.

Everything here is derived from the homework's own ``homework.py`` (``autograder.homework``), the one place a
course sets points, parts, visibility and who calls whom; nothing is set by hand. The graded suite's decorator
reads each test's weight here, the results summary groups tests by these parts, and the README's points table is
generated from it (``autograder template``).
"""

from __future__ import annotations

from autograder import homework as _homework

_hw = _homework.load()

HOMEWORK = _hw
NAME: str = _hw.NAME
UPLOAD: str = _hw.UPLOAD
PARTS: dict[str, str] = dict(_hw.PARTS)
POINTS: dict[str, dict[str, float]] = {name: dict(tests) for name, tests in _hw.POINTS.items()}
CALLS: dict[str, tuple[str, ...]] = {name: tuple(called) for name, called in _hw.CALLS.items()}
CALLED_WHEN_GIVEN: dict[str, dict[str, tuple[str, ...]]] = {
    name: {given: tuple(called) for given, called in inputs.items()} for name, inputs in _hw.CALLED_WHEN_GIVEN.items()
}
# Seconds of the student's time one call of the student's code may take (the homework's CALL_SECONDS).
CALL_SECONDS: float = float(_hw.CALL_SECONDS)
# Visibility of the hidden tests, set in one place (the homework's HIDDEN).
HIDDEN: str = _hw.HIDDEN
VISIBLE = "visible"


def _number(x: float) -> float:
    """An integral total as an int (6, not 6.0), any other as it is."""
    return int(x) if float(x).is_integer() else x


def _part_of_tests(name: str) -> str:
    parts = {number.split(".")[0] for number in POINTS[name]}
    if len(parts) != 1:
        raise ValueError(f"{_hw.folder / 'homework.py'}: POINTS: the tests of {name} are numbered in parts "
                         f"{sorted(parts)}, not one")
    return parts.pop()


# contract name -> (part, points): derived from POINTS, never set by hand.
FUNCTIONS: dict[str, tuple[str, float]] = {
    name: (_part_of_tests(name), _number(sum(tests.values()))) for name, tests in POINTS.items()
}
TOTAL_POINTS: float = _number(sum(points for _, points in FUNCTIONS.values()))
# test number -> (function, points)
TESTS: dict[str, tuple[str, float]] = {
    number: (name, points) for name, tests in POINTS.items() for number, points in tests.items()
}
if len(TESTS) != sum(len(tests) for tests in POINTS.values()):
    raise ValueError(f"{_hw.folder / 'homework.py'}: POINTS: a test number is listed twice")


def points_of_test(number: str, function: str) -> float:
    """The points of graded test ``number``, which must test ``function`` (the graded decorator's lookup)."""
    if number not in TESTS:
        raise ValueError(f"graded test {number} has no points in {_hw.relative(_hw.folder / 'homework.py')} (POINTS)")
    listed, points = TESTS[number]
    if listed != function:
        raise ValueError(f"graded test {number} tests {function}, but homework.py lists it under {listed}")
    return points


def part_of(name: str) -> str:
    """The part letter of a contract name."""
    return FUNCTIONS[name][0]


def callees(name: str) -> list[str]:
    """Every contract function ``name`` usually calls, directly or not, nearest first."""
    found: list[str] = []
    queue = list(CALLS.get(name, ()))
    while queue:
        callee = queue.pop(0)
        if callee not in found:
            found.append(callee)
            queue += CALLS.get(callee, ())
    return found


def unused_callees(name: str, inputs: dict) -> set[str]:
    """The callees ``name`` does not call on these inputs: those it calls only when an input is given (not None)."""
    return {callee for given, called in CALLED_WHEN_GIVEN.get(name, {}).items() if inputs.get(given) is None
            for callee in called}


def points_by_part() -> dict[str, float]:
    """Total points of each part, in part order."""
    totals: dict[str, float] = dict.fromkeys(PARTS, 0)
    for part, points in FUNCTIONS.values():
        totals[part] += points
    return {part: _number(total) for part, total in totals.items()}


def points_table_markdown() -> str:
    """The README's points table (between its points-table markers): parts, functions and points."""
    rows = ["| part | functions | points |", "| --- | --- | --- |"]
    for part, total in points_by_part().items():
        names = ", ".join(f"`{name}` {points:g}" for name, (p, points) in FUNCTIONS.items() if p == part)
        rows.append(f"| {part} | {names} | {total:g} |")
    rows.append(f"| | **total** | **{TOTAL_POINTS:g}** |")
    return "\n".join(rows) + "\n"
