"""A warm parent of workers: a clean interpreter that has imported numpy and the worker once, and forks.

A batch's fork server starts one (zygotes.py) as root: ``python -I -B -u -c BOOT SOCKET_FD PARENT``, its
own copies of this file, worker.py (with its two helpers), protocol.py, seccomp.py and world_init.py in a folder of
their own (runfolder.py), stdin/stdout/stderr ``/dev/null``, cwd ``/``, a worker's environment. It never runs
student code and never holds a grading's data: its socket brings file descriptors only. A worker
forked from it skips an interpreter start and the numpy import (~0.08 s of CPU per grading). Per
request (a ``fork`` message carrying five descriptors: the worker's two pipes, its output file, a
status socket to the grader and a pipe holding the grading's spec), it forks C1 below. Per ``nest`` request (a
socket and a pipe holding the slot's cgroups), it forks a nest (``_nest``): a copy of itself for one grading, in
that grading's cgroups, which then forks that grading's worlds (so they are born in the groups) until its socket
closes:

C1  root, in the host's PID namespace: reads the spec, takes the grader's CPU affinity, joins the
    slot's cgroups (its CPU weight's, and with cgroup v1 its CPU-time and memory groups too, so C2 and
    C3 are born in them), sets oom_score_adj and the rlimits (the address space last), moves into new
    mount, PID, network, IPC and UTS namespaces, forks C2, sends the grader its pid with pidfds of
    itself and of C2, and reports C2's exit status as ``unshare --fork`` would
    (``-N`` when a signal ended it). The grader ends the world by closing its end of the status
    socket (or by going away): C1 kills C2 and exits once every process of the world has ended.
C2  PID 1 of the world (the role of world_init.py, whose ``build`` and ``reap`` it uses): dies with
    C1 (PDEATHSIG), builds the view, forks the worker and reaps until it ends. It ends only once the
    kernel has ended every other process of the world: the grader waits for it when it had to kill C1.
    The zygote is a child subreaper that ignores SIGCHLD, so a C2 that outlives its C1 is reaped by the
    kernel the moment it ends.
C3  the worker: its own session, the sandbox user, no new privileges, fds 0/1/2 as a started worker
    has them, the grading's environment and umask, undumpable again after the user switch; then
    ``worker.main`` exactly as ``python -I -B -u -c BOOT R W`` would run it, which installs the seccomp
    filter (seccomp.py: no network, no ptrace...) before the first student code, as in a started worker.

Standard library, numpy (through worker.py) and the modules next to it.
"""

from __future__ import annotations

import atexit
import ctypes
import marshal
import os
import random
import resource
import select
import shutil
import signal
import socket
import sys


def _import_neighbours() -> tuple:
    """worker.py (and protocol.py) and world_init.py sit next to this file: -I keeps it off sys.path."""
    here = os.path.dirname(os.path.abspath(__file__))
    sys.path.insert(0, here)
    try:
        import protocol
        import worker
        import world_init
    finally:
        sys.path.remove(here)
    return protocol, worker, world_init


protocol, worker, world_init = _import_neighbours()  # once here, for every worker
worker.np.random.seed()  # numpy.random is imported lazily (with hashlib, secrets...): once here, not in each worker
SETUP_FAILED = world_init.SETUP_FAILED
CLONE_NEWNS, CLONE_NEWUTS, CLONE_NEWIPC = 0x20000, 0x4000000, 0x8000000
CLONE_NEWPID, CLONE_NEWNET = 0x20000000, 0x40000000
PR_SET_PDEATHSIG, PR_SET_DUMPABLE, PR_SET_CHILD_SUBREAPER = 1, 4, 36
_libc = ctypes.CDLL(None, use_errno=True)


def serve(sock: socket.socket) -> None:
    """Fork once per request until the socket closes (every holder of its other end has gone): a world (C1) for a
    ``fork`` request, a nest (below) for a ``nest`` request."""
    signal.signal(signal.SIGCHLD, signal.SIG_IGN)  # C1s are reaped by the kernel
    _libc.prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0)  # and so is a C2 whose C1 was killed (it becomes ours)
    while True:
        try:
            message, fds, _, _ = socket.recv_fds(sock, 16, 8)
        except InterruptedError:
            continue
        except OSError:
            return
        if not fds:
            return  # end of file
        if len(fds) == 5 and message == b"fork" and os.fork() == 0:
            sock.close()
            _first_child(*fds)  # never returns
        if len(fds) == 2 and message == b"nest" and os.fork() == 0:
            sock.close()
            _nest(*fds)  # never returns
        for fd in fds:
            os.close(fd)


def _nest(nest_fd: int, spec_fd: int) -> None:
    """A nest: this zygote's copy for one grading, in the grading's slot's cgroups, which serves its ``fork``
    requests (``serve``) on a socket of its own. Its worlds are born in those groups: moving a process into a
    cgroup waits for an RCU grace period (~4 ms each, three groups with cgroup v1), which C1 would otherwise pay at
    every restart of the grading's worker. It keeps the zygote's OOM score, below a world's (C1 raises its own);
    it dies with the zygote, and ends when the grading closes its socket (``zygotes.Nest.end``)."""
    try:
        _libc.prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
        sock = socket.socket(fileno=nest_fd)
        with os.fdopen(spec_fd, "rb") as f:
            spec = marshal.loads(f.read())
        _join(spec["cgroups"])
        pidfd = os.pidfd_open(os.getpid())
        socket.send_fds(sock, [protocol.ZYGOTE_HELLO.pack(b"N", os.getpid())], [pidfd])
        os.close(pidfd)
        serve(sock)
    except BaseException:  # the grading's Nest sees it gone and forks from the zygote instead
        pass
    os._exit(0)


def _first_child(to_child: int, from_child: int, out: int, status_fd: int, spec_fd: int) -> None:
    """C1 (see the module docstring)."""
    code = SETUP_FAILED
    try:
        signal.signal(signal.SIGCHLD, signal.SIG_DFL)
        signal.signal(signal.SIGTERM, signal.SIG_DFL)  # the zygote's own handler (main) is not the world's
        os.setsid()
        status = socket.socket(fileno=status_fd)
        with os.fdopen(spec_fd, "rb") as f:
            spec = marshal.loads(f.read())
        null = os.open("/dev/null", os.O_RDWR)
        for fd, target in ((null, 0), (out, 1), (out, 2)):
            os.dup2(fd, target)
        os.close(null)
        _confine(spec)
        if _libc.unshare(CLONE_NEWNS | CLONE_NEWPID | CLONE_NEWNET | CLONE_NEWIPC | CLONE_NEWUTS) != 0:
            raise OSError(ctypes.get_errno(), "unshare")
        alive_r, alive_w = os.pipe()
        init = os.fork()
        if init == 0:
            os.close(alive_w)
            status.close()
            _world(spec, to_child, from_child, alive_r)  # never returns
        os.close(alive_r)
        for fd in (to_child, from_child):
            os.close(fd)
        pidfds = [os.pidfd_open(os.getpid()), os.pidfd_open(init)]
        socket.send_fds(status, [protocol.ZYGOTE_HELLO.pack(b"P", os.getpid())], pidfds)
        os.close(pidfds[0])
        code = _watch(init, pidfds[1], status)
        try:
            status.sendall(protocol.ZYGOTE_STATUS.pack(b"S", code))
        except OSError:
            pass  # the grader closed its end: it ended this world (see _watch)
        code = 0
    except BaseException as e:
        print(f"sandbox world: {e}", file=sys.stderr, flush=True)
    os._exit(code)


def _join(cgroups: list[str]) -> None:
    """Move this process into each group of ``cgroups`` (their ``cgroup.procs``), one after the other: a write soon
    after another skips most of its RCU wait. A group that refuses leaves isolation reduced, not broken (as
    confine.py)."""
    for procs in cgroups:
        try:
            fd = os.open(procs, os.O_WRONLY)
            try:
                os.write(fd, b"0")
            finally:
                os.close(fd)
        except OSError:
            pass


def _confine(spec: dict) -> None:
    """The slot's cgroups, the OOM score and the rlimits: what confine.child_setup does before an exec; and the
    grader's CPU affinity, which a worker it started itself would inherit."""
    if spec["cpus"]:
        os.sched_setaffinity(0, spec["cpus"])
    _join(spec["cgroups"])
    try:
        fd = os.open("/proc/self/oom_score_adj", os.O_WRONLY)
        try:
            os.write(fd, spec["oom_score"].encode())
        finally:
            os.close(fd)
    except OSError:
        pass
    for which, soft, hard in spec["rlimits"]:  # the address space last (confine.rlimits): C1 to C3 live within it
        resource.setrlimit(which, (soft, hard))


def _watch(init: int, pidfd: int, status: socket.socket) -> int:
    """Wait for C2 (``pidfd``) to end (its status as unshare reports it); when the grader closes its end of
    ``status`` (its way to end the world) or goes away, kill C2 first. C2 ends only once the kernel has ended every
    process of its PID namespace, so C1's own end tells the grader that nothing of the world is left."""
    poller = select.poll()
    poller.register(pidfd, select.POLLIN)
    poller.register(status, select.POLLIN)  # the grader never writes: readable means it closed its end
    while not any(fd == pidfd for fd, _ in poller.poll()):
        os.kill(init, signal.SIGKILL)
        poller.unregister(status)
    while True:
        try:
            _, wait_status = os.waitpid(init, 0)
            break
        except InterruptedError:
            continue
    return os.waitstatus_to_exitcode(wait_status)


def _world(spec: dict, to_child: int, from_child: int, alive: int) -> None:
    """C2: PID 1 of the new namespaces."""
    code = SETUP_FAILED
    try:
        _libc.prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
        if select.select([alive], [], [], 0)[0]:  # C1 ended before the line above: no parent to die with
            os._exit(SETUP_FAILED)
        world_init.build(spec["world"])
        pid = os.fork()
        if pid == 0:
            _worker(spec, to_child, from_child)  # never returns
        os.closerange(3, 1 << 16)  # the protocol pipes are the worker's alone: its death closes them
        for sig in (signal.SIGTERM, signal.SIGINT, signal.SIGHUP):
            signal.signal(sig, signal.SIG_DFL)
        code = world_init.reap(pid)
    except BaseException as e:
        print(f"sandbox world: {e}", file=sys.stderr, flush=True)
    os._exit(code)


def _worker(spec: dict, to_child: int, from_child: int) -> None:
    """C3: become what ``python -I -B -u -c BOOT R W`` started as the sandbox user would be, then serve."""
    try:
        world_init.become_worker(spec["world"])
        _libc.prctl(PR_SET_DUMPABLE, 0, 0, 0, 0)  # a uid change resets it to fs.suid_dumpable
        os.umask(spec["umask"])
        for fd in range(3, max(to_child, from_child) + 1):
            if fd not in (to_child, from_child):
                try:
                    os.close(fd)
                except OSError:
                    pass
        os.closerange(max(to_child, from_child) + 1, 1 << 16)
        os.environ.clear()
        os.environ.update(spec["env"])
        for name in ("zygote", "world_init"):
            sys.modules.pop(name, None)
        random.seed()  # not the zygote's sequences: each worker draws its own, as a started one does
        worker.np.random.seed()
        sys.argv = ["-c", str(to_child), str(from_child)]
    except BaseException as e:
        print(f"sandbox world: could not start the worker: {e}", file=sys.stderr, flush=True)
        os._exit(SETUP_FAILED)
    try:
        code = worker.main(sys.argv)
    except SystemExit as e:
        code = e.code if isinstance(e.code, int) else 1
    except BaseException:
        code = 1
    try:  # what the interpreter's exit would do: the student's atexit functions, flushed output
        atexit._run_exitfuncs()
        sys.stdout.flush()
        sys.stderr.flush()
    except BaseException:
        pass
    os._exit(code)


def main(argv: list[str]) -> int:
    """Serve until the socket closes; die with the process that started it (``argv[2]``: a batch's fork server,
    SIGKILLed with its batch, batch/lifeline.py), whose gradings' worlds then end as their sockets close."""
    signal.signal(signal.SIGTERM, _stop)
    signal.signal(signal.SIGHUP, signal.SIG_DFL)  # a batch's fork server ignores it: not so the workers
    try:
        if len(argv) > 2:
            _libc.prctl(PR_SET_PDEATHSIG, signal.SIGTERM, 0, 0, 0)  # SIGTERM: its folder is removed first
            if os.getppid() != int(argv[2]):
                return 1  # it has ended already
        serve(socket.socket(fileno=int(argv[1])))
    except _Stopped:
        pass
    finally:  # a starter that dies ends the socket and sends SIGTERM (PDEATHSIG) at once: the second must not cut
        signal.signal(signal.SIGTERM, signal.SIG_IGN)  # the removal short (a folder left without its owner file)
        _remove_own_folder()  # the batch is over
    return 0


OWNER_FILE = ".owner"  # reaper.OWNER_FILE (this file runs alone, from its own folder)


def _remove_own_folder() -> None:
    """Its folder, the owner file last: a zygote killed midway leaves a folder the next batch removes."""
    folder = os.path.dirname(os.path.abspath(__file__))
    try:
        entries = [e for e in os.scandir(folder) if e.name != OWNER_FILE]
    except OSError:
        entries = []
    for entry in entries:
        try:
            if entry.is_dir(follow_symlinks=False):
                shutil.rmtree(entry.path, ignore_errors=True)
            else:
                os.unlink(entry.path)
        except OSError:
            pass
    shutil.rmtree(folder, ignore_errors=True)


class _Stopped(BaseException):
    """SIGTERM: the process that started the zygote has ended (or asks it to)."""


def _stop(signum: int, frame: object) -> None:
    raise _Stopped
