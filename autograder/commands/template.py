"""``python -m autograder template [--check]``: generate the student files from reference/attention.py.

One source of truth: signatures and docstrings live in ``reference/attention.py`` only.
This command writes, in ``student_template/``:

  attention.py           the reference with every ``# BEGIN SOLUTION hint: ...`` ... ``# END SOLUTION``
                         block replaced by ``raise NotImplementedError("<hint>")`` (code without
                         markers, such as the given AttentionLayer, is kept whole)
  attention.ipynb        the same code as a notebook (``notebook.py``): per part an introduction, one
                         code cell per function and a check cell (that part's public tests, summarised)
  attention_feedback.py  a verbatim copy of autograder/feedback/compare.py, plus the modules it imports
                         relatively (feedback_format.py), under their own names

and, in the repository's ``README.md``, the points table (``readme.py``, from ``contract.POINTS``), and
``autograder/suite/graded/oracle.py``: the reference without its markers and docstring, the grader's own
correct functions (served to probes, and the answers of a probe's rewritten case; never run in the worker).

``test_attention.py`` and ``README.md`` there are written by hand; ``public_cases.npz`` comes
from ``python -m autograder regen``. ``--check`` builds everything in memory and exits 1,
listing the stale files, without writing. The output is byte-identical on every run.
"""

from __future__ import annotations

import argparse
import ast
import re
from dataclasses import dataclass
from pathlib import Path

from autograder.commands import notebook, readme

REPO = Path(__file__).resolve().parents[2]
REFERENCE = REPO / "reference" / "attention.py"
FEEDBACK = REPO / "autograder" / "feedback" / "compare.py"
OUT = REPO / "student_template"
PYPROJECT = REPO / "pyproject.toml"
README = REPO / "README.md"
ORACLE = "autograder/suite/graded/oracle.py"  # repository-relative, like every generated path
MARKER = re.compile(r"^\s*#\s*(BEGIN|END)\s+SOLUTION")  # anything that looks like a marker...
BEGIN = re.compile(r"^(?P<indent> *)# BEGIN SOLUTION hint: (?P<hint>\S.*?)\s*$")  # ...must be exactly one
END = re.compile(r"^(?P<indent> *)# END SOLUTION\s*$")


class TemplateError(Exception):
    """The reference cannot be turned into a template (unbalanced markers, missing hint, ...)."""


def main(argv: list[str]) -> int:
    description = "Generate student_template/ from reference/attention.py."
    parser = argparse.ArgumentParser(prog="autograder template", description=description)
    parser.add_argument("--check", action="store_true", help="exit 1 if a generated file is stale (writes nothing)")
    args = parser.parse_args(argv)
    files = generated_files()
    stale = stale_files(files)
    if args.check:
        for path in stale:
            print(f"stale: {path} (run `autograder template`)")
        if not stale:
            print(f"student_template/, the README's points table and the oracle are up to date ({', '.join(files)})")
        return 1 if stale else 0
    OUT.mkdir(exist_ok=True)
    for path, data in files.items():
        if path in stale:
            (REPO / path).write_bytes(data)
        print(f"{'wrote' if path in stale else 'unchanged'} {path}")
    return 0


def generated_files() -> dict[str, bytes]:
    """Every file this command writes (repository-relative path -> bytes), built in memory."""
    files = {f"{OUT.relative_to(REPO).as_posix()}/{name}": data for name, data in render().items()}
    return files | {README.relative_to(REPO).as_posix(): readme.render(README),
                    ORACLE: oracle_source(REFERENCE.read_text(encoding="utf-8"))}


ORACLE_HEADER = '''"""The grader's oracle: GENERATED from reference/attention.py by `python -m autograder template`
(do not edit).

The graded suite computes with it only what no stored case holds: the answers of a dependency it serves
to a probe (``Student.call_served``) and the expected output of a probe's rewritten input. It runs in
the grader only, never in the worker; like the stored outputs, it is unreadable to student code.
"""

'''


def oracle_source(reference: str) -> bytes:
    """autograder/suite/graded/oracle.py: the reference without its solution markers and module docstring."""
    lines = [line for line in reference.splitlines(keepends=True) if not MARKER.match(line)]
    body = "".join(lines).split('"""', 2)[2].lstrip("\n")
    return (ORACLE_HEADER + body).encode("utf-8")


def stale_files(files: dict[str, bytes] | None = None) -> list[str]:
    """The generated files (repository-relative paths) whose stored bytes are not what ``template`` writes."""
    files = generated_files() if files is None else files
    return [path for path, data in files.items() if not _same_bytes(REPO / path, data)]


def render() -> dict[str, bytes]:
    """Every generated file of student_template/ (name -> bytes), built in memory."""
    reference = REFERENCE.read_text(encoding="utf-8")
    student = student_source(reference)
    support = ["test_attention.py", *feedback_copies(), "public_cases.npz"]
    files = {"attention.py": student,
             "attention.ipynb": notebook.notebook(student, reference, support, given_names(reference))}
    files = {name: text.encode("utf-8") for name, text in files.items()}
    return files | {name: path.read_bytes() for name, path in feedback_copies().items()}


def feedback_copies() -> dict[str, Path]:
    """attention_feedback.py <- autograder/feedback/compare.py, and each module it imports as ``from .x import``."""
    copies = {"attention_feedback.py": FEEDBACK}
    for module in re.findall(r"^\s*from \.(\w+) import", FEEDBACK.read_text(encoding="utf-8"), re.MULTILINE):
        copies[f"{module}.py"] = FEEDBACK.with_name(f"{module}.py")
    return copies


# ----------------------------------------------------------------------------
# attention.py: the reference without its solutions
# ----------------------------------------------------------------------------


@dataclass(frozen=True)
class Block:
    """One solution block: 0-based line numbers of its two markers, their indentation, the hint."""

    begin: int
    end: int
    indent: str
    hint: str


def solution_blocks(source: str) -> list[Block]:
    """The solution blocks of ``source``; raises TemplateError on any malformed or unbalanced marker."""
    blocks: list[Block] = []
    open_at: tuple[int, re.Match] | None = None
    for i, line in enumerate(source.splitlines()):
        if not MARKER.match(line):
            continue
        where = f"reference/attention.py line {i + 1}"
        begin, end = BEGIN.match(line), END.match(line)
        if begin:
            if open_at:
                raise TemplateError(f"{where}: BEGIN SOLUTION inside the block opened on line {open_at[0] + 1}")
            open_at = (i, begin)
        elif end:
            if not open_at:
                raise TemplateError(f"{where}: END SOLUTION without a BEGIN SOLUTION")
            start, match = open_at
            if match["indent"] != end["indent"]:
                raise TemplateError(f"{where}: END SOLUTION indented unlike its BEGIN (line {start + 1})")
            if i == start + 1:
                raise TemplateError(f"{where}: empty solution block")
            if not match["indent"]:
                raise TemplateError(f"{where}: a solution block must be inside a function")
            blocks.append(Block(start, i, match["indent"], match["hint"]))
            open_at = None
        else:
            raise TemplateError(f"{where}: malformed marker {line.strip()!r}; write `# BEGIN SOLUTION hint: <hint>`")
    if open_at:
        raise TemplateError(f"reference/attention.py line {open_at[0] + 1}: BEGIN SOLUTION is never closed")
    if not blocks:
        raise TemplateError("reference/attention.py has no solution blocks")
    return blocks


def student_source(reference: str) -> str:
    """The template's source: each solution block becomes a ``raise NotImplementedError(hint)``."""
    lines = reference.splitlines(keepends=True)
    out: list[str] = []
    position = 0
    for block in solution_blocks(reference):
        out += lines[position : block.begin]
        out += raise_lines(block.indent, block.hint)
        position = block.end + 1
    out += lines[position:]
    source = _student_docstring("".join(out))
    compile(source, "student_template/attention.py", "exec")
    return source


def line_length() -> int:
    """ruff's line length (pyproject.toml), which the generated attention.py respects."""
    found = re.search(r"^line-length\s*=\s*(\d+)", PYPROJECT.read_text(encoding="utf-8"), re.MULTILINE)
    return int(found[1]) if found else 88  # ruff's default


def raise_lines(indent: str, hint: str, width: int | None = None) -> list[str]:
    """``raise NotImplementedError("hint")``, wrapped into implicitly joined strings if too long."""
    width = width or line_length()
    line = f"{indent}raise NotImplementedError({_literal(hint)})\n"
    if len(line) - 1 <= width:
        return [line]
    inner = indent + "    "
    pieces, current = [], ""
    for word in re.findall(r"\S+\s*", hint):  # each piece keeps its trailing space: they join back to hint
        if current and len(inner) + len(_literal(current + word)) > width:
            pieces.append(current)
            current = ""
        current += word
    pieces.append(current)
    return [f"{indent}raise NotImplementedError(\n", *(f"{inner}{_literal(p)}\n" for p in pieces), f"{indent})\n"]


def _literal(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


STUDENT_NOTES = """\
This is your file. Replace each ``raise NotImplementedError(...)`` by your code; its
message is a hint naming the worksheet question. Use only numpy and the Python
standard library, keep every name and signature, never modify an input array, and
leave the given ``AttentionLayer`` as it is.

Run the public tests from this folder with ``python -m pytest -q``: a failing test
says what was compared, where it differs and, when it recognises one, the likely
mistake. Then submit this file (or attention.ipynb if you work in the notebook)."""


def _student_docstring(source: str) -> str:
    """Replace the module docstring: 'your solution', no word about markers, how to test."""
    tree = ast.parse(source)
    doc = ast.get_docstring(tree, clean=True)
    first = tree.body[0]
    if doc is None or first.lineno != 1:
        raise TemplateError("reference/attention.py must start with its module docstring")
    title, *paragraphs = doc.split("\n\n")
    if "the reference solution" not in title:
        raise TemplateError("the docstring's first line must say 'the reference solution' (-> 'your solution')")
    kept = [p for p in paragraphs if "SOLUTION" not in p]
    if len(kept) == len(paragraphs):
        raise TemplateError("the docstring no longer explains the solution markers: update template.py")
    text = "\n\n".join([title.replace("the reference solution", "your solution"), *kept, STUDENT_NOTES])
    if '"""' in text or "\\" in text:
        raise TemplateError('the module docstring must not contain """ or backslashes')
    rest = source.splitlines(keepends=True)[first.end_lineno :]
    return f'"""{text}\n"""\n' + "".join(rest)


def given_names(reference: str) -> set[str]:
    """Top-level functions and classes of the reference that hold no solution block (kept whole)."""
    starts = [block.begin + 1 for block in solution_blocks(reference)]  # 1-based, like ast
    return {
        node.name
        for node in ast.parse(reference).body
        if isinstance(node, (ast.FunctionDef, ast.ClassDef))
        and not any(node.lineno <= line <= (node.end_lineno or node.lineno) for line in starts)
    }


def _same_bytes(path: Path, data: bytes) -> bool:
    return path.is_file() and path.read_bytes() == data
