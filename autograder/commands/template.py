"""``autograder template [--check]``: generate the student files and the grader's oracle from the homework.

One source of truth: signatures and docstrings live in the homework's solution (``<UPLOAD>.py``) only.
This command writes, in the homework's student template folder (``TEMPLATE`` in homework.py):

  <UPLOAD>.py            the solution with every ``# BEGIN SOLUTION hint: ...`` ... ``# END SOLUTION``
                         block replaced by ``raise NotImplementedError("<hint>")`` (code without
                         markers, such as a given class, is kept whole)
  <UPLOAD>.ipynb         the same code as a notebook (``notebook.py``): per part an introduction (the homework's
                         ``student/notebook/part_<X>.md``), one code cell per function and a check cell
  <UPLOAD>_feedback.py   autograder/feedback/compare.py with the homework's tolerance and sentences written in,
                         plus the modules it imports relatively (feedback_format.py), under their own names
  every file of the homework's ``student/`` (README.md, the public tests test_<UPLOAD>.py), copied

and, in the homework's README (``README`` in homework.py), the points table (``readme.py``), and the homework's
``generated/oracle.py``: the solution without its markers and docstring, the grader's own correct functions
(served to probes, and the answers of a probe's rewritten case; never run in the worker). ``public_cases.npz``
comes from ``autograder regen``. ``--check`` builds everything in memory and exits 1, listing the stale files,
without writing. The output is byte-identical on every run.
"""

from __future__ import annotations

import argparse
import ast
import pprint
import re
import textwrap
from dataclasses import dataclass
from pathlib import Path

from autograder import contract
from autograder.commands import notebook, readme
from autograder.suite import stamp

REPO = Path(__file__).resolve().parents[2]
HOMEWORK = contract.HOMEWORK
REFERENCE = HOMEWORK.solution
FEEDBACK = REPO / "autograder" / "feedback" / "compare.py"
OUT = HOMEWORK.template
PYPROJECT = REPO / "pyproject.toml"
README = HOMEWORK.readme
ORACLE = HOMEWORK.generated / "oracle.py"
UPLOAD = contract.UPLOAD
MARKER = re.compile(r"^\s*#\s*(BEGIN|END)\s+SOLUTION")  # anything that looks like a marker...
BEGIN = re.compile(r"^(?P<indent> *)# BEGIN SOLUTION hint: (?P<hint>\S.*?)\s*$")  # ...must be exactly one
END = re.compile(r"^(?P<indent> *)# END SOLUTION\s*$")


class TemplateError(Exception):
    """The reference cannot be turned into a template (unbalanced markers, missing hint, ...)."""


def main(argv: list[str]) -> int:
    description = "Generate the student template and the grader's oracle from the homework's solution."
    parser = argparse.ArgumentParser(prog="autograder template", description=description)
    parser.add_argument("--check", action="store_true", help="exit 1 if a generated file is stale (writes nothing)")
    args = parser.parse_args(argv)
    files = generated_files()
    stale = stale_files(files)
    stamped = stamp.render("template", stamp.template_inputs(), files)
    stamp_stale = stamp.stale_section("template", stamped)
    if args.check:
        for path in stale:
            print(f"stale: {path} (run `autograder template`)")
        if stamp_stale and not stale:
            print(f"stale: {HOMEWORK.relative(stamp.PATH(HOMEWORK))} (run `autograder template`)")
        if not stale and not stamp_stale:
            print(f"the student template, the README's points table and the oracle are up to date "
                  f"({', '.join(files)})")
        return 1 if stale or stamp_stale else 0
    OUT.mkdir(parents=True, exist_ok=True)
    for path, data in files.items():
        if path in stale:
            target = REPO / path
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes(data)
        print(f"{'wrote' if path in stale else 'unchanged'} {path}")
    stamp.write("template", stamped)
    return 0


def _shown(path: Path) -> str:
    return HOMEWORK.relative(path)


def generated_files() -> dict[str, bytes]:
    """Every file this command writes (path as shown, relative to the current folder when below it -> bytes)."""
    files = {_shown(OUT / name): data for name, data in render().items()}
    if README is not None:
        files[_shown(README)] = readme.render(README)
    return files | {_shown(ORACLE): oracle_source(REFERENCE.read_text(encoding="utf-8"))}


ORACLE_HEADER = '''"""The grader's oracle: GENERATED from the homework's solution by `autograder template`.

The graded suite computes with it only what no stored case holds: the answers of a dependency it serves
to a probe (``Student.call_served``) and the expected output of a probe's rewritten input. It runs in
the grader only, never in the worker; like the stored outputs, it is unreadable to student code.
"""

'''


def oracle_source(reference: str) -> bytes:
    """generated/oracle.py: the solution without its solution markers and module docstring."""
    lines = [line for line in reference.splitlines(keepends=True) if not MARKER.match(line)]
    body = "".join(lines).split('"""', 2)[2].lstrip("\n")
    return (ORACLE_HEADER + body).encode("utf-8")


def stale_files(files: dict[str, bytes] | None = None) -> list[str]:
    """The generated files (as shown) whose stored bytes are not what ``template`` writes."""
    files = generated_files() if files is None else files
    return [path for path, data in files.items() if not _same_bytes(REPO / path, data)]


def public_tests() -> str:
    """The students' public tests' file name: test_<UPLOAD>.py."""
    return f"test_{UPLOAD}.py"


def render() -> dict[str, bytes]:
    """Every generated file of the student template (name -> bytes), built in memory."""
    reference = REFERENCE.read_text(encoding="utf-8")
    student = student_source(reference)
    copied = student_files()
    support = [name for name in (public_tests(), *feedback_copies()) if name in copied or name != public_tests()]
    support += ["public_cases.npz"] if HOMEWORK.has("cases/public.py") else []
    files = {f"{UPLOAD}.py": student,
             f"{UPLOAD}.ipynb": notebook.notebook(student, reference, support, given_names(reference))}
    files = {name: text.encode("utf-8") for name, text in files.items()}
    files |= {name: path.read_bytes() for name, path in feedback_copies().items()}
    files[f"{UPLOAD}_feedback.py"] = feedback_source()
    return files | {name: path.read_bytes() for name, path in copied.items()}


def feedback_copies() -> dict[str, Path]:
    """<UPLOAD>_feedback.py <- autograder/feedback/compare.py, and each module it imports as ``from .x import``."""
    copies = {f"{UPLOAD}_feedback.py": FEEDBACK}
    for module in re.findall(r"^\s*from \.(\w+) import", FEEDBACK.read_text(encoding="utf-8"), re.MULTILINE):
        copies[f"{module}.py"] = FEEDBACK.with_name(f"{module}.py")
    return copies


FEEDBACK_TAIL = """

# ----------------------------------------------------------------------------
# This homework's tolerance and known-mistake sentences: written here by `autograder template` from the
# homework's homework.py (TOLERANCE) and sentences.py (SENTENCES).
# ----------------------------------------------------------------------------

RTOL = {rtol!r}
ATOL = {atol!r}
MISTAKES.update(
{sentences}
)
"""


def feedback_source() -> bytes:
    """The students' <UPLOAD>_feedback.py: compare.py, then the homework's tolerance and sentences."""
    sentences = textwrap.indent(pprint.pformat(dict(HOMEWORK.sentences), width=112, sort_dicts=False), "    ")
    tail = FEEDBACK_TAIL.format(rtol=float(HOMEWORK.TOLERANCE["rtol"]), atol=float(HOMEWORK.TOLERANCE["atol"]),
                                sentences=sentences)
    return FEEDBACK.read_bytes().rstrip(b"\n") + b"\n" + tail.encode("utf-8")


def student_files() -> dict[str, Path]:
    """The homework's hand-written student files (``student/``, its notebook prose left aside), by name."""
    folder = HOMEWORK.student
    if not folder.is_dir():
        return {}
    return {path.name: path for path in sorted(folder.iterdir()) if path.is_file() and not path.name.startswith(".")}


# ----------------------------------------------------------------------------
# <UPLOAD>.py: the solution without its solutions
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
        where = f"{_shown(REFERENCE)} line {i + 1}"
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
        raise TemplateError(f"{_shown(REFERENCE)} line {open_at[0] + 1}: BEGIN SOLUTION is never closed")
    if not blocks:
        raise TemplateError(f"{_shown(REFERENCE)} has no solution blocks")
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
    source = _student_docstring("".join(out), student_notes(reference))
    compile(source, f"{UPLOAD}.py", "exec")
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
message is a hint. Use only numpy and the Python standard library, keep every name and
signature, never modify an input array{given}.

Run the public tests from this folder with ``python -m pytest -q``: a failing test
says what was compared, where it differs and, when it recognises one, the likely
mistake. Then submit this file (or {upload}.ipynb if you work in the notebook)."""


def student_notes(reference: str) -> str:
    """The student file's closing notes: the given code to leave as it is, and what to submit."""
    given = sorted(given_names(reference))
    said = ", and leave the given " + " and ".join(f"``{name}``" for name in given) + " as " + (
        "it is" if len(given) == 1 else "they are") if given else ""
    return STUDENT_NOTES.format(given=said, upload=UPLOAD)


def _student_docstring(source: str, notes: str) -> str:
    """Replace the module docstring: 'your solution', no word about markers, how to test."""
    tree = ast.parse(source)
    doc = ast.get_docstring(tree, clean=True)
    first = tree.body[0]
    if doc is None or first.lineno != 1:
        raise TemplateError(f"{_shown(REFERENCE)} must start with its module docstring")
    title, *paragraphs = doc.split("\n\n")
    if "the reference solution" not in title:
        raise TemplateError("the docstring's first line must say 'the reference solution' (-> 'your solution')")
    kept = [p for p in paragraphs if "SOLUTION" not in p]
    if len(kept) == len(paragraphs):
        raise TemplateError("the docstring no longer explains the solution markers: update template.py")
    text = "\n\n".join([title.replace("the reference solution", "your solution"), *kept, notes])
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
