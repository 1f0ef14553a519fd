"""Every route out of the worker to a listener on 127.0.0.1 (issue 22, finding 5): each sends ``data`` and raises
what it met, so a refused route becomes the student's note or failing test. Appended to a correct submission."""

import ctypes
import os
import socket
import subprocess
import sys


def tcp(port, data):
    with socket.create_connection(("127.0.0.1", port), timeout=2) as s:
        s.sendall(data)


def udp(port, data):
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
        s.sendto(data, ("127.0.0.1", port))


def tcp6(port, data):
    with socket.create_connection(("::ffff:127.0.0.1", port), timeout=2) as s:
        s.sendall(data)


def raw(port, data):
    with socket.socket(socket.AF_INET, socket.SOCK_RAW, socket.IPPROTO_UDP) as s:
        s.sendto(data, ("127.0.0.1", port))


def netlink(port, data):
    socket.socket(socket.AF_NETLINK, socket.SOCK_RAW).close()


def forked(port, data):
    """A child process of the worker tries: it inherits the filter."""
    read, write = os.pipe()
    pid = os.fork()
    if pid == 0:
        try:
            tcp(port, data)
            os.write(write, b"sent")
        except BaseException as e:
            os.write(write, repr(e).encode()[:200])
        os._exit(0)
    os.close(write)
    said = os.read(read, 200).decode()
    os.waitpid(pid, 0)
    if said != "sent":
        raise PermissionError(f"the child: {said}")


def executed(port, data):
    """A new program started by the worker tries: the filter survives exec (no new privileges)."""
    code = f"import socket; socket.create_connection(('127.0.0.1', {port}), timeout=2).sendall({data!r})"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=20, check=False)
    if done.returncode:
        raise PermissionError(f"the program: {done.stderr.strip().splitlines()[-1]}")


def io_uring(port, data):
    """io_uring opens and connects sockets without socket(): its set-up is refused."""
    libc = ctypes.CDLL(None, use_errno=True)
    params = ctypes.create_string_buffer(120)
    fd = libc.syscall(425, 8, params)  # io_uring_setup (the same number on x86-64 and aarch64)
    if fd < 0:
        raise OSError(ctypes.get_errno(), os.strerror(ctypes.get_errno()))
    os.close(fd)


ROUTES = (tcp, udp, tcp6, raw, netlink, forked, executed, io_uring)
