"""Files beside the graded one: choosing among several candidates, and the student's own modules it imports.

``choose``: when no file is named ``UPLOAD.py``/``.ipynb`` (the homework's upload name), the submission's only
``.py`` or ``.ipynb`` is graded,
or among several the one that defines most of the contract's functions (read with ``scan.py``, never run), with
a note saying which and why. ``imported_modules``: the ``.py`` files in the graded file's folder that its code
imports (``from helpers import softmax``), transitively, read through intake's bounds (``read_bytes``) and
shipped to the worker as modules, as Python would find them beside the student's script.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable, Collection
from pathlib import Path

from autograder import contract
from autograder.feedback.markdown import code_span
from autograder.intake.folder import MAX_ENTRIES
from autograder.intake.notebook import load_notebook
from autograder.intake.scan import Scan, scan
from autograder.intake.source import Chunk, IntakeError, Program, decode_py, read_bytes

MAX_CANDIDATES = 20  # files read to choose among (shallowest first)
MAX_MODULES = 50  # the student's own modules shipped with one submission
# files of the student template that are ours (public tests, feedback modules), and pytest's: never the submission
OURS = {f"test_{contract.UPLOAD}.py", f"{contract.UPLOAD}_feedback.py", "feedback_format.py", "conftest.py"}
NOT_SHIPPED = frozenset(sys.stdlib_module_names) | {"numpy", contract.UPLOAD}  # names the worker imports as they are
WORKER_MODULES = frozenset({"protocol", "worker", "worker_guards", "worker_proxies", "world_init",
                            "zygote"})  # the worker's own (sandbox/), loaded first


def choose(candidates: list[Path], wanted: Collection[str], shown: Callable[[Path], str]) -> tuple[Path, list[str]]:
    """The candidate to grade (``candidates``: shallowest first) and the note saying why."""
    scans = {path: code_scan(path) for path in candidates[:MAX_CANDIDATES]}
    imported = {name for found in scans.values() for name in found.imported}

    def rank(path: Path) -> tuple[int, bool, bool, int]:
        """Most graded functions defined; then not a module another candidate imports (a helper); a .py file;
        the walk's order (shallowest, then alphabetical)."""
        helper = path.suffix == ".py" and path.stem in imported
        return (-len(scans[path].defined & set(wanted)), helper, path.suffix.lower() != ".py", candidates.index(path))

    chosen = min(scans, key=rank)
    proper = contract.UPLOAD + chosen.suffix.lower()
    name = f"Your file is named {code_span(chosen.name)}; it was graded as `{proper}`. Please name it `{proper}`."
    if len(candidates) == 1:
        return chosen, [name]
    defines = len(scans[chosen].defined & set(wanted))
    used = scans[chosen].imported
    ignored = [code_span(shown(p)) for p in candidates if p != chosen and not (p.suffix == ".py" and p.stem in used)]
    why = (f"it defines the most graded functions ({defines} of {len(wanted)})" if defines
           else "none defines a graded function, so the first found was graded")
    more = f" and {len(ignored) - 4} more" if len(ignored) > 4 else ""
    rest = f" Ignored: {', '.join(ignored[:4])}{more}." if ignored else ""
    named = f"`{contract.UPLOAD}.py` or `{contract.UPLOAD}.ipynb`"
    return chosen, [f"Graded {code_span(shown(chosen))} as `{proper}`: of the {len(candidates)} Python files and "
                    f"notebooks in your submission (none named {named}), {why}.{rest} "
                    f"Please name your file `{proper}`."]


def code_scan(path: Path) -> Scan:
    """What a candidate file's code defines and imports (a .py file's text, a notebook's code cells); nothing when
    it cannot be read (grading it would say why)."""
    found = Scan()
    try:
        data = read_bytes(path, code_span(path.name))
        if path.suffix.lower() == ".ipynb":
            sources = [chunk.source for chunk in load_notebook(data, path.name).chunks]
        else:
            sources = [decode_py(data, path.name)]
    except IntakeError:
        return found
    for source in sources:
        found.add(scan(source))
    return found


def imported_modules(program: Program, graded: Path, files: list[Path],
                     shown: Callable[[Path], str]) -> tuple[dict[str, Chunk], list[str]]:
    """The student's modules in ``graded``'s folder that ``program`` imports, directly or through each other
    (module name -> Chunk), and notes on those that could not be shipped. ``files``: the submission's files
    (intake's walk: regular files only, within its bounds)."""
    if not _beside(graded, files):  # nothing it could import: no need to read its code for imports
        return {}, []
    found = Scan()
    for chunk in program.chunks:
        found.add(scan(chunk.source))
    return _modules(found.imported, graded, files, shown)


def _beside(graded: Path, files: list[Path]) -> dict[str, Path]:
    """The modules a program in ``graded`` could import from its folder, by name."""
    return {p.stem: p for p in files if p.parent == graded.parent and p.suffix == ".py" and p != graded
            and p.stem.isidentifier()}


def _modules(imported: set[str], graded: Path, files: list[Path],
             shown: Callable[[Path], str]) -> tuple[dict[str, Chunk], list[str]]:
    beside = _beside(graded, files)
    wanted, shipped, notes = sorted(imported), {}, []
    while wanted:
        name = wanted.pop(0)
        if name in shipped or name not in beside:
            continue
        path = beside[name]
        if name in NOT_SHIPPED | WORKER_MODULES:
            whose = "Python's own" if name in NOT_SHIPPED else "the grader's own"
            notes.append(f"{code_span(shown(path))} was not loaded: `import {name}` gives {whose} `{name}` module "
                         "here. Rename your file (and its imports).")
            continue
        if len(shipped) >= MAX_MODULES:
            notes.append(f"Your code imports more than {MAX_MODULES} of its own modules; {code_span(shown(path))} "
                         "and the rest were not loaded.")
            break
        try:
            source = decode_py(read_bytes(path, code_span(shown(path))), shown(path))
        except IntakeError as error:
            notes.append(f"{error} So `import {name}` fails.")
            continue
        shipped[name] = Chunk(shown(path), shown(path), source)
        wanted += sorted(scan(source).imported - set(shipped))
    return shipped, notes


def imported_siblings(path: Path) -> list[Path]:
    """The ``.py`` files beside ``path`` (a file given to ``grade``) that its code imports, directly or through
    each other: what the student's machine would import from there. Read within intake's bounds."""
    try:
        with os.scandir(path.parent) as listing:
            files = [Path(e.path) for _, e in zip(range(MAX_ENTRIES), listing)
                     if e.name.endswith(".py") and e.is_file(follow_symlinks=False)]
    except OSError:
        return []
    if not _may_name(path, [f.stem for f in files if f != path]):
        return []
    shipped, _ = _modules(code_scan(path).imported, path, files, lambda p: p.name)
    return [path.parent / chunk.filename for chunk in shipped.values()]


def _may_name(path: Path, stems: list[str]) -> bool:
    """Whether ``path``'s bytes may import one of ``stems``: an import names its module, so a .py file in an
    ASCII-compatible encoding whose bytes hold none of the (ASCII) names cannot (~15 ms of tokenizing spared for a
    file with siblings it never imports). Anything else (a notebook, UTF-16, a large file) is scanned."""
    if not stems or path.suffix.lower() != ".py" or not all(stem.isascii() for stem in stems):
        return bool(stems)
    try:
        with path.open("rb") as f:
            data = f.read(MAX_SCANNED)
    except OSError:
        return True
    return len(data) >= MAX_SCANNED or b"\0" in data or any(stem.encode() in data for stem in stems)


MAX_SCANNED = 4 * 2**20  # bytes read for that look; a larger file is scanned as before


def ours(name: str) -> bool:
    """Whether a file of this name is one we ship or a test file, never a student's submission: the template's
    public tests and feedback modules (``OURS``), any pytest file (``test_*.py``, ``*_test.py``) and
    Jupyter's checkpoint copies."""
    lower = name.lower()
    return (lower in OURS or (lower.startswith("test_") and lower.endswith(".py")) or lower.endswith("_test.py")
            or lower.endswith("-checkpoint.ipynb"))


def loose_files(folder: Path) -> list[Path]:
    """The files of several students side by side in ``folder`` (``alice.py``, ``dave.ipynb``), or [] when it looks
    like one student's: fewer than two Python files or notebooks (ours left aside), or one named ``attention.py`` or
    ``.ipynb``. Which files belong to one student is never inferred from imports: ``alice.py`` saying ``import bob``
    would give bob's code to alice (``alone_note`` tells her why the import fails)."""
    try:
        with os.scandir(folder) as listing:
            entries = [Path(e.path) for _, e in zip(range(MAX_ENTRIES), listing)
                       if not e.name.startswith(".") and e.is_file(follow_symlinks=False)]
    except OSError:
        return []
    files = sorted(p for p in entries if p.suffix.lower() in (".py", ".ipynb") and not ours(p.name))
    if len(files) < 2 or any(p.name.lower() in (f"{contract.UPLOAD}.py", f"{contract.UPLOAD}.ipynb") for p in files):
        return []
    return files


def alone_notes(graded: Path) -> list[str]:
    """For a file graded alone (a loose file of a class folder, copied by itself; or one given by path): a note for
    each ``.py`` file beside it that its code imports, which is not shipped with it (it is a submission of its own),
    so that import fails as it would on any other machine."""
    beside = sorted(name for name in code_scan(graded).imported - NOT_SHIPPED - WORKER_MODULES
                    if name.isidentifier() and (graded.parent / f"{name}.py").is_file() and name != graded.stem)
    return [f"`import {name}` fails here: {code_span(name + '.py')} beside your file is graded as a submission of "
            "its own, never as part of yours. Put your own modules in one folder with your file, or in it."
            for name in beside[:MAX_MODULES]]
