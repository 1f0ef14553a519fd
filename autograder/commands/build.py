"""``python -m autograder build``: the zip an instructor uploads to Gradescope.

The zip holds ``setup.sh``, ``run_autograder`` and ``requirements.txt`` at its root
and the grading package under ``autograder/`` -- the engine, the graded suite and
the stored reference outputs. Nothing else: no reference solution, no
development-only modules, no student template, no tests, venvs or caches. The
zip is deterministic (sorted entries, fixed timestamps), so the same tree builds
the same bytes.

Before writing it, ``build`` checks that the homework is consistent (``consistency.py``): student
files, README points table and stored cases fresh, graded tests and ``contract.POINTS`` in
agreement, the reference at full marks and the blank template at 0. It refuses, saying what is
wrong and what to run, otherwise.
"""

from __future__ import annotations

import argparse
import sys
import zipfile
from collections.abc import Iterator
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
ROOT_FILES = ("setup.sh", "run_autograder", "requirements.txt")
EXECUTABLE = {"setup.sh", "run_autograder"}
# Modules only instructors and TAs run on their own machines; they import the reference
# or produce the template, so they stay out of the zip.
DEV_ONLY = {
    "autograder/suite/case_variants.py",
    "autograder/suite/changes.py",
    "autograder/suite/graded_cases.py",
    "autograder/suite/public_cases.py",
    "autograder/suite/random_cases.py",
    "autograder/suite/regen.py",
    "autograder/suite/stored.py",
    "autograder/results/check.py",
}
DEV_ONLY_DIRS = ("autograder/batch/", "autograder/commands/")
SKIPPED_PARTS = {"__pycache__", ".pytest_cache", ".ruff_cache"}
FIXED_TIME = (1980, 1, 1, 0, 0, 0)


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="autograder build", description=__doc__.splitlines()[0].replace("``", "`"))
    parser.add_argument("-o", "--output", type=Path, default=Path("dist/autograder.zip"), help="default: %(default)s")
    args = parser.parse_args(argv)
    from autograder.commands import consistency

    found = consistency.problems(progress=lambda text: print(f"build: {text}", flush=True))
    if found:
        print(f"build: refused, the homework is inconsistent ({sum(not p.startswith(' ') for p in found)} problems); "
              f"{args.output} not written:", file=sys.stderr)
        for problem in found:
            print(f"  {problem}" if problem.startswith(" ") else f"  - {problem}", file=sys.stderr)
        return 1
    path = build_zip(args.output)
    names = zip_members()
    print(f"built {path} ({path.stat().st_size / 1024:.0f} KiB, {len(names)} files)")
    print("upload it on Gradescope: Configure Autograder -> Zip file upload")
    return 0


def zip_members(repo: Path = REPO) -> list[str]:
    """Repo-relative paths of every file that goes into the zip, sorted."""
    names = [name for name in ROOT_FILES if (repo / name).is_file()]
    names += sorted(_package_files(repo))
    return names


def _package_files(repo: Path) -> Iterator[str]:
    for path in (repo / "autograder").rglob("*"):
        name = path.relative_to(repo).as_posix()
        if not path.is_file() or SKIPPED_PARTS & set(path.parts) or path.suffix == ".pyc":
            continue
        if name in DEV_ONLY or name.startswith(DEV_ONLY_DIRS):
            continue
        yield name


def build_zip(output: Path, repo: Path = REPO) -> Path:
    """Write the Gradescope zip to ``output`` and return its path."""
    output.parent.mkdir(parents=True, exist_ok=True)
    tmp = output.with_name(output.name + ".tmp")
    with zipfile.ZipFile(tmp, "w", compression=zipfile.ZIP_DEFLATED) as zf:
        for name in zip_members(repo):
            info = zipfile.ZipInfo(name, date_time=FIXED_TIME)
            info.compress_type = zipfile.ZIP_DEFLATED
            mode = 0o755 if name in EXECUTABLE else 0o644
            info.external_attr = (0o100000 | mode) << 16
            zf.writestr(info, (repo / name).read_bytes())
    tmp.replace(output)
    return output


def copy_tree(destination: Path, repo: Path = REPO) -> None:
    """Lay out the zip's contents under ``destination`` (what Gradescope unpacks into source/)."""
    for name in zip_members(repo):
        target = destination / name
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes((repo / name).read_bytes())
        if name in EXECUTABLE:
            target.chmod(0o755)
