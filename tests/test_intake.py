"""autograder/intake/submission.py: finding the submission and parsing it, on real files in tmp_path."""

from __future__ import annotations

import json
import os
import re
from pathlib import Path

import nbformat
import pytest
from nbformat import v3, v4

from autograder.feedback import markdown
from autograder.intake import submission
from autograder.intake.source import Chunk, IntakeError, Program

GOOD = "import numpy as np\n\n\ndef softmax(Z, axis=-1, temperature=1.0):\n    return Z\n"


def write(root: Path, relative: str, content: str | bytes) -> Path:
    path = root / relative
    path.parent.mkdir(parents=True, exist_ok=True)
    if isinstance(content, bytes):
        path.write_bytes(content)
    else:
        path.write_text(content, encoding="utf-8", newline="")
    return path


def notebook(*cells: nbformat.NotebookNode) -> str:
    nb = v4.new_notebook(cells=list(cells))
    nb.metadata["kernelspec"] = {"name": "python3", "language": "python", "display_name": "Python 3"}
    return nbformat.writes(nb)


def code(source: str) -> nbformat.NotebookNode:
    return v4.new_code_cell(source)


def load_nb(tmp_path: Path, *cells: nbformat.NotebookNode) -> Program:
    return submission.load_program(write(tmp_path, "attention.ipynb", notebook(*cells)))


def load_py(tmp_path: Path, content: str | bytes) -> Program:
    return submission.load_program(write(tmp_path, "attention.py", content))


# ----------------------------------------------------------------------------- find_submission

FIND_CASES = {
    "top level": ({"attention.py": GOOD}, "attention.py", []),
    "nested": ({"hw4/code/attention.py": GOOD, "hw4/README.md": "x"}, "hw4/code/attention.py", []),
    "notebook only": ({"attention.ipynb": "{}"}, "attention.ipynb", []),
    "py beats ipynb": ({"attention.py": GOOD, "attention.ipynb": "{}"}, "attention.py", ["ignored"]),
    "py beats shallower ipynb": ({"x/attention.py": GOOD, "attention.ipynb": "{}"}, "x/attention.py", ["ignored"]),
    "nested folder with both": (
        {"hw/attention.py": GOOD, "hw/attention.ipynb": "{}"},
        "hw/attention.py",
        ["Graded `hw/attention.py`; `hw/attention.ipynb` was ignored."],
    ),
    "shallowest wins": ({"old/v1/attention.py": "", "attention.py": GOOD}, "attention.py", ["Several"]),
    "macosx and hidden junk": (
        {
            "__MACOSX/attention.py": b"\0\x05\x16\x07",
            "__MACOSX/hw/._attention.py": b"\0\x05",
            "._attention.py": b"\0\x05",
            ".ipynb_checkpoints/attention-checkpoint.ipynb": "{}",
            ".git/attention.py": "x",
            "a/b/attention.py": GOOD,
        },
        "a/b/attention.py",
        [],
    ),
    "virtualenv skipped": (
        {"venv/pyvenv.cfg": "", "venv/attention.py": "", "src/deep/attention.py": GOOD},
        "src/deep/attention.py",
        [],
    ),
    "case-insensitive name": ({"Attention.PY": GOOD}, "Attention.PY", ["named `Attention.PY`"]),
    "exact name beats a renamed copy": ({"attention (1).py": GOOD, "attention.py": GOOD}, "attention.py", []),
    "notebook beats a renamed .py copy": ({"attention (1).py": GOOD, "attention.ipynb": "{}"}, "attention.ipynb", []),
    "several renamed copies": (
        {"attention (1).py": GOOD, "attention (2).py": GOOD},
        "attention (1).py",
        ["named `attention (1).py`", "Several copies of `attention.py` were found; graded `attention (1).py`, "
         "ignored `attention (2).py`."],
    ),
}


@pytest.mark.parametrize("files, chosen, note_parts", FIND_CASES.values(), ids=FIND_CASES.keys())
def test_find_submission(tmp_path: Path, files: dict, chosen: str, note_parts: list[str]) -> None:
    for relative, content in files.items():
        write(tmp_path, relative, content)
    path, notes = submission.find_submission(tmp_path)
    assert path == tmp_path / chosen
    assert len(notes) == len(note_parts)
    for note, part in zip(notes, note_parts):
        assert part in note


@pytest.mark.parametrize(
    "name, graded_as",
    [
        ("attention (1).py", "attention.py"),
        ("attention(2).ipynb", "attention.ipynb"),
        ("attention-1.py", "attention.py"),
        ("attention_3.py", "attention.py"),
        ("Attention (12).PY", "attention.py"),
        ("hw4/attention (1).ipynb", "attention.ipynb"),
    ],
)
def test_browser_renamed_copy_is_graded_with_a_note(tmp_path: Path, name: str, graded_as: str) -> None:
    write(tmp_path, name, GOOD)
    write(tmp_path, "notes.txt", "x")
    path, notes = submission.find_submission(tmp_path)
    assert path == tmp_path / name
    shown = Path(name).name
    assert notes == [f"Your file is named `{shown}`; it was graded as `{graded_as}`. Please name it `{graded_as}`."]


@pytest.mark.parametrize(
    "name",
    ["attention_feedback.py", "feedback_format.py", "test_attention.py", "conftest.py", "attention_test.py",
     "attention (1).py.txt", ".attention.py", "__pycache__/attention.cpython-310.py",
     ".ipynb_checkpoints/hw-checkpoint.ipynb", "hw-checkpoint.ipynb"],
)
def test_our_own_files_and_test_files_are_never_graded(tmp_path: Path, name: str) -> None:
    write(tmp_path, name, GOOD)
    with pytest.raises(IntakeError, match=r"No `attention\.py` or `attention\.ipynb` in your|empty") as error:
        submission.find_submission(tmp_path)
    assert error.value.kind in ("misnamed", "missing")


def test_every_template_file_but_the_submission_is_one_of_ours() -> None:
    shipped = [p.name for p in (Path(__file__).resolve().parent.parent / "student_template").iterdir()
               if p.suffix in (".py", ".ipynb")]
    assert sorted(n for n in shipped if not submission.ours(n)) == ["attention.ipynb", "attention.py"]


@pytest.mark.parametrize(
    "name",
    ["attention copy.py", "attention_v2.py", "my attention (1).py", "attention (1)(2).py", "attention1x.py",
     "Attention.py", "hw4_final (1).ipynb", "hw/solution.py"],
)
def test_the_only_python_file_or_notebook_is_graded_whatever_its_name(tmp_path: Path, name: str) -> None:
    write(tmp_path, name, GOOD)
    write(tmp_path, "test_attention.py", "def test_x(): pass\n")
    write(tmp_path, "attention_feedback.py", GOOD)
    write(tmp_path, "README.md", "x")
    path, notes = submission.find_submission(tmp_path)
    assert path == tmp_path / name
    proper = "attention" + Path(name).suffix
    assert notes == [f"Your file is named `{Path(name).name}`; it was graded as `{proper}`. Please name it `{proper}`."]


def test_among_several_files_the_one_defining_the_contract_is_graded(tmp_path: Path) -> None:
    names = ("softmax", "rope", "causal_mask")
    write(tmp_path, "a_scratch.py", "def softmax(x):\n    return x\n")
    write(tmp_path, "helpers.py", "import numpy as np\n")
    write(tmp_path, "old/v1.ipynb", notebook(code("def softmax(x):\n    pass"), code("def rope(x):\n    pass")))
    write(tmp_path, "Attn.py", "from helpers import np\nclass causal_mask: pass\ndef softmax(x): pass\n"
          "async def rope(x): pass\ndef helper():\n    def other(): pass\n")
    path, notes = submission.find_submission(tmp_path, names)
    assert path == tmp_path / "Attn.py"
    assert len(notes) == 1, notes
    assert notes[0] == ("Graded `Attn.py` as `attention.py`: of the 4 Python files and notebooks in your submission "
                        "(none named `attention.py` or `attention.ipynb`), it defines the most graded functions (3 of "
                        "3). Ignored: `a_scratch.py`, `old/v1.ipynb`. Please name your file `attention.py`.")
    # helpers.py is imported by Attn.py: not "ignored"


def test_several_files_defining_nothing_grade_the_first_and_say_so(tmp_path: Path) -> None:
    write(tmp_path, "b.py", "x = 1\n")
    write(tmp_path, "a.py", "y = 2\n")
    path, notes = submission.find_submission(tmp_path, ["softmax"])
    assert path == tmp_path / "a.py"
    assert "none defines a graded function, so the first found was graded. Ignored: `b.py`." in notes[0]


def test_choosing_never_runs_the_candidates(tmp_path: Path) -> None:
    marker = tmp_path / "ran"
    write(tmp_path, "a.py", f"open({str(marker)!r}, 'w').close()\ndef softmax(x): pass\n")
    write(tmp_path, "b.ipynb", notebook(code(f"open({str(marker)!r}, 'w').close()")))
    assert submission.find_submission(tmp_path, ["softmax"])[0] == tmp_path / "a.py"
    assert not marker.exists()


MISSING_CASES = {
    "wrong names": ({"hw.txt": GOOD, "notes.pdf": "x"}, ["found: `hw.txt`, `notes.pdf`", "Name your file `attention"]),
    "markdown in names": ({"[x](y).txt": GOOD, "a`b.txt": GOOD}, ["found: `[x](y).txt`, ``a`b.txt``)"]),
    "empty folder": ({}, ["empty"]),
    "only junk": ({"__MACOSX/attention.py": "x", ".hidden/attention.py": "x"}, ["empty"]),
    "zip uploaded": ({"hw4.zip": b"PK\x03\x04"}, ["hw4.zip", "rather than a zip"]),
    "many files": ({f"f{i:02d}.txt": "x" for i in range(12)}, ["f00.txt", "and 4 more"]),
}


@pytest.mark.parametrize("files, parts", MISSING_CASES.values(), ids=MISSING_CASES.keys())
def test_find_submission_missing(tmp_path: Path, files: dict, parts: list[str]) -> None:
    for relative, content in files.items():
        write(tmp_path, relative, content)
    with pytest.raises(IntakeError) as error:
        submission.find_submission(tmp_path)
    for part in parts:
        assert part in str(error.value)


def test_find_submission_ignores_symlinks(tmp_path: Path) -> None:
    secret = write(tmp_path / "outside", "secret.py", "TOKEN = 1\n")
    folder = tmp_path / "submission"
    folder.mkdir()
    os.symlink(secret, folder / "attention.py")
    os.symlink(secret.parent, folder / "linked_dir")
    with pytest.raises(IntakeError, match="Symbolic links"):
        submission.find_submission(folder)


def test_find_submission_direct_file(tmp_path: Path) -> None:
    path = write(tmp_path, "my_hw.py", GOOD)
    assert submission.find_submission(path) == (path, [])
    with pytest.raises(IntakeError, match="not a Python file"):
        submission.find_submission(write(tmp_path, "notes.txt", "x"))
    with pytest.raises(IntakeError, match="does not exist"):
        submission.find_submission(tmp_path / "nope")


def test_intake_combines_notes_and_relative_path(tmp_path: Path) -> None:
    write(tmp_path, "hw/attention.py", GOOD)
    write(tmp_path, "hw/attention.ipynb", notebook(code("x = 1")))
    program = submission.intake(tmp_path)
    assert program.path == "hw/attention.py"
    assert program.kind == "py"
    assert program.notes == ["Graded `hw/attention.py`; `hw/attention.ipynb` was ignored."]
    assert program.chunks == [Chunk("hw/attention.py", "hw/attention.py", GOOD, 1)]


# ----------------------------------------------------------------------------- .py files


def test_py_loads_as_one_chunk(tmp_path: Path) -> None:
    program = load_py(tmp_path, GOOD)
    chunk = Chunk("attention.py", "attention.py", GOOD)
    assert program == Program("attention.py", "py", [chunk], [])


@pytest.mark.parametrize(
    "content, expected",
    [
        (b"def f():\r\n    return 1\r\n", "def f():\n    return 1\n"),
        (b"def f():\r    return 1\r", "def f():\n    return 1\n"),
        (b"\xef\xbb\xbfx = 1\n", "x = 1\n"),
        (b"\xef\xbb\xbfx = 1\r\n", "x = 1\n"),
        ("# -*- coding: latin-1 -*-\nname = 'café'\n".encode("latin-1"), "# -*- coding: latin-1 -*-\nname = 'café'\n"),
        ("s = 'héllo ✓'\n".encode(), "s = 'héllo ✓'\n"),
    ],
    ids=["crlf", "cr", "bom", "bom+crlf", "latin-1 cookie", "utf-8"],
)
def test_py_text_normalised(tmp_path: Path, content: bytes, expected: str) -> None:
    assert load_py(tmp_path, content).chunks[0].source == expected


BAD_PY = {
    "empty": (b"", ["`attention.py` is empty"]),
    "whitespace": (b"  \n\n\t\n", ["is empty"]),
    "only a BOM": (b"\xef\xbb\xbf\n", ["is empty"]),
    "binary": (b"x = 1\n\0\0\x01\x02", ["binary file", "byte offset 6"]),
    "zip": (b"PK\x03\x04\0\0rest", ["zip archive"]),
    "utf-16": ("x = 1\n".encode("utf-16"), ["UTF-16"]),
    "latin-1 without cookie": (b"x = 1\n# caf\xe9\n", ["not valid UTF-8", "byte 0xe9", "byte offset 11", "line 2"]),
    "bad byte after BOM": (b"\xef\xbb\xbfx = '\xff'\n", ["byte offset 8", "line 1"]),
    "unknown cookie": (b"# coding: klingon\nx = 1\n", ["unknown encoding"]),
    "syntax error": (
        b"import numpy as np\n\ndef softmax(Z)\n    return Z\n",
        ["`attention.py` has a syntax error on line 3", "expected ':'", "def softmax(Z)\n              ^"],
    ),
    "indentation error": (b"def f():\nreturn 1\n", ["indentation error on line 2", "return 1"]),
    "tabs and spaces": (b"if True:\n        x = 1\n\ty = 2\n", ["line 3"]),
    "unclosed bracket": (b"x = [1, 2,\n", ["syntax error on line 1", "never closed"]),
    "backticks in line": (b"x = `a````\n", ["````\nx = `a````"]),
}


@pytest.mark.parametrize("content, parts", BAD_PY.values(), ids=BAD_PY.keys())
def test_py_rejected(tmp_path: Path, content: bytes, parts: list[str]) -> None:
    with pytest.raises(IntakeError) as error:
        load_py(tmp_path, content)
    for part in parts:
        assert part in str(error.value)


def test_py_too_large(tmp_path: Path) -> None:
    with pytest.raises(IntakeError, match=r"too large \(2\.0 MB; the limit is 2 MB\)"):
        load_py(tmp_path, b"#" * (2 * 2**20 + 1))
    assert load_py(tmp_path, b"x = 1\n" + b"#" * (2 * 2**20 - 7)).kind == "py"


HOSTILE = {
    "attribute chain": "a" + ".b" * 500_000,  # segfaults ast.parse on Python 3.10
    "subscript chain": "a" + "[0]" * 300_000,
    "call chain": "f" + "()" * 500_000,
    "binop chain": "x = " + "1+" * 500_000 + "1",
    "unary chain": "-" * 1_000_000 + "1",
    "lambdas": "lambda: " * 200_000 + "1",
    "parentheses": "(" * 100_000 + ")" * 100_000,
    "indentation": "".join(" " * i + "if x:\n" for i in range(150)) + " " * 150 + "pass\n",
}


@pytest.mark.parametrize("source", HOSTILE.values(), ids=HOSTILE.keys())
def test_py_hostile_nesting_is_reported(tmp_path: Path, source: str) -> None:
    with pytest.raises(IntakeError, match=r"`attention\.py` has"):
        load_py(tmp_path, source)


def test_py_exported_from_colab_drops_ipython_lines(tmp_path: Path) -> None:
    source = "!pip install numpy\n%matplotlib inline\nimport numpy as np\n\ndef f(x):\n    return x\n"
    program = load_py(tmp_path, source)
    lines = program.chunks[0].source.split("\n")
    assert lines[:3] == ["", "", "import numpy as np"]
    assert program.notes == [
        "attention.py, lines 1, 2: IPython-only code ignored (`!pip install numpy`, `%matplotlib inline`); it is not "
        "Python, so it does nothing here."
    ]


def test_py_syntax_error_reported_as_python_says(tmp_path: Path) -> None:
    with pytest.raises(IntakeError, match="on line 1"):
        load_py(tmp_path, "!pip install numpy\ndef f(:\n")


def test_py_is_never_executed(tmp_path: Path) -> None:
    marker = tmp_path / "ran"
    load_py(tmp_path, f"open({str(marker)!r}, 'w').write('x')\nraise SystemExit(3)\n")
    assert not marker.exists()


# ----------------------------------------------------------------------------- notebooks


def test_notebook_code_cells_numbered_without_markdown(tmp_path: Path) -> None:
    program = load_nb(
        tmp_path,
        v4.new_markdown_cell("# Homework"),
        code("import numpy as np"),
        v4.new_markdown_cell("## Part A"),
        code(""),
        code("def f(x):\n    return x"),
        v4.new_raw_cell("raw"),
    )
    assert program.kind == "ipynb" and program.path == "attention.ipynb" and program.notes == []
    assert [(c.label, c.filename, c.source, c.first_line) for c in program.chunks] == [
        ("code cell 1", "attention.ipynb (code cell 1)", "import numpy as np", 1),
        ("code cell 3", "attention.ipynb (code cell 3)", "def f(x):\n    return x", 1),
    ]


MAGIC_CELLS = {
    "line magic": ("%matplotlib inline\nimport numpy as np", "\nimport numpy as np", "`%matplotlib inline`"),
    "shell": ("!pip install numpy\nx = 1", "\nx = 1", "`!pip install numpy`"),
    "shell assignment": ("files = !ls\nx = 1", "\nx = 1", "`files = !ls`"),
    "magic assignment": ("t = %timeit -o f()\nx = 1", "\nx = 1", "`t = %timeit -o f()`"),
    "help": ("np.dot?\nx = 1", "\nx = 1", "`np.dot?`"),
    "double help": ("x = 1\n??np.dot", "x = 1\n", "`??np.dot`"),
    "automagic pip": ("pip install numpy\nx = 1", "\nx = 1", "`pip install numpy`"),
    "indented magic": ("if True:\n    %time f()\nx = 1", "if True:\n    pass\nx = 1", "line 2"),
    "kept comment with ?": ("%load_ext autoreload\nx = 1  # why?", "\nx = 1  # why?", "line 1"),
    "time cell magic": ("%%time\ndef f():\n    return 1", "\ndef f():\n    return 1", None),
    "capture cell magic": ("\n%%capture out\nx = 1\n%ls", "\n\nx = 1\n", "line 4"),
}


@pytest.mark.parametrize("source, expected, note_part", MAGIC_CELLS.values(), ids=MAGIC_CELLS.keys())
def test_notebook_ipython_lines_blanked(tmp_path: Path, source: str, expected: str, note_part: str | None) -> None:
    program = load_nb(tmp_path, code(source))
    assert [c.source for c in program.chunks] == [expected]
    assert source.count("\n") == expected.count("\n")  # line numbers kept
    if note_part is None:
        assert program.notes == []
    else:
        assert len(program.notes) == 1 and note_part in program.notes[0] and "code cell 1" in program.notes[0]


def test_notebook_valid_python_never_rewritten(tmp_path: Path) -> None:
    source = "a, b = 7, 3\nx = (a\n% b)\ny = '''\n!not a shell line\n%not a magic\n'''"
    assert load_nb(tmp_path, code(source)).chunks[0].source == source


def test_notebook_other_cell_magics_skipped(tmp_path: Path) -> None:
    program = load_nb(tmp_path, code("%%bash\nls -l"), code("x = 1"), code("\n%%writefile a.py\ny = 2"))
    assert [c.label for c in program.chunks] == ["code cell 2"]
    assert program.notes == [
        "code cell 1, line 1: this is a `%%bash` cell, not Python; it was skipped.",
        "code cell 3, line 2: this is a `%%writefile` cell, not Python; it was skipped.",
    ]


def test_notebook_cell_with_syntax_error_dropped(tmp_path: Path) -> None:
    program = load_nb(tmp_path, code("x = 1"), code("%matplotlib inline\ndef f(:\n    pass"), code("y = 2"))
    assert [c.label for c in program.chunks] == ["code cell 1", "code cell 3"]
    (note,) = program.notes
    assert note.startswith("code cell 2, line 2: syntax error (")
    assert "this cell was skipped, the other cells were loaded." in note
    assert "```\ndef f(:\n" in note


def test_notebook_all_cells_broken(tmp_path: Path) -> None:
    with pytest.raises(IntakeError) as error:
        load_nb(tmp_path, code("def f(:"), code("%%bash\nls"))
    text = str(error.value)
    assert "None of the code cells of `attention.ipynb` could be loaded" in text
    assert "code cell 1" in text and "code cell 2" in text


def test_notebook_crlf_and_bom(tmp_path: Path) -> None:
    text = notebook(code("x = 1\r\ny = 2\r\n"), code("z = 3\rw = 4"))
    path = write(tmp_path, "attention.ipynb", b"\xef\xbb\xbf" + text.replace("\n", "\r\n").encode())
    program = submission.load_program(path)
    assert [c.source for c in program.chunks] == ["x = 1\ny = 2\n", "z = 3\nw = 4"]


def test_notebook_version_3_converted(tmp_path: Path) -> None:
    cells = [v3.new_text_cell("markdown", source="# hw"), v3.new_code_cell(input="x = 1\n%pylab inline")]
    nb = v3.new_notebook(worksheets=[v3.new_worksheet(cells=cells)])
    program = submission.load_program(write(tmp_path, "attention.ipynb", v3.writes_json(nb)))
    assert [(c.label, c.source) for c in program.chunks] == [("code cell 1", "x = 1\n")]
    assert program.notes[0] == "`attention.ipynb` uses notebook format 3; it was converted to format 4 to be graded."


def test_notebook_version_4_has_no_conversion_note(tmp_path: Path) -> None:
    assert load_nb(tmp_path, code("x = 1")).notes == []


def test_notebook_version_1_and_2(tmp_path: Path) -> None:
    for raw in (
        {"nbformat": 2, "metadata": {"name": ""}, "worksheets": [{"cells": [{"cell_type": "code", "input": "y = 2"}]}]},
        {"nbformat": 1, "cells": [{"cell_type": "code", "code": "y = 2"}]},
    ):
        program = submission.load_program(write(tmp_path, "attention.ipynb", json.dumps(raw)))
        assert [c.source for c in program.chunks] == ["y = 2"]


def test_notebook_too_old_to_read_is_rejected(tmp_path: Path) -> None:
    raw = {"nbformat": 2, "worksheets": "nonsense"}
    with pytest.raises(IntakeError, match="format version 2, which is too old"):
        submission.load_program(write(tmp_path, "attention.ipynb", json.dumps(raw)))


LENIENT = {
    "missing cell fields": {
        "nbformat": 4,
        "nbformat_minor": 5,
        "metadata": {},
        "cells": [{"cell_type": "code", "source": ["x = 1\n", "y"]}],
    },
    "unknown keys": {
        "nbformat": 4,
        "nbformat_minor": 2,
        "metadata": {},
        "colab": {"x": 1},
        "cells": [
            {
                "cell_type": "code",
                "source": "x = 1\ny",
                "metadata": {},
                "outputs": [{"bogus": 1}],
                "execution_count": "seven",
            }
        ],
    },
    "no nbformat key": {"cells": [{"cell_type": "code", "source": ["x = 1\n", "y"]}]},
    "future version": {"nbformat": 9, "nbformat_minor": 0, "cells": [{"cell_type": "code", "source": "x = 1\ny"}]},
    "v3 shape without version": {"worksheets": [{"cells": [{"cell_type": "code", "input": "x = 1\ny"}]}]},
}


@pytest.mark.parametrize("raw", LENIENT.values(), ids=LENIENT.keys())
def test_notebook_off_spec_but_readable(tmp_path: Path, raw: dict) -> None:
    program = submission.load_program(write(tmp_path, "attention.ipynb", json.dumps(raw)))
    assert [c.source for c in program.chunks] == ["x = 1\ny"]


BAD_NOTEBOOKS = {
    "truncated JSON": ('{"cells": [\n  {"cell_type": "code",', ["JSON is broken at line 2", "saved completely"]),
    "not JSON": ("def f(): pass", ["JSON is broken at line 1, column 1"]),
    "JSON list": ("[1, 2]", ["not a Jupyter notebook"]),
    "no cells": ('{"nbformat": 4, "metadata": {}}', ["not a Jupyter notebook"]),
    "deep JSON": ("[" * 100_000 + "]" * 100_000, ["nested too deeply"]),
    "empty file": ("", ["is empty"]),
    "markdown only": (notebook(v4.new_markdown_cell("# answers")), ["has no code cells"]),
    "only empty code cells": (notebook(code(""), code("  \n")), ["all 2 code cells are empty"]),
    "binary": (b"\x89PNG\r\n\x1a\n\0\0", ["binary file"]),
    "latin-1": (b'{"cells": ["caf\xe9"]}', ["not valid UTF-8", "byte offset 15"]),
}


@pytest.mark.parametrize("content, parts", BAD_NOTEBOOKS.values(), ids=BAD_NOTEBOOKS.keys())
def test_notebook_rejected(tmp_path: Path, content: str | bytes, parts: list[str]) -> None:
    with pytest.raises(IntakeError) as error:
        submission.load_program(write(tmp_path, "sub/attention.ipynb", content), root=tmp_path)
    assert "`sub/attention.ipynb`" in str(error.value)
    for part in parts:
        assert part in str(error.value)


def test_intake_error_is_student_facing() -> None:
    assert IntakeError.student_facing is True


# ----------------------------------------------------------------------------- student text in markdown


def read_code_span(span: str) -> str:
    """What CommonMark shows for ``span``, checked to be exactly one code span (spec 6.1)."""
    n = len(span) - len(span.lstrip("`"))
    assert n and span.endswith("`" * n) and not span.endswith("`" * (n + 1)) and len(span) > 2 * n
    inner = span[n:-n]
    assert all(len(run) != n for run in re.findall(r"`+", inner)), "a run inside would close the span early"
    if inner.startswith(" ") and inner.endswith(" ") and inner.strip(" "):
        inner = inner[1:-1]
    return inner


@pytest.mark.parametrize(
    "text",
    ["plt.plot([1, 2, 3])", "assert p[0] < 0.3, 'p <= 0.3'", "<b>&lt;</b>", "x = `a`", "a ``` b", "`", "``x",
     "spaced  out\n\tcode", "*not* _emphasis_ [link](http://x) ![img](y)"],
)
def test_code_span_shows_student_text_literally(text: str) -> None:
    span = markdown.code_span(text)
    assert read_code_span(span) == " ".join(text.split())  # nothing escaped inside: shown as typed


def test_code_span_is_capped() -> None:
    assert read_code_span(markdown.code_span("x" * 1000, 60)) == "x" * 57 + "..."


@pytest.mark.parametrize("text", ["x = 1", "```\nescape\n```", "a ```` b\n`````", "~~~\n<b>"])
def test_fenced_block_cannot_be_closed_by_its_content(text: str) -> None:
    block = markdown.fenced(text)
    fence = block.split("\n", 1)[0]
    assert set(fence) == {"`"} and len(fence) >= 3 and block.endswith("\n" + fence)
    inner = block[len(fence) + 1 : -len(fence) - 1]
    assert inner == text and not any(line.strip().startswith(fence) for line in inner.split("\n"))


@pytest.mark.parametrize(
    "text, shown",
    [
        ("[click](http://evil)", "\\[click\\](http://evil)"),
        ("![img](x)", "!\\[img\\](x)"),
        ("<script>", "&lt;script&gt;"),
        ("a `span", "a \\`span"),
        ("two\nlines", "two lines"),
        ("\\[x](y)", "\\\\\\[x\\](y)"),
    ],
)
def test_plain_text_outside_code_is_defused(text: str, shown: str) -> None:
    assert markdown.plain(text) == shown


def test_notes_about_cells_all_start_with_the_cell_and_line(tmp_path: Path) -> None:
    program = load_nb(
        tmp_path,
        code("%matplotlib inline\nimport numpy as np\n!ls\n%time f()\n?np\nx = 1\n!pwd"),
        code("\n\n%%bash\nls"),
        code("x = 1\ndef f(:\n    pass"),
    )
    assert [note.split(":")[0] for note in program.notes] == [
        "code cell 1, lines 1, 3, 4 and 2 more", "code cell 2, line 3", "code cell 3, line 2"
    ]
    assert "(`%matplotlib inline`, `!ls`, `%time f()` and 2 more)" in program.notes[0]


def test_a_notebook_from_another_homeworks_template_gets_a_note() -> None:
    from autograder import contract
    from autograder.intake.notebook import load_notebook

    template = json.loads((contract.HOMEWORK.template / f"{contract.UPLOAD}.ipynb").read_text())
    assert template["metadata"]["autograder"] == {"homework": contract.NAME}
    assert not [n for n in load_notebook(json.dumps(template).encode(), "a.ipynb").notes if "another homework" in n]
    template["metadata"]["autograder"]["homework"] = "layernorm"
    notes = load_notebook(json.dumps(template).encode(), "a.ipynb").notes
    assert notes[0].startswith("`a.ipynb` was made from the template of another homework (`layernorm`)")
