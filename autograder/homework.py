"""The homework the engine grades: a folder, loaded by path.

Which one: ``--homework DIR`` on every command (the CLI sets ``AUTOGRADER_HOMEWORK``, so the gradings it starts
see the same), else ``$AUTOGRADER_HOMEWORK``, else ``homework/`` beside the engine (a Gradescope zip carries
exactly one, there) or ``reference/`` (a checkout). The folder is imported as a package under a name of its own
(``homework_<folder>_<hash of its path>``), never by putting it on ``sys.path``: two homeworks' ``tests/`` or
``cases/`` never collide.

The folder (``docs/changing-the-homework.md`` says what each file is for)::

    homework.py          the contract: NAME, UPLOAD, PARTS, POINTS, HIDDEN, TOLERANCE, CALLS, ... (literals)
    <UPLOAD>.py          the solution, with its solution markers (not shipped)
    mistakes.py          known-wrong variants whose outputs regen stores (optional; not shipped)
    sentences.py         SENTENCES: known-mistake id -> the sentence students read (optional)
    cases/               graded.py, public.py (optional): the case specs regen runs (not shipped)
    tests/               the graded tests (pytest files using ``autograder.api``)
    diagnosis/           what the diagnosis knows of this homework (optional hooks: ``autograder.api.Diagnosis``)
    student/             hand-written student files: README.md, test_<UPLOAD>.py, notebook/*.md (prose)
    generated/           GENERATED: oracle.py (template), cases/ (regen), STAMP.json (both)
"""

from __future__ import annotations

import functools
import hashlib
import importlib
import importlib.util
import os
import re
import sys
import types
from collections.abc import Mapping
from pathlib import Path
from typing import Any

ENV = "AUTOGRADER_HOMEWORK"
ENGINE = Path(__file__).resolve().parent
CHECKOUT = ENGINE.parent
REQUIRED = {"NAME": str, "UPLOAD": str, "PARTS": dict, "POINTS": dict}
OPTIONAL: dict[str, tuple[type, Any]] = {
    "HIDDEN": (str, "after_due_date"),
    "TOLERANCE": (dict, {"rtol": 1e-5, "atol": 1e-6}),
    "CALLS": (dict, {}),
    "CALLED_WHEN_GIVEN": (dict, {}),
    "OUTPUT_NAMES": (dict, {}),
    "HEATMAPS": (dict, {}),
    "PREFERRED_MISTAKES": (list, []),
    "TEMPLATE": (str, "student_template"),
    "README": (str, ""),
    "WORKER_IMPORTS": (list, ["numpy"]),
    "SEED": (str, ""),  # salts every case's draw (suite/cases.py: case_seed); a new one redraws them all
    "CALL_SECONDS": (float, 10.0),  # the student's time one call may take (sandbox/student.py); an int will do
}
RELEASES = ("hidden", "after_due_date", "after_published", "visible")


def _a_number_for(kind: type, value: Any) -> bool:
    """An int where a float is asked for (``CALL_SECONDS = 3``); never a bool."""
    return kind is float and type(value) is int


class HomeworkError(Exception):
    """The homework folder cannot be loaded: the message names the file and the key."""


def default_folder() -> Path:
    """The homework this process grades: ``$AUTOGRADER_HOMEWORK``, else ``homework/`` (a zip) or ``reference/``."""
    chosen = os.environ.get(ENV, "").strip()
    if chosen:
        return Path(chosen).expanduser().resolve()
    shipped = CHECKOUT / "homework"
    return shipped if (shipped / "homework.py").is_file() else CHECKOUT / "reference"


def choose(folder: str | os.PathLike | None) -> None:
    """Make ``folder`` this process's homework (and its children's): the ``--homework`` option."""
    if folder is not None:
        os.environ[ENV] = str(Path(folder).expanduser().resolve())


class Homework:
    """One homework folder: its contract (``manifest``), its files, and its modules imported on demand."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        if not (folder / "homework.py").is_file():
            raise HomeworkError(f"{folder}: not a homework folder (no homework.py); choose one with --homework DIR "
                                f"or {ENV}")
        digest = hashlib.sha256(str(folder).encode()).hexdigest()[:8]
        self.package = f"homework_{re.sub(r'[^0-9A-Za-z_]', '_', folder.name)}_{digest}"
        if self.package not in sys.modules:
            package = types.ModuleType(self.package)
            package.__path__ = [str(folder)]  # type: ignore[attr-defined]
            package.__file__ = None
            sys.modules[self.package] = package
        self.manifest = self.module("homework")
        self._validate()

    # ---- the contract -------------------------------------------------------------------------------------

    def __getattr__(self, key: str) -> Any:
        """The manifest's value for an upper-case key (its default when it is optional and left out)."""
        if key.isupper():
            if hasattr(self.manifest, key):
                return getattr(self.manifest, key)
            if key in OPTIONAL:
                return OPTIONAL[key][1]
        raise AttributeError(key)

    def _validate(self) -> None:
        where = self.folder / "homework.py"
        for key, kind in {**REQUIRED, **{k: t for k, (t, _) in OPTIONAL.items()}}.items():
            if key in REQUIRED and not hasattr(self.manifest, key):
                raise HomeworkError(f"{where}: {key} is missing")
            value = getattr(self.manifest, key, None)
            if hasattr(self.manifest, key) and not isinstance(value, kind) and not _a_number_for(kind, value):
                raise HomeworkError(f"{where}: {key} must be a {kind.__name__}")
        if not re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", self.UPLOAD):
            raise HomeworkError(f"{where}: UPLOAD must be a module name (the upload is UPLOAD.py or UPLOAD.ipynb)")
        if self.HIDDEN not in RELEASES:
            raise HomeworkError(f"{where}: HIDDEN must be one of {', '.join(RELEASES)}")
        for function, tests in self.POINTS.items():
            if not isinstance(tests, Mapping) or not tests:
                raise HomeworkError(f"{where}: POINTS[{function!r}] must map test numbers to points")
            for number, points in tests.items():
                part = str(number).split(".")[0]
                if part not in self.PARTS:
                    raise HomeworkError(f"{where}: POINTS[{function!r}]: test {number} is in no part of PARTS")
                if not isinstance(points, (int, float)) or points <= 0:
                    raise HomeworkError(f"{where}: POINTS[{function!r}][{number!r}] must be a positive number")
        for caller, callees in {**self.CALLS}.items():
            unknown = {caller, *callees} - set(self.POINTS)
            if unknown:
                raise HomeworkError(f"{where}: CALLS names {', '.join(sorted(unknown))}, not in POINTS")
        if not 0 < self.CALL_SECONDS < 3600:
            raise HomeworkError(f"{where}: CALL_SECONDS must be more than 0 and less than 3600 (seconds per call)")
        if set(self.TOLERANCE) != {"rtol", "atol"}:
            raise HomeworkError(f"{where}: TOLERANCE must be {{'rtol': ..., 'atol': ...}}")

    # ---- its files -----------------------------------------------------------------------------------------

    @property
    def solution(self) -> Path:
        return self.folder / f"{self.UPLOAD}.py"

    @property
    def tests(self) -> Path:
        return self.folder / "tests"

    @property
    def generated(self) -> Path:
        return self.folder / "generated"

    @property
    def cases_file(self) -> Path:
        return self.generated / "cases" / "graded.npz"

    @property
    def student(self) -> Path:
        return self.folder / "student"

    @property
    def template(self) -> Path:
        return (self.folder / self.TEMPLATE).resolve()

    @property
    def readme(self) -> Path | None:
        return (self.folder / self.README).resolve() if self.README else None

    def has(self, relative: str) -> bool:
        return (self.folder / relative).exists()

    # ---- its modules ---------------------------------------------------------------------------------------

    def module(self, dotted: str) -> types.ModuleType:
        """The folder's module ``dotted`` (``"cases.graded"``, ``"generated.oracle"``), imported once."""
        try:
            return importlib.import_module(f"{self.package}.{dotted}")
        except ModuleNotFoundError as error:
            if error.name and error.name.startswith(f"{self.package}.{dotted.split('.', maxsplit=1)[0]}"):
                raise HomeworkError(f"{self.folder}: no {dotted.replace('.', '/')}.py") from error
            raise

    def optional(self, dotted: str) -> types.ModuleType | None:
        """``module(dotted)``, or None when the folder has no such file."""
        path = self.folder.joinpath(*dotted.split("."))
        if not (path.with_suffix(".py").is_file() or (path / "__init__.py").is_file()):
            return None
        return self.module(dotted)

    @functools.cached_property
    def sentences(self) -> dict[str, str]:
        module = self.optional("sentences")
        return dict(getattr(module, "SENTENCES", {})) if module is not None else {}

    def relative(self, path: Path) -> str:
        """``path`` as the instructor knows it: relative to the current folder when it is below it."""
        try:
            return path.resolve().relative_to(Path.cwd().resolve()).as_posix()
        except ValueError:
            return str(path)


@functools.cache
def _load(folder: Path) -> Homework:
    return Homework(folder)


_FEEDBACK = "autograder.feedback.compare"
_last: list[Homework] = []  # the homework ``load`` returned last: the feedback module's tolerance and sentences


def load(folder: str | os.PathLike | None = None) -> Homework:
    """The homework in ``folder`` (default: this process's, ``default_folder``), loaded once per process; the
    feedback module is set to its tolerance and sentences, now if it is imported, else when it is
    (``configure_feedback``): a process that never compares (``grade``'s own) never imports numpy."""
    homework = _load(Path(folder).resolve() if folder is not None else default_folder())
    _last[:] = [homework]
    compare = sys.modules.get(_FEEDBACK)
    if compare is not None:
        configure_feedback(compare)
    return homework


def configure_feedback(compare: types.ModuleType) -> None:
    """Set ``compare`` (``autograder.feedback.compare``) to the tolerance and sentences of the homework ``load``
    returned last (nothing before any load); compare calls it as it is imported."""
    for homework in _last:
        compare.configure(**homework.TOLERANCE, mistakes=homework.sentences)
