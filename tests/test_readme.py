"""The README states what the code does: its points table is the contract's."""

from __future__ import annotations

import re
from pathlib import Path

from autograder import contract

README = Path(__file__).resolve().parent.parent / "README.md"


def readme_points_table() -> str:
    text = README.read_text()
    match = re.search(r"<!-- points-table.*?-->\n(.*?)<!-- end points-table -->", text, flags=re.S)
    assert match, "the README lost its points table markers"
    return match.group(1)


def expected_points_table() -> str:
    rows = ["| part | functions | points |", "| --- | --- | --- |"]
    for part, total in contract.points_by_part().items():
        names = [f"`{name}` {pts}" for name, (p, pts) in contract.FUNCTIONS.items() if p == part]
        rows.append(f"| {part} | {', '.join(names)} | {total} |")
    rows.append(f"| | **total** | **{contract.TOTAL_POINTS}** |")
    return "\n".join(rows) + "\n"


def test_readme_points_table_matches_the_contract_table() -> None:
    assert readme_points_table() == expected_points_table()


def test_readme_starts_with_the_two_commands() -> None:
    head = README.read_text().split("\n## ")[0]
    assert "make demo" in head and "make test" in head


def test_every_function_is_worth_at_least_4_points_and_the_total_is_100() -> None:
    assert min(points for _, points in contract.FUNCTIONS.values()) >= 4
    assert sum(points for _, points in contract.FUNCTIONS.values()) == 100
