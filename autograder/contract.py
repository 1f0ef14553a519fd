"""The homework's contract as data: parts, graded names, and the points table.

This is the one place points are set. The graded suite's weights must add up to
these numbers per function (a project test checks it), the results summary groups
tests by these parts, and the README's table is checked against it.
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

# contract name -> (part, points). Spelled exactly as in the contract; these are the test tags.
FUNCTIONS: dict[str, tuple[str, int]] = {
    "qkv_project": ("A", 6),
    "attention_scores": ("A", 6),
    "softmax": ("B", 12),
    "causal_mask": ("C", 6),
    "scaled_dot_product_attention": ("C", 14),
    "multi_head_attention": ("D", 12),
    "rotation_matrix": ("E", 4),
    "rope": ("E", 12),
    "KVCache": ("F", 6),
    "decode_step": ("F", 8),
    "generate_cached": ("F", 6),
    "generate_naive": ("F", 8),
}

TOTAL_POINTS = 100

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


def points_by_part() -> dict[str, int]:
    """Total points of each part, in part order."""
    totals = dict.fromkeys(PARTS, 0)
    for part, points in FUNCTIONS.values():
        totals[part] += points
    return totals


assert sum(points for _, points in FUNCTIONS.values()) == TOTAL_POINTS
assert all({name, *called} <= set(FUNCTIONS) for name, called in CALLS.items())
