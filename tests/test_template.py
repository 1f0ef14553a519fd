"""The student template is generated from the reference, is fresh, and gives nothing away.

One source of truth: signatures and docstrings live in reference/attention.py; the
template's attention.py and attention.ipynb are generated from it (``python -m
autograder template``) and these tests fail when the committed files are stale.
"""

from __future__ import annotations

import ast
import importlib.util
import inspect
import re
import sys
from pathlib import Path

import nbformat
import pytest

from autograder import contract
from autograder.commands import notebook as notebook_module
from autograder.commands import template
from autograder.commands.template import TemplateError, raise_lines, solution_blocks
from tests.homework_copy import autograder, copy_repo

REPO = Path(__file__).resolve().parent.parent
REFERENCE = REPO / "reference" / "attention.py"
STUDENT = REPO / "student_template"
NAMES = [*contract.FUNCTIONS, "AttentionLayer"]
# Solution lines that may appear in the template anyway: blank, or pure syntax with no idea in it.
TRIVIAL = {"", "else:", "pass", "return out", ")", "]", "}"}
# Numbers from the worksheets' worked examples: hidden-test material, never in student files.
WORKSHEET_NUMBERS = ["0.00247", "0.99753", "6.90", "7.94", "0.067", "[2, 8, -20]", "[-1, 0, -2]", "1.17", "0.21"]


def load(path: Path, name: str):
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def ref():
    return load(REFERENCE, "_reference_attention_for_template_tests")


@pytest.fixture(scope="module")
def student():
    return load(STUDENT / "attention.py", "_student_attention_for_template_tests")


def members(obj) -> dict[str, object]:
    """A class's own methods and properties (or the function itself), by qualified name."""
    if not inspect.isclass(obj):
        return {obj.__name__: obj}
    found = {obj.__name__: obj}
    for name, member in vars(obj).items():
        if inspect.isfunction(member) or isinstance(member, property):
            found[f"{obj.__name__}.{name}"] = member.fget if isinstance(member, property) else member
    return found


def hints_by_function(source: str) -> dict[str, str]:
    """Qualified name of the function holding each solution block -> its hint."""
    found = {}

    def visit(node: ast.AST, prefix: str) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, (ast.FunctionDef, ast.ClassDef)):
                name = f"{prefix}{child.name}"
                for block in solution_blocks(source):
                    if isinstance(child, ast.FunctionDef) and child.lineno <= block.begin + 1 <= child.end_lineno:
                        found.setdefault(name, block.hint)
                visit(child, name + ".")

    visit(ast.parse(source), "")
    return found


# ----------------------------------------------------------------------------
# Freshness and determinism
# ----------------------------------------------------------------------------


def test_template_check_passes_on_the_committed_tree(capsys):
    assert template.main(["--check"]) == 0, capsys.readouterr().out


def test_template_check_lists_a_stale_file_and_writes_nothing(tmp_path):
    copy = copy_repo(tmp_path / "repo")
    (copy / "student_template" / "attention.ipynb").write_text("{}")
    readme = (copy / "README.md").read_text().replace("| | **total** |", "| | **total (by hand)** |")
    (copy / "README.md").write_text(readme)
    done = autograder(copy, "template", "--check")
    assert done.returncode == 1
    assert "stale: student_template/attention.ipynb" in done.stdout and "stale: README.md" in done.stdout
    assert (copy / "student_template" / "attention.ipynb").read_text() == "{}"
    assert autograder(copy, "template").returncode == 0 and autograder(copy, "template", "--check").returncode == 0
    assert "total (by hand)" not in (copy / "README.md").read_text()


def test_rendering_twice_gives_the_same_bytes():
    assert template.render() == template.render()


def test_feedback_is_copied_verbatim_with_the_homeworks_tolerance_and_sentences():
    copied = (STUDENT / "attention_feedback.py").read_bytes()
    assert copied.startswith(template.FEEDBACK.read_bytes().rstrip(b"\n") + b"\n")
    for name, source in template.feedback_copies().items():
        if name != "attention_feedback.py":
            assert (STUDENT / name).read_bytes() == source.read_bytes(), name
    spec = importlib.util.spec_from_file_location("attention_feedback_copy", STUDENT / "attention_feedback.py")
    module = importlib.util.module_from_spec(spec)
    sys.path.insert(0, str(STUDENT))
    try:
        spec.loader.exec_module(module)
    finally:
        sys.path.remove(str(STUDENT))
    assert module.MISTAKES == contract.HOMEWORK.sentences and module.MISTAKES
    assert (module.RTOL, module.ATOL) == (contract.HOMEWORK.TOLERANCE["rtol"], contract.HOMEWORK.TOLERANCE["atol"])


# ----------------------------------------------------------------------------
# attention.py: same interface, no solutions
# ----------------------------------------------------------------------------


@pytest.mark.parametrize("name", NAMES)
def test_every_contract_name_has_the_reference_signature_and_docstring(name, ref, student):
    expected, got = members(getattr(ref, name)), members(getattr(student, name))
    assert got.keys() == expected.keys()
    for qualname, member in expected.items():
        if not inspect.isclass(member):
            assert inspect.signature(got[qualname]) == inspect.signature(member), qualname
        assert inspect.getdoc(got[qualname]) == inspect.getdoc(member), qualname
        assert inspect.getdoc(member), f"{qualname} has no docstring in the reference"


def test_every_solution_raises_not_implemented_with_its_hint(student):
    hints = hints_by_function(REFERENCE.read_text())
    assert {q.split(".")[0] for q in hints} == set(contract.FUNCTIONS)
    for qualname, hint in hints.items():
        owner, _, method = qualname.partition(".")
        obj = getattr(student, owner)
        if method:
            member = inspect.getattr_static(obj, method)
            function = member.fget if isinstance(member, property) else member
            arguments = [object.__new__(obj)] + [None] * (len(inspect.signature(function).parameters) - 1)
        else:
            function = obj
            required = [p for p in inspect.signature(obj).parameters.values() if p.default is inspect.Parameter.empty]
            arguments = [None] * len(required)
        with pytest.raises(NotImplementedError) as raised:
            function(*arguments)
        assert str(raised.value) == hint, qualname


def test_no_solution_line_appears_in_the_template():
    reference = REFERENCE.read_text().splitlines()
    generated = [_code(line) for line in (STUDENT / "attention.py").read_text().splitlines()]
    for cell in nbformat.read(STUDENT / "attention.ipynb", as_version=4).cells:
        generated += [_code(line) for line in cell.source.splitlines()] if cell.cell_type == "code" else []
    for block in solution_blocks(REFERENCE.read_text()):
        for line in reference[block.begin + 1 : block.end]:
            if _code(line) not in TRIVIAL:
                assert _code(line) not in generated, f"solution line leaked into the template: {line.strip()}"


def _code(line: str) -> str:
    """The line without indentation or trailing comment (a '#' inside a string is kept: good enough here)."""
    return re.sub(r"\s+#.*$", "", line).strip()


def test_the_given_attention_layer_is_kept_whole():
    def source_of(path: Path) -> str:
        text = path.read_text()
        node = next(n for n in ast.parse(text).body if getattr(n, "name", "") == "AttentionLayer")
        return ast.get_source_segment(text, node)

    assert source_of(STUDENT / "attention.py") == source_of(REFERENCE)


def test_the_template_says_it_is_the_students_and_how_to_test():
    text = (STUDENT / "attention.py").read_text()
    doc = ast.get_docstring(ast.parse(text))
    assert doc.splitlines()[0].endswith("your solution.")
    assert "python -m pytest" in doc
    assert "SOLUTION" not in text and "reference solution" not in text


def test_student_files_hold_no_worksheet_numbers():
    for name in ("attention.py", "attention.ipynb", "test_attention.py", "README.md"):
        text = (STUDENT / name).read_text()
        for number in WORKSHEET_NUMBERS:
            assert number not in text, f"{name} contains the worksheet number {number}"


# ----------------------------------------------------------------------------
# attention.ipynb
# ----------------------------------------------------------------------------


@pytest.fixture(scope="module")
def notebook():
    nb = nbformat.read(STUDENT / "attention.ipynb", as_version=4)
    nbformat.validate(nb)
    return nb


def test_notebook_cells_are_clean_with_fixed_ids(notebook):
    assert notebook.nbformat == 4
    assert [cell.id for cell in notebook.cells] == [f"cell-{i:02d}" for i in range(len(notebook.cells))]
    for cell in notebook.cells:
        if cell.cell_type == "code":
            assert cell.outputs == [] and cell.execution_count is None


def test_notebook_code_cells_define_the_template_names(notebook, student):
    namespace: dict = {"__name__": "notebook_under_test"}
    for cell in notebook.cells:
        if cell.cell_type == "code":
            exec(compile(cell.source, "<cell>", "exec"), namespace)  # the test cell is a no-op outside Jupyter
    for name in NAMES:
        for qualname, member in members(namespace[name]).items():
            expected = members(getattr(student, name))[qualname]
            if not inspect.isclass(member):
                assert inspect.signature(member) == inspect.signature(expected), qualname
            assert inspect.getdoc(member) == inspect.getdoc(expected), qualname


def test_notebook_has_one_cell_per_function_a_check_per_part_and_an_introduction_per_part(notebook):
    code = [cell.source for cell in notebook.cells if cell.cell_type == "code"]
    assert code[0].startswith("import numpy as np")
    assert "def check(*functions, verbose=False):" in code[1] and '"ipykernel" not in sys.modules' in code[1]
    checks = [source for source in code if source.startswith("check(")]
    assert checks == [notebook_module.check_call(part) for part in contract.PARTS] + ["check()"]
    assert checks[0] == 'check("qkv_project", "attention_scores")' and checks[1] == 'check("softmax")'
    defined = [ast.parse(source).body for source in code[2:] if not source.startswith("check(")]
    assert all(len(body) == 1 for body in defined), "one function or class per code cell"
    assert [body[0].name for body in defined] == [n for n in _top_level_names() if n in NAMES]
    for part in contract.PARTS:  # each part's check comes right after its last function
        last = max(i for i, source in enumerate(code) if any(
            source.startswith((f"def {n}(", f"class {n}")) for n, (p, _) in contract.FUNCTIONS.items() if p == part))
        assert code[last + 1] == notebook_module.check_call(part)
    markdown = [cell.source for cell in notebook.cells if cell.cell_type == "markdown"]
    for part, title in contract.PARTS.items():
        intro = [text for text in markdown if text.startswith(f"## Part {part}: {title}\n")]
        assert len(intro) == 1 and notebook_module.part_intro(part) in intro[0], f"part {part} has its introduction"
    given = next(i for i, text in enumerate(markdown) if text.startswith("**Given code**"))
    assert "AttentionLayer" in markdown[given]
    assert markdown[given - 1].startswith("## Part F:"), "the given layer sits in its reference section, Part F"
    for name in template.feedback_copies():
        assert f"`{name}`" in markdown[0], "the introduction lists the files the tests need"


def _top_level_names() -> list[str]:
    return [n.name for n in ast.parse(REFERENCE.read_text()).body if isinstance(n, (ast.FunctionDef, ast.ClassDef))]


def test_the_check_cells_do_nothing_outside_jupyter(notebook, monkeypatch, capsys):
    monkeypatch.delitem(sys.modules, "ipykernel", raising=False)
    monkeypatch.setitem(sys.modules, "attention", sys.modules[__name__])
    monkeypatch.delitem(sys.modules, "test_attention", raising=False)
    namespace = {"__name__": "worker"}
    for cell in notebook.cells:
        if cell.cell_type == "code" and ("check" in cell.source):
            exec(cell.source, namespace)
    assert sys.modules["attention"] is sys.modules[__name__] and "test_attention" not in sys.modules
    assert capsys.readouterr().out == ""


# ----------------------------------------------------------------------------
# Markers: malformed reference code fails loudly
# ----------------------------------------------------------------------------

GOOD = "def f():\n    # BEGIN SOLUTION hint: h\n    return 1\n    # END SOLUTION\n"


@pytest.mark.parametrize(
    ("source", "message"),
    [
        ("def f():\n    # BEGIN SOLUTION hint: h\n    return 1\n", "never closed"),
        ("def f():\n    return 1\n    # END SOLUTION\n", "without a BEGIN"),
        ("def f():\n    # BEGIN SOLUTION\n    return 1\n    # END SOLUTION\n", "malformed marker"),
        ("def f():\n    # BEGIN SOLUTION hint:\n    return 1\n    # END SOLUTION\n", "malformed marker"),
        ("def f():\n    # BEGIN SOLUTION hint: h\n    return 1\n  # END SOLUTION\n", "indented unlike"),
        (GOOD.replace("    return 1\n", "    # BEGIN SOLUTION hint: h\n"), "inside the block"),
        ("def f():\n    # BEGIN SOLUTION hint: h\n    # END SOLUTION\n", "empty solution block"),
        ("# BEGIN SOLUTION hint: h\nx = 1\n# END SOLUTION\n", "inside a function"),
        ("def f():\n    #END SOLUTION\n", "malformed marker"),
        ("x = 1\n", "no solution blocks"),
    ],
)
def test_malformed_markers_fail_loudly(source, message):
    with pytest.raises(TemplateError, match=message):
        solution_blocks(source)


def test_a_well_formed_block_is_found():
    assert solution_blocks(GOOD) == [template.Block(1, 3, "    ", "h")]


def test_long_hints_are_wrapped_into_strings_that_join_back():
    hint = "Dis 11 Q3: a rather long hint with \"quotes\" and a back\\slash that cannot fit on one line at all"
    lines = raise_lines("        ", hint, width=60)
    assert len(lines) > 3 and all(len(line.rstrip("\n")) <= 60 for line in lines)
    namespace: dict = {}
    with pytest.raises(NotImplementedError) as raised:
        exec("def f():\n" + "".join(lines) + "f()", namespace)
    assert str(raised.value) == hint
    assert raise_lines("    ", "short", width=60) == ['    raise NotImplementedError("short")\n']
