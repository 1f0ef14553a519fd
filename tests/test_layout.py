"""The package layout's rules (the ``__init__`` docstrings of autograder/'s folders): who may import whom.

Imports are read from the source (lazy ones inside functions included), so a rule broken anywhere fails here.
"""

from __future__ import annotations

import ast
import re
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
PACKAGE = REPO / "autograder"

# room -> the rooms it may import (a room is a folder of autograder/, or a top-level module)
MAY_IMPORT = {
    "feedback": set(),
    "homework": {"feedback"},  # the loader sets the feedback module's tolerance and sentences
    "contract": {"homework"},
    "intake": {"contract", "feedback"},
    "sandbox": {"contract", "feedback"},
    "results": {"contract"},
    "suite": {"contract", "feedback", "homework", "sandbox"},
    "api": {"contract", "feedback", "sandbox", "suite"},  # what a homework imports
    "devapi": {"suite"},  # ... and its dev-time files (case specs), never shipped
    "runner": {"contract", "feedback", "intake", "results", "sandbox"},
    "commands": {"contract", "feedback", "homework", "intake", "results", "runner", "sandbox", "suite"},
    "batch": {"commands", "contract", "feedback", "intake", "results", "runner", "sandbox", "suite"},
    "cli": {"homework"},  # --homework; dispatches to commands by module name, lazily
    "__main__": {"cli"},
    "__init__": set(),
}
# files that run inside the sandbox or are copied into the student template: stdlib and numpy only
SELF_CONTAINED = {
    "sandbox/worker.py": {"protocol", "seccomp", "worker_guards", "worker_proxies"},  # all four copied next to it
    "sandbox/worker_guards.py": set(),
    "sandbox/worker_proxies.py": set(),
    "sandbox/protocol.py": set(),
    "sandbox/seccomp.py": set(),
    "sandbox/world_init.py": set(),  # runs as the private world's PID 1, with -S
    "sandbox/zygote.py": {"protocol", "worker", "world_init"},  # copied next to them: the workers' warm parent
    "feedback/compare.py": {".", "feedback_format"},  # relative here, top-level in the template
    "feedback/feedback_format.py": set(),
}


def modules() -> dict[str, Path]:
    """Dotted module name -> file, for every module of the package."""
    found = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
        name = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
        found[name] = path
    return found


def imported(path: Path) -> set[str]:
    """Every ``autograder...`` module ``path`` imports, resolved to a module of the package."""
    names = set(modules())
    out = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            out |= {a.name for a in node.names if a.name.split(".")[0] == "autograder"}
        elif isinstance(node, ast.ImportFrom) and not node.level and (node.module or "").startswith("autograder"):
            for alias in node.names:
                full = f"{node.module}.{alias.name}"
                out.add(full if full in names else node.module)
    return out


def room(module: str) -> str:
    parts = module.split(".")
    if len(parts) == 1:
        return "__init__"
    return parts[1]


def top_level_imports(path: Path) -> set[str]:
    out = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            out |= {a.name.split(".")[0] for a in node.names}
        elif isinstance(node, ast.ImportFrom):
            out.add("." if node.level else node.module.split(".")[0])
    return out


def test_every_room_has_a_rule() -> None:
    assert {room(m) for m in modules()} <= set(MAY_IMPORT)


@pytest.mark.parametrize("module", sorted(modules()))
def test_imports_follow_the_layout_rules(module: str) -> None:
    mine = room(module)
    crossing = {room(d) for d in imported(modules()[module])} - {mine}
    assert crossing <= MAY_IMPORT[mine], f"{module} imports {sorted(crossing - MAY_IMPORT[mine])}"


def test_no_import_cycle_between_modules() -> None:
    graph = {m: imported(p) - {m} for m, p in modules().items()}
    state: dict[str, int] = {}  # 1: on the current path, 2: done

    def visit(node: str, path: list[str]) -> None:
        state[node] = 1
        for dep in sorted(graph.get(node, ())):
            if state.get(dep) == 1:
                pytest.fail("import cycle: " + " -> ".join([*path[path.index(dep):], dep]))
            if dep not in state:
                visit(dep, [*path, dep])
        state[node] = 2

    for start in sorted(graph):
        if start not in state:
            visit(start, [start])


@pytest.mark.parametrize("relpath", sorted(SELF_CONTAINED))
def test_sandbox_and_template_files_import_only_the_standard_library_and_numpy(relpath: str) -> None:
    allowed = {"__future__", "numpy"} | SELF_CONTAINED[relpath] | set(sys.stdlib_module_names)
    assert top_level_imports(PACKAGE / relpath) <= allowed


def test_an_upward_import_is_seen_even_inside_a_function(tmp_path: Path) -> None:
    """The checker itself: a lazy import of a command from the sandbox would be caught."""
    probe = tmp_path / "probe.py"
    probe.write_text("def f():\n    from autograder.commands import grade\n    import autograder.suite.regen\n")
    found = imported(probe)
    assert found == {"autograder.commands.grade", "autograder.suite.regen"}
    assert {room(m) for m in found} - MAY_IMPORT["sandbox"] == {"commands", "suite"}


def design_layout() -> str:
    text = (REPO / "docs" / "DESIGN.md").read_text(encoding="utf-8")
    return text.split("## Layout", 1)[1].split("```", 2)[1]


def test_design_doc_names_every_folder_and_module_of_the_tree() -> None:
    """docs/DESIGN.md's layout block matches the tree: each folder, and each module outside batch/."""
    block = design_layout()
    folders = {p.name for p in PACKAGE.iterdir() if p.is_dir() and (p / "__init__.py").exists()}
    folders |= {p.name for p in PACKAGE.glob("*/*") if p.is_dir() and (p / "__init__.py").exists()}
    missing = {f"{name}/" for name in folders if f"{name}/" not in block}
    files = {p.name for p in PACKAGE.rglob("*.py") if p.name not in ("__init__.py", "__main__.py")
             and "batch" not in p.relative_to(PACKAGE).parts}
    missing |= {name for name in files if name not in block}
    assert not missing, f"not in docs/DESIGN.md's layout: {sorted(missing)}"


def test_design_doc_names_no_module_that_is_gone() -> None:
    listed = set(re.findall(r"\b([a-z_]+\.py)\b", design_layout()))
    present = {p.name for p in REPO.rglob("*.py") if ".venv" not in p.parts}
    assert listed <= present, f"docs/DESIGN.md names files that do not exist: {sorted(listed - present)}"


HOMEWORKS = [p.parent for p in [REPO / "reference" / "homework.py", *REPO.glob("examples/*/homework.py")]
             if p.is_file()]


@pytest.mark.parametrize("folder", HOMEWORKS, ids=lambda p: p.name)
def test_a_homework_imports_only_the_engines_api(folder: Path) -> None:
    """Both directions: a homework reaches the engine through ``autograder.api`` only, and no engine module imports
    a homework (the loader, autograder/homework.py, imports it by path)."""
    for path in sorted(folder.rglob("*.py")):
        if "student_template" in path.parts or "student" in path.relative_to(folder).parts[:1]:
            continue  # handed to students: numpy and the standard library only
        engine = {m for m in imported(path)} | {n for n in top_level_imports(path) if n == "autograder"}
        allowed = {"autograder.api", "autograder"}
        if path.relative_to(folder).parts[0] in ("cases", "mistakes.py"):  # dev-time only, like regen
            allowed.add("autograder.devapi")
        assert engine <= allowed, f"{path.relative_to(REPO)} imports {sorted(engine)}"
    for module, path in modules().items():
        assert not top_level_imports(path) & {"reference", "examples", "tests"}, module
