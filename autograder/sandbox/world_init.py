"""PID 1 of the worker's private world: builds its filesystem view, starts the worker, reaps, exits.

Run by ``namespace.command`` as ``unshare --mount --pid --net --ipc --uts --fork --kill-child
PYTHON -I -S -B world_init.py SPEC -- WORKER ARGV...``: root, in fresh namespaces, still seeing
the host's files. ``SPEC`` is ``marshal`` in hex (made by ``namespace.py``; no import to pay for).
It joins the slot's cgroups the spec lists (``join``), so the worker is born in them. It mounts a
small tmpfs as the new root, bind-mounts read-only only what the spec lists (the
interpreter, its packages, a few files of /etc, the worker's two files), recreates the symlinks
on the way to them, mounts capped tmpfs on /tmp and /dev/shm, a /dev with the harmless devices,
and this PID namespace's own /proc; then pivots into it, detaches the host's tree and makes the
root read-only. The worker is forked in a session of its own, switched to the sandbox user, and
exec'd; this process stays as the namespace's init (reaping orphans) and exits with the worker's
status (128 + signal when it was killed). When this process dies, the kernel kills every
process of the namespace: nothing the student started outlives its worker. Standard library
only; a setup failure exits with SETUP_FAILED.
"""

from __future__ import annotations

import ctypes
import marshal
import os
import signal
import sys

SETUP_FAILED = 121
MS_RDONLY, MS_NOSUID, MS_NODEV, MS_NOEXEC = 1, 2, 4, 8
MS_REMOUNT, MS_BIND, MS_REC, MS_PRIVATE = 32, 4096, 16384, 1 << 18
MNT_DETACH = 2
PR_SET_NO_NEW_PRIVS = 38
PIVOT_ROOT = {"x86_64": 155, "amd64": 155, "aarch64": 41, "arm64": 41, "riscv64": 41, "ppc64le": 203, "s390x": 217}
DEVICES = ("null", "zero", "full", "random", "urandom")
_libc = ctypes.CDLL(None, use_errno=True)


def _check(result: int, what: str) -> None:
    if result != 0:
        errno = ctypes.get_errno()
        raise OSError(errno, f"{what}: {os.strerror(errno)}")


def mount(source: str | None, target: str, fstype: str | None, flags: int, data: str | None = None) -> None:
    enc = [None if s is None else s.encode() for s in (source, target, fstype, data)]
    _check(_libc.mount(enc[0], enc[1], enc[2], ctypes.c_ulong(flags), enc[3]), f"mount {target}")


def bind(source: str, target: str, *, device: bool = False) -> None:
    """Bind ``source`` at ``target`` (created as a directory or an empty file): read-only, or a device."""
    if os.path.isdir(source):
        os.makedirs(target, exist_ok=True)
    else:
        os.makedirs(os.path.dirname(target), exist_ok=True)
        os.close(os.open(target, os.O_WRONLY | os.O_CREAT, 0o644))
    mount(source, target, None, MS_BIND | MS_REC)
    flags = MS_REMOUNT | MS_BIND | MS_NOSUID | (MS_NOEXEC if device else MS_NODEV | MS_RDONLY)
    mount(None, target, None, flags)


def tmpfs(target: str, size_mb: int, inodes: int, mode: int = 0o1777, uid: int = 0, gid: int = 0) -> None:
    os.makedirs(target, exist_ok=True)
    options = f"size={size_mb}m,nr_inodes={inodes},mode={mode:o},uid={uid},gid={gid}"
    mount("tmpfs", target, "tmpfs", MS_NOSUID | MS_NODEV, options)


def build(spec: dict) -> None:
    """Build the new root at spec["root"] and pivot into it (the host's tree is detached)."""
    root = spec["root"]
    umask = os.umask(0o022)  # the folders made here are the worker's way to its files (a batch's umask is 077)
    mount(None, "/", None, MS_REC | MS_PRIVATE)  # nothing mounted here propagates to the host
    mount("tmpfs", root, "tmpfs", MS_NOSUID | MS_NODEV, "size=1m,nr_inodes=4096,mode=755")
    for path, (size_mb, inodes) in spec["tmpfs"].items():  # first: a venv or the worker's files may be under /tmp
        tmpfs(root + path, size_mb, inodes)
    for path in (*spec["binds"], *spec["files"]):
        bind(path, root + path)
    for link, target in spec["symlinks"]:
        if not os.path.lexists(root + link):
            os.makedirs(os.path.dirname(root + link), exist_ok=True)
            os.symlink(target, root + link)
    home, uid, gid = spec["home"], spec["uid"], spec["gid"]
    if any(home.startswith(path + "/") for path in spec["tmpfs"]):  # lives in a capped tmpfs already
        os.makedirs(root + home, mode=0o700)
        os.chown(root + home, uid, gid)
    else:
        tmpfs(root + home, *spec["tmpfs"]["/tmp"], mode=0o700, uid=uid, gid=gid)
    for name in DEVICES:
        bind(f"/dev/{name}", f"{root}/dev/{name}", device=True)
    for name, target in (("fd", "/proc/self/fd"), ("stdin", "/proc/self/fd/0"), ("stdout", "/proc/self/fd/1"),
                         ("stderr", "/proc/self/fd/2")):
        os.symlink(target, f"{root}/dev/{name}")
    os.makedirs(root + "/proc")
    try:  # hidepid: the worker does not see this init (root), its command line or its files
        mount("proc", root + "/proc", "proc", MS_NOSUID | MS_NODEV | MS_NOEXEC, "hidepid=invisible")
    except OSError:  # Linux < 5.8
        mount("proc", root + "/proc", "proc", MS_NOSUID | MS_NODEV | MS_NOEXEC, "hidepid=2")
    os.chdir(root)
    number = PIVOT_ROOT.get(os.uname().machine.lower())
    if number is not None and _libc.syscall(number, b".", b".") == 0:
        _check(_libc.umount2(b".", MNT_DETACH), "umount the host's root")
    else:  # an unknown architecture: the host's tree stays mounted, out of reach of an unprivileged worker
        os.chroot(".")
    os.chdir("/")
    mount(None, "/", None, MS_REMOUNT | MS_RDONLY | MS_NOSUID | MS_NODEV)
    os.umask(umask)
    _check(_libc.sethostname(b"sandbox", 7), "sethostname")


def start_worker(spec: dict, argv: list[str]) -> int:
    """Fork the worker: ``become_worker``, then exec."""
    pid = os.fork()
    if pid:
        return pid
    try:
        become_worker(spec)
        os.execv(argv[0], argv)
    except BaseException as e:
        print(f"sandbox world: could not start the worker: {e}", file=sys.stderr, flush=True)
    os._exit(SETUP_FAILED)


def become_worker(spec: dict) -> None:
    """In the worker's process: its own session, its home as cwd, the sandbox user (when one is given), no new
    privileges."""
    os.setsid()
    os.chdir(spec["home"])
    if spec["switch"]:
        os.setgroups([])
        os.setresgid(spec["gid"], spec["gid"], spec["gid"])
        os.setresuid(spec["uid"], spec["uid"], spec["uid"])
    _libc.prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0)


def reap(worker: int) -> int:
    """Reap every child until the worker ends; its exit status, or 128 + the signal that killed it."""
    while True:
        try:
            pid, status = os.wait()
        except InterruptedError:
            continue
        except ChildProcessError:
            return SETUP_FAILED
        if pid == worker:
            code = os.waitstatus_to_exitcode(status)
            return code if code >= 0 else 128 - code


def join(groups: list[str]) -> None:
    """Join the slot's cgroups (their ``cgroup.procs``, on the host's tree, still mounted here), so the worker is
    born in them: each first move waits for an RCU grace period, spent here rather than in the grader. One that
    fails leaves this process where it was: the grader moves the worker once it is ready (``Slot.enter``)."""
    for procs in groups:
        try:
            fd = os.open(procs, os.O_WRONLY)
            try:
                os.write(fd, b"0")  # 0: the writing process
            finally:
                os.close(fd)
        except OSError:
            pass


def main(args: list[str]) -> int:
    split = args.index("--")
    spec, argv = marshal.loads(bytes.fromhex(args[0])), args[split + 1 :]
    join(spec.get("groups", []))
    try:
        build(spec)
        worker = start_worker(spec, argv)
    except OSError as e:
        print(f"sandbox world: {e}", file=sys.stderr, flush=True)
        return SETUP_FAILED
    os.closerange(3, 1 << 16)  # the protocol pipes are the worker's alone: its death closes them
    for sig in (signal.SIGTERM, signal.SIGINT, signal.SIGHUP):
        signal.signal(sig, signal.SIG_DFL)
    return reap(worker)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
