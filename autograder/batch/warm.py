"""What a warm grader has done before it is forked for a submission.

The batch's fork server imports this module once (``set_forkserver_preload``), so
every grading process starts as a fork that already has, per submission saved:

* numpy, pytest (and its default plugins) and the grading engine imported: a
  Python start-up and ~1 s of imports;
* the graded suite imported by pytest itself, with its assertion rewriting, exactly
  as ``runner.grade_folder`` would (a ``--collect-only`` session with the runner's own
  arguments): pytest finds the modules in ``sys.modules`` instead of parsing and
  rewriting them again (PYTHONDONTWRITEBYTECODE leaves no cache on disk): ~0.1 s;
* the graded session's pytest config made (arguments parsed, plugins loaded): ~0.02 s;
* the stored graded cases read (the suite caches them per process, read-only): ~0.1 s;
* the worker's modules compiled (their bytecode goes into every run folder): ~11 ms;
* as root, the engine's check that the sandbox user can run this Python: ~0.15 s, and
  whether the kernel gives workers a private world (namespaces): ~15 ms;
* the heap frozen for the garbage collector (``gc.freeze``): pytest collects garbage
  at the end of every session, ~0.2 s over the preloaded heap;
* as root with a private world, the zygote started (sandbox/zygotes.py): each fork's
  worker is forked from it with numpy imported instead of started: ~0.1 s of CPU.

Only definitions, imports and read-only data are shared, and each fork has its own
copy of them, so every submission is graded as by a fresh ``run_autograder`` (its
worker included: the same user, limits, world and environment, its own random state).
"""

from __future__ import annotations

import gc
import importlib
import os
import sys

from autograder.batch import lifeline

ENGINE = (
    "autograder.runner",
    "autograder.results.document",
    "autograder.intake.submission",
    "autograder.sandbox.protocol",
    "autograder.sandbox.supervisor",
    "autograder.sandbox.student",
    "autograder.results.plugin",
    "autograder.feedback.compare",
    "autograder.suite.cases",
    "autograder.commands.grade",
)


def preload() -> list[str]:
    """Import everything a grading process needs; return what could not be imported."""
    missing = []
    for name in ("numpy", "pytest", *_pytest_plugins(), *ENGINE):
        try:
            importlib.import_module(name)
        except Exception:  # an optional or not-yet-written module: the child imports it if needed
            missing.append(name)
    return missing


def _pytest_plugins() -> list[str]:
    try:
        from _pytest.config import default_plugins
    except ImportError:
        return []
    return [f"_pytest.{name}" for name in default_plugins] + ["_pytest.python_api", "_pytest.assertion.rewrite"]


def precollect() -> bool:
    """Import the graded suite the way the runner's pytest session would; False if that failed."""
    try:
        import contextlib
        import io

        import pytest

        from autograder import runner

        with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
            status = pytest.main([*runner._pytest_args(), "--collect-only"])
    except Exception:
        return False
    return status == 0


def prepare_pytest() -> bool:
    """The graded session's pytest config made once, for every fork to run (runner.run_pytest): ~0.02 s."""
    try:
        from autograder import runner

        runner.prepare_pytest()
    except Exception:
        return False
    return True


def preread_cases() -> bool:
    """Read the stored graded cases once here (the suite reads them once per process anyway), and import the
    homework's diagnosis and oracle.

    ``autograder.suite.graded.support.all_cases`` is cached per process and returns read-only
    arrays, so forks can share one copy: ~0.1 s less per submission.
    """
    support = sys.modules.get("autograder.suite.graded.support")
    all_cases = getattr(support, "all_cases", None)
    if not callable(all_cases):
        return False
    try:
        all_cases()
        from autograder.suite.graded import callees, hooks

        hooks.module()  # the homework's diagnosis and oracle, imported once for every fork (else at its first
        callees.servable()  # failing case)
    except Exception:
        return False
    return True


def probe_sandbox_user() -> bool:
    """As root, find out once whether the sandbox user can run this Python (the engine caches it).

    The engine checks that once per grading process, with a Python start-up as that
    user (~0.15 s); every fork inherits the cached answer instead. Files do not change
    permissions during a batch.
    """
    sandbox = sys.modules.get("autograder.sandbox.supervisor")
    probe = getattr(sandbox, "user_can_run", None)
    if not callable(probe) or not hasattr(os, "geteuid") or os.geteuid() != 0:
        return False
    import pwd

    names = os.environ.get("AUTOGRADER_BATCH_USERS") or os.environ.get(sandbox.USER_ENV) or sandbox.DEFAULT_USER
    probed = False
    for name in names.split(","):  # one sandbox user per parallel slot (see batch/isolation.py)
        try:
            probe(sys.executable, pwd.getpwnam(name))
            probed = True
        except Exception:
            continue
    return probed


def compile_worker() -> bool:
    """Compile the worker's modules once for every fork (sandbox/runfolder.py: ~11 ms each saved)."""
    try:
        from autograder.sandbox import runfolder

        for name in runfolder.MODULES:
            runfolder.bytecode(name)
    except Exception:
        return False
    return True


def probe_world() -> str:
    """Whether workers get a private world here (sandbox/namespace.py), found once for every fork (~15 ms
    each saved); without one, the world-writable folders to clean are found once too (~0.1 s). The seccomp
    probe (sandbox/seccomp.py, a fork) too."""
    try:
        from autograder.sandbox import namespace, reaper, seccomp

        seccomp.unavailable()
        missing = namespace.unavailable()
        if missing and hasattr(os, "geteuid") and os.geteuid() == 0:
            reaper.world_writable_dirs()
    except Exception:
        return "unknown"
    return missing


def start_zygote() -> str:
    """As root with a private world: start the zygote every grading forks its worker from (sandbox/zygotes.py:
    ~0.08 s of CPU less per submission); '' when it runs, else why not."""
    try:
        from autograder.sandbox import zygotes

        return zygotes.start()
    except Exception as e:
        return f"the zygote did not start: {e}"


lifeline.in_fork_server()  # dies with the batch's main process (lifeline.py)
MISSING = preload()
COLLECTED = precollect()
PREPARED = prepare_pytest()
CASES = preread_cases()
PROBED = probe_sandbox_user()
COMPILED = compile_worker()
WORLD = probe_world()
ZYGOTE = start_zygote()
gc.freeze()  # all of the above lives as long as the process: keep it out of the collector's way
