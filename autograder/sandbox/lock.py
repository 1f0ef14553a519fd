"""One grading per sandbox user, guaranteed: a pool of users, each held through an exclusive lock.

As root, every ``Sandbox`` takes a sandbox user of the pool ``agsandbox``, ``agsandbox2``,
``agsandbox3``, ... (the base name follows ``$AUTOGRADER_SANDBOX_USER``) before its worker
starts, and keeps it until its cleanup has ended. The lock is an ``flock`` on
``LOCK_DIR/<user>.lock`` (a root-owned 0700 folder: no student, no other user can take,
hold or break it). The kernel drops the lock with the holder's last file descriptor, so a
grading killed with SIGKILL frees its user too; the next holder then first kills whatever
that user still runs and removes its files (``Sandbox`` does that right after ``acquire``).

So under the lock every process of the user belongs to this grading: killing and cleaning
"everything the sandbox user runs" is exact, and parallel ``grade`` runs, ``make test``
during a ``batch`` and several shards on one host never kill each other's workers. A
grading takes the first free user of those that exist; the base user must exist (setup.sh
makes it), and when every existing one is held, the next numbered one is created on demand
(``useradd --system``, like setup.sh). The pool has no fixed size: it grows to as many users
as gradings ever ran at once on the machine (``batch --jobs 64`` makes 64), and ``autograder
cleanup`` removes them all (``members`` finds them). Only when a user cannot be created does
a grading wait for a held one. Not as root there is no user switch and no lock: student
processes are then told apart as this grader's descendants (see ``supervisor``).

The lock file says how its last holder left the user (first line ``clean`` or ``dirty``) and,
on the lines after it, the grading's own folders (its run folder, where the user's home is,
and its private one) that still exist: a grading killed before its cleanup leaves them on
disk, and the next holder removes them (``UserLock.left``).
"""

from __future__ import annotations

import contextlib
import fcntl
import os
import pwd
import re
import shutil
import stat
import subprocess
import sys
import time
from collections.abc import Iterable
from dataclasses import dataclass, field

LOCK_DIRS = ("/run/autograder", "/var/lock/autograder")  # the first one that can be made root-only
WAIT_LIMIT = 1800.0  # seconds to wait for a free user before giving up (a grader error)
WAIT_SLICE = 0.1
CLEAN, DIRTY = b"clean", b"dirty"  # the lock file's first line: how its last holder left the user
RECORD_LIMIT = 65536  # bytes of a lock file read back


class LockError(RuntimeError):
    """No sandbox user could be locked: an infrastructure problem, not the student's."""


@dataclass
class UserLock:
    """A sandbox user held by this process until ``release``. ``clean``: the last holder ended its cleanup with
    nothing left (the lock file says so), so there is nothing of that user to kill or remove now."""

    name: str
    account: pwd.struct_passwd
    fd: int
    clean: bool = False
    left: list[str] = field(default_factory=list)  # folders the last holder recorded and may have left on disk

    def record(self, folders: list[str]) -> None:
        """Note this grading's folders in the lock file, after those of ``left`` (its predecessor's, not removed
        yet): if it is killed before its cleanup, the next holder removes them all."""
        if self.fd >= 0:
            with contextlib.suppress(OSError):  # a note for a cleanup after a crash: never worth a grading
                _write(self.fd, DIRTY, [*self.left, *folders])

    def release(self, *, clean: bool = False, left: Iterable[str] = ()) -> None:
        """Drop the lock; ``clean``: nothing of the user is left (the next holder may skip its clean-up);
        ``left``: every folder still there for the next holder to remove, those of ``self.left`` included (the
        caller knows which of them still exist)."""
        if self.fd >= 0:
            with contextlib.suppress(OSError):
                _write(self.fd, CLEAN if clean else DIRTY, list(left))
            os.close(self.fd)  # closing the last descriptor drops the flock
            self.fd = -1


def pool_names(base: str, size: int) -> list[str]:
    """The first ``size`` users of ``base``'s pool, in the order they are tried."""
    return [base] + [f"{base}{i}" for i in range(2, size + 1)]


def position(base: str, name: str) -> int | None:
    """The place of ``name`` in ``base``'s pool (1 for the base itself), or None when it is not one of its users."""
    if name == base:
        return 1
    found = re.fullmatch(re.escape(base) + r"([2-9]|[1-9][0-9]+)", name)
    return int(found.group(1)) if found else None


def members(base: str, folders: Iterable[str] = ()) -> list[str]:
    """Every user of ``base``'s pool on this machine, in pool order: the accounts that exist, and those named by a
    lock file in ``folders`` (a user removed by hand leaves its lock file behind)."""
    names = {account.pw_name for account in pwd.getpwall() if position(base, account.pw_name)}
    for folder in folders:
        with contextlib.suppress(OSError):
            names.update(entry[: -len(".lock")] for entry in os.listdir(folder) if entry.endswith(".lock")
                         and position(base, entry[: -len(".lock")]))
    return sorted(names, key=lambda name: position(base, name) or 0)


def lock_dir() -> str:
    """A folder only root can enter, for the lock files (made if missing); LockError when none can be."""
    problems = []
    for path in LOCK_DIRS:
        try:
            os.makedirs(path, mode=0o700, exist_ok=True)
            info = os.stat(path, follow_symlinks=False)
            if not stat.S_ISDIR(info.st_mode) or info.st_uid != 0:
                raise OSError(f"{path} is not a directory owned by root")
            if stat.S_IMODE(info.st_mode) & 0o077:
                os.chmod(path, 0o700)
            return path
        except OSError as e:
            problems.append(str(e))
    raise LockError(f"no folder for the sandbox users' locks ({'; '.join(problems)})")


def acquire(base: str, *, size: int | None = None, wait: float = WAIT_LIMIT, create: bool = True,
            on_wait: object = None) -> UserLock | None:
    """Lock a free user of ``base``'s pool, waiting up to ``wait`` s; None when ``base`` does not exist.

    Existing users are tried first, in pool order; when all are held, the next missing one is created
    (``create``): the pool grows with the gradings at once. ``size`` caps the pool (tests of waiting);
    None, no cap. ``on_wait``, if callable, is called once when this grading starts waiting (every user held
    and none can be made). Raises LockError after ``wait`` seconds, or when no lock folder can be made."""
    if not _exists(base):
        return None
    folder = lock_dir()
    deadline, told = time.monotonic() + wait, False
    while True:
        existing = [name for name in members(base) if size is None or (position(base, name) or 0) <= size]
        for name in existing:
            fd = _try_lock(folder, name)
            if fd is not None:
                with contextlib.suppress(KeyError):
                    return _held(name, fd)
                os.close(fd)  # removed meanwhile (cleanup): try the others
        made = _create(base, folder, set(existing), size) if create else None
        if made is not None:
            return made
        if time.monotonic() >= deadline:
            held = f"all {len(existing)} sandbox users of `{base}`'s pool"
            raise LockError(f"{held} stayed busy for {wait:g} s and no other could be created")
        if not told and callable(on_wait):
            on_wait()
            told = True
        time.sleep(WAIT_SLICE)


def _create(base: str, folder: str, existing: set[str], size: int | None) -> UserLock | None:
    """Lock, then create, the first missing user of the pool whose lock no other grading holds (another
    grading may be creating that one: its lock is taken first). None when the cap is reached or useradd fails."""
    index = 2
    while size is None or index <= size:
        name = f"{base}{index}"
        index += 1
        if name in existing:
            continue
        fd = _try_lock(folder, name)
        if fd is None:
            continue  # another grading holds it: it is creating it, or made it after ``existing`` was read
        if ensure_user(name):
            with contextlib.suppress(KeyError):
                return _held(name, fd)
        os.close(fd)
        return None
    return None


def _held(name: str, fd: int) -> UserLock:
    """The lock on ``name`` just taken through ``fd``: how the last holder left it and the folders it recorded,
    then marked in use (a holder killed before its cleanup leaves it so, with the folders it records)."""
    state, *folders = os.pread(fd, RECORD_LIMIT, 0).split(b"\n")
    left = [os.fsdecode(f) for f in folders if f]
    _write(fd, DIRTY, left)  # kept until removed: a holder killed before that leaves them to the next one
    return UserLock(name, pwd.getpwnam(name), fd, state == CLEAN, left)


def _write(fd: int, state: bytes, folders: list[str]) -> None:
    os.ftruncate(fd, 0)
    os.pwrite(fd, b"\n".join([state, *(os.fsencode(f) for f in folders)]), 0)


def _try_lock(folder: str, name: str) -> int | None:
    """A descriptor holding ``name``'s lock, or None when another grading holds it."""
    fd = os.open(os.path.join(folder, f"{name}.lock"), os.O_RDWR | os.O_CREAT | os.O_CLOEXEC | os.O_NOFOLLOW, 0o600)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        os.close(fd)
        return None
    return fd


def _exists(name: str) -> bool:
    try:
        pwd.getpwnam(name)
        return True
    except KeyError:
        return False


def ensure_user(name: str) -> bool:
    """The system user ``name`` exists (created like setup.sh's when missing)."""
    if _exists(name):
        return True
    useradd = shutil.which("useradd") or ("/usr/sbin/useradd" if os.path.exists("/usr/sbin/useradd") else None)
    if useradd is None:
        return False
    for _ in range(5):  # useradd refuses while another one holds /etc/passwd's lock: try again
        done = subprocess.run(
            [useradd, "--system", "--no-create-home", "--home-dir", "/nonexistent", "--shell", "/usr/sbin/nologin",
             name], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, check=False,
        )
        if done.returncode == 0 or _exists(name):
            return True
        time.sleep(0.2)
    print(f"sandbox: useradd {name} failed: {done.stderr.strip()}", file=sys.stderr)
    return False
