"""Submissions our tests grade: the reference in other clothes, and how students package it.

Correct solutions must get full marks whatever their style, so besides the reference
itself we grade it as a notebook full of scratch cells (magics, shell lines, a
failing import, a syntax error, a cell that raises), computed in float32, and
written with einsum.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import nbformat

REPO = Path(__file__).resolve().parent.parent
REFERENCE = REPO / "reference" / "attention.py"
TEMPLATE = REPO / "student_template" / "attention.py"

SCRATCH_CELLS = [
    "%matplotlib inline\nimport numpy as np, matplotlib_missing_on_the_grader as plt",
    "!pip install numpy\nx = np.arange(6).reshape(2, 3)\nprint(x @ x.T)",
    "print(undefined_name)  # raises NameError; later cells must still run",
    "def broken(:\n    pass  # a syntax error: this cell is skipped",
    "softmax(np.array([1.0, 2.0]), axis=5)  # raises inside the student's own function",
]


def top_level_blocks(source: str) -> list[str]:
    """Split a module into its top-level statements' source (decorators and comments kept)."""
    lines = source.splitlines(keepends=True)
    tree = ast.parse(source)
    starts = [min([node.lineno, *(d.lineno for d in getattr(node, "decorator_list", []))]) for node in tree.body]
    ends = [*starts[1:], len(lines) + 1]
    return ["".join(lines[a - 1 : b - 1]).strip("\n") for a, b in zip(starts, ends)]


def notebook_from_source(source: str, *, scratch: bool = False) -> str:
    """A v4 notebook with one code cell per top-level statement of ``source``.

    With ``scratch``, a markdown cell and the SCRATCH_CELLS are interleaved, as in a
    real student's notebook.
    """
    cells = [nbformat.v4.new_markdown_cell("# Homework: attention in numpy")]
    blocks = top_level_blocks(source)
    for i, block in enumerate(blocks):
        cells.append(nbformat.v4.new_code_cell(block))
        if scratch and i < len(SCRATCH_CELLS) and i > 0:
            cells.append(nbformat.v4.new_code_cell(SCRATCH_CELLS[i - 1]))
    if scratch:
        cells += [nbformat.v4.new_code_cell(cell) for cell in SCRATCH_CELLS[len(blocks) - 1 :]]
    notebook = nbformat.v4.new_notebook(cells=cells)
    for i, cell in enumerate(notebook.cells):
        cell["id"] = f"cell-{i}"
    return nbformat.writes(notebook)


def float32_source() -> str:
    """The reference computing in float32: every array argument is cast down on entry."""
    return REFERENCE.read_text() + '''

def _in_float32(fn):
    import functools

    @functools.wraps(fn)
    def wrapper(*args, **kwargs):
        cast = lambda a: a.astype(np.float32) if isinstance(a, np.ndarray) and a.dtype.kind == "f" else a
        return fn(*map(cast, args), **{k: cast(v) for k, v in kwargs.items()})

    return wrapper


for _name in ["qkv_project", "attention_scores", "softmax", "scaled_dot_product_attention",
              "multi_head_attention", "rope"]:
    globals()[_name] = _in_float32(globals()[_name])
'''


def einsum_source() -> str:
    """The reference with its matrix products written as einsum."""
    source = REFERENCE.read_text()
    replacements = {
        "return X @ W_Q, X @ W_K, X @ W_V": (
            'return (np.einsum("...nd,de->...ne", X, W_Q), np.einsum("...nd,de->...ne", X, W_K),\n'
            '            np.einsum("...nd,de->...ne", X, W_V))'
        ),
        "return Q @ np.swapaxes(K, -1, -2)": 'return np.einsum("...id,...jd->...ij", Q, K)',
        "return weights @ V, weights": 'return np.einsum("...ij,...jd->...id", weights, V), weights',
    }
    for old, new in replacements.items():
        assert source.count(old) == 1, old
        source = source.replace(old, new)
    return source


def strip_solutions(source: str) -> str:
    """Remove solution blocks (used to check a test really depends on them)."""
    return re.sub(r"# BEGIN SOLUTION.*?# END SOLUTION", "raise NotImplementedError", source, flags=re.S)
