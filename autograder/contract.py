"""The homework's contract as data: parts, graded names, and the points table.

This is the one place points are set (``POINTS``, per graded test): the graded suite's
decorator reads each test's weight here, the results summary groups tests by these parts,
and the README's table is generated from it (``autograder template``).
"""

from __future__ import annotations

PARTS: dict[str, str] = {
    "A": "Projections and scores (Dis 10 Q1)",
    "B": "Softmax (Dis 10 Q1, Dis 11 Q2)",
    "C": "Masks and scaled dot-product attention (Dis 10 Q2, Dis 11 Q2)",
    "D": "Multi-head attention (PS4 Q2c)",
    "E": "Rotary positional embeddings (Dis 11 Q1)",
    "F": "KV caching (Dis 11 Q3)",
}

# The one place points are set: every graded test, by the contract function it tags (spelled
# exactly as in the contract: these are the test tags), test number -> points. A test's number
# starts with its function's part. The graded suite's decorator (suite/graded/support.py) reads
# its weight here; a function's points, a part's and the total are sums of these; the README's
# table is generated from them (`autograder template`). Any positive numbers, any total.
POINTS: dict[str, dict[str, float]] = {
    "qkv_project": {"A.1": 2, "A.2": 2, "A.3": 0.5, "A.4": 0.5, "A.8": 1},
    "attention_scores": {"A.5": 2, "A.6": 2, "A.7": 1, "A.9": 1},
    "softmax": {"B.1": 2, "B.2": 2, "B.3": 2, "B.4": 1, "B.5": 2, "B.6": 1, "B.7": 1, "B.8": 1},
    "causal_mask": {"C.1": 2, "C.2": 2, "C.3": 1, "C.12": 1},
    "scaled_dot_product_attention": {"C.4": 3, "C.5": 2, "C.6": 2, "C.7": 1, "C.8": 1, "C.9": 1, "C.10": 1,
                                     "C.11": 1, "C.13": 2},
    "multi_head_attention": {"D.1": 3, "D.2": 2, "D.3": 2, "D.4": 2, "D.5": 1, "D.6": 2},
    "rotation_matrix": {"E.1": 2, "E.2": 1, "E.9": 1},
    "rope": {"E.3": 2, "E.4": 3, "E.5": 2, "E.6": 1, "E.7": 1, "E.8": 1, "E.10": 2},
    "KVCache": {"F.1": 2, "F.2": 2, "F.3": 1, "F.15": 1},
    "decode_step": {"F.4": 3, "F.5": 2, "F.6": 1, "F.7": 1, "F.16": 1},
    "generate_cached": {"F.8": 3, "F.9": 1, "F.10": 1, "F.17": 1},
    "generate_naive": {"F.11": 3, "F.12": 2, "F.13": 1, "F.14": 1, "F.18": 1},
}


def _number(x: float) -> float:
    """An integral total as an int (6, not 6.0), any other as it is."""
    return int(x) if float(x).is_integer() else x


def _part_of_tests(name: str) -> str:
    parts = {number.split(".")[0] for number in POINTS[name]}
    if len(parts) != 1:
        raise ValueError(f"contract.POINTS: the tests of {name} are numbered in parts {sorted(parts)}, not one")
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


def points_of_test(number: str, function: str) -> float:
    """The points of graded test ``number``, which must test ``function`` (the graded decorator's lookup)."""
    if number not in TESTS:
        raise ValueError(f"graded test {number} has no points in autograder/contract.py (POINTS)")
    listed, points = TESTS[number]
    if listed != function:
        raise ValueError(f"graded test {number} tests {function}, but contract.py lists it under {listed}")
    return points


# Who usually calls whom (the reference's call graph; students mostly follow it). When a
# callee fails its own tests, a failing test of its caller says to fix the callee first.
CALLS: dict[str, tuple[str, ...]] = {
    "scaled_dot_product_attention": ("attention_scores", "softmax"),
    "multi_head_attention": ("qkv_project", "scaled_dot_product_attention"),
    "rope": ("rotation_matrix",),
    "decode_step": ("rope", "scaled_dot_product_attention"),
    "generate_cached": ("KVCache", "decode_step"),
    "generate_naive": ("rope", "scaled_dot_product_attention"),
}

# Visibility of the hidden tests, set in one place. Gradescope's options: "hidden",
# "after_due_date", "after_published", "visible".
HIDDEN = "after_due_date"
VISIBLE = "visible"


def part_of(name: str) -> str:
    """The part letter ("A".."F") of a contract name."""
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


assert all(points > 0 for _, points in TESTS.values()), "every graded test is worth points"
assert len(TESTS) == sum(len(tests) for tests in POINTS.values()), "a test number is listed twice"
assert {part for part, _ in FUNCTIONS.values()} <= set(PARTS)
assert all({name, *called} <= set(FUNCTIONS) for name, called in CALLS.items())
