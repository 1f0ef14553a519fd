"""Workers forked from a zygote (zygote.py): a batch skips each worker's interpreter start and numpy import.

``start`` (once, in a batch's fork server: warm.py) starts the zygote where it can serve: as root,
with a private world (namespace.py) and pidfds (Linux 5.3). Every grading forked from the fork
server inherits the socket to it; ``Sandbox`` then asks ``spawn`` for its worker and gets a
``ForkedWorker``: the world's first process (C1 in zygote.py), standing in for the ``Popen`` of
``unshare`` that a worker started the usual way has, with the same pid-based /proc views, exit
status (sent by C1 on a socket of its own) and kill (a pidfd: no pid reuse can redirect it). A grading
first asks for a ``Nest``, its own copy of the zygote in its slot's cgroups, and forks its workers from it
(a restart then moves no process between cgroups). When no zygote runs, or it does not answer,
``Sandbox`` starts its worker the usual way.
"""

from __future__ import annotations

import atexit
import contextlib
import marshal
import os
import select
import signal
import socket
import subprocess
import sys
import tempfile
from pathlib import Path

from autograder.sandbox import namespace, protocol, reaper, runfolder, runtime

MODULES = ("zygote", "worker", "worker_guards", "worker_proxies", "protocol", "seccomp", "world_init")
SHOWN = runfolder.MODULES  # what a worker's world shows of the zygote's folder (as of a run folder)
HELLO, STATUS = protocol.ZYGOTE_HELLO, protocol.ZYGOTE_STATUS
HELLO_TIMEOUT = 10.0  # seconds for C1 to say it runs (the zygote imports numpy first: ~0.1 s)
MAX_SPEC = 60_000  # bytes: a pipe takes them without blocking
_zygote: dict = {}  # "socket", "process", "folder", "files", "python", "starter" once started
strict = False  # tests: a zygote that does not answer is an error, not a reason to start the worker as usual
# A grading process of its own (``autograder run``): the first worker started again (after a probe, a crash) starts
# the zygote, which forks every later one (a fully wrong submission restarts its worker tens of times). Never in a
# batch's graders, whose fork server has started it (or found why it cannot) once for all.
on_demand = {"wanted": False}


def start(python: str = sys.executable) -> str:
    """Start the zygote for this process and its forks; '' when it runs, else why it cannot."""
    if _zygote:
        return ""
    missing = namespace.unavailable() or ("" if hasattr(os, "pidfd_open") and hasattr(signal, "pidfd_send_signal")
                                          else "no pidfds in this Python")
    if missing:
        return missing
    folder = Path(tempfile.mkdtemp(prefix="ag-zygote-"))
    reaper.mark_owner(folder, os.getpid())  # until the zygote runs, the folder lasts as long as this process: one
    folder.chmod(0o755)  # killed while it fills the folder or starts the zygote leaves it to the next batch too
    files = runfolder.populate(folder, python, modules=MODULES)
    python = runtime.interpreter(python)  # its workers import numpy's lazy modules where they can read them
    ours, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)
    try:
        process = subprocess.Popen(
            [python, "-I", "-B", "-u", "-c", runfolder.BOOT.format(folder=str(folder), module="zygote"),
             str(theirs.fileno()), str(os.getpid())], pass_fds=(theirs.fileno(),), stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, cwd="/", env=runfolder.environment("/"),
            start_new_session=True)
    except OSError as e:
        ours.close()
        reaper.remove_tree(folder)
        return f"the zygote did not start: {e}"
    finally:
        theirs.close()
    reaper.mark_owner(folder, process.pid)  # a zygote killed before removing it: the next batch does
    shown = [f for f in files if Path(f).name.split(".")[0] in SHOWN]
    _zygote.update(socket=ours, process=process, folder=folder, files=shown, python=os.path.realpath(python),
                   starter=os.getpid())
    atexit.register(stop)
    return ""


def start_on_demand(python: str) -> None:
    """Start the zygote now if ``on_demand`` wants it (once per process: a zygote that cannot start is not tried
    again, and its workers start the usual way)."""
    if on_demand["wanted"]:
        on_demand["wanted"] = False
        start(python)


def stop() -> None:
    """End the zygote (in the process that started it; forks leave it to their parent)."""
    if not _zygote or _zygote["starter"] != os.getpid():
        return
    _zygote["socket"].close()
    with contextlib.suppress(subprocess.TimeoutExpired):
        _zygote["process"].wait(timeout=5)
    _zygote["process"].kill()
    reaper.remove_tree(_zygote["folder"])
    _zygote.clear()


def running(python: str) -> bool:
    """Whether workers of ``python`` can be forked from a zygote here."""
    return bool(_zygote) and _zygote["python"] == os.path.realpath(python)  # (a dead one: spawn says None)


def process() -> tuple[int, str] | None:
    """The running zygote's (pid, folder), None without one (for checks of what a worker left)."""
    return (_zygote["process"].pid, str(_zygote["folder"])) if _zygote else None


def files() -> list[str]:
    """The zygote's copies of the worker's modules (and their bytecode), for the world to show."""
    return list(_zygote["files"])


class Nest:
    """A grading's own copy of the zygote, already in the grading's slot's cgroups (zygote.py, ``_nest``): the
    worlds it forks are born in them, so no restart of the grading's worker moves a process between cgroups."""

    def __init__(self, sock: socket.socket, pid: int, pidfd: int) -> None:
        self.socket, self.pid, self._pidfd = sock, pid, pidfd

    def end(self, timeout: float) -> None:
        """End it (closing its socket ends its loop), SIGKILL after ``timeout`` seconds; its worlds end apart."""
        self.socket.close()
        ended = select.poll()
        ended.register(self._pidfd, select.POLLIN)
        if not ended.poll(timeout * 1000):
            with contextlib.suppress(OSError):
                signal.pidfd_send_signal(self._pidfd, signal.SIGKILL)
            ended.poll(timeout * 1000)
        with contextlib.suppress(OSError):
            os.close(self._pidfd)


def nest(cgroups: tuple[Path, ...]) -> Nest | None:
    """A nest of the running zygote in ``cgroups``, or None (no zygote, or it did not answer): then ``spawn``
    forks from the zygote itself, each world joining the groups."""
    if not _zygote:
        return None
    answer = _ask(_zygote["socket"], b"nest", [], marshal.dumps({"cgroups": _procs(cgroups)}),
                  socket.SOCK_SEQPACKET, answers=1, mark=b"N")
    if answer is None:
        return None
    ours, pid, (pidfd,) = answer
    ours.settimeout(None)
    return Nest(ours, pid, pidfd)


def spawn(*, world: dict, env: dict, rlimits: list, oom_score: int, cgroups: tuple[Path, ...],
          fds: tuple[int, int, int], via: Nest | None = None) -> ForkedWorker | None:
    """A worker forked from the zygote in the world ``world`` (namespace.spec), with the pipes and output file
    ``fds``, environment ``env``, rlimits and OOM score as confine.py sets them, in the groups ``cgroups`` (the
    slot's: ``Sandbox`` then moves nothing), or forked ``via`` a nest already in them; None when the zygote could
    not make one (then start it the usual way)."""
    worker = _spawn(world, env, rlimits, oom_score, () if via else cgroups, fds, via.socket if via else None)
    if worker is None and strict:
        raise OSError("the zygote did not fork a worker (zygotes.strict)")
    return worker


def _spawn(world: dict, env: dict, rlimits: list, oom_score: int, cgroups: tuple[Path, ...],
           fds: tuple[int, int, int], via: socket.socket | None) -> ForkedWorker | None:
    umask = os.umask(0o077)
    os.umask(umask)
    cpus = sorted(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else []
    data = marshal.dumps({"world": world, "env": env, "umask": umask, "rlimits": rlimits, "cpus": cpus,
                          "oom_score": str(oom_score), "cgroups": _procs(cgroups)})
    if len(data) > MAX_SPEC:
        return None
    answer = _ask(_zygote["socket"] if via is None else via, b"fork", list(fds), data, socket.SOCK_STREAM,
                  answers=2)
    if answer is None:
        return None
    ours, pid, (pidfd, init_pidfd) = answer
    ours.setblocking(False)
    return ForkedWorker(pid, pidfd, ours, init_pidfd)


def _procs(cgroups: tuple[Path, ...]) -> list[str]:
    return [str(group / "cgroup.procs") for group in cgroups]


def _ask(to: socket.socket, request: bytes, fds: list[int], spec: bytes, kind: int, *, answers: int,
         mark: bytes | None = None) -> tuple[socket.socket, int, list[int]] | None:
    """Send ``request`` to a zygote (or a nest) on ``to`` with ``fds``, the far end of a new socket of ``kind`` and
    a pipe holding ``spec``; wait for the HELLO on that socket (its pid, with ``answers`` descriptors, and ``mark``
    when given): (the socket, the pid, the descriptors), or None when none came whole."""
    ours, theirs = socket.socketpair(socket.AF_UNIX, kind)
    read, write = os.pipe()
    try:
        try:
            os.write(write, spec)
        finally:
            os.close(write)
        socket.send_fds(to, [request], [*fds, theirs.fileno(), read])
        ours.settimeout(HELLO_TIMEOUT)
        message, received, _, _ = socket.recv_fds(ours, HELLO.size, answers)
    except OSError:  # socket.timeout included
        ours.close()
        return None
    finally:
        os.close(read)
        theirs.close()
    if len(message) != HELLO.size or len(received) != answers or mark not in (None, HELLO.unpack(message)[0]):
        for fd in received:
            os.close(fd)
        ours.close()
        return None
    return ours, HELLO.unpack(message)[1], received


class ForkedWorker:
    """The world's first process (C1) of a worker forked from the zygote, where a ``Popen`` would be."""

    def __init__(self, pid: int, pidfd: int, status: socket.socket, init_pidfd: int) -> None:
        self.pid = pid
        self.returncode: int | None = None
        self._pidfd, self._status, self._data, self._init_pidfd = pidfd, status, b"", init_pidfd
        self._ended = select.poll()  # (not select(): a grader may hold more than FD_SETSIZE descriptors)
        self._ended.register(pidfd, select.POLLIN)

    def poll(self) -> int | None:
        """Its exit status (as ``unshare --fork``'s would be: ``-N`` for signal N) once it ended, else None."""
        if self.returncode is None and self._ended.poll(0):
            with contextlib.suppress(OSError):
                while chunk := self._status.recv(64):
                    self._data += chunk
            kind, code = STATUS.unpack(self._data[:STATUS.size]) if len(self._data) >= STATUS.size else (b"", 0)
            self.returncode = code if kind == b"S" else -signal.SIGKILL  # no status: killed (by us)
        return self.returncode

    def end(self, timeout: float) -> bool:
        """End the world and release this object: closing the status socket makes C1 kill the world's init (C2)
        and exit once the kernel has ended every process of the world; SIGKILL to C1 if that takes longer than
        ``timeout`` seconds, and then a wait of as long for C2, which dies with C1 but ends only once the kernel
        has ended every other process of the world (the zygote, a subreaper, reaps it). Whether C2 has ended: then
        no process of the world is left (the kernel ends a PID namespace's processes before its init)."""
        self._status.close()
        if self.returncode is None and not self._ended.poll(timeout * 1000):
            with contextlib.suppress(OSError):
                signal.pidfd_send_signal(self._pidfd, signal.SIGKILL)
            self._ended.poll(timeout * 1000)
        init = select.poll()
        init.register(self._init_pidfd, select.POLLIN)
        ended = bool(init.poll(timeout * 1000))  # at once when C1 ended by itself: it reaped C2 first
        for fd in (self._pidfd, self._init_pidfd):
            with contextlib.suppress(OSError):
                os.close(fd)
        return ended
