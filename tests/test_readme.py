"""The README states what the code does: its points table is the contract's."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from autograder import contract
from autograder.commands import readme

README = Path(__file__).resolve().parent.parent / "README.md"


def expected_points_table() -> str:
    """Written here from contract.POINTS directly, not by the code that generates the README's."""
    rows = ["| part | functions | points |", "| --- | --- | --- |"]
    for part in contract.PARTS:
        functions = {name: sum(tests.values()) for name, tests in contract.POINTS.items()
                     if next(iter(tests)).startswith(part + ".")}
        names = [f"`{name}` {pts:g}" for name, pts in functions.items()]
        rows.append(f"| {part} | {', '.join(names)} | {sum(functions.values()):g} |")
    total = sum(sum(tests.values()) for tests in contract.POINTS.values())
    rows.append(f"| | **total** | **{total:g}** |")
    return "\n".join(rows) + "\n"


def test_readme_points_table_matches_the_contract_table() -> None:
    assert readme.points_table(README.read_text()) == expected_points_table() == contract.points_table_markdown()


def test_the_points_table_is_regenerated_between_its_markers_and_nothing_else_changes() -> None:
    text = README.read_text()
    assert readme.with_points_table(text) == text  # fresh: `autograder template --check` passes
    stale = text.replace("| | **total** |", "| | **total (old)** |")
    assert readme.with_points_table(stale) == text
    with pytest.raises(readme.ReadmeError, match="no points table"):
        readme.with_points_table("# a README without markers\n")


def test_readme_starts_with_the_two_commands() -> None:
    head = README.read_text().split("\n## ")[0]
    assert "make demo" in head and "make test" in head


def test_every_function_is_worth_points_and_the_total_is_their_sum() -> None:
    assert min(points for _, points in contract.FUNCTIONS.values()) > 0
    assert sum(points for _, points in contract.FUNCTIONS.values()) == contract.TOTAL_POINTS


REPO = README.parent
DOCS = [README, *sorted((REPO / "docs").glob("*.md"))]
LINK = re.compile(r"\[[^\]]*\]\(([^)\s]+)\)")
# Absolute paths of a developer's machine, and the contract's old place beside the repository
# (spelt in pieces so that this file does not match itself).
OUTSIDE = re.compile("(?<![\\w.])(" + "|".join(["/wo" + "rk/", "/ho" + "me/\\w", "\\.\\./sha" + "red/"]) + ")")


def relative_links(path: Path) -> list[str]:
    targets = [t.split("#")[0] for t in LINK.findall(path.read_text(encoding="utf-8"))]
    return [t for t in targets if t and not re.match(r"^[a-z][a-z0-9+.-]*:", t)]  # not http:, mailto:, ...


@pytest.mark.parametrize("doc", DOCS, ids=[p.relative_to(REPO).as_posix() for p in DOCS])
def test_every_relative_link_resolves_inside_the_repository(doc: Path) -> None:
    links = relative_links(doc)
    broken = [t for t in links if not (doc.parent / t).exists()]
    outside = [t for t in links if not (doc.parent / t).resolve().is_relative_to(REPO.resolve())]
    assert not broken and not outside, f"broken: {broken}, outside the repository: {outside}"


def test_the_readme_links_the_contract_and_it_names_every_contract_function() -> None:
    assert "docs/assignment.md" in relative_links(README)
    contract_text = (REPO / "docs" / "assignment.md").read_text(encoding="utf-8")
    assert all(f"`{name}" in contract_text for name in contract.FUNCTIONS)


def test_no_text_file_names_a_path_outside_the_repository() -> None:
    suffixes = {".py", ".md", ".toml", ".txt", ".sh", ".json", ".ipynb", ".cfg", ".yml", ".yaml"}
    skip = {".venv", ".venv310", ".git", "dist", "build", "__pycache__", ".pytest_cache", ".ruff_cache"}
    found = []
    for path in REPO.rglob("*"):
        parts = set(path.relative_to(REPO).parts)
        if parts & skip or not path.is_file():
            continue
        if path.suffix in suffixes or path.name in {"Makefile", "run", "run_autograder"}:
            text = path.read_text(encoding="utf-8", errors="replace")
            found += [f"{path.relative_to(REPO)}: {m.group(0)}" for m in OUTSIDE.finditer(text)]
    assert not found, found
