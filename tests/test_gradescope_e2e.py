"""End to end: the built zip, laid out as Gradescope lays it out, graded by its own scripts.

Gradescope unzips the upload into ``/autograder/source``, runs ``setup.sh`` there once
as root, then for each submission puts the files in ``/autograder/submission``, runs
``/autograder/run_autograder`` and reads ``/autograder/results/results.json``. We do
the same in a temporary root (``AUTOGRADER_ROOT``), with the system Python the
sandbox user can run, as Gradescope's image has.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import tempfile
import zipfile
from pathlib import Path

import pytest

from autograder import contract
from autograder.commands import build, template
from autograder.sandbox import namespace
from tests.homework import HOMEWORK, TOTAL
from tests.hostile import explore
from tests.submissions import REFERENCE, TEMPLATE, notebook_from_source

pytestmark = pytest.mark.slow

SCHEMA = Path(__file__).parent / "schema" / "gradescope_results.schema.json"


@pytest.fixture(scope="module")
def gradescope_root(tmp_path_factory: pytest.TempPathFactory) -> Path:
    zip_path = build.build_zip(tmp_path_factory.mktemp("dist") / "autograder.zip")
    # Like /autograder: directly under a world-traversable directory, so the sandbox
    # user can reach the venv once run_autograder has locked everything else down.
    root = Path(tempfile.mkdtemp(prefix="gradescope-root-", dir="/tmp"))
    unzip(zip_path, root / "source")
    setup = run_setup(root)
    assert setup.returncode == 0, setup.stdout
    yield root
    shutil.rmtree(root, ignore_errors=True)


def unzip(zip_path: Path, destination: Path) -> None:
    """Extract keeping the executable bits, as Gradescope's unzip does."""
    with zipfile.ZipFile(zip_path) as zf:
        for info in zf.infolist():
            target = destination / info.filename
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes(zf.read(info))
            target.chmod((info.external_attr >> 16) & 0o777 or 0o644)


def run_setup(root: Path, wrapper: tuple[str, ...] = ()) -> subprocess.CompletedProcess:
    return subprocess.run(
        [*wrapper, "bash", "setup.sh"],
        cwd=root / "source",
        env=clean_env(root),
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        timeout=600,
        check=False,
    )


def clean_env(root: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("AUTOGRADER_", "PYTHON", "VIRTUAL_ENV"))}
    return dict(env, AUTOGRADER_ROOT=str(root))


def grade_on_gradescope(root: Path, files: dict[str, bytes], wrapper: tuple[str, ...] = ()) -> dict:
    """Put ``files`` in submission/, run run_autograder like Gradescope (inside ``wrapper``), return results.json."""
    for folder in ("submission", "results"):
        shutil.rmtree(root / folder, ignore_errors=True)
        (root / folder).mkdir()
    for name, content in files.items():
        (root / "submission" / name).parent.mkdir(parents=True, exist_ok=True)
        (root / "submission" / name).write_bytes(content)
    shutil.copy2(root / "source" / "run_autograder", root / "run_autograder")
    done = subprocess.run(
        [*wrapper, str(root / "run_autograder")],
        cwd=root,
        env=clean_env(root),
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        timeout=300,
        check=False,
    )
    assert done.returncode == 0, done.stdout
    return json.loads((root / "results" / "results.json").read_text())


def validate(data: dict) -> None:
    jsonschema = pytest.importorskip("jsonschema")
    jsonschema.validate(data, json.loads(SCHEMA.read_text()))


def total(data: dict) -> tuple[float, float]:
    return sum(t["score"] for t in data["tests"]), sum(t["max_score"] for t in data["tests"])


def test_zip_holds_the_scripts_at_its_root_and_nothing_unneeded(tmp_path: Path) -> None:
    with zipfile.ZipFile(build.build_zip(tmp_path / "a.zip")) as zf:
        names = zf.namelist()
        modes = {info.filename: (info.external_attr >> 16) & 0o777 for info in zf.infolist()}
    assert {"setup.sh", "run_autograder", "requirements.txt"} <= set(names)
    assert modes["setup.sh"] & 0o111 and modes["run_autograder"] & 0o111
    forbidden = ("reference/", "tests/", "student_template/", ".venv/", ".git/", "examples/", "docs/")
    assert not [n for n in names if n.startswith(forbidden) or "__pycache__" in n or n.endswith(".pyc")]
    assert not [n for n in build.DEV_ONLY if n in names]


def test_every_module_in_the_zip_imports_only_modules_in_the_zip() -> None:
    """A dev-only module (the case builders, the commands) left out of the zip is never needed by one in it."""
    from tests.test_layout import imported, modules

    shipped = {n for n in build.zip_members() if n.endswith(".py")}
    by_path = {str(path.relative_to(build.REPO)): name for name, path in modules().items()}
    names = {by_path[n] for n in shipped if n in by_path}
    missing = {by_path[n]: sorted(d for d in imported(build.REPO / n) if d not in names)
               for n in shipped if n in by_path}
    assert not {k: v for k, v in missing.items() if v}
    assert "autograder.suite.regen" not in names and "autograder.runner" in names


ORACLE = "homework/generated/oracle.py"  # the grader's own correct functions (served to probes), root-only


def test_zip_carries_no_solution_code_but_the_graders_oracle(tmp_path: Path) -> None:
    with zipfile.ZipFile(build.build_zip(tmp_path / "a.zip")) as zf:
        text = "\n".join(zf.read(n).decode("utf-8", "replace") for n in zf.namelist()
                         if n.endswith(".py") and n != ORACLE)
        oracle = zf.read(ORACLE).decode("utf-8")
    assert "BEGIN SOLUTION" not in text + oracle
    assert "def scaled_dot_product_attention(" not in text  # the solution lives in the oracle only
    assert oracle.encode("utf-8") == template.oracle_source(template.REFERENCE.read_text(encoding="utf-8"))
    imports = re.findall(r"^\s*(?:from|import)\s+reference\b.*$", text, flags=re.MULTILINE)
    assert imports == []


def test_build_is_deterministic(tmp_path: Path) -> None:
    a = build.build_zip(tmp_path / "a.zip").read_bytes()
    b = build.build_zip(tmp_path / "b.zip").read_bytes()
    assert a == b


def test_setup_is_idempotent(gradescope_root: Path) -> None:
    again = run_setup(gradescope_root)
    assert again.returncode == 0, again.stdout
    assert "up to date" in again.stdout


def test_reference_py_gets_full_marks(gradescope_root: Path) -> None:
    data = grade_on_gradescope(gradescope_root, {"attention.py": REFERENCE.read_bytes()})
    validate(data)
    score, max_score = total(data)
    assert max_score == TOTAL
    assert score == TOTAL, [t["name"] for t in data["tests"] if t["status"] != "passed"]


def test_reference_notebook_gets_full_marks(gradescope_root: Path) -> None:
    notebook = notebook_from_source(REFERENCE.read_text(), scratch=True)
    data = grade_on_gradescope(gradescope_root, {"hw/attention.ipynb": notebook.encode()})
    validate(data)
    assert total(data) == (TOTAL, TOTAL), [t["name"] for t in data["tests"] if t["status"] != "passed"]


def test_template_gets_zero_with_every_test_reported(gradescope_root: Path) -> None:
    data = grade_on_gradescope(gradescope_root, {"attention.py": TEMPLATE.read_bytes()})
    validate(data)
    assert total(data) == (0, TOTAL)
    assert len(data["tests"]) >= 30
    assert all("not implemented" in t["output"].lower() for t in data["tests"] if t["visibility"] == "visible")


def test_a_forged_score_is_overwritten_and_nothing_survives(gradescope_root: Path) -> None:
    hostile = (HOMEWORK.folder / "examples" / "hostile" / "forge_score" / "attention.py").read_bytes()
    data = grade_on_gradescope(gradescope_root, {"attention.py": hostile})
    validate(data)
    assert total(data)[0] == 0
    assert "forged" not in json.dumps(data)
    if os.geteuid() == 0:
        assert unheld_leftovers("agsandbox") == []


def unheld_leftovers(base: str) -> list[str]:
    """Processes of the users of ``base``'s pool that no grading holds (sandbox/lock.py): a user another grading
    on this machine holds (a batch, another engineer's tests) runs that grading's processes, not leftovers."""
    import fcntl

    from autograder.sandbox import lock

    found = []
    for name in lock.members(base, lock.LOCK_DIRS):  # however many the pool has grown to
        path = Path(lock.LOCK_DIRS[0]) / f"{name}.lock"
        if not path.exists():
            continue
        fd = os.open(path, os.O_RDWR)
        try:
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except OSError:
                continue
            done = subprocess.run(["pgrep", "-u", name], stdout=subprocess.PIPE, text=True, check=False)
            found += [f"{name}: {pid}" for pid in done.stdout.split()]
        finally:
            os.close(fd)
    return found


@pytest.mark.skipif(os.geteuid() != 0 or namespace.unavailable() != "", reason="needs root and namespaces")
def test_a_submission_walking_the_machine_sees_nothing_outside_its_own_world(gradescope_root: Path) -> None:
    """In /autograder's layout, the walk of / and /proc finds nothing of the root (source, results, the
    submission's copy) but the venv it runs on, no other run folder and no other process."""
    source = explore.submission([str(gradescope_root), "BEGIN SOLUTION"], list(contract.FUNCTIONS))
    data = grade_on_gradescope(gradescope_root, {"attention.py": source.encode()})
    found = {m.group(0) for t in data["tests"] for m in [re.search(r"EXPLORED .*? END", t["output"])] if m}
    assert len(found) == 1, data["output"][:500]
    assert re.fullmatch(r"EXPLORED read=\d+ complete=1 hits=0 runs=1 commands=0 first=none END", found.pop())


# ---------------------------------------------------------------- under Docker's default capabilities

# What Docker grants a container's root by default (no CAP_SYS_ADMIN: no namespaces, no network namespace).
DOCKER_CAPS = {"chown", "dac_override", "fsetid", "fowner", "mknod", "net_raw", "setgid", "setuid", "setfcap",
               "setpcap", "net_bind_service", "sys_chroot", "kill", "audit_write"}


def docker_wrapper() -> tuple[str, ...]:
    """capsh dropping from the bounding set every capability this kernel has that Docker does not grant; the
    command follows (``bash -c 'exec "$@"'``)."""
    last = int(Path("/proc/sys/kernel/cap_last_cap").read_text())
    names = subprocess.run(["capsh", f"--decode={(1 << (last + 1)) - 1:x}"], capture_output=True, text=True,
                           check=True).stdout.split("=", 1)[1].strip().split(",")
    drop = sorted(n for n in names if n.removeprefix("cap_") not in DOCKER_CAPS)
    assert "cap_sys_admin" in drop and "cap_sys_ptrace" in drop
    return ("capsh", f"--drop={','.join(drop)}", "--", "-c", 'exec "$@"', "capsh")


@pytest.fixture(scope="module")
def docker_root(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The zip set up and graded as root with Docker's default capabilities only (``capsh --drop``)."""
    if os.geteuid() != 0 or not shutil.which("capsh"):
        pytest.skip("needs root and capsh (apt-get install libcap2-bin)")
    zip_path = build.build_zip(tmp_path_factory.mktemp("dist") / "autograder.zip")
    root = Path(tempfile.mkdtemp(prefix="gradescope-docker-", dir="/tmp"))
    unzip(zip_path, root / "source")
    setup = run_setup(root, docker_wrapper())
    assert setup.returncode == 0, setup.stdout
    yield root
    shutil.rmtree(root, ignore_errors=True)


def test_under_dockers_capabilities_the_zip_grades_without_namespaces_and_without_network(docker_root: Path) -> None:
    """Namespaces are refused (no CAP_SYS_ADMIN) and grading falls back: the reference gets 100, the template 0,
    and a correct submission that sends to a TCP and a UDP listener on 127.0.0.1 (at load and with every input
    of scaled_dot_product_attention) delivers nothing: the seccomp filter refuses its sockets, and says so."""
    from tests.test_seccomp import Listener, leaking_submission

    wrapper = docker_wrapper()
    data = grade_on_gradescope(docker_root, {"attention.py": REFERENCE.read_bytes()}, wrapper)
    validate(data)
    assert total(data) == (TOTAL, TOTAL), [t["name"] for t in data["tests"] if t["status"] != "passed"]
    layers = data["extra_data"]["isolation_layers"]
    assert any(layer.startswith("no private world") for layer in layers), layers
    assert any(layer.startswith("seccomp: no network sockets") for layer in layers), layers
    assert total(grade_on_gradescope(docker_root, {"attention.py": TEMPLATE.read_bytes()}, wrapper)) == (0, TOTAL)
    listener = Listener()
    source = leaking_submission(listener.tcp.getsockname()[1], listener.udp.getsockname()[1])
    data = grade_on_gradescope(docker_root, {"attention.py": source.encode()}, wrapper)
    assert listener.close() == []
    validate(data)
    assert "network access is not allowed while grading" in data["output"]
    own = [t for t in data["tests"] if t["name"].startswith("scaled_dot_product_attention")
           and t["visibility"] == "visible"]
    assert own and all(t["score"] == 0 and "network access is not allowed while grading" in t["output"] for t in own)
    assert "grader_error" not in data.get("extra_data", {})
