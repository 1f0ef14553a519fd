"""A temporary copy of this checkout, for tests that change the homework as an instructor would.

``copy_repo`` copies the sources (no venvs, git, caches or build output); ``autograder`` runs the
copy's own CLI (``python -m autograder`` from inside it, so its ``autograder``, ``reference`` and
contract are the ones imported) with this interpreter's packages.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
SKIPPED = {".venv", ".venv310", ".git", "dist", "build", "__pycache__", ".pytest_cache", ".ruff_cache"}


def copy_repo(destination: Path) -> Path:
    """Copy the checkout's sources to ``destination`` (created); returns it."""

    def ignore(folder: str, names: list[str]) -> set[str]:
        return {n for n in names if n in SKIPPED or n.endswith(".egg-info")}

    shutil.copytree(REPO, destination, ignore=ignore, symlinks=True)
    return destination


def autograder(copy: Path, *args: str, timeout: float = 600) -> subprocess.CompletedProcess:
    """Run ``autograder ARGS`` in the copy; stdout and stderr together in ``.stdout``."""
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "PYTHONSAFEPATH")}
    env["PYTHONPATH"] = str(copy)
    return subprocess.run([sys.executable, "-m", "autograder", *args], cwd=copy, env=env, text=True,
                          stdout=subprocess.PIPE, stderr=subprocess.STDOUT, timeout=timeout, check=False)


def edit(path: Path, old: str, new: str, count: int = 1) -> None:
    """Replace ``old`` by ``new`` in ``path`` (``old`` must be there)."""
    text = path.read_text(encoding="utf-8")
    assert old in text, f"{old!r} is not in {path}"
    path.write_text(text.replace(old, new, count), encoding="utf-8")


def edit_re(path: Path, pattern: str, new: str) -> None:
    """Replace the one match of ``pattern`` (a regular expression, multiline) in ``path`` by ``new``."""
    text = path.read_text(encoding="utf-8")
    text, n = re.subn(pattern, new, text, count=1, flags=re.M)
    assert n == 1, f"{pattern!r} is not in {path}"
    path.write_text(text, encoding="utf-8")
