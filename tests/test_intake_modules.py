"""Intake as students upload: the student's own modules beside the graded file, what a file's tokens define and
import, and why a submission was not read (``IntakeError.kind``, batch's status column)."""

from __future__ import annotations

from pathlib import Path

import pytest

from autograder import contract, runner
from autograder.intake import scan, submission
from autograder.intake.source import IntakeError
from tests import submissions

SCANS = {
    "defs and classes at top level": ("def a(): pass\nclass B:\n    def c(self): pass\nasync def d(): pass\n",
                                      {"a", "B", "d"}, set()),
    "nested defs are not top level": ("def f():\n    def g(): pass\n    class H: pass\n", {"f"}, set()),
    "imports anywhere": ("import os, helpers as h\nfrom a.b import c\nfrom . import rel\ndef f():\n"
                         "    import lazy\nx = 1; import semi\nfrom (x) import y\n",
                         {"f"}, {"os", "helpers", "a", "lazy", "semi"}),
    "parenthesised from-import": ("from helpers import (\n    softmax,\n    rope,\n)\n", set(), {"helpers"}),
    "strings and comments are not code": ('"""\ndef fake(): pass\nimport fake\n"""\n# def also_fake(): pass\n',
                                          set(), set()),
    "broken code keeps what came before": ("import helpers\ndef ok(): pass\nx = '''unterminated\ndef no(): pass\n",
                                           {"ok"}, {"helpers"}),
    "IPython lines": ("%matplotlib inline\n!pip install x\nimport helpers\n", set(), {"helpers"}),
}


@pytest.mark.parametrize("source, defined, imported", SCANS.values(), ids=SCANS.keys())
def test_scan_finds_top_level_definitions_and_imports(source: str, defined: set, imported: set) -> None:
    found = scan.scan(source)
    assert found.defined == defined and found.imported == imported


def write(folder: Path, files: dict[str, str | bytes]) -> Path:
    for name, content in files.items():
        path = folder / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(content if isinstance(content, bytes) else content.encode())
    return folder


MODULE_CASES = {
    "a sibling it imports": ({"attention.py": "from helpers import f\n", "helpers.py": "def f(): pass\n"},
                             ["helpers"], []),
    "through another module": ({"attention.py": "import helpers\n", "helpers.py": "from util import g\n",
                                "util.py": "g = 1\n", "unused.py": "x = 1\n"}, ["helpers", "util"], []),
    "not a sibling in another folder": ({"attention.py": "import helpers\n", "lib/helpers.py": "x = 1\n"}, [], []),
    "not a module it does not import": ({"attention.py": "import numpy\n", "helpers.py": "x = 1\n"}, [], []),
    "a module named like the standard library": (
        {"attention.py": "import random\n", "random.py": "x = 1\n"}, [], ["`random.py` was not loaded"]),
    "a module named like the worker's": (
        {"attention.py": "import protocol\n", "protocol.py": "x = 1\n"}, [], ["gives the grader's own `protocol`"]),
    "an unreadable module": ({"attention.py": "import helpers\n", "helpers.py": b"\xff\xfe\0x"}, [],
                             ["`helpers.py` is saved as UTF-16", "So `import helpers` fails."]),
    "a notebook's imports": ({"attention.ipynb": submissions.notebook_from_source("import helpers\n"),
                              "helpers.py": "x = 1\n"}, ["helpers"], []),
    "a renamed file's siblings": ({"hw/Solution.py": "import helpers\n", "hw/helpers.py": "x = 1\n"},
                                  ["helpers"], []),
}


@pytest.mark.parametrize("files, shipped, note_parts", MODULE_CASES.values(), ids=MODULE_CASES.keys())
def test_the_modules_a_submission_imports_from_beside_it_are_shipped(
    tmp_path: Path, files: dict, shipped: list[str], note_parts: list[str]
) -> None:
    program = submission.intake(write(tmp_path, files))
    assert sorted(program.modules) == shipped
    for name in shipped:
        chunk = program.modules[name]
        assert chunk.source == (tmp_path / chunk.filename).read_text()
    for part in note_parts:
        assert any(part in note for note in program.notes), program.notes


def test_a_linked_module_is_never_read(tmp_path: Path) -> None:
    secret = write(tmp_path / "outside", {"secret.py": "TOKEN = 1\n"}) / "secret.py"
    folder = write(tmp_path / "submission", {"attention.py": "import secret\n"})
    (folder / "secret.py").symlink_to(secret)
    assert submission.intake(folder).modules == {}


KINDS = {
    "missing": ({}, "missing"),
    "misnamed": ({"hw.pdf": "x", "test_attention.py": "def test(): pass\n"}, "misnamed"),
    "empty file": ({"attention.py": "\n\n"}, "empty"),
    "empty notebook": ({"attention.ipynb": submissions.notebook_from_source("")}, "empty"),
    "syntax error": ({"attention.py": "def f(:\n"}, "syntax error"),
    "binary": ({"attention.py": b"\0\1\2"}, "unreadable"),
}


@pytest.mark.parametrize("files, kind", KINDS.values(), ids=KINDS.keys())
def test_why_a_submission_was_not_read_is_a_kind(tmp_path: Path, files: dict, kind: str) -> None:
    with pytest.raises(IntakeError) as error:
        submission.intake(write(tmp_path, files))
    assert error.value.kind == kind


def split_reference() -> dict[str, str]:
    """The reference in three files: attention.py imports softmax and causal_mask from helpers.py, which takes a
    constant from consts.py, as a student who keeps helpers in their own module would."""
    blocks = submissions.top_level_blocks(submissions.REFERENCE.read_text())
    moved = [b for b in blocks if b.lstrip().startswith(("def softmax(", "def causal_mask("))]
    kept = [b for b in blocks if b not in moved and not b.startswith(('"""', "from __future__"))]
    assert len(moved) == 2
    helpers = "import numpy as np\nfrom consts import UNUSED\n\n\n" + "\n\n\n".join(moved) + "\n"
    return {"attention.py": "from helpers import softmax, causal_mask\n" + "\n\n\n".join(kept) + "\n",
            "helpers.py": helpers, "consts.py": "UNUSED = 0\n"}


def test_a_correct_submission_importing_its_own_module_gets_full_marks(tmp_path: Path) -> None:
    data = runner.grade_folder(write(tmp_path, split_reference()))
    assert data["score"] == contract.TOTAL_POINTS, [t["output"][:300] for t in data["tests"] if t["status"] != "passed"]
    assert "intake" not in data["extra_data"]


def test_an_error_in_the_students_module_points_into_it(tmp_path: Path) -> None:
    files = split_reference()
    files["helpers.py"] = files["helpers.py"].replace("import numpy as np\n", "import numpy as np\nBOOM = 1 / 0\n")
    data = runner.grade_folder(write(tmp_path, files))
    notes = "\n".join(data["extra_data"]["notes"])
    assert "ZeroDivisionError" in notes and "helpers.py" in notes, notes


def test_a_syntax_error_in_the_students_module_says_where(tmp_path: Path) -> None:
    files = split_reference()
    files["helpers.py"] = files["helpers.py"].replace("import numpy as np\n", "import numpy as np\ndef broken(:\n")
    data = runner.grade_folder(write(tmp_path, files))
    notes = "\n".join(data["extra_data"]["notes"])
    assert "failed (SyntaxError in helpers.py, line 2: invalid syntax)" in notes, notes
