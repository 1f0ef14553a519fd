"""The README's generated part: the points table, from the homework's ``homework.py`` (``POINTS``).

``autograder template`` rewrites the lines between the two markers and ``template --check`` (so
``build`` and ``make test``) fails while they are stale; nothing else in the README is touched.
"""

from __future__ import annotations

import re
from pathlib import Path

from autograder import contract

START = "<!-- points-table: generated from the homework's homework.py by `autograder template` (--check checks it) -->"
END = "<!-- end points-table -->"
TABLE = re.compile(r"^<!-- points-table\b.*?-->\n.*?^<!-- end points-table -->$", re.S | re.M)


class ReadmeError(Exception):
    """The README has no points-table markers to write between."""


def with_points_table(text: str) -> str:
    """``text`` (the README) with the table between its markers regenerated from the contract."""
    if not TABLE.search(text):
        raise ReadmeError(f"README.md has no points table to regenerate: put `{START}` and `{END}` "
                          "on lines of their own")
    block = f"{START}\n{contract.points_table_markdown()}{END}"
    return TABLE.sub(lambda _: block, text, count=1)


def points_table(text: str) -> str:
    """The table now between the README's markers (empty when it has none)."""
    found = TABLE.search(text)
    return found.group(0).split("\n", 1)[1].rsplit("\n", 1)[0] + "\n" if found else ""


def render(readme: Path) -> bytes:
    """The README's bytes with a fresh points table."""
    return with_points_table(readme.read_text(encoding="utf-8")).encode("utf-8")
