"""What ``grade`` pays before the first test runs: its own process imports no numpy, and its autograder root comes
with the engine's bytecode (compiled once, in the checkout's ``__pycache__``), as setup.sh leaves Gradescope's."""

from __future__ import annotations

import importlib.machinery
import importlib.util
import marshal
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from autograder.commands import build

REPO = Path(__file__).resolve().parent.parent


def python(code: str, **env: str) -> str:
    done = subprocess.run([sys.executable, "-c", code], cwd=REPO, env={**os.environ, **env},
                          capture_output=True, text=True, timeout=120, check=False)
    assert done.returncode == 0, done.stderr
    return done.stdout.strip()


GRADE_WITHOUT_RUNNING = """
import json, os, sys
from pathlib import Path
from autograder.commands import grade

def run_root(root, **_):  # what the grading process would leave
    (root / "results").mkdir()
    (root / "results" / "results.json").write_text(json.dumps({"score": 0, "tests": []}))
    return ""

grade.run_root = run_root
grade.grade(Path(os.environ["SUBMISSION"]), allow_exposed=True)
print("numpy" in sys.modules)
"""


def test_the_grade_process_itself_never_imports_numpy() -> None:
    """Its checks (the sandbox user can run this Python), the root it lays out: all without numpy, which only the
    grading process (and the worker) import."""
    assert python(GRADE_WITHOUT_RUNNING, SUBMISSION=str(REPO / "reference" / "attention.py")) == "False"


@pytest.mark.parametrize("first", ["homework", "feedback"])
def test_the_feedback_takes_the_loaded_homeworks_tolerance_whichever_is_imported_first(
        tmp_path: Path, first: str) -> None:
    folder = tmp_path / "hw"
    shutil.copytree(REPO / "reference", folder, ignore=shutil.ignore_patterns("__pycache__"))
    contract = folder / "homework.py"
    text = contract.read_text()
    start = text.index("TOLERANCE = ")
    contract.write_text(text[:start] + 'TOLERANCE = {"rtol": 3e-4, "atol": 2e-5}\n'
                        + text[text.index("\n", text.index("}", start)) + 1:])
    imports = ["from autograder import contract", "from autograder.feedback import compare"]
    code = "; ".join(imports if first == "homework" else imports[::-1])
    shown = python(f"{code}; print(compare.RTOL, compare.ATOL, compare.MISTAKES == contract.HOMEWORK.sentences "
                   "and len(compare.MISTAKES) > 0)", AUTOGRADER_HOMEWORK=str(folder))
    assert shown == "0.0003 2e-05 True"


def loads_without_compiling(source: Path, monkeypatch: pytest.MonkeyPatch) -> dict:
    """The module at ``source`` run from its pyc: compiling it from source fails the test."""
    loader = importlib.machinery.SourceFileLoader("copied_module", str(source))
    monkeypatch.setattr(loader, "source_to_code", lambda *a, **k: pytest.fail("compiled from source"))
    namespace: dict = {}
    exec(loader.get_code("copied_module"), namespace)
    return namespace


def test_a_module_is_compiled_once_and_its_pyc_serves_any_copy(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    source = tmp_path / "checkout" / "module.py"
    source.parent.mkdir()
    source.write_text("X = 1\n")
    pyc = build.bytecode(source, source.read_bytes())
    assert pyc is not None and Path(importlib.util.cache_from_source(str(source))).read_bytes() == pyc
    copy = tmp_path / "root" / "module.py"
    copy.parent.mkdir()
    copy.write_text("X = 1\n")  # another date and place
    cached = Path(importlib.util.cache_from_source(str(copy)))
    cached.parent.mkdir()
    cached.write_bytes(pyc)
    assert loads_without_compiling(copy, monkeypatch)["X"] == 1


def test_an_edit_of_the_same_size_in_the_same_second_is_compiled_again(tmp_path: Path) -> None:
    source = tmp_path / "module.py"
    source.write_text("X = 1\n")
    first = build.bytecode(source, source.read_bytes())
    when = source.stat()
    source.write_text("X = 2\n")
    os.utime(source, ns=(when.st_atime_ns, when.st_mtime_ns))
    second = build.bytecode(source, source.read_bytes())
    assert first is not None and second is not None and first != second
    namespace: dict = {}
    exec(marshal.loads(second[16:]), namespace)
    assert namespace["X"] == 2


def test_a_checkout_where_no_bytecode_can_be_written_leaves_the_compiling_to_the_grading(tmp_path: Path) -> None:
    source = tmp_path / "module.py"
    source.write_text("X = 1\n")
    (tmp_path / "__pycache__").write_text("a file, not a folder")
    assert build.bytecode(source, source.read_bytes()) is None


def test_the_grade_root_holds_the_bytecode_of_every_module(tmp_path: Path) -> None:
    build.copy_tree(tmp_path, compiled=True)
    modules = sorted(tmp_path.rglob("*.py"))
    assert len(modules) > 50
    missing = [m for m in modules if not Path(importlib.util.cache_from_source(str(m))).is_file()]
    assert not missing


def test_a_pytest_plugin_installed_in_the_graders_python_never_joins_the_graded_session(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A TA's venv may hold pytest plugins (pytest-randomly would reorder and reseed the graded tests): the graded
    session loads none of them, nor looks their entry points up."""
    from autograder.commands import grade

    site, mark = tmp_path / "site", tmp_path / "loaded"
    info = site / "graded_spy-1.0.dist-info"
    info.mkdir(parents=True)
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: graded-spy\nVersion: 1.0\n")
    (info / "entry_points.txt").write_text("[pytest11]\ngraded_spy = graded_spy\n")
    (site / "graded_spy.py").write_text(f"open({str(mark)!r}, 'w').close()\n")
    monkeypatch.setenv("PYTHONPATH", str(site))
    assert subprocess.run([sys.executable, "-c", "import pytest, sys; sys.exit(pytest.main(['--co', '-q', '-p', "
                           "'no:cacheprovider', '--rootdir', sys.argv[1], sys.argv[1]]) not in (0, 5))", str(tmp_path)],
                          capture_output=True, timeout=120, check=False).returncode == 0
    assert mark.exists(), "pytest itself loads the plugin: the check below can fail"
    mark.unlink()
    results = grade.grade(REPO / "reference" / "attention.py", allow_exposed=True)
    assert results["score"] == 100 and not mark.exists()
