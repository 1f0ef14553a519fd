"""``autograder cleanup``: remove what gradings run as root leave on this machine, once none is running.

As root, every grading (``grade``, ``batch``, ``make test``, ``check-zip``) locks a sandbox user of the pool
``agsandbox``, ``agsandbox2``, ``agsandbox3``, ... (made on demand with ``useradd --system``, as many as
gradings ran at once; the base name follows ``$AUTOGRADER_SANDBOX_USER``), through a lock file in
``/run/autograder`` (or ``/var/lock/autograder``), and where cgroups are writable puts its worker in
``<cgroup>/autograder/<user>``. They stay between gradings, so the next
one starts fast. This removes them: for each user of the pool, whatever it still runs (frozen, then killed), its
files in the machine's world-writable folders, the folders a killed grading recorded in its lock file, the user
(``userdel``), its lock file and its cgroup; then the lock folder and the cgroups' parent when empty.

It refuses (status 1) while a grading holds a user of the pool: run it when no grading is running. ``--dry-run``
says what it would remove. Not as root there is nothing to remove (status 0). Gradescope needs none of this:
its container is thrown away after every submission.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import pwd
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

from autograder.sandbox import accounts, lock, reaper, shares
from autograder.sandbox.supervisor import PRIVATE_PREFIX, RUN_PREFIX

KILL_ROUNDS = 50  # freeze-then-kill rounds for a user's leftover processes


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="autograder cleanup", description=__doc__.split("\n\n")[0].split(": ", 1)[1],
                                     epilog="\n\n".join(__doc__.split("\n\n")[1:]).replace("``", "`"))
    parser.add_argument("--user", default=os.environ.get(accounts.USER_ENV) or accounts.DEFAULT_USER,
                        help="the pool's base name (default $AUTOGRADER_SANDBOX_USER or agsandbox)")
    parser.add_argument("--dry-run", action="store_true", help="say what would be removed, remove nothing")
    args = parser.parse_args(argv)
    if os.geteuid() != 0:
        print("cleanup: not root: gradings not run as root make no users, lock files or cgroups; nothing to do")
        return 0
    return cleanup(args.user, dry_run=args.dry_run)


def cleanup(base: str, *, dry_run: bool = False) -> int:
    """Remove ``base``'s pool (see the module's docstring); the exit status."""
    folders = [Path(d) for d in lock.LOCK_DIRS if Path(d).is_dir()]
    held: list[tuple[str, int]] = []  # (user, lock fd) held by this command while it removes them
    names = lock.members(base, map(str, folders))  # however many gradings at once made
    try:
        for name in names:
            fds = [lock._try_lock(str(folder), name) for folder in folders if (folder / f"{name}.lock").exists()]
            if any(fd is None for fd in fds):
                print(f"cleanup: `{name}` is held by a running grading; run cleanup when no grading is running "
                      "(nothing was removed)", file=sys.stderr)
                return 1
            held += [(name, fd) for fd in fds if fd is not None]
        removed = []
        for name in names:
            removed += _remove_user(name, [fd for user, fd in held if user == name], folders, dry_run)
        for folder in folders:
            removed += _remove_lock_files(folder, names, dry_run)
    finally:
        for _, fd in held:
            os.close(fd)
    removed += _remove_empty([*folders, *(root / shares.GROUP for root in (shares.V1, shares.V2))], dry_run)
    verb = "would remove" if dry_run else "removed"
    for what in removed:
        print(f"cleanup: {verb} {what}")
    if not removed:
        print(f"cleanup: nothing to remove for the pool of `{base}`")
    return 0


def _remove_user(name: str, fds: list[int], folders: list[Path], dry_run: bool) -> list[str]:
    removed = []
    account = _account(name)
    left = [f for fd in fds for f in os.pread(fd, lock.RECORD_LIMIT, 0).split(b"\n")[1:] if f]
    left = [os.fsdecode(f) for f in left if os.path.lexists(os.fsdecode(f))]
    if left:
        removed.append(f"{len(left)} folders a killed grading left ({', '.join(left[:3])})")
        if not dry_run:
            reaper.remove_left_folders(left, (RUN_PREFIX, PRIVATE_PREFIX))
    if account is not None:
        if not dry_run:
            _kill_all(account.pw_uid)
            reaper.remove_user_files(account.pw_uid, reaper.world_writable_dirs())
            reaper.remove_ipc(account.pw_uid)  # System V and POSIX IPC objects, which outlive their processes
            userdel = shutil.which("userdel") or "/usr/sbin/userdel"
            done = subprocess.run([userdel, name], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
                                  check=False)
            if done.returncode != 0:
                print(f"cleanup: userdel {name} failed: {done.stderr.strip()}", file=sys.stderr)
        removed.append(f"the user `{name}` (uid {account.pw_uid}), its processes, its temporary files and IPC objects")
    for root in (shares.V1, shares.V2):
        group = root / shares.GROUP / name
        if group.is_dir():
            removed.append(f"the cgroup {group}")
            if not dry_run:
                with contextlib.suppress(OSError):
                    group.rmdir()  # empty once its processes are gone
    return removed


def _remove_lock_files(folder: Path, names: list[str], dry_run: bool) -> list[str]:
    removed = []
    for name in names:
        path = folder / f"{name}.lock"
        if path.exists():
            removed.append(f"the lock file {path}")
            if not dry_run:
                with contextlib.suppress(OSError):
                    path.unlink()
    return removed


def _remove_empty(folders: list[Path], dry_run: bool) -> list[str]:
    """The lock folders and the cgroups' parent, once nothing is left in them (others' pools keep them)."""
    removed = []
    for folder in folders:
        with contextlib.suppress(OSError):
            empty = folder.is_dir() and not [p for p in folder.iterdir() if not _cgroup_file(folder, p)]
            if empty and not dry_run:
                folder.rmdir()
            removed += [f"the folder {folder}"] if empty and (dry_run or not folder.exists()) else []
    return removed


def _cgroup_file(folder: Path, entry: Path) -> bool:
    """A cgroup's own control files (``cpu.weight``...) do not keep it: only child groups do."""
    return folder.parent in (shares.V1, shares.V2) and entry.is_file()


def _account(name: str) -> pwd.struct_passwd | None:
    try:
        return pwd.getpwnam(name)
    except KeyError:
        return None


def _kill_all(uid: int) -> None:
    """Freeze, then kill, every process of ``uid`` until none is left (a stopped process cannot fork)."""
    for _ in range(KILL_ROUNDS):
        table = reaper.process_table()
        pids = [pid for pid, info in table.items() if uid in info["uids"]]
        if not pids:
            return
        for sig in (signal.SIGSTOP, signal.SIGKILL):
            for pid in pids:
                reaper.send_signal(pid, table[pid]["start"], sig)
        time.sleep(0.05)
