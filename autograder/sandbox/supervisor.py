"""Start, watch and kill the worker process that runs student code.

``Sandbox`` owns one worker at a time: ``python -I -B -u -c BOOT R W`` (runfolder.py) in a new session
(in a batch, the same forked from a zygote that has imported numpy already: zygotes.py),
with only the two protocol pipes open, a clean environment (HOME = cwd = a fresh work
dir inside the grader's run dir, minimal PATH, one BLAS thread), stdin ``/dev/null`` and
stdout/stderr appended to a grader-owned file (``take_output``). Before exec (``confine.py``):
``Limits`` as rlimits, oom_score_adj 1000 (the kernel's OOM killer takes the worker and
everything it forks before the grader, whose own is lowered to -900 when permitted), as root a
private world where the kernel allows it (namespace.py: unshare + world_init.py; else new network
and IPC namespaces), then the user switch, SIGXFSZ ignored (an oversized write
fails instead of killing), ``PR_SET_NO_NEW_PRIVS``. As root it runs as a free user of the
pool of ``$AUTOGRADER_SANDBOX_USER`` (default ``agsandbox``, made by setup.sh with ``useradd
--system --no-create-home --shell /usr/sbin/nologin``; then ``agsandbox2``, ... made on
demand) without supplementary groups,
from a root-owned run dir it can read but not write. Otherwise (not root, no such user,
or the user cannot run this Python) it runs unswitched and ``isolation_note`` says why.

Reads and writes have deadlines (poll). After a timeout, a protocol error or a death,
``kill`` kills the process group, then every leftover (none when its private world ended whole,
init included: the kernel ended them all, and the scan waits for ``close``): as the sandbox user, every process
of that uid in /proc (the user is this grading's alone: ``lock.py`` holds it from before the
worker starts until ``close`` has cleaned up, and another grading takes another user of the
pool or waits); otherwise every descendant of the grader outside the grader's own session
(the worker has its own; daemons make new ones), so concurrent gradings never meet. Leftovers are
first frozen (SIGSTOP, rescanning until no new one appears: a stopped process cannot fork),
then killed, so a fork storm cannot outrun the loop. The grader is a child subreaper, so
double-forked daemons reparent to it and are found and reaped. Other live sandboxes of this
process are spared. ``close`` also removes what the sandbox user left directly under /tmp,
/var/tmp and /dev/shm, so nothing passes from one submission to the next.
"""

from __future__ import annotations

import atexit
import contextlib
import ctypes
import fcntl
import functools
import os
import pwd
import select
import signal
import subprocess
import sys
import tempfile
import time
import weakref
from pathlib import Path

from autograder.sandbox import (
    confine,
    cputime,
    lock,
    namespace,
    placement,
    protocol,
    reaper,
    runfolder,
    shares,
    zygotes,
)
from autograder.sandbox.accounts import DEFAULT_USER, USER_ENV, user_can_run
from autograder.sandbox.confine import (  # noqa: F401 - part of this API
    CLONE_NEWNET,
    GRADER_OOM_SCORE,
    WORKER_OOM_SCORE,
    Limits,
)
from autograder.sandbox.exits import STUDENT_SIGNALS, describe_exit, lost_from_outside  # noqa: F401 - this API
from autograder.sandbox.pipes import Pipes, WorkerDied, WorkerTimeout
from autograder.sandbox.reaper import CLEAN_DEADLINE, KILL_DEADLINE, SHARED_DIRS  # noqa: F401 - part of this API

OUTPUT_LIMIT = 4000  # bytes of student stdout/stderr kept per call
RUN_PREFIX, PRIVATE_PREFIX = "ag-run-", "ag-grader-"  # a grading's folders (recorded in its user's lock file)
PR_SET_CHILD_SUBREAPER, F_SETPIPE_SZ = 36, 1031
_HERE = Path(__file__).resolve().parent


class SandboxError(RuntimeError):
    """The worker could not be started: an infrastructure problem, not the student's fault."""


class WorkerLost(SandboxError):  # noqa: N818 - the same family as WorkerDied
    """The worker was lost maybe not because of the student's code: the grading's one free retry of a death by a
    signal (``Student``), or a machine so overloaded that the worker alone was not run (``cputime.Budget``).
    ``retry_test``: the results plugin runs the test once more on a fresh worker. Only the overloaded machine,
    seen again in that test, makes the submission a grader error: a second death is the student's."""

    retry_test = True


_live: weakref.WeakSet[Sandbox] = weakref.WeakSet()


class Sandbox(Pipes):
    """One worker process at a time, with its limits, pipes, output file and cleanup."""

    def __init__(self, *, user: str | None = None, switch_user: bool = True, python: str | None = None,
                 limits: Limits | None = None) -> None:
        self.limits = limits or Limits()
        self.python = python or sys.executable
        self.user = user or os.environ.get(USER_ENV) or DEFAULT_USER  # the base name of the pool (lock.py)
        self._lock: lock.UserLock | None = None
        self.account: pwd.struct_passwd | None = None
        self._out_fd = -1
        self._left_nothing = True  # the last leftover scan left nothing running (or none was needed)
        self._spawned = False  # a worker was started since that scan
        self._world_ended = False  # a worker's world ended whole, and close() has not scanned since
        self.starts = 0  # workers started so far
        base = self.user
        self.account, self.isolation_note = self._choose_account(switch_user)
        self._number = lock.position(base, self.user) if self._lock is not None else None  # of the pool's users
        self.cpu: int | None = None  # the CPU this grading's thread and workers share (placement.py), once chosen
        self._pinned: placement.Saved | None = None
        self.world_missing = namespace.unavailable()  # '' when the worker gets a private world (namespace.py)
        self._shared = reaper.world_writable_dirs() if self.world_missing and self.account else SHARED_DIRS
        self.cgroup = shares.slot_group(self.account.pw_name) if self.account else None  # per-slot CPU shares
        # the slot's CPU time and total memory (shares.py): a slot holds twice what one process may address
        self.slot = shares.slot(self.account.pw_name, 2 * self.limits.memory_mb, self.cgroup) if self.account \
            else shares.Slot()
        self._usage: Path | None = None  # the slot's CPU time, once the running worker is in its group
        self.layers = namespace.layers(self.account.pw_name if self.account else None, self.world_missing)
        self.layers += ([shares.describe(self.cgroup)] if self.cgroup else []) + self.slot.describe()
        self._private: Path | None = None
        self._run_dir: Path | None = None
        self._run_files: list[str] = []
        self._out_fd = -1
        self._folders()
        self._work_dir: Path | None = None
        self._proc: subprocess.Popen | zygotes.ForkedWorker | None = None
        self._nest: zygotes.Nest | None = None  # this grading's copy of the zygote, in the slot's groups (once asked)
        self._nested = False  # a nest was asked for (once: one that did not answer is not asked again)
        self._launched = False  # started by launch(), its ready frame not read yet
        self._rfd = self._wfd = -1
        self._inbox = bytearray()  # bytes read from the worker past the frame asked for (the next frame's)
        self._pollers: dict[tuple[int, int], select.poll] = {}
        self.exit_code: int | None = None  # how the last worker ended: status, or -signal (None: not seen)
        self.out_of_memory = False  # the OOM killer acted within the slot's memory cap while the last worker ran
        self.clock = cputime.StudentClock()  # the student's time: deadlines are in it (see cputime.py)
        self._budget: cputime.Budget | None = None  # the operation of the latest ``deadline``: its limits
        _live.add(self)
        ctypes.CDLL(None).prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0)  # orphans of the worker become ours
        if os.geteuid() == 0:
            confine.lower_oom_score(os.getpid(), GRADER_OOM_SCORE)

    def _choose_account(self, switch_user: bool) -> tuple[pwd.struct_passwd | None, str]:
        """As root: lock a free user of the pool (``lock.py``), kill and remove what it left, and check it
        can run this Python. The lock is held until ``close`` has cleaned up."""
        reduced = "Isolation reduced: "
        if not switch_user:
            return None, f"{reduced}the user switch is disabled; student code runs as uid {os.geteuid()}."
        if os.geteuid() != 0:
            return None, (f"{reduced}the grader is not root, so student code runs as its user (uid {os.geteuid()}) "
                          "in its own session: it could read or change that user's files.")
        try:
            held = lock.acquire(self.user, on_wait=lambda: print(
                f"sandbox: every sandbox user of `{self.user}`'s pool is busy grading; waiting for one",
                file=sys.stderr))
        except lock.LockError as e:
            raise SandboxError(str(e)) from None
        if held is None:
            return None, f"{reduced}the sandbox user `{self.user}` does not exist, so student code runs as root."
        self._lock, self.user, account = held, held.name, held.account
        problem = user_can_run(self.python, account)
        if problem and problem != "readable":
            self._release(clean=held.clean)
            return None, (f"{reduced}the sandbox user `{self.user}` cannot run {self.python} ({problem}), "
                          "so student code runs as root.")
        self.account = account
        if not held.clean:  # a grading killed before its cleanup left them; the lock makes them ours
            self._kill_leftovers()  # that grading may have had no private world: every world-writable folder
            reaper.remove_user_files(account.pw_uid, reaper.world_writable_dirs())
        held.left = reaper.remove_left_folders(held.left, (RUN_PREFIX, PRIVATE_PREFIX))  # the user's home among them
        reaper.remove_ipc(account.pw_uid)  # nothing of an earlier grading's IPC reaches this one (no IPC namespace)
        if problem == "readable" and not namespace.unavailable():  # read, but out of sight in the private world
            return account, ""
        if problem == "readable":  # the switch works, but expected outputs may be in reach
            return account, (f"{reduced}the sandbox user `{self.user}` can read the grader's files in {_HERE}; "
                             "make them private (chmod -R go-rwx) so student code cannot read stored answers.")
        return account, ""

    def _release(self, *, clean: bool = False, mine: tuple[Path, ...] = ()) -> None:
        if self._lock is not None:
            left = [path for path in [*self._lock.left, *map(str, mine)] if os.path.lexists(path)]
            self._lock.release(clean=clean, left=left)
            self._lock = None

    @property
    def running(self) -> bool:
        """A worker is up and has said it is ready (``launch`` alone does not make it running)."""
        return self._proc is not None and not self._launched

    def launch(self) -> None:
        """Start a fresh worker without waiting for it: it imports numpy while the grader gets on with
        its own start-up; ``start`` then waits for its ready frame. Raises SandboxError."""
        self._spawn()
        self._launched = True

    @property
    def pid(self) -> int | None:
        return self._proc.pid if self._proc else None

    def start(self, timeout: float = 30.0) -> dict:
        """Start a fresh worker (or take the one ``launch`` started) and wait for its ready frame;
        raises SandboxError."""
        if not (self._launched and self._proc is not None):
            self._spawn()
        self._launched = False
        try:
            header, _ = self.receive(self.deadline(timeout))
        except (WorkerDied, WorkerTimeout, protocol.ProtocolError) as e:
            raise SandboxError(f"the worker did not start ({e}): {self.take_output()[-1000:]}") from None
        if header.get("op") != "ready":
            self.kill()
            raise SandboxError("the worker did not start: unexpected first frame")
        if not self.world_missing:  # the launcher is unshare: count the waits of the worker itself
            self.clock.follow(namespace.worker_pid(self._proc.pid))
        if self.cpu is None and self._pinned is None:  # chosen once; the worker pins itself when it loads
            self.cpu = placement.cpu_for(self._number)
            self._pinned = placement.pin_thread(self.cpu) if self.cpu is not None else None
        worker = self.clock.pid  # not running student code yet: what it starts is in the slot's groups
        self._usage = self.slot.usage if worker is not None and self.slot.enter(worker) else None
        return header

    def _folders(self) -> None:
        """Make the grading's folders, or those of them something removed (another test session's clean-up beside
        this one: a retry must survive it, issue 28): the private one holding the worker's output file, and the run
        folder (the worker's modules and their bytecode, where each worker's home is made)."""
        made = self._private is None or not self._private.is_dir()
        if made:
            self._private = Path(tempfile.mkdtemp(prefix=PRIVATE_PREFIX))  # 0700, the grader's own
            self._out_path = self._private / "output.txt"
            if self._out_fd >= 0:
                os.close(self._out_fd)
            self._out_fd = os.open(self._out_path, os.O_RDWR | os.O_CREAT | os.O_TRUNC, 0o600)
        if self._run_dir is None or not self._run_dir.is_dir() or not all(map(os.path.isfile, self._run_files)):
            made = True
            self._run_dir = Path(tempfile.mkdtemp(prefix=RUN_PREFIX))
            self._run_files = runfolder.populate(self._run_dir, self.python)  # worker.py, protocol.py, bytecode
            self._run_dir.chmod(0o755)  # readable by the sandbox user, writable only by the grader
        if made and self._lock:  # killed before close(), this grading leaves them to the user's next holder to remove
            self._lock.record([str(self._private), str(self._run_dir)])

    def _spawn(self) -> None:
        if self._out_fd < 0:
            raise SandboxError("this sandbox is closed")
        self.kill()
        self._folders()
        self.exit_code = None
        self.out_of_memory = False
        shares.reset_peak(self.slot.memory)
        self._oom_events = shares.oom_events(self.slot.memory)  # the slot's so far: see ``_death``
        # Not directly under /tmp: close() of another grader sharing the sandbox user removes its files there.
        self._work_dir = Path(tempfile.mkdtemp(prefix="home-", dir=self._run_dir))
        if self.account:
            os.chown(self._work_dir, self.account.pw_uid, self.account.pw_gid)
        to_child, self._wfd = os.pipe()
        self._rfd, from_child = os.pipe()
        for fd in (self._wfd, self._rfd):
            with contextlib.suppress(OSError):
                fcntl.fcntl(fd, F_SETPIPE_SZ, 1 << 20)  # fewer wake-ups for big arrays
        os.set_blocking(self._wfd, False)
        out = os.open(self._out_path, os.O_WRONLY | os.O_APPEND)
        home = str(self._work_dir)
        env = runfolder.environment(home)
        try:
            if self.starts and not self.world_missing:  # a worker started again: from the zygote from now on
                zygotes.start_on_demand(self.python)
            if not self.world_missing and zygotes.running(self.python):  # numpy is imported already
                world = namespace.spec(python=self.python, files=zygotes.files(), home=home, account=self.account)
                groups = self._groups()
                if not self._nested and groups:  # the worlds of every restart are born in the slot's groups
                    self._nested, self._nest = True, zygotes.nest(groups)
                fork = functools.partial(zygotes.spawn, world=world, env=env, oom_score=WORKER_OOM_SCORE,
                                         rlimits=confine.rlimits(self.limits, self.account), cgroups=groups,
                                         fds=(to_child, from_child, out))
                self._proc = fork(via=self._nest)
                if self._proc is None and self._nest is not None:  # the nest is gone: from the zygote itself
                    self._end_nest()
                    self._proc = fork()
            if self._proc is None:
                argv = runfolder.argv(self.python, self._run_dir, to_child, from_child)
                world = not self.world_missing  # the slot's groups joined by the world's init, or before the exec
                if world:
                    argv = namespace.command(argv, python=self.python, files=self._run_files, home=home,
                                             account=self.account, groups=self._groups())
                setup = confine.child_setup(self.limits, self.account, world=world,
                                            groups=() if world else self._groups())
                self._proc = subprocess.Popen(
                    argv, stdin=subprocess.DEVNULL, stdout=out, stderr=out, cwd=home, env=env, close_fds=True,
                    pass_fds=(to_child, from_child), start_new_session=True, preexec_fn=setup,  # noqa: PLW1509
                )
        except OSError as e:
            self.kill()
            raise SandboxError(f"could not start {self.python}: {e}") from None
        finally:
            for fd in (to_child, from_child, out):
                os.close(fd)
        self.clock.follow(self._proc.pid)
        self._spawned = True
        self.starts += 1

    def _groups(self) -> tuple[Path, ...]:
        """Every cgroup of the slot a worker belongs in: its CPU weight's, then ``Slot.join``."""
        return (*([self.cgroup] if self.cgroup else []), *self.slot.join)

    @property
    def network_isolated(self) -> bool:
        """Whether the running worker is in a network namespace of its own (as root, when the kernel allows)."""
        try:
            return self._proc is not None and os.readlink(f"/proc/{self._proc.pid}/ns/net") != os.readlink(
                "/proc/self/ns/net")
        except OSError:
            return False

    # -- talking ---------------------------------------------------------------

    def deadline(self, seconds: float, now: float | None = None) -> float:
        """The deadline, for ``send`` and ``receive``, of an operation allowed ``seconds`` of the student's time
        (``self.clock``, see cputime.py) from ``now`` (a reading of that clock just taken; default: read it).
        Waiting for it also ends with WorkerTimeout when the worker's processes used more CPU time than that,
        and with WorkerLost ("overloaded") past a generous wall-clock backstop."""
        self._budget = cputime.Budget((self.clock.now() if now is None else now) + seconds, seconds)
        self.clock.mark()
        return self._budget.deadline

    def _check_budget(self, deadline: float) -> None:
        """While waiting for ``deadline``: the student's other processes, the CPU of the worker's processes and
        the wall-clock backstop (cputime.Budget)."""
        if self._budget is None or self._budget.deadline != deadline or self._proc is None:
            return
        usage = self._usage
        problem = self._budget.check(self._proc.pid, self.clock.pid, self.account.pw_uid if self.account else None,
                                     self.clock, (lambda: shares.cpu_seconds(usage)) if usage else None)
        if problem == "overloaded":  # the worker alone, not run: evidence the student cannot produce
            raise WorkerLost(f"the machine was overloaded: {self._budget.describe()}; regrade")
        if problem:
            raise WorkerTimeout("its processes used up the time limit in CPU time")

    def _death(self, grace: float = 0.0) -> str:
        """How the worker ended ("" while it runs), without reaping it."""
        assert self._proc is not None
        end = time.monotonic() + grace
        while True:
            code = self._exit_status()
            if code is not None:
                code = code if self.world_missing else namespace.exit_code(code)
                self.exit_code = code
                hits, kills = shares.oom_events(self.slot.memory)  # both up: the slot's own cap, the student's
                self.out_of_memory = hits > self._oom_events[0] and kills > self._oom_events[1]
                return describe_exit(code, self.limits.memory_mb, self.slot.memory_mb if self.out_of_memory else 0)
            if time.monotonic() >= end:
                return ""
            time.sleep(0.01)

    def _exit_status(self) -> int | None:
        """The launched process's exit status (-N: signal N), None while it runs; it stays unreaped."""
        assert self._proc is not None
        if isinstance(self._proc, zygotes.ForkedWorker):
            return self._proc.poll()
        info = os.waitid(os.P_PID, self._proc.pid, os.WEXITED | os.WNOHANG | os.WNOWAIT)
        if info is None or not info.si_pid:
            return None
        return info.si_status if info.si_code == os.CLD_EXITED else -info.si_status

    def take_output(self, limit: int = OUTPUT_LIMIT) -> str:
        """Student stdout/stderr since the last call (first ``limit`` bytes), then reset the file."""
        size = os.fstat(self._out_fd).st_size
        if not size:
            return ""
        text = os.pread(self._out_fd, min(size, limit), 0).decode("utf-8", "replace")
        os.ftruncate(self._out_fd, 0)
        return text + (f"\n[... {size - limit} more bytes of output not shown]" if size > limit else "")

    # -- cleaning up -----------------------------------------------------------

    def kill(self) -> None:
        """Kill the worker's process group and every leftover process; reap; forget the worker."""
        proc, self._proc, self._launched = self._proc, None, False
        self.clock.follow(None)  # its waits for a CPU, read before it is reaped
        ended = False  # its private world has ended whole
        if isinstance(proc, zygotes.ForkedWorker):
            ended = proc.end(KILL_DEADLINE)
        elif proc is not None:
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.killpg(proc.pid, signal.SIGKILL)  # the group id is ours until the worker is reaped
            with contextlib.suppress(subprocess.TimeoutExpired):
                proc.wait(timeout=KILL_DEADLINE)
            if not self.world_missing:
                ended = namespace.reap_init(proc.pid, KILL_DEADLINE)
        if ended and self._left_nothing:  # the kernel ended every process of it: no scan of /proc until close()
            self._spawned, self._world_ended = False, True
        elif self._spawned or not self._left_nothing:  # nothing ran since a scan that left nothing: no scan
            self._kill_leftovers()
        for fd in (self._rfd, self._wfd):
            if fd >= 0:
                os.close(fd)
        self._rfd = self._wfd = -1
        self._inbox.clear()
        self._pollers.clear()
        if self._work_dir is not None:
            reaper.remove_tree(self._work_dir)
            self._work_dir = None

    def _kill_leftovers(self) -> None:
        """Freeze, then kill, every leftover process of this sandbox until none runs (``reaper.kill_leftovers``):
        every process of its user (under the user's lock, all are ours), or without one the processes we started
        outside our session; never another live sandbox's, nor the zygote."""
        self._world_ended = False
        sessions = {s.pid for s in list(_live) if s is not self and s.pid}  # other live sandboxes
        zygote = (zygotes.process() or (-1, ""))[0]  # a child of ours in a session of its own, never a leftover
        if reaper.kill_leftovers(self.account.pw_uid if self.account else None, sessions, {zygote}):
            self._left_nothing, self._spawned = True, False
        else:
            self._left_nothing = False

    def close(self) -> None:
        """Kill everything left (daemons included) and remove the sandbox's files. Idempotent."""
        if self._out_fd < 0:
            return
        self.kill()
        if self._world_ended:  # workers whose worlds ended whole were not scanned for: once, the user's last check
            self._kill_leftovers()
        os.close(self._out_fd)
        self._out_fd = -1
        self._end_nest()  # before the slot's groups are removed: a group with a process in it cannot be
        reaper.remove_tree(self._run_dir)
        reaper.remove_tree(self._private)
        shares.remove(self.slot)
        _live.discard(self)
        self.remove_user_files()
        self._release(clean=self._left_nothing, mine=(self._run_dir, self._private))  # only now may another take it
        placement.restore(self._pinned)
        self._pinned = None

    def _end_nest(self) -> None:
        if self._nest is not None:
            self._nest.end(KILL_DEADLINE)
            self._nest = None

    def remove_user_files(self) -> None:
        """Remove what the sandbox user left where it could write (call when its processes are gone): in a
        private world only its tmpfs were writable; else any world-writable folder found at start. Its IPC objects
        too (shared memory, message queues, semaphores: without an IPC namespace they outlive the worker)."""
        if self.account:
            reaper.remove_user_files(self.account.pw_uid, self._shared)
            reaper.remove_ipc(self.account.pw_uid)

    def __enter__(self) -> Sandbox:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


@atexit.register
def close_all() -> None:
    """Close every sandbox of this process (at its exit, or when a batch's grading is told to end)."""
    for sandbox in list(_live):
        with contextlib.suppress(Exception):
            sandbox.close()
