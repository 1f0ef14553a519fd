"""Finding, freezing and killing the processes student code leaves behind, and removing its files.

Used by ``supervisor.Sandbox``. Processes are read straight from /proc (newest first) and
signalled through a pidfd after their start time is checked, so a recycled pid is never
hit. Files are removed without following symlinks, within a deadline. Without a private world
(namespace.py), what the sandbox user leaves in any world-writable directory of the machine
(``world_writable_dirs``, found at start) is removed; in one, only its own tmpfs were writable.
"""

from __future__ import annotations

import contextlib
import os
import signal
import stat
import time
from pathlib import Path
from typing import Any

KILL_DEADLINE = 5.0  # seconds spent at most killing leftovers
CLEAN_DEADLINE = 5.0  # seconds spent at most removing the sandbox user's files
SHARED_DIRS = ("/tmp", "/var/tmp", "/dev/shm")  # world-writable: what the sandbox user leaves there is removed
SCAN_DEPTH, SCAN_SECONDS = 6, 2.0  # how deep and how long world_writable_dirs() looks (once per process)
SCAN_SKIP = ("/proc", "/sys", "/usr")  # kernel views, and the system's read-only tree
_world_writable: list[tuple[str, ...]] = []

def process_table(eager: Any = None) -> dict[int, dict]:
    """pid -> {ppid, sid, uids, state, start} for every process in /proc, newest first (uids from status: the
    owner of /proc/PID is root for a non-dumpable process), calling ``eager(pid, info)`` on each as it is read."""
    table = {}
    for entry in sorted(filter(str.isdigit, os.listdir("/proc")), key=int, reverse=True):
        try:
            uids = read_proc(f"/proc/{entry}/status").split(b"\nUid:", 1)[1].split(b"\n", 1)[0].split()
            fields = read_proc(f"/proc/{entry}/stat").rsplit(b")", 1)[1].split()
            info = table[int(entry)] = {"ppid": int(fields[1]), "sid": int(fields[3]), "state": fields[0].decode(),
                                        "uids": set(map(int, uids)), "start": int(fields[19])}
        except (OSError, ValueError, IndexError):
            continue  # it just exited
        if eager:
            eager(int(entry), info)
    return table


def read_proc(path: str) -> bytes:
    fd = os.open(path, os.O_RDONLY)
    try:
        return os.read(fd, 8192)
    finally:
        os.close(fd)


def start_time(pid: int) -> int:
    """When ``pid`` started (clock ticks after boot), or -1 when it is gone."""
    try:
        return int(read_proc(f"/proc/{pid}/stat").rsplit(b")", 1)[1].split()[19])
    except (OSError, ValueError, IndexError):
        return -1


def send_signal(pid: int, start: int, sig: int) -> None:
    """Send ``sig`` to ``pid`` if it is still the process that started at ``start``."""
    try:
        fd = os.pidfd_open(pid)
    except ProcessLookupError:
        return
    except OSError:  # no pidfds (Linux < 5.3): a pid recycled between the check and the kill is hit
        if start_time(pid) == start:
            with contextlib.suppress(OSError):
                os.kill(pid, sig)
        return
    try:
        if start_time(pid) == start:  # the pidfd pins the process it was opened for
            signal.pidfd_send_signal(fd, sig)
    except OSError:
        pass
    finally:
        os.close(fd)


def descendants(table: dict[int, dict], root: int) -> set[int]:
    children: dict[int, list[int]] = {}
    for pid, info in table.items():
        children.setdefault(info["ppid"], []).append(pid)
    found, todo = set(), [root]
    while todo:
        fresh = [c for c in children.get(todo.pop(), []) if c not in found]
        found.update(fresh)
        todo += fresh
    return found


def owner(table: dict[int, dict], pid: int, uid: int) -> int:
    """The first ancestor of ``pid`` not running as ``uid``: this grader, init (1), another (or 0: gone)."""
    for _ in range(len(table)):
        pid = table[pid]["ppid"]
        if pid not in table or uid not in table[pid]["uids"]:
            return pid if pid in table else 0
    return 0


def kill_leftovers(uid: int | None, sessions: set[int], keep: set[int], seconds: float = KILL_DEADLINE) -> bool:
    """Freeze, then kill, every leftover process until none runs; reap the ones reparented to us. Whether none is
    left (False: out of time, every process stopped then killed anyway).

    Leftovers: every process of ``uid`` (a sandbox user, whose lock the caller holds), or with None the
    processes this one started outside its session; never one of ``keep`` or of another live sandbox (the worker
    sessions ``sessions`` and their descendants). SIGSTOP each new leftover and rescan until no new one appears (a
    stopped process cannot fork), then SIGKILL them all. A child of ours or of a stopped one is stopped as soon as
    the scan reads it, newest first: in a storm of fork-and-exit chains a process lives for about one fork.
    Signals go through pidfds checked against the start time seen in /proc (a storm recycles pids fast).
    """
    me, deadline = os.getpid(), time.monotonic() + seconds
    keep = keep | {me}
    frozen: dict[int, int] = {}  # pid -> start time of every process stopped
    stops = [0]
    spared = sessions | {os.getsid(0)}

    def stop(pid: int, info: dict) -> None:
        if frozen.get(pid) != info["start"] and info["state"] not in "ZX":
            send_signal(pid, info["start"], signal.SIGSTOP)
            frozen[pid] = info["start"]
            stops[0] += 1

    def eager(pid: int, info: dict) -> None:  # during the scan: a storm's newest process forks next
        ours = info["ppid"] == me or info["ppid"] in frozen
        if ours and info["sid"] not in spared and pid not in keep and (uid is None or uid in info["uids"]):
            stop(pid, info)

    while time.monotonic() < deadline:
        before = stops[0]
        table = process_table(eager)
        victims = _victims(table, uid, me, keep, sessions)
        for pid in sorted(victims, reverse=True):
            stop(pid, table[pid])
        zombies = {p for p in victims if table[p]["state"] in "ZX" and table[p]["ppid"] == me}
        for pid in zombies:  # every round: a short table is a fast scan
            with contextlib.suppress(ChildProcessError):
                os.waitpid(pid, os.WNOHANG)
        if stops[0] > before:
            continue  # until a scan finds no new process: then every one of them is stopped
        alive = [p for p in victims if table[p]["state"] not in "ZX"]
        for pid in alive:
            send_signal(pid, table[pid]["start"], signal.SIGKILL)
        if not alive and not zombies:
            return True
        time.sleep(0.005)
    for pid, start in frozen.items():  # out of time: at least leave nothing stopped
        send_signal(pid, start, signal.SIGKILL)
    return False


def _victims(table: dict[int, dict], uid: int | None, me: int, keep: set[int], sessions: set[int]) -> set[int]:
    """The leftovers in ``table`` (zombies included): see ``kill_leftovers``."""
    if uid is not None:  # under the user's lock (lock.py) every process of the uid is a leftover of ours
        victims = {p for p, i in table.items() if uid in i["uids"]}
    else:  # student processes never share the grader's session; its own helpers do (the zygote: see keep)
        victims = {p for p in descendants(table, me) if table[p]["sid"] != os.getsid(0)}
    others = {d for pid in sessions for d in descendants(table, pid)}  # a world's worker has its own sid
    return {p for p in victims if p not in keep | sessions | others and table[p]["sid"] not in sessions}


def world_writable_dirs(*, refresh: bool = False) -> tuple[str, ...]:
    """Every directory the sandbox user could write to outside its own: SHARED_DIRS and each world-writable
    directory found within SCAN_DEPTH levels of / (not SCAN_SKIP), nested ones included (/run/lock,
    /var/crash, /dev/mqueue, /tmp/.X11-unix...). Found once per process, before any student code runs
    (a batch's forks inherit it), in at most SCAN_SECONDS; ~0.1 s on a developer machine."""
    if _world_writable and not refresh:
        return _world_writable[0]
    found = {d for d in SHARED_DIRS if os.path.isdir(d)}
    deadline = time.monotonic() + SCAN_SECONDS
    todo = [("/", 0)]
    while todo and time.monotonic() < deadline:
        top, depth = todo.pop()
        with contextlib.suppress(OSError), os.scandir(top) as listing:
            for entry in listing:
                with contextlib.suppress(OSError):
                    if entry.path in SCAN_SKIP or not entry.is_dir(follow_symlinks=False):
                        continue
                    if entry.stat(follow_symlinks=False).st_mode & stat.S_IWOTH:
                        found.add(entry.path)
                    if depth + 1 < SCAN_DEPTH:
                        todo.append((entry.path, depth + 1))
    _world_writable[:] = [tuple(sorted(found))]
    return _world_writable[0]


def remove_user_files(uid: int, dirs: tuple[str, ...] = SHARED_DIRS, seconds: float = CLEAN_DEADLINE) -> None:
    """Remove every entry owned by ``uid`` directly under ``dirs`` (symlinks themselves, never their targets)."""
    deadline = time.monotonic() + seconds
    for top in dirs:
        try:
            top_fd = os.open(top, os.O_RDONLY | os.O_DIRECTORY)
        except OSError:
            continue
        try:
            with os.scandir(top_fd) as listing:
                names = [entry.name for entry in listing]
            for name in names:
                with contextlib.suppress(OSError):
                    if os.stat(name, dir_fd=top_fd, follow_symlinks=False).st_uid == uid:
                        _remove_at(top_fd, name, deadline)
        except OSError:
            pass
        finally:
            os.close(top_fd)


SYSV_IPC = (("shm", "shmid", "shmctl"), ("msg", "msqid", "msgctl"), ("sem", "semid", "semctl"))  # /proc/sysvipc/*
MQUEUE_DIR = "/dev/mqueue"  # POSIX message queues, where that file system is mounted
IPC_RMID = 0


def ipc_objects(uid: int) -> list[tuple[str, int]]:
    """(kind, id) of every System V shared memory segment, message queue and semaphore set ``uid`` owns or made,
    in this IPC namespace (the grader's: a private world's die with it)."""
    found = []
    for kind, column, _ in SYSV_IPC:
        try:
            lines = Path(f"/proc/sysvipc/{kind}").read_text().splitlines()
        except OSError:
            continue
        header = lines[0].split() if lines else []
        for line in lines[1:]:
            row = dict(zip(header, line.split()))
            with contextlib.suppress(KeyError, ValueError):
                if uid in (int(row["uid"]), int(row["cuid"])):
                    found.append((kind, int(row[column])))
    return found


def remove_ipc(uid: int) -> int:
    """Remove the IPC objects of ``uid`` that would outlive a grading without an IPC namespace: its System V shared
    memory segments, message queues and semaphore sets, and its POSIX message queues (``/dev/mqueue``, where
    mounted). The worker's seccomp filter refuses these calls; this clears what a worker without the filter left.
    Called at each worker start and at close, and by ``autograder cleanup``. Returns how many System V objects
    were found. As root, the removal runs in a child that takes ``uid``: Docker grants root no CAP_IPC_OWNER, and
    only an object's owner (or creator) may remove it without that."""
    found = ipc_objects(uid) if uid != 0 else []
    if uid != 0:
        remove_user_files(uid, (MQUEUE_DIR,))
    if not found:
        return 0
    import ctypes

    libc = ctypes.CDLL(None, use_errno=True)
    calls = {kind: getattr(libc, call) for kind, _, call in SYSV_IPC}

    def remove() -> None:
        for kind, ident in found:
            calls[kind](ident, 0, IPC_RMID) if kind == "sem" else calls[kind](ident, IPC_RMID, None)

    if os.geteuid() != 0:
        remove()
        return len(found)
    pid = os.fork()
    if pid == 0:  # pragma: no cover (the child: becomes the user, removes, exits)
        code = 1
        try:
            os.setuid(uid)
            remove()
            code = 0
        finally:
            os._exit(code)
    os.waitpid(pid, 0)
    return len(found)


def remove_left_folders(paths: list[str], prefixes: tuple[str, ...], seconds: float = CLEAN_DEADLINE) -> list[str]:
    """Remove the folders a grading killed before its cleanup left (its user's lock file names them: ``lock.py``),
    each only if it is ours to remove: a directory of ours, not a link, named with one of ``prefixes``.
    Returns those of ours still there (out of time)."""
    kept = []
    for path in paths:
        with contextlib.suppress(OSError):
            info = os.lstat(path)
            if (os.path.isabs(path) and os.path.basename(path).startswith(prefixes) and stat.S_ISDIR(info.st_mode)
                    and info.st_uid == os.geteuid()):
                remove_tree(Path(path), seconds)
                if os.path.lexists(path):
                    kept.append(path)
    return kept


OWNER_FILE = ".owner"  # in a scratch folder: "PID START" of the process whose life it lasts (mark_owner)


def mark_owner(folder: Path, pid: int) -> None:
    """Record in ``folder`` that it lives as long as process ``pid`` (its start time tells a recycled pid)."""
    path = folder / OWNER_FILE
    path.write_text(f"{pid} {start_time(pid)}\n")
    path.chmod(0o644)


def owner_gone(folder: Path) -> bool:
    """Whether the process ``folder``'s owner file names has ended (False without a readable owner file: a folder
    just made, or one of another program, is never taken for a leftover)."""
    try:
        pid, start = (int(x) for x in (folder / OWNER_FILE).read_text().split())
    except (OSError, ValueError):
        return False
    return start_time(pid) != start


def remove_tree(path: Path, seconds: float = CLEAN_DEADLINE) -> None:
    with contextlib.suppress(OSError):
        parent = os.open(path.parent, os.O_RDONLY | os.O_DIRECTORY)
        try:
            _remove_at(parent, path.name, time.monotonic() + seconds)
        finally:
            os.close(parent)


def _remove_at(parent: int, name: str, deadline: float) -> None:
    """Remove ``name`` in the directory ``parent`` (an fd) and all under it, until ``deadline``.

    Iterative with two fds, whatever the depth: the entries of each subdirectory are moved up
    into the directory being removed, then the emptied subdirectory goes. Nothing is followed.
    """
    with contextlib.suppress(OSError):
        if not stat.S_ISDIR(os.stat(name, dir_fd=parent, follow_symlinks=False).st_mode):
            os.unlink(name, dir_fd=parent)
            return
        fd = _open_dir(name, parent)
        try:
            moved = 0
            while time.monotonic() < deadline:
                with os.scandir(fd) as listing:  # an owner file last: a remover killed midway leaves it marked
                    entries = sorted(((e.name, e.is_dir(follow_symlinks=False)) for e in listing),
                                     key=lambda entry: entry[0] == OWNER_FILE)
                if not entries:
                    break
                for entry, is_dir in entries:
                    with contextlib.suppress(OSError):
                        if not is_dir:
                            os.unlink(entry, dir_fd=fd)
                            continue
                        sub = _open_dir(entry, fd)
                        try:
                            with os.scandir(sub) as listing:
                                inner = [e.name for e in listing]
                            for item in inner:
                                moved += 1
                                os.rename(item, f".ag-{os.getpid()}-{moved}", src_dir_fd=sub, dst_dir_fd=fd)
                        finally:
                            os.close(sub)
                        os.rmdir(entry, dir_fd=fd)
        finally:
            os.close(fd)
        os.rmdir(name, dir_fd=parent)


def _open_dir(name: str, parent: int) -> int:
    """An fd of the directory ``name`` in ``parent``, made readable and writable by us first if needed."""
    flags = os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW
    try:
        fd = os.open(name, flags, dir_fd=parent)
    except PermissionError:  # not root: the student's chmod 000 on its own directory
        os.chmod(name, 0o700, dir_fd=parent)
        fd = os.open(name, flags, dir_fd=parent)
    with contextlib.suppress(OSError):
        os.fchmod(fd, stat.S_IMODE(os.fstat(fd).st_mode) | 0o700)
    return fd
