"""``python -m autograder template [--check]``: generate the student files from reference/attention.py.

One source of truth: signatures and docstrings live in ``reference/attention.py`` only.
This command writes, in ``student_template/``:

  attention.py           the reference with every ``# BEGIN SOLUTION hint: ...`` ... ``# END SOLUTION``
                         block replaced by ``raise NotImplementedError("<hint>")`` (code without
                         markers, such as the given AttentionLayer, is kept whole)
  attention.ipynb        the same code as a notebook: per part an introduction, one code cell per
                         function, and a last cell that runs the public tests on the notebook
  attention_feedback.py  a verbatim copy of autograder/feedback/compare.py, plus the modules it imports
                         relatively (feedback_format.py), under their own names

and, in the repository's ``README.md``, the points table (``readme.py``, from ``contract.POINTS``).

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

import nbformat

from autograder import contract
from autograder.commands import readme

REPO = Path(__file__).resolve().parents[2]
REFERENCE = REPO / "reference" / "attention.py"
FEEDBACK = REPO / "autograder" / "feedback" / "compare.py"
OUT = REPO / "student_template"
PYPROJECT = REPO / "pyproject.toml"
README = REPO / "README.md"
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
            print(f"student_template/ and the README's points table are up to date ({', '.join(files)})")
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
    return files | {README.relative_to(REPO).as_posix(): readme.render(README)}


def stale_files(files: dict[str, bytes] | None = None) -> list[str]:
    """The generated files (repository-relative paths) whose stored bytes are not what ``template`` writes."""
    files = generated_files() if files is None else files
    return [path for path, data in files.items() if not _same_bytes(REPO / path, data)]


def render() -> dict[str, bytes]:
    """Every generated file of student_template/ (name -> bytes), built in memory."""
    reference = REFERENCE.read_text(encoding="utf-8")
    student = student_source(reference)
    files = {"attention.py": student, "attention.ipynb": notebook(student, reference)}
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


# ----------------------------------------------------------------------------
# attention.ipynb: the same code, one cell per function, with the worksheets' ideas
# ----------------------------------------------------------------------------

INTRO = """\
# Homework: transformer attention in numpy

Implement every function below that raises `NotImplementedError`; its message is a hint naming \
the worksheet question (CS 189 Discussions 10 and 11, CSCI 5922 PS4). Rows are tokens everywhere: \
`X` has shape `(..., N, D)`, where `...` is any number of leading batch/head axes (possibly none). \
Use only numpy and the Python standard library, keep every name and signature, never modify an \
input array, and leave the given `AttentionLayer` as it is.

**Test** with the last cell. It runs the public tests (`test_attention.py`, which needs \
{support}: keep them next to this notebook) on the functions defined *in this notebook*: it \
registers the notebook as the module `attention` that the tests import, so nothing needs copying \
into `attention.py`. After editing a function, re-run its cell, then the last cell. It needs \
`pytest` (`pip install pytest`). A failing test says what was compared, where it differs and, \
when it recognises one, the likely mistake.

**Submit** this notebook as `attention.ipynb`, on its own: if your upload also contains an \
`attention.py`, that file is graded instead. Scratch cells are fine: the autograder runs the code \
cells in order, skips (and mentions) a cell that fails, and the test cell does nothing outside Jupyter."""

PART_INTROS: dict[str, str] = {
    "A": r"""Each token $x_n$ (a row of $X$) is projected to a query, a key and a value,
$$q_n = W_Q^\top x_n, \qquad k_n = W_K^\top x_n, \qquad v_n = W_V^\top x_n .$$
With one token per row this is $Q = X W_Q$, $K = X W_K$, $V = X W_V$ for all tokens at once
(Dis 10 Q1 a, d). The score of query $i$ against key $j$ is $z_{ij} = q_i^\top k_j$, the $(i, j)$
entry of $Q K^\top$ (Dis 10 Q1 b, e). Keep the leading `...` axes: transpose only the last two.""",
    "B": r"""The softmax turns each row of scores into weights that are positive and sum to 1
(Dis 10 Q1 c, f):
$$a_{ij} = \frac{\exp(z_{ij} / T)}{\sum_{j'} \exp(z_{ij'} / T)} .$$
Subtracting each row's maximum first changes nothing mathematically but keeps `exp` from
overflowing on large logits. A score of $-\infty$ gets weight $e^{-\infty} = 0$ (Dis 11 Q2 b);
a row that is entirely $-\infty$ gives zeros, not NaN. The temperature $T$ sharpens the weights
($T \to 0$: one-hot at the maximum) or flattens them ($T \to \infty$: uniform) (Dis 11 Q2 c).""",
    "C": r"""For $q, k \in \mathbb{R}^{d_k}$ with independent standard normal entries,
$\operatorname{Var}(q^\top k) = d_k$, so the scores are scaled by $1/\sqrt{d_k}$ to keep the
softmax from saturating (Dis 10 Q2):
$$\operatorname{Attention}(Q, K, V) = \operatorname{softmax}\!\left(\frac{Q K^\top}{\sqrt{d_k}}\right) V .$$
A boolean mask says which keys each query may attend to (True = may attend); the other scores
become $-\infty$ before the softmax. The causal mask lets token $i$ see tokens $j \le i$
(Dis 11 Q2 b). With more keys than queries it is aligned bottom-right: query $i$ sees key $j$
iff $j \le i + (n_k - n_q)$, so the last query, the newest token, sees every key.""",
    "D": r"""$H$ heads attend in parallel, each in its own subspace (PS4 Q2 c). Head $h$ uses
columns $[h\,d_k, (h+1)\,d_k)$ of $W_Q$ and $W_K$ and columns $[h\,d_v, (h+1)\,d_v)$ of $W_V$:
$$\text{head}_h = \operatorname{Attention}\big(X W_Q^{(h)}, X W_K^{(h)}, X W_V^{(h)}\big), \qquad
\operatorname{MHA}(X) = \big[\text{head}_0, \dots, \text{head}_{H-1}\big]\, W_O .$$
Each head is scaled by $1/\sqrt{d_k}$ with its own width $d_k$ (not $D$); all heads share the mask.""",
    "E": r"""Attention alone ignores word order. Rotary embeddings rotate each query and key by an
angle proportional to its position (Dis 11 Q1 c):
$$\operatorname{RoPE}(x_n, n) = R(n\theta)\, x_n, \qquad
R(\alpha) = \begin{pmatrix} \cos\alpha & -\sin\alpha \\ \sin\alpha & \cos\alpha \end{pmatrix},$$
so that $\operatorname{RoPE}(x, m)^\top \operatorname{RoPE}(y, n) = x^\top R\big((n - m)\theta\big)\, y$
depends only on the relative position $n - m$. For $d > 2$, coordinates $(2i, 2i+1)$ form a pair
rotated with its own frequency $\theta_i = \text{base}^{-2i/d}$, $i = 0, \dots, d/2 - 1$.
Positions may be any real numbers.""",
    "F": r"""A decoder produces one token at a time, and token $n$ attends to tokens $0, \dots, n$
(Dis 11 Q3). Without a cache, step $n$ recomputes the keys and values of all tokens so far; a KV
cache keeps them, so that each token is projected once:
$$\underbrace{\sum_{n=1}^{N} n = \frac{N(N+1)}{2}}_{\text{key projections without a cache}} \qquad
\text{versus} \qquad \underbrace{N}_{\text{with a KV cache}} .$$
The given `AttentionLayer` projects one token per call and counts the calls, as the grader does.
`generate_cached` and `generate_naive` must both equal causal `scaled_dot_product_attention` of
the whole sequence.""",
}

GIVEN = "**Given code** (not graded): run this cell as it is; do not edit `{name}`."

TESTS_INTRO = """\
## Run the public tests

Run every cell above first (after a change, re-run the changed cell), then this one."""

TEST_CELL = """\
# Runs test_attention.py on the functions defined in THIS notebook. Outside Jupyter it does nothing.
import sys

if "ipykernel" in sys.modules:
    import pytest

    sys.modules["attention"] = sys.modules["__main__"]  # the tests `import attention`: this notebook
    sys.modules.pop("test_attention", None)  # re-read the tests on every run
    pytest.main(["-q", "-p", "no:cacheprovider", "test_attention.py"])"""


def notebook(student: str, reference: str) -> str:
    """The notebook (nbformat v4 JSON): intro, imports, per part an introduction and its functions, tests.

    Parts follow the reference's ``# Part X: ...`` section comments; code without solution
    blocks (the given AttentionLayer) gets a "given code" note.
    """
    tree = ast.parse(student)
    lines = student.splitlines()
    given = given_names(reference)
    imports = [_segment(lines, node) for node in tree.body if _is_import(node)]
    support = [f"`{name}`" for name in [*feedback_copies(), "public_cases.npz"]]
    intro = INTRO.format(support=", ".join(support[:-1]) + " and " + support[-1])
    cells = [nbformat.v4.new_markdown_cell(intro), nbformat.v4.new_code_cell("\n".join(imports))]
    part = None
    for node in tree.body[1:]:  # after the module docstring
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            continue
        if not isinstance(node, (ast.FunctionDef, ast.ClassDef)):
            raise TemplateError(f"student attention.py line {node.lineno}: only imports, functions and classes")
        node_part = _section(lines, node.lineno)
        if node.name in contract.FUNCTIONS and contract.FUNCTIONS[node.name][0] != node_part:
            raise TemplateError(f"{node.name} is in the reference's Part {node_part} section, not its contract part")
        if node_part != part:
            part = node_part
            title = f"## Part {part}: {contract.PARTS[part]}"
            cells.append(nbformat.v4.new_markdown_cell(f"{title}\n\n{PART_INTROS[part]}"))
        if node.name in given:
            cells.append(nbformat.v4.new_markdown_cell(GIVEN.format(name=node.name)))
        cells.append(nbformat.v4.new_code_cell(_segment(lines, node)))
    cells += [nbformat.v4.new_markdown_cell(TESTS_INTRO), nbformat.v4.new_code_cell(TEST_CELL)]
    for i, cell in enumerate(cells):
        cell["id"] = f"cell-{i:02d}"  # fixed ids: the same file on every run
    nb = nbformat.v4.new_notebook(
        cells=cells,
        metadata={
            "kernelspec": {"display_name": "Python 3", "language": "python", "name": "python3"},
            "language_info": {"name": "python"},
        },
    )
    nbformat.validate(nb)
    return nbformat.writes(nb) + "\n"


def given_names(reference: str) -> set[str]:
    """Top-level functions and classes of the reference that hold no solution block (kept whole)."""
    starts = [block.begin + 1 for block in solution_blocks(reference)]  # 1-based, like ast
    return {
        node.name
        for node in ast.parse(reference).body
        if isinstance(node, (ast.FunctionDef, ast.ClassDef))
        and not any(node.lineno <= line <= (node.end_lineno or node.lineno) for line in starts)
    }


def _section(lines: list[str], lineno: int) -> str:
    """The part of the reference's last ``# Part X: ...`` section comment before line ``lineno``."""
    for line in reversed(lines[: lineno - 1]):
        found = re.match(r"# Part ([A-Z]):", line)
        if found and found[1] in contract.PARTS:
            return found[1]
    raise TemplateError(f"line {lineno} of the reference comes before any `# Part X: ...` section comment")


def _is_import(node: ast.stmt) -> bool:
    if isinstance(node, ast.ImportFrom):
        return node.module != "__future__"  # only valid at the top of a file: a notebook does without
    return isinstance(node, ast.Import)


def _segment(lines: list[str], node: ast.stmt) -> str:
    first = min([node.lineno, *(d.lineno for d in getattr(node, "decorator_list", []))])
    return "\n".join(lines[first - 1 : node.end_lineno])


def _same_bytes(path: Path, data: bytes) -> bool:
    return path.is_file() and path.read_bytes() == data
