"""Gradescope's image runs Python 3.10: the grading engine and the public tests, run on a real 3.10.

A Python 3.10 is looked for in ``$AUTOGRADER_PY310``, on PATH (``python3.10``), in
``/usr/bin`` and under pyenv; the test is skipped, saying so, when there is none. The
grading requirements (``requirements.txt``, exactly what setup.sh installs on
Gradescope) go into ``.venv310/``, rebuilt when they change. The engine runs there
unswitched (the sandbox user may not be able to run a Python under /root); the
Gradescope layout itself is tested in test_gradescope_e2e.py.
"""

from __future__ import annotations

import glob
import hashlib
import json
import os
import shutil
import subprocess
from pathlib import Path

import pytest

from tests.homework import TOTAL
from tests.submissions import REFERENCE, TEMPLATE

REPO = Path(__file__).resolve().parent.parent
VENV = REPO / ".venv310"
REQUIREMENTS = REPO / "requirements.txt"

pytestmark = pytest.mark.slow


def find_python310() -> str | None:
    candidates = [os.environ.get("AUTOGRADER_PY310", ""), shutil.which("python3.10") or "", "/usr/bin/python3.10"]
    candidates += sorted(glob.glob(os.path.expanduser("~/.pyenv/versions/3.10*/bin/python3.10")), reverse=True)
    for candidate in filter(None, candidates):
        try:
            version = subprocess.run([candidate, "-c", "import sys, venv; print(sys.version_info[:2])"],
                                     capture_output=True, text=True, timeout=30, check=False).stdout.strip()
        except OSError:
            continue
        if version == "(3, 10)":
            return candidate
    return None


@pytest.fixture(scope="module")
def python310() -> str:
    base = find_python310()
    if base is None:
        pytest.skip("no Python 3.10 found (set AUTOGRADER_PY310 to one)")
    want = hashlib.sha256(REQUIREMENTS.read_bytes()).hexdigest()
    stamp = VENV / ".requirements.sha256"
    python = VENV / "bin" / "python"
    if not python.exists() or not stamp.exists() or stamp.read_text() != want:
        shutil.rmtree(VENV, ignore_errors=True)
        subprocess.run([base, "-m", "venv", str(VENV)], check=True, timeout=300)
        subprocess.run([str(python), "-m", "pip", "install", "--quiet", "--disable-pip-version-check", "-r",
                        str(REQUIREMENTS)], check=True, timeout=900)
        stamp.write_text(want)
    return str(python)


def run(python: str, *args: str, cwd: Path = REPO) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PYTHON", "VIRTUAL_ENV"))}
    return subprocess.run([python, *args], cwd=cwd, env=dict(env, AUTOGRADER_SANDBOX_USER="no-such-sandbox-user"),
                          capture_output=True, text=True, timeout=600, check=False)


def test_every_grading_module_compiles_and_imports_on_python_310(python310: str) -> None:
    done = run(python310, "-c", "import sys, pkgutil, importlib, autograder, autograder.suite.graded\n"
               "skip = {'autograder.__main__'}\n"
               "names = [m.name for m in pkgutil.walk_packages(autograder.__path__, 'autograder.')]\n"
               "[importlib.import_module(n) for n in names if n not in skip and not n.startswith('autograder.batch')]\n"
               "print(sys.version_info[:2], len(names))")
    assert done.returncode == 0, done.stderr[-3000:]
    assert done.stdout.startswith("(3, 10)")


@pytest.mark.parametrize("submission, points", [(REFERENCE, TOTAL), (TEMPLATE, 0)], ids=["reference", "template"])
def test_grading_on_python_310_gives_the_same_points(python310: str, submission: Path, points: int,
                                                     tmp_path: Path) -> None:
    folder = tmp_path / "submission"
    folder.mkdir()
    shutil.copy(submission, folder / "attention.py")
    out = tmp_path / "results.json"
    done = run(python310, "-m", "autograder", "grade", str(folder), "-o", str(out))
    assert out.exists(), done.stdout[-3000:] + done.stderr[-3000:]
    data = json.loads(out.read_text())
    assert sum(t["max_score"] for t in data["tests"]) == TOTAL
    assert sum(t["score"] for t in data["tests"]) == points, [t["name"] for t in data["tests"] if t["score"] == 0]


def test_the_public_tests_run_on_python_310(python310: str, tmp_path: Path) -> None:
    folder = tmp_path / "student"
    shutil.copytree(REPO / "student_template", folder, ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copy(REFERENCE, folder / "attention.py")
    done = run(python310, "-m", "pytest", "-q", "-p", "no:cacheprovider", cwd=folder)
    assert done.returncode == 0, done.stdout[-3000:]


def test_the_ta_extras_install_on_python_310(python310: str) -> None:
    """`make venv` on a TA's Ubuntu 22.04 (Python 3.10): every pin of requirements-ta.txt has a release for it."""
    done = run(python310, "-m", "pip", "install", "--dry-run", "--quiet", "--disable-pip-version-check",
               "--ignore-installed", "-r", str(REPO / "requirements-ta.txt"))
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-2000:]
