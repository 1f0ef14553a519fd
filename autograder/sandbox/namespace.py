"""The worker's private world, wherever the kernel allows it: new namespaces and a minimal filesystem view.

As root, ``command`` wraps the worker's command line in util-linux's ``unshare`` (new mount, PID,
network, IPC and UTS namespaces; ``--fork --kill-child``) running ``world_init.py`` as the
namespace's PID 1, which builds the view (see its docstring) and starts the worker as the sandbox
user. What the worker then sees: the system's ``/usr`` (and ``/bin``, ``/lib``... or their
symlinks), the interpreter's prefixes (a venv and its base, at their own paths: the folders above
them are the world's own, 0755, so a venv in a folder the sandbox user cannot enter on the host
serves as it is; runtime.py) and a few files of ``/etc``, all read-only; its modules and their
bytecode (runfolder.py); its home and ``/tmp`` in one private tmpfs (``TMPFS``: size and inode
caps), another for ``/dev/shm``; a ``/dev`` with null, zero, full, random and urandom; its own
``/proc``. Nothing of the checkout, the export, OUTDIR, another slot or another process.

``unavailable()`` says once per process (a probe, ~5 ms) why not ('' when it works): not root,
``AUTOGRADER_NAMESPACES=0`` (the switch tests use to simulate a container that forbids them), no
``unshare``, or the kernel refused (Docker's default seccomp profile does).
"""

from __future__ import annotations

import contextlib
import marshal
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from autograder.sandbox import seccomp

PATH = "/usr/bin:/bin:/usr/sbin:/sbin"  # where unshare is looked for
SWITCH = "AUTOGRADER_NAMESPACES"  # "0": never use namespaces (simulates a kernel that forbids them)
NAMESPACES = ("mount", "pid", "net", "ipc", "uts")
TMPFS = {"/tmp": (64, 4096), "/dev/shm": (16, 256)}  # path -> (MiB, inodes); the home lives in /tmp's
SYSTEM = ("/usr", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32")
ALIASES = [["/var/tmp", "/tmp"]]  # symlinks made in the world: what code expects to find
ETC = ("/etc/ld.so.cache", "/etc/localtime")  # not even /etc/passwd: the names of the other sandbox users
INSTEAD: dict[tuple[str, str], str] = {}  # (python, unavailable()) -> what runs instead (runtime.py's copy)
INIT = Path(__file__).resolve().with_name("world_init.py")
SETUP_FAILED = 121  # world_init's exit status when the view could not be built
_verdict: list[str] = []  # the cached answer of unavailable()


def unavailable() -> str:
    """Why the worker cannot have a private world here ('' when it can); probed once per process."""
    reason = _before_probing()
    if reason:
        return reason
    if not _verdict:
        _verdict.append(_probe())
    return _verdict[0]


def _before_probing() -> str:
    if os.environ.get(SWITCH, "1") == "0":
        return f"namespaces are switched off ({SWITCH}=0)"
    if os.geteuid() != 0:
        return "the grader is not root"
    if not shutil.which("unshare", path=PATH):
        return "util-linux's unshare is not installed"
    return ""


def probe_early() -> None:
    """Start ``unavailable``'s probe now without waiting for it (``runner.main``, before its imports): the
    grading asks at its sandbox's start, and the probe's ~5 ms have passed by then."""
    if not _verdict and not _probing and not _before_probing():
        with contextlib.suppress(OSError, subprocess.SubprocessError):
            _probing.append(_start_probe())


_probing: list[subprocess.Popen] = []  # the probe probe_early started, until unavailable() reads it


def _start_probe() -> subprocess.Popen:
    unshare = shutil.which("unshare", path=PATH) or "unshare"
    return subprocess.Popen([unshare, *(f"--{name}" for name in NAMESPACES), "--fork", "--kill-child", "true"],
                            stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd="/")


def _probe() -> str:
    """Create the namespaces once around /bin/true (~5 ms): '' when the kernel allows them, else why not.

    Building the view needs nothing more than these as root; should it fail anyway, the worker does not
    start and the grading is a grader error (world_init says why in the worker's output)."""
    try:
        proc = _probing.pop() if _probing else _start_probe()
        try:
            _, err = proc.communicate(timeout=30)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.communicate()
            raise
    except (OSError, subprocess.SubprocessError) as e:
        return f"unshare failed: {e}"
    if proc.returncode == 0:
        return ""
    lines = err.decode("utf-8", "replace").strip().splitlines()
    return f"the kernel refused them ({lines[-1] if lines else f'status {proc.returncode}'})"


def command(argv: list[str], *, python: str, files: list[str], home: str, account: object | None,
            groups: tuple[Path, ...] = ()) -> list[str]:
    """``argv`` run in a private world: ``files`` visible read-only, ``home`` a private directory of
    ``account`` (a pwd entry; None: stays root), and the interpreter ``python`` with its packages. The world's
    init joins the cgroups ``groups`` first (the slot's), so the worker is born in them."""
    world = spec(python=python, files=files, home=home, account=account)
    world["groups"] = [str(group / "cgroup.procs") for group in groups]
    unshare = shutil.which("unshare", path=PATH) or "unshare"
    return [unshare, *(f"--{name}" for name in NAMESPACES), "--fork", "--kill-child", "--propagation", "private",
            python, "-I", "-S", "-B", str(INIT), marshal.dumps(world).hex(), "--", *argv]


def spec(*, python: str, files: list[str], home: str, account: object | None) -> dict:
    """What world_init.build makes of the world (the arguments as ``command``'s)."""
    uid, gid = (account.pw_uid, account.pw_gid) if account is not None else (0, 0)  # type: ignore[attr-defined]
    binds, links = view(python)
    shown = [f for f in (*ETC, *files) if os.path.exists(f)]
    return {"root": _mountpoint([*binds, *shown, home]), "binds": binds, "symlinks": links, "files": shown,
            "tmpfs": TMPFS, "home": home, "uid": uid, "gid": gid, "switch": account is not None}


def _mountpoint(shown: list[str]) -> str:
    """A directory to mount the new root on (inside the new namespace only), above none of what is shown."""
    for path in ("/mnt", "/media", "/srv", "/opt", "/home"):
        if os.path.isdir(path) and not os.path.islink(path) and not any(_inside(p, path) for p in shown):
            return path
    return tempfile.mkdtemp(prefix="ag-root-")  # left empty; only a layout with all five in use gets here


def view(python: str) -> tuple[list[str], list[list[str]]]:
    """(directories to bind read-only, [link, target] symlinks to recreate) for the system and ``python`` (or
    what runs instead of it in a world: ``INSTEAD``): its folder, its venv's (by its pyvenv.cfg) and the grader's
    prefixes."""
    python = INSTEAD.get((python, ""), python)
    binds: list[str] = []
    links: list[list[str]] = list(ALIASES)
    for top in SYSTEM:
        if os.path.islink(top):
            links.append([top, os.readlink(top)])
        elif os.path.isdir(top):
            binds.append(top)
    venv = os.path.dirname(os.path.dirname(os.path.abspath(python)))
    wanted = [python, *([venv] if os.path.isfile(os.path.join(venv, "pyvenv.cfg")) else []), sys.prefix,
              sys.exec_prefix, sys.base_prefix, sys.base_exec_prefix]
    for path in wanted:
        chain, real = _resolve(path)
        links += [list(link) for link in chain if list(link) not in links]
        directory = real if os.path.isdir(real) else os.path.dirname(real)
        if directory != "/" and not any(_inside(directory, b) for b in binds):
            binds = [b for b in binds if not _inside(b, directory)] + [directory]
    return sorted(binds, key=len), links


def _inside(path: str, folder: str) -> bool:
    return path == folder or path.startswith(folder.rstrip("/") + "/")


def _resolve(path: str) -> tuple[list[tuple[str, str]], str]:
    """The symlinks met on the way to ``path`` (as (link, target)) and the real path it names."""
    chain: list[tuple[str, str]] = []
    todo = list(Path(os.path.abspath(path)).parts[1:])
    current = "/"
    for _ in range(200):
        if not todo:
            break
        candidate = os.path.join(current, todo.pop(0))
        if os.path.islink(candidate):
            target = os.readlink(candidate)
            chain.append((candidate, target))
            todo = list(Path(os.path.normpath(os.path.join(current, target))).parts[1:]) + todo
            current = "/"
        else:
            current = candidate
    return chain, current


def worker_pid(launcher: int) -> int | None:
    """The worker's pid as the host sees it: the child of the world's init, itself the child of ``launcher``
    (unshare --fork). None when that chain is not (or no longer) there."""
    pid: int | None = launcher
    for _ in range(2):
        try:
            with open(f"/proc/{pid}/task/{pid}/children") as f:
                children = f.read().split()
        except OSError:
            return None
        if len(children) != 1:
            return None
        pid = int(children[0])
    return pid


def reap_init(group: int, seconds: float) -> bool:
    """Reap the world's init once its unshare parent is gone (it is then reparented to us, a subreaper,
    and its process group is still the unshare's): the kernel kills the whole namespace when it dies. Whether
    it was reaped within ``seconds``: then no process of the world is left."""
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        try:
            if os.waitpid(-group, os.WNOHANG)[0] == 0:
                time.sleep(0.002)
        except ChildProcessError:
            return True
    return False


def exit_code(code: int) -> int:
    """The worker's own exit status from its world's (world_init exits 128 + N when signal N killed it)."""
    return -(code - 128) if 128 < code <= 128 + 64 else code


def layers(account_name: str | None, reason: str) -> list[str]:
    """Which isolation layers are active, one short phrase each, for results.json and the console."""
    active = [f"user {account_name}" if account_name else "no user switch", "rlimits", seccomp.describe()]
    instead = INSTEAD.get((sys.executable, reason))
    if account_name and instead:  # the venv is out of the user's reach: runtime.py's copy serves
        folder = os.path.dirname(os.path.dirname(instead))
        active.append(f"the venv's runtime from a root-owned copy readable by all ({folder})")
    if reason:
        return [*active, f"no private world ({reason})"]
    caps = ", ".join(f"{path} {mb} MiB/{inodes} files" for path, (mb, inodes) in TMPFS.items())
    return [*active, f"namespaces: {', '.join(NAMESPACES)}", "read-only minimal filesystem view",
            f"private tmpfs: {caps}"]
