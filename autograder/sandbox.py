"""Start, watch and kill the worker process that runs student code.

``Sandbox`` owns one worker at a time: ``python -I -B -u worker.py R W`` in a new session,
with only the two protocol pipes open, a clean environment (HOME = cwd = a fresh work
dir, minimal PATH, one BLAS thread), stdin ``/dev/null`` and stdout/stderr appended to a
grader-owned file (``take_output``). Before exec: ``Limits`` as rlimits, SIGXFSZ ignored
(an oversized write fails instead of killing), ``PR_SET_NO_NEW_PRIVS``. As root it runs as
``$AUTOGRADER_SANDBOX_USER`` (default ``agsandbox``, made by setup.sh with ``useradd
--system --no-create-home --shell /usr/sbin/nologin``) without supplementary groups,
from a root-owned run dir it can read but not write. Otherwise (not root, no such user,
or the user cannot run this Python) it runs unswitched and ``isolation_note`` says why.

Reads and writes have deadlines (poll). After a timeout, a protocol error or a death,
``kill`` kills the process group, then every leftover: as the sandbox user, every process
of that uid in /proc (looping until none remains) except those under another live
process (a second grader on a developer's machine); otherwise every descendant of the
grader outside the grader's own session (the worker has its own; daemons make new ones).
The grader is a child subreaper, so double-forked daemons reparent to it and are found
and reaped. Other live sandboxes of this process are spared.
"""

from __future__ import annotations

import atexit
import contextlib
import ctypes
import fcntl
import os
import pwd
import resource
import select
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import weakref
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from autograder import protocol

DEFAULT_USER = "agsandbox"
USER_ENV = "AUTOGRADER_SANDBOX_USER"
OUTPUT_LIMIT = 4000  # bytes of student stdout/stderr kept per call
POLL_SLICE = 0.05  # seconds between checks that the worker is still alive
KILL_DEADLINE = 5.0  # seconds spent at most killing leftovers
PR_SET_CHILD_SUBREAPER, PR_SET_NO_NEW_PRIVS, F_SETPIPE_SZ = 36, 38, 1031
_HERE = Path(__file__).resolve().parent


@dataclass(frozen=True)
class Limits:
    """Resource limits of the worker. numpy 2.2 with one OpenBLAS thread peaks at ~100-140 MB of address
    space (VmPeak, Python 3.10/3.11), so 512 MB leaves ~370 MB for student arrays and keeps grader
    (~100 MB) + worker inside Gradescope's default 768 MB container."""

    memory_mb: int = 512  # RLIMIT_AS
    file_mb: int = 16  # RLIMIT_FSIZE: no file (the captured output included) grows past this
    cpu_seconds: int = 300  # RLIMIT_CPU: a backstop; wall-clock timeouts act first
    processes: int = 64  # RLIMIT_NPROC, applied when running as the sandbox user
    open_files: int = 256  # RLIMIT_NOFILE


class SandboxError(RuntimeError):
    """The worker could not be started: an infrastructure problem, not the student's fault."""


class WorkerTimeout(Exception):  # noqa: N818 - reads better at the call sites than WorkerTimeoutError
    """The worker did not answer before the deadline (it has been killed)."""


class WorkerDied(Exception):  # noqa: N818
    """The worker exited or closed its pipe; str() says how (it has been cleaned up)."""


_live: weakref.WeakSet[Sandbox] = weakref.WeakSet()
_probes: dict[tuple[str, int], str] = {}  # (python, uid) -> "" | "readable" | why the user cannot run it


class Sandbox:
    """One worker process at a time, with its limits, pipes, output file and cleanup."""

    def __init__(self, *, user: str | None = None, switch_user: bool = True, python: str | None = None,
                 limits: Limits | None = None) -> None:
        self.limits = limits or Limits()
        self.python = python or sys.executable
        self.user = user or os.environ.get(USER_ENV) or DEFAULT_USER
        self.account, self.isolation_note = self._choose_account(switch_user)
        self._private = Path(tempfile.mkdtemp(prefix="ag-grader-"))  # 0700, the grader's own
        self._out_path = self._private / "output.txt"
        self._out_fd = os.open(self._out_path, os.O_RDWR | os.O_CREAT | os.O_TRUNC, 0o600)
        self._run_dir = Path(tempfile.mkdtemp(prefix="ag-run-"))
        for name in ("worker.py", "protocol.py"):
            shutil.copyfile(_HERE / name, self._run_dir / name)
            (self._run_dir / name).chmod(0o644)
        self._run_dir.chmod(0o755)  # readable by the sandbox user, writable only by the grader
        self._work_dir: Path | None = None
        self._proc: subprocess.Popen | None = None
        self._rfd = self._wfd = -1
        _live.add(self)
        ctypes.CDLL(None).prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0)  # orphans of the worker become ours

    def _choose_account(self, switch_user: bool) -> tuple[pwd.struct_passwd | None, str]:
        reduced = "Isolation reduced: "
        if not switch_user:
            return None, f"{reduced}the user switch is disabled; student code runs as uid {os.geteuid()}."
        if os.geteuid() != 0:
            return None, (f"{reduced}the grader is not root, so student code runs as its user (uid {os.geteuid()}) "
                          "in its own session: it could read or change that user's files.")
        try:
            account = pwd.getpwnam(self.user)
        except KeyError:
            return None, f"{reduced}the sandbox user `{self.user}` does not exist, so student code runs as root."
        problem = _probe(self.python, account)
        if problem == "readable":  # the switch works, but expected outputs may be in reach
            return account, (f"{reduced}the sandbox user `{self.user}` can read the grader's files in {_HERE}; "
                             "make them private (chmod -R go-rwx) so student code cannot read stored answers.")
        if problem:
            return None, (f"{reduced}the sandbox user `{self.user}` cannot run {self.python} ({problem}), "
                          "so student code runs as root.")
        return account, ""

    @property
    def running(self) -> bool:
        return self._proc is not None

    @property
    def pid(self) -> int | None:
        return self._proc.pid if self._proc else None

    def start(self, timeout: float = 30.0) -> dict:
        """Start a fresh worker and wait for its ready frame; raises SandboxError."""
        if self._out_fd < 0:
            raise SandboxError("this sandbox is closed")
        self.kill()
        self._work_dir = Path(tempfile.mkdtemp(prefix="ag-home-"))
        user: dict[str, Any] = {}
        if self.account:
            os.chown(self._work_dir, self.account.pw_uid, self.account.pw_gid)
            user = {"user": self.account.pw_uid, "group": self.account.pw_gid, "extra_groups": []}
        to_child, self._wfd = os.pipe()
        self._rfd, from_child = os.pipe()
        for fd in (self._wfd, self._rfd):
            with contextlib.suppress(OSError):
                fcntl.fcntl(fd, F_SETPIPE_SZ, 1 << 20)  # fewer wake-ups for big arrays
        os.set_blocking(self._wfd, False)
        out = os.open(self._out_path, os.O_WRONLY | os.O_APPEND)
        home = str(self._work_dir)
        env = {"HOME": home, "TMPDIR": home, "PATH": "/usr/local/bin:/usr/bin:/bin", "LANG": "C.UTF-8",
               "LC_ALL": "C.UTF-8", "OPENBLAS_NUM_THREADS": "1", "OMP_NUM_THREADS": "1", "MKL_NUM_THREADS": "1"}
        try:
            self._proc = subprocess.Popen(
                [self.python, "-I", "-B", "-u", str(self._run_dir / "worker.py"), str(to_child), str(from_child)],
                stdin=subprocess.DEVNULL, stdout=out, stderr=out, cwd=home, env=env, close_fds=True,
                pass_fds=(to_child, from_child), start_new_session=True,
                preexec_fn=_child_setup(self.limits, nproc=self.account is not None), **user,  # noqa: PLW1509
            )
        except OSError as e:
            self.kill()
            raise SandboxError(f"could not start {self.python}: {e}") from None
        finally:
            for fd in (to_child, from_child, out):
                os.close(fd)
        try:
            header, _ = self.receive(time.monotonic() + timeout)
        except (WorkerDied, WorkerTimeout, protocol.ProtocolError) as e:
            raise SandboxError(f"the worker did not start ({e}): {self.take_output()[-1000:]}") from None
        if header.get("op") != "ready":
            self.kill()
            raise SandboxError("the worker did not start: unexpected first frame")
        return header

    # -- talking ---------------------------------------------------------------

    def send(self, header: dict, arrays: Any = (), *, deadline: float) -> None:
        """Send one frame before ``deadline`` (time.monotonic()); on any failure the worker is killed."""
        try:
            view = memoryview(protocol.pack_frame(header, arrays))
            while view:
                self._wait_ready(self._wfd, select.POLLOUT, deadline)
                try:
                    view = view[os.write(self._wfd, view[: 1 << 20]) :]
                except BlockingIOError:
                    continue
                except BrokenPipeError:
                    raise WorkerDied(self._death(grace=1.0) or "the worker closed its connection") from None
        except BaseException:
            self.kill()
            raise

    def receive(self, deadline: float) -> tuple[dict, list]:
        """Read one frame; WorkerTimeout, WorkerDied or ProtocolError leave no process behind."""
        try:
            return protocol.unpack_body(self._read(protocol.body_length(self._read(8, deadline)), deadline))
        except BaseException:
            self.kill()
            raise

    def _read(self, n: int, deadline: float) -> bytes:
        buf = bytearray()
        while len(buf) < n:
            self._wait_ready(self._rfd, select.POLLIN, deadline)
            chunk = os.read(self._rfd, min(n - len(buf), 1 << 20))
            if not chunk:
                raise WorkerDied(self._death(grace=1.0) or "the worker closed its connection to the grader")
            buf += chunk
        return bytes(buf)

    def _wait_ready(self, fd: int, event: int, deadline: float) -> None:
        if self._proc is None:
            raise WorkerDied("the worker is not running")
        poller = select.poll()
        poller.register(fd, event)
        while True:
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                raise WorkerTimeout("no answer before the deadline")
            if poller.poll(min(remaining, POLL_SLICE) * 1000):
                return
            death = self._death()  # its children may hold the pipe open after it died
            if death:
                raise WorkerDied(death)

    def _death(self, grace: float = 0.0) -> str:
        """How the worker ended ("" while it runs), without reaping it."""
        assert self._proc is not None
        end = time.monotonic() + grace
        while True:
            info = os.waitid(os.P_PID, self._proc.pid, os.WEXITED | os.WNOHANG | os.WNOWAIT)
            if info is not None and info.si_pid:
                code = info.si_status if info.si_code == os.CLD_EXITED else -info.si_status
                return describe_exit(code, self.limits.memory_mb)
            if time.monotonic() >= end:
                return ""
            time.sleep(0.01)

    def take_output(self, limit: int = OUTPUT_LIMIT) -> str:
        """Student stdout/stderr since the last call (first ``limit`` bytes), then reset the file."""
        size = os.fstat(self._out_fd).st_size
        text = os.pread(self._out_fd, min(size, limit), 0).decode("utf-8", "replace")
        os.ftruncate(self._out_fd, 0)
        return text + (f"\n[... {size - limit} more bytes of output not shown]" if size > limit else "")

    # -- cleaning up -----------------------------------------------------------

    def kill(self) -> None:
        """Kill the worker's process group and every leftover process; reap; forget the worker."""
        proc, self._proc = self._proc, None
        if proc is not None:
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.killpg(proc.pid, signal.SIGKILL)  # the group id is ours until the worker is reaped
            with contextlib.suppress(subprocess.TimeoutExpired):
                proc.wait(timeout=KILL_DEADLINE)
        self._kill_leftovers()
        for fd in (self._rfd, self._wfd):
            if fd >= 0:
                os.close(fd)
        self._rfd = self._wfd = -1
        if self._work_dir is not None:
            _remove_tree(self._work_dir)
            self._work_dir = None

    def _kill_leftovers(self) -> None:
        """SIGKILL every leftover process until none runs; reap the ones reparented to us."""
        me, deadline = os.getpid(), time.monotonic() + KILL_DEADLINE
        while time.monotonic() < deadline:
            table = _process_table()
            if self.account:  # every process of the uid, except those under another live grader
                uid = self.account.pw_uid
                victims = {p for p, i in table.items() if uid in i["uids"] and _owner(table, p, uid) in (me, 0, 1)}
            else:  # student processes never share the grader's session; its own helpers do
                victims = {p for p in _descendants(table, me) if table[p]["sid"] != os.getsid(0)}
            sessions = {s.pid for s in list(_live) if s is not self and s.pid}  # other live sandboxes
            victims = {p for p in victims if p != me and p not in sessions and table[p]["sid"] not in sessions}
            busy = False
            for pid in victims:
                if table[pid]["state"] not in "ZX":
                    busy = True
                    with contextlib.suppress(ProcessLookupError):
                        os.kill(pid, signal.SIGKILL)
                elif table[pid]["ppid"] == me:
                    busy = True
                    with contextlib.suppress(ChildProcessError):
                        os.waitpid(pid, os.WNOHANG)
            if not busy:
                return
            time.sleep(0.005)

    def close(self) -> None:
        """Kill everything left (daemons included) and remove the sandbox's files. Idempotent."""
        if self._out_fd < 0:
            return
        self.kill()
        os.close(self._out_fd)
        self._out_fd = -1
        _remove_tree(self._run_dir)
        _remove_tree(self._private)
        _live.discard(self)

    def __enter__(self) -> Sandbox:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def describe_exit(returncode: int, memory_mb: int) -> str:
    """Why a worker ended, for a student: 'killed by signal 9: probably out of memory ...'."""
    if returncode >= 0:
        return f"exited with status {returncode}: os._exit() or exit() in native code"
    reasons = {
        signal.SIGKILL: f"probably out of memory, limit {memory_mb} MB, or the code killed its own process",
        signal.SIGSEGV: "a crash in native code (ctypes? very deep recursion?)",
        signal.SIGBUS: "a crash in native code",
        signal.SIGABRT: "often out of memory inside a native library",
        signal.SIGXCPU: "it used up its CPU time limit",
        signal.SIGXFSZ: "a file grew past its size limit",
    }
    try:
        reason = reasons.get(-returncode, signal.Signals(-returncode).name)
    except ValueError:
        reason = "an unknown signal"
    return f"killed by signal {-returncode}: {reason}"


def _child_setup(limits: Limits, nproc: bool) -> Any:
    """The preexec function: runs in the child after the user switch, before exec."""
    mb = 2**20
    settings = [(resource.RLIMIT_AS, limits.memory_mb * mb, limits.memory_mb * mb),
                (resource.RLIMIT_FSIZE, limits.file_mb * mb, limits.file_mb * mb),
                (resource.RLIMIT_CPU, limits.cpu_seconds, limits.cpu_seconds + 5),
                (resource.RLIMIT_CORE, 0, 0),
                (resource.RLIMIT_NOFILE, limits.open_files, limits.open_files)]
    if nproc:
        settings.append((resource.RLIMIT_NPROC, limits.processes, limits.processes))
    prctl = ctypes.CDLL(None).prctl

    def setup() -> None:
        for which, soft, hard in settings:
            resource.setrlimit(which, (soft, hard))
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
        prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0)

    return setup


def _probe(python: str, account: pwd.struct_passwd) -> str:
    """Can ``account`` run ``python`` with numpy? '' yes, 'readable' yes and it can read this package, else why not."""
    key = (python, account.pw_uid)
    check = "import numpy, os, sys; sys.exit(3 if os.access(sys.argv[1], os.R_OK | os.X_OK) else 0)"
    for _ in range(2):  # once more if a signal killed the probe
        if not _probes.get(key, "status -").startswith("status -"):
            break
        try:
            result = subprocess.run(
                [python, "-I", "-c", check, str(_HERE)], user=account.pw_uid, group=account.pw_gid,
                extra_groups=[], cwd="/", env={"PATH": "/usr/bin:/bin", "OPENBLAS_NUM_THREADS": "1"},
                stdin=subprocess.DEVNULL, capture_output=True, timeout=60, check=False,
            )
        except (OSError, subprocess.SubprocessError) as e:
            _probes[key] = f"{type(e).__name__}: {e}"
            break
        lines = result.stderr.decode("utf-8", "replace").strip().splitlines()
        outcome = {0: "", 3: "readable"}.get(result.returncode)
        _probes[key] = outcome if outcome is not None else (lines[-1] if lines else f"status {result.returncode}")
    return _probes[key]


def _process_table() -> dict[int, dict]:
    """pid -> {ppid, sid, uids, state} for every process in /proc (uids from status: stat can lie)."""
    table = {}
    for entry in filter(str.isdigit, os.listdir("/proc")):
        try:
            with open(f"/proc/{entry}/status") as f:
                uids = next(line for line in f if line.startswith("Uid:")).split()[1:]
            with open(f"/proc/{entry}/stat") as f:
                stat = f.read().rsplit(")", 1)[1].split()
        except (OSError, ValueError, IndexError, StopIteration):
            continue  # it just exited
        table[int(entry)] = {"ppid": int(stat[1]), "sid": int(stat[3]), "state": stat[0], "uids": set(map(int, uids))}
    return table


def _descendants(table: dict[int, dict], root: int) -> set[int]:
    children: dict[int, list[int]] = {}
    for pid, info in table.items():
        children.setdefault(info["ppid"], []).append(pid)
    found, todo = set(), [root]
    while todo:
        fresh = [c for c in children.get(todo.pop(), []) if c not in found]
        found.update(fresh)
        todo += fresh
    return found


def _owner(table: dict[int, dict], pid: int, uid: int) -> int:
    """The first ancestor of ``pid`` not running as ``uid``: this grader, init (1), another (or 0: gone)."""
    for _ in range(len(table)):
        pid = table[pid]["ppid"]
        if pid not in table or uid not in table[pid]["uids"]:
            return pid if pid in table else 0
    return 0


def _remove_tree(path: Path) -> None:
    def make_writable(func: Any, failed: str, exc_info: Any) -> None:
        with contextlib.suppress(OSError):
            if not os.path.islink(failed):
                os.chmod(os.path.dirname(failed), 0o700)
            func(failed)

    shutil.rmtree(path, onerror=make_writable)


@atexit.register
def _close_all() -> None:
    for sandbox in list(_live):
        with contextlib.suppress(Exception):
            sandbox.close()
