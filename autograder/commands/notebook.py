"""attention.ipynb: the student code as a notebook, one cell per function, a check at the end of each part.

Per part: an introduction with the worksheets' formulas, one code cell per function (code without
solution blocks, the given ``AttentionLayer``, gets a "given code" note), and a one-line check cell,
``check("qkv_project", "attention_scores")``, that runs that part's public tests on the functions
defined in the notebook and prints a short summary (``test_attention.run_checks``). The last cell
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


INTRO = """\
# Homework: transformer attention in numpy

Implement every function below that raises `NotImplementedError`; its message is a hint naming \
the worksheet question (CS 189 Discussions 10 and 11, CSCI 5922 PS4). Rows are tokens everywhere: \
`X` has shape `(..., N, D)`, where `...` is any number of leading batch/head axes (possibly none). \
Use only numpy and the Python standard library, keep every name and signature, never modify an \
input array, and leave the given `AttentionLayer` as it is.

**Check** your work with the `check(...)` cell at the end of each part: it runs that part's public \
tests (`test_attention.py`, which needs {support}: keep them next to this notebook; on Colab, upload \
them) on the functions defined *in this notebook* and prints a short summary; `check(..., \
verbose=True)` shows every failing test's full feedback. After editing a function, re-run its cell, \
then the check. It needs `pytest` (`pip install pytest`). A failing test says what was compared, \
where it differs and, when it recognises one, the likely mistake. The last cell checks everything.

**Submit** this notebook as `attention.ipynb`, on its own: if your upload also contains an \
`attention.py`, that file is graded instead. Scratch cells are fine: the autograder runs the code \
cells in order, skips (and mentions) a cell that fails, and the checks do nothing outside Jupyter."""

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

CHECK_INTRO = """\
**Checks.** Run the next cell once: it defines `check`, which the last cell of each part calls."""

CHECK_DEFINITION = """\
# check("softmax") runs softmax's public tests on the code defined in THIS notebook and prints a summary.
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
              "Put the homework's test files next to attention.ipynb: " + ", ".join(CHECK_FILES) + ".\\n"
              "On Colab: open the Files panel (folder icon, left) and upload them, or run\\n"
              "    from google.colab import files; files.upload()\\n"
              "then run this cell again.")
        return
    if str(Path.cwd()) not in sys.path:
        sys.path.insert(0, str(Path.cwd()))
    sys.modules["attention"] = sys.modules["__main__"]  # the tests `import attention`: this notebook
    sys.modules.pop("test_attention", None)  # re-read the tests, and this notebook's functions, every time
    try:
        import test_attention
    except ImportError as error:
        print(f"Cannot check: {{error}}. Install what is missing (`pip install numpy pytest`), then run this again.")
        return
    test_attention.run_checks(*functions, verbose=verbose)"""

FINAL_INTRO = """\
## Check everything

Run every cell above first (after a change, re-run the changed cell), then this one."""


def notebook(student: str, reference: str, support: list[str], given: set[str]) -> str:
    """The notebook (nbformat v4 JSON) of the student code ``student``; ``support`` are the files the
    checks need beside it (the public tests first), ``given`` the names kept whole (given code)."""
    tree = ast.parse(student)
    lines = student.splitlines()
    imports = [_segment(lines, node) for node in tree.body if _is_import(node)]
    shown = [f"`{name}`" for name in support if name != "test_attention.py"]
    intro = INTRO.format(support=", ".join(shown[:-1]) + " and " + shown[-1])
    check_cell = CHECK_DEFINITION.format(files=repr(tuple(support)))
    cells = [nbformat.v4.new_markdown_cell(intro), nbformat.v4.new_code_cell("\n".join(imports)),
             nbformat.v4.new_markdown_cell(CHECK_INTRO), nbformat.v4.new_code_cell(check_cell)]
    part = None
    for node in tree.body[1:]:  # after the module docstring
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            continue
        if not isinstance(node, (ast.FunctionDef, ast.ClassDef)):
            raise NotebookError(f"student attention.py line {node.lineno}: only imports, functions and classes")
        node_part = _section(lines, node.lineno)
        if node.name in contract.FUNCTIONS and contract.FUNCTIONS[node.name][0] != node_part:
            raise NotebookError(f"{node.name} is in the reference's Part {node_part} section, not its contract part")
        if node_part != part:
            cells += _check_cells(part)
            part = node_part
            title = f"## Part {part}: {contract.PARTS[part]}"
            cells.append(nbformat.v4.new_markdown_cell(f"{title}\n\n{PART_INTROS[part]}"))
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
    raise NotebookError(f"line {lineno} of the reference comes before any `# Part X: ...` section comment")


def _is_import(node: ast.stmt) -> bool:
    if isinstance(node, ast.ImportFrom):
        return node.module != "__future__"  # only valid at the top of a file: a notebook does without
    return isinstance(node, ast.Import)


def _segment(lines: list[str], node: ast.stmt) -> str:
    first = min([node.lineno, *(d.lineno for d in getattr(node, "decorator_list", []))])
    return "\n".join(lines[first - 1 : node.end_lineno])
