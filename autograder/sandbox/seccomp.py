"""No network and no kernel tricks for student code: a seccomp filter the worker installs on itself.

The worker calls ``install`` once, after its own set-up and before it runs the first statement of student
code; the filter then holds for that process, every thread it has or starts (TSYNC) and every process it
forks or executes, for good (no-new-privs is set first, so no privilege is needed and a setuid program
cannot lift it). It is the one network barrier where namespaces are refused (Docker without
CAP_SYS_ADMIN, likely Gradescope's case), and a second one where the worker has its own network namespace.

What it refuses, with ``EPERM`` (student code sees ``PermissionError``, never a killed worker):

* ``socket`` and ``socketpair`` for every address family but ``AF_UNIX``: no TCP, UDP, raw, netlink or
  packet socket, so nothing leaves the worker and nothing of the host's network is probed. A
  ``PermissionError`` raised in ``socket.py`` is worded for the student by ``explain``.
* ``io_uring_*``: its requests open and connect sockets without passing through ``socket()``.
* ``ptrace``, ``process_vm_readv``/``writev``, ``pidfd_getfd``, ``process_madvise``, ``kcmp``: reading or
  steering another process (a grader, a classmate's worker of the same user).
* ``unshare``, ``setns`` and ``clone`` with any ``CLONE_NEW*`` flag: new namespaces (user namespaces
  would bring back a network and widen the kernel's surface); ``clone3`` gets ``ENOSYS``, as Docker's
  profile does, because its flags sit behind a pointer a filter cannot read: glibc then falls back to
  ``clone``, so threads (Python's, OpenBLAS's) and ``fork`` work as before.
* mounting (``mount``, ``umount2``, ``pivot_root``, ``chroot``, the new mount API), ``bpf``,
  ``perf_event_open``, ``userfaultfd``, the kernel keyring (``keyctl``, ``add_key``, ``request_key``),
  ``personality``, modules, ``kexec_*``, ``reboot``, swap, ``acct``, ``syslog``, ``quotactl``, file
  handles (``open_by_handle_at``), ``fanotify_init``, ``vhangup``, ``lookup_dcookie``, ``uselib`` and on
  x86-64 ``iopl``, ``ioperm``, ``modify_ldt``: calls student numpy code never needs, many of them the
  usual ways into kernel bugs.
* System V IPC (``shmget``, ``shmat``, ``msgget``, ``semget`` and the rest) and POSIX message queues
  (``mq_open``...): objects that would outlive the worker where it has no IPC namespace (Docker without
  CAP_SYS_ADMIN), a place to keep what one call learnt for a later worker. numpy and its OpenBLAS (built
  ``NO_AFFINITY``) use none of them; POSIX shared memory and semaphores are files in ``/dev/shm``, which
  the sandbox removes. Leftovers of a worker without the filter go too (``reaper.remove_ipc``).

Everything else is allowed. System calls of another ABI (x86-64's x32 numbers, 32-bit ``int 0x80``
calls, which carry another architecture tag) are all refused, so the tables below cannot be bypassed.

Why a hand-written program and not libseccomp: its Python binding is not on PyPI (only the unmaintained
ctypes twin ``pyseccomp`` 0.1.2 of 2021 is), Debian's ``python3-seccomp`` serves the system Python only
(not a venv, not Python 3.11 here), and the worker imports nothing but the standard library and numpy.
The program is ~100 BPF instructions built from the tables below (``program``), installed through the
``seccomp`` system call (``prctl(PR_SET_SECCOMP)`` where that call fails); tests/test_seccomp.py
runs every rule. x86-64 and aarch64 only: elsewhere ``install`` raises and ``available`` says why.
Standard library only: copied into the worker's run folder (runfolder.py) and imported by worker.py.
"""

from __future__ import annotations

import contextlib
import ctypes
import errno
import os
import platform

PR_SET_NO_NEW_PRIVS, PR_SET_SECCOMP, SECCOMP_MODE_FILTER = 38, 22, 2
SECCOMP_SET_MODE_FILTER, SECCOMP_FILTER_FLAG_TSYNC = 1, 1
RET_ALLOW, RET_ERRNO = 0x7FFF0000, 0x00050000
AF_UNIX = 1
CLONE_NEW = 0x7E020000  # CLONE_NEWNS, NEWCGROUP, NEWUTS, NEWIPC, NEWUSER, NEWPID, NEWNET (clone's low byte is a signal)
X32_BIT = 0x40000000  # x86-64's x32 ABI: the same architecture tag, numbers with this bit set

# Calls refused on both architectures, numbered alike (new calls have one number everywhere since 5.1).
COMMON = {"io_uring_setup": 425, "io_uring_enter": 426, "io_uring_register": 427, "open_tree": 428,
          "move_mount": 429, "fsopen": 430, "fsconfig": 431, "fsmount": 432, "fspick": 433, "pidfd_getfd": 438,
          "process_madvise": 440, "mount_setattr": 442, "quotactl_fd": 443}
# name -> number, per architecture (arch/x86/entry/syscalls/syscall_64.tbl; include/uapi/asm-generic/unistd.h).
ARCHES = {
    "x86_64": {
        "audit": 0xC000003E, "seccomp": 317, "socket": 41, "socketpair": 53, "clone": 56, "clone3": 435,
        "refused": {"ptrace": 101, "process_vm_readv": 310, "process_vm_writev": 311, "kcmp": 312,
                    "unshare": 272, "setns": 308, "mount": 165, "umount2": 166, "pivot_root": 155, "chroot": 161,
                    "bpf": 321, "perf_event_open": 298, "userfaultfd": 323, "keyctl": 250, "add_key": 248,
                    "request_key": 249, "personality": 135, "init_module": 175, "finit_module": 313,
                    "delete_module": 176, "kexec_load": 246, "kexec_file_load": 320, "reboot": 169,
                    "swapon": 167, "swapoff": 168, "acct": 163, "syslog": 103, "quotactl": 179,
                    "name_to_handle_at": 303, "open_by_handle_at": 304, "fanotify_init": 300, "vhangup": 153,
                    "lookup_dcookie": 212, "uselib": 134, "iopl": 172, "ioperm": 173, "modify_ldt": 154,
                    "shmget": 29, "shmat": 30, "shmctl": 31, "semget": 64, "semop": 65, "semctl": 66, "shmdt": 67,
                    "msgget": 68, "msgsnd": 69, "msgrcv": 70, "msgctl": 71, "semtimedop": 220, "mq_open": 240,
                    "mq_unlink": 241, "mq_timedsend": 242, "mq_timedreceive": 243, "mq_notify": 244,
                    "mq_getsetattr": 245, **COMMON},
    },
    "aarch64": {
        "audit": 0xC00000B7, "seccomp": 277, "socket": 198, "socketpair": 199, "clone": 220, "clone3": 435,
        "refused": {"ptrace": 117, "process_vm_readv": 270, "process_vm_writev": 271, "kcmp": 272,
                    "unshare": 97, "setns": 268, "mount": 40, "umount2": 39, "pivot_root": 41, "chroot": 51,
                    "bpf": 280, "perf_event_open": 241, "userfaultfd": 282, "keyctl": 219, "add_key": 217,
                    "request_key": 218, "personality": 92, "init_module": 105, "finit_module": 273,
                    "delete_module": 106, "kexec_load": 104, "kexec_file_load": 294, "reboot": 142,
                    "swapon": 224, "swapoff": 225, "acct": 89, "syslog": 116, "quotactl": 60,
                    "name_to_handle_at": 264, "open_by_handle_at": 265, "fanotify_init": 262, "vhangup": 58,
                    "lookup_dcookie": 18, "mq_open": 180, "mq_unlink": 181, "mq_timedsend": 182,
                    "mq_timedreceive": 183, "mq_notify": 184, "mq_getsetattr": 185, "msgget": 186, "msgctl": 187,
                    "msgrcv": 188, "msgsnd": 189, "semget": 190, "semctl": 191, "semtimedop": 192, "semop": 193,
                    "shmget": 194, "shmctl": 195, "shmat": 196, "shmdt": 197, **COMMON},
    },
}
ARCHES["arm64"] = ARCHES["aarch64"]

# Classic BPF over struct seccomp_data {int nr; u32 arch; u64 instruction_pointer; u64 args[6];}.
LD_ABS, JEQ, JGE, JSET, RET = 0x20, 0x15, 0x35, 0x45, 0x06  # BPF_LD|W|ABS, BPF_JMP|{JEQ,JGE,JSET}|K, BPF_RET|K
NR, ARCH, ARG0 = 0, 4, 16  # offsets; ARG0: the low 32 bits of the first argument (little-endian)
PHRASE = "seccomp: no network sockets (AF_UNIX only), no ptrace, namespaces, mounts, bpf, io_uring or System V IPC"


class _Filter(ctypes.Structure):
    _fields_ = [("code", ctypes.c_ushort), ("jt", ctypes.c_ubyte), ("jf", ctypes.c_ubyte), ("k", ctypes.c_uint)]


class _Program(ctypes.Structure):
    _fields_ = [("len", ctypes.c_ushort), ("filter", ctypes.POINTER(_Filter))]


def program(machine: str | None = None) -> list[tuple[int, int, int, int]]:
    """The filter for this machine (``platform.machine()``), as (code, jt, jf, k) instructions.

    Per architecture: check the tag, load the call's number, jump to a shared verdict. Jumps name labels;
    ``_assemble`` turns them into the relative offsets BPF wants (forward only, at most 255)."""
    arch = ARCHES[machine or platform.machine()]
    code: list[tuple] = [(LD_ABS, 0, 0, ARCH), (JEQ, 0, "refuse", arch["audit"]), (LD_ABS, 0, 0, NR)]
    if arch["audit"] == ARCHES["x86_64"]["audit"]:
        code.append((JGE, "refuse", 0, X32_BIT))
    code += [(JEQ, "family", 0, arch["socket"]), (JEQ, "family", 0, arch["socketpair"]),
             (JEQ, "clone", 0, arch["clone"]), (JEQ, "enosys", 0, arch["clone3"])]
    code += [(JEQ, "refuse", 0, number) for number in sorted(set(arch["refused"].values()))]
    code += [(RET, 0, 0, RET_ALLOW),
             "family", (LD_ABS, 0, 0, ARG0), (JEQ, "allow", "refuse", AF_UNIX),
             "clone", (LD_ABS, 0, 0, ARG0), (JSET, "refuse", "allow", CLONE_NEW),
             "enosys", (RET, 0, 0, RET_ERRNO | errno.ENOSYS),
             "refuse", (RET, 0, 0, RET_ERRNO | errno.EPERM),
             "allow", (RET, 0, 0, RET_ALLOW)]
    return _assemble(code)


def _assemble(code: list) -> list[tuple[int, int, int, int]]:
    """Resolve label names (strings in ``code``) to relative jump offsets."""
    where, position = {}, 0
    for item in code:
        if isinstance(item, str):
            where[item] = position
        else:
            position += 1
    out: list[tuple[int, int, int, int]] = []
    for item in code:
        if isinstance(item, str):
            continue
        op, jt, jf, k = item
        jt, jf = (where[j] - len(out) - 1 if isinstance(j, str) else j for j in (jt, jf))
        if not (0 <= jt < 256 and 0 <= jf < 256):
            raise ValueError(f"instruction {len(out)}: a jump classic BPF cannot encode ({jt}, {jf})")
        out.append((op, jt, jf, k))
    return out


def install() -> None:
    """Set no-new-privs, then this process's filter, for all its threads; OSError when the kernel refuses."""
    machine = platform.machine()
    if machine not in ARCHES:
        raise OSError(errno.ENOSYS, f"no seccomp filter for {machine or 'this machine'}")
    instructions = program(machine)
    table = (_Filter * len(instructions))(*(_Filter(*i) for i in instructions))
    prog = _Program(len(instructions), table)
    libc = ctypes.CDLL(None, use_errno=True)
    if libc.prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0:
        raise OSError(ctypes.get_errno(), "prctl(PR_SET_NO_NEW_PRIVS)")
    libc.syscall.restype = ctypes.c_long
    number = ARCHES[machine]["seccomp"]
    if libc.syscall(ctypes.c_long(number), SECCOMP_SET_MODE_FILTER, SECCOMP_FILTER_FLAG_TSYNC,
                    ctypes.byref(prog)) == 0:
        return
    # Kernels before 3.17, or a container profile that refuses the seccomp call itself: prctl sets the filter of
    # this thread only, which is enough where the worker has one (its BLAS runs single-threaded: runfolder.py).
    if libc.prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, ctypes.byref(prog), 0, 0) != 0:
        raise OSError(ctypes.get_errno(), "prctl(PR_SET_SECCOMP)")


def explain(exc: BaseException, message: str) -> str:
    """``message`` of an exception the worker reports, with a sentence for the student when the filter
    refused a socket (a PermissionError raised in the socket module)."""
    try:  # the exception is the student's: its errno may be anything (a property that raises)
        if not isinstance(exc, PermissionError) or exc.errno != errno.EPERM:
            return message
        tb = exc.__traceback__
        while tb is not None and tb.tb_next is not None:
            tb = tb.tb_next
        if tb is None or os.path.basename(tb.tb_frame.f_code.co_filename) != "socket.py":
            return message
    except BaseException:
        return message
    return f"{message} (network access is not allowed while grading: the autograder refuses every socket)"


_verdict: list[str] = []


def unavailable() -> str:
    """Why the worker runs without the filter here ('' when it has it): probed once per process by a forked
    child that installs it and checks that a TCP socket is refused (~2 ms)."""
    if not _verdict:
        _verdict.append(_probe())
    return _verdict[0]


def probe_early() -> None:
    """Start ``unavailable``'s probe now without waiting for it (``runner.main``, before its imports: a smaller
    process forks faster); ``unavailable`` reads its answer."""
    if not _verdict and not _probing and platform.machine() in ARCHES:
        with contextlib.suppress(OSError):
            _probing.append(_start_probe())


_probing: list[tuple[int, int]] = []  # (pid, read end) of the probe probe_early started


def _probe() -> str:
    if platform.machine() not in ARCHES:
        return f"none written for {platform.machine() or 'this machine'}"
    pid, read = _probing.pop() if _probing else _start_probe()
    with os.fdopen(read, "rb") as f:
        answer = f.read().decode(errors="replace")
    os.waitpid(pid, 0)
    return "" if answer == "\0" else answer or "the probe ended without an answer"


def _start_probe() -> tuple[int, int]:
    """Fork the probe: a child that installs the filter, tries a TCP socket and writes what happened."""
    read, write = os.pipe()
    pid = os.fork()
    if pid == 0:  # pragma: no cover (the child)
        os.close(read)
        try:  # nothing here imports or takes a lock another thread of the parent may have held at the fork
            install()
            libc = ctypes.CDLL(None, use_errno=True)
            opened = libc.socket(2, 1, 0)  # AF_INET, SOCK_STREAM
            answer = "" if opened == -1 and ctypes.get_errno() == errno.EPERM else "a TCP socket still opened"
        except BaseException as e:
            answer = f"the kernel refused it: {e}"
        os.write(write, answer.encode()[:500] or b"\0")
        os._exit(0)
    os.close(write)
    return pid, read


def describe() -> str:
    """The phrase ``isolation_layers`` lists for this layer."""
    reason = unavailable()
    return PHRASE if not reason else f"no seccomp filter ({reason})"

