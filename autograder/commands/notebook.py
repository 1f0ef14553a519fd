"""<UPLOAD>.ipynb: the student code as a notebook, one cell per function, a check at the end of each part.

Per part: an introduction (the homework's ``student/notebook/part_<X>.md``), one code cell per function (code
without solution blocks, given code, gets a "given code" note), and a one-line check cell,
``check("f", "g")``, that runs that part's public tests on the functions defined in the notebook and prints a
short summary (``test_<UPLOAD>.run_checks``). The last cell
checks everything. ``check`` does nothing outside Jupyter (so in the autograder, which runs the
notebook's code cells), and says what to upload when the test files are not beside the notebook.
"""

from __future__ import annotations

import ast
import re

import nbformat

from autograder import contract


class NotebookError(ValueError):
    """The student code cannot be laid out as the notebook (code outside a part, a function in another part)."""


def intro() -> str:
    """The notebook's first cell: the homework's ``student/notebook/intro.md`` (``{support}``: the files the checks
    need), else a title and how to check."""
    path = contract.HOMEWORK.student / "notebook" / "intro.md"
    if path.is_file():
        return path.read_text(encoding="utf-8").strip()
    return (f"# Homework: {contract.NAME}\n\nImplement every function below that raises `NotImplementedError`. "
            f"**Check** your work with the `check(...)` cell at the end of each part (it needs {{support}} next to "
            f"this notebook, and `pytest`). **Submit** this notebook as `{contract.UPLOAD}.ipynb`.")


def part_intro(part: str) -> str:
    """A part's introduction: the homework's ``student/notebook/part_<X>.md`` ("" when it has none)."""
    path = contract.HOMEWORK.student / "notebook" / f"part_{part}.md"
    return path.read_text(encoding="utf-8").strip() if path.is_file() else ""


GIVEN = "**Given code** (not graded): run this cell as it is; do not edit `{name}`."

CHECK_INTRO = """\
**Checks.** Run the next cell once: it defines `check`, which the last cell of each part calls."""

CHECK_DEFINITION = """\
# check("{example}") runs {example}'s public tests on the code defined in THIS notebook and prints a summary.
# Outside Jupyter (for example in the autograder) it does nothing.
import sys
from pathlib import Path

CHECK_FILES = {files}


def check(*functions, verbose=False):
    \"\"\"Run the public tests of ``functions`` (every function if none) on this notebook; print a summary.\"\"\"
    if "ipykernel" not in sys.modules:
        return
    missing = [name for name in CHECK_FILES if not Path(name).is_file()]
    if missing:
        print(f"Cannot check yet: {{', '.join(missing)}} must be in this notebook's folder ({{Path.cwd()}}).\\n"
              "Put the homework's test files next to {upload}.ipynb: " + ", ".join(CHECK_FILES) + ".\\n"
              "On Colab: open the Files panel (folder icon, left) and upload them, or run\\n"
              "    from google.colab import files; files.upload()\\n"
              "then run this cell again.")
        return
    if str(Path.cwd()) not in sys.path:
        sys.path.insert(0, str(Path.cwd()))
    sys.modules["{upload}"] = sys.modules["__main__"]  # the tests `import {upload}`: this notebook
    sys.modules.pop("test_{upload}", None)  # re-read the tests, and this notebook's functions, every time
    try:
        import test_{upload}
    except ImportError as error:
        print(f"Cannot check: {{error}}. Install what is missing (`pip install numpy pytest`), then run this again.")
        return
    test_{upload}.run_checks(*functions, verbose=verbose)"""

FINAL_INTRO = """\
## Check everything

Run every cell above first (after a change, re-run the changed cell), then this one."""


def notebook(student: str, reference: str, support: list[str], given: set[str]) -> str:
    """The notebook (nbformat v4 JSON) of the student code ``student``; ``support`` are the files the
    checks need beside it (the public tests first), ``given`` the names kept whole (given code)."""
    tree = ast.parse(student)
    lines = student.splitlines()
    imports = [_segment(lines, node) for node in tree.body if _is_import(node)]
    shown = [f"`{name}`" for name in support if name != f"test_{contract.UPLOAD}.py"]
    first = intro().replace("{support}", ", ".join(shown[:-1]) + " and " + shown[-1] if len(shown) > 1
                            else "".join(shown))
    check_cell = CHECK_DEFINITION.format(files=repr(tuple(support)), upload=contract.UPLOAD,
                                         example=next(iter(contract.FUNCTIONS)))
    cells = [nbformat.v4.new_markdown_cell(first), nbformat.v4.new_code_cell("\n".join(imports)),
             nbformat.v4.new_markdown_cell(CHECK_INTRO), nbformat.v4.new_code_cell(check_cell)]
    part = None
    for node in tree.body[1:]:  # after the module docstring
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            continue
        if not isinstance(node, (ast.FunctionDef, ast.ClassDef)):
            raise NotebookError(f"student {contract.UPLOAD}.py line {node.lineno}: only imports, functions and classes")
        node_part = _section(lines, node.lineno)
        if node.name in contract.FUNCTIONS and contract.FUNCTIONS[node.name][0] != node_part:
            raise NotebookError(f"{node.name} is in the reference's Part {node_part} section, not its contract part")
        if node_part != part:
            cells += _check_cells(part)
            part = node_part
            title = f"## Part {part}: {contract.PARTS[part]}"
            prose = part_intro(part)
            cells.append(nbformat.v4.new_markdown_cell(f"{title}\n\n{prose}" if prose else title))
        if node.name in given:
            cells.append(nbformat.v4.new_markdown_cell(GIVEN.format(name=node.name)))
        cells.append(nbformat.v4.new_code_cell(_segment(lines, node)))
    cells += _check_cells(part)
    cells += [nbformat.v4.new_markdown_cell(FINAL_INTRO), nbformat.v4.new_code_cell("check()")]
    for i, cell in enumerate(cells):
        cell["id"] = f"cell-{i:02d}"  # fixed ids: the same file on every run
    nb = nbformat.v4.new_notebook(
        cells=cells,
        metadata={
            "kernelspec": {"display_name": "Python 3", "language": "python", "name": "python3"},
            "language_info": {"name": "python"},
            "autograder": {"homework": contract.NAME},
        },
    )
    nbformat.validate(nb)
    return nbformat.writes(nb) + "\n"


def check_call(part: str) -> str:
    """The check cell's code for a part: ``check("qkv_project", "attention_scores")``."""
    names = [name for name, (p, _) in contract.FUNCTIONS.items() if p == part]
    return "check(" + ", ".join(f'"{name}"' for name in names) + ")"


def _check_cells(part: str | None) -> list:
    if part is None or not any(p == part for p, _ in contract.FUNCTIONS.values()):
        return []
    return [nbformat.v4.new_code_cell(check_call(part))]


def _section(lines: list[str], lineno: int) -> str:
    """The part of the reference's last ``# Part X: ...`` section comment before line ``lineno``."""
    for line in reversed(lines[: lineno - 1]):
        found = re.match(r"# Part ([A-Z]):", line)
        if found and found[1] in contract.PARTS:
            return found[1]
        if found:
            raise NotebookError(f"the solution's `# Part {found[1]}:` section (before line {lineno}) is no part of "
                                f"PARTS in homework.py: add it there, with its title")
    raise NotebookError(f"line {lineno} of the solution comes before any `# Part X: ...` section comment")


def _is_import(node: ast.stmt) -> bool:
    if isinstance(node, ast.ImportFrom):
        return node.module != "__future__"  # only valid at the top of a file: a notebook does without
    return isinstance(node, ast.Import)


def _segment(lines: list[str], node: ast.stmt) -> str:
    first = min([node.lineno, *(d.lineno for d in getattr(node, "decorator_list", []))])
    return "\n".join(lines[first - 1 : node.end_lineno])
