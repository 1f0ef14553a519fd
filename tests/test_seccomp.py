"""The worker's seccomp filter (sandbox/seccomp.py): each rule, run in a child that installs it; the worker has it
before any student code, started or forked from a zygote; and with namespaces refused (no CAP_SYS_ADMIN, as
under Docker) a submission that sends to a listener on 127.0.0.1 over TCP or UDP delivers nothing, is told why,
and still gets every point its functions earn."""

from __future__ import annotations

import json
import os
import shutil
import socket
import subprocess
import sys
import textwrap
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pytest

from autograder.sandbox import namespace, seccomp, zygotes
from autograder.sandbox.student import Student
from tests.homework import TOTAL
from tests.hostile import REFERENCE, program

REPO = Path(__file__).resolve().parent.parent
ROOT = os.geteuid() == 0
SUPPORTED = seccomp.unavailable() == ""
needs_filter = pytest.mark.skipif(not SUPPORTED, reason=f"no seccomp filter here: {seccomp.unavailable()}")
CHECKS = textwrap.dedent("""
    import ctypes, errno, json, os, socket, subprocess, sys, threading
    import numpy as np
    sys.path.insert(0, sys.argv[1])
    import seccomp
    seccomp.install()
    libc = ctypes.CDLL(None, use_errno=True)
    libc.syscall.restype = ctypes.c_long
    def raw(*args):
        return -ctypes.get_errno() if libc.syscall(*[ctypes.c_long(a) for a in args]) == -1 else 0
    def opens(family, kind):
        try:
            socket.socket(family, kind).close()
            return "opened"
        except PermissionError as e:
            return seccomp.explain(e, str(e))
    x86 = seccomp.ARCHES.get(os.uname().machine) is seccomp.ARCHES["x86_64"]
    nr = seccomp.ARCHES[os.uname().machine]
    out = {f"{f}/{k}": opens(getattr(socket, f), getattr(socket, k)) for f, k in
           [("AF_INET", "SOCK_STREAM"), ("AF_INET", "SOCK_DGRAM"), ("AF_INET6", "SOCK_STREAM"),
            ("AF_NETLINK", "SOCK_RAW"), ("AF_PACKET", "SOCK_RAW")]}
    a, b = socket.socketpair()
    a.send(b"x")
    out["socketpair"] = b.recv(1).decode()
    socket.socket(socket.AF_UNIX, socket.SOCK_STREAM).close()
    results = []
    threads = [threading.Thread(target=lambda: results.append(float((np.ones((200, 200)) @ np.ones((200, 200)))[0, 0])))
               for _ in range(3)]
    [t.start() for t in threads]
    [t.join() for t in threads]
    out["threads"] = results
    pid = os.fork()
    if pid == 0:
        os._exit(7)
    out["fork"] = os.waitstatus_to_exitcode(os.waitpid(pid, 0)[1])
    child = subprocess.run([sys.executable, "-c", "import socket; socket.socket()"], capture_output=True, text=True)
    out["exec"] = child.stderr.strip().splitlines()[-1]
    out["status"] = [line.split()[1] for line in open("/proc/self/status")
                     if line.startswith(("Seccomp:", "NoNewPrivs:"))]
    out["ptrace"] = raw(nr["refused"]["ptrace"], 16, os.getppid(), 0, 0)  # PTRACE_ATTACH
    out["unshare"] = raw(nr["refused"]["unshare"], 0x40000000)
    out["clone_newnet"] = raw(nr["clone"], 0x40000000 | 17, 0, 0, 0, 0)
    out["clone3"] = raw(nr["clone3"], 0, 0)
    out["bpf"] = raw(nr["refused"]["bpf"], 0, 0, 0)
    out["io_uring"] = raw(nr["refused"]["io_uring_setup"], 1, 0)
    out["personality"] = raw(nr["refused"]["personality"], 0xFFFFFFFF)
    out["ipc"] = [raw(nr["refused"]["shmget"], 0, 4096, 0o1600), raw(nr["refused"]["msgget"], 0, 0o1600),
                  raw(nr["refused"]["semget"], 0, 1, 0o1600), raw(nr["refused"]["mq_open"], 0, 0o100, 0o600, 0),
                  raw(nr["refused"]["shmat"], 0, 0, 0)]
    out["x32_socket"] = raw(nr["socket"] | seccomp.X32_BIT, 2, 1, 0) if x86 else -errno.EPERM
    print(json.dumps(out))
""")


@needs_filter
def test_every_rule_holds_in_a_process_that_installed_the_filter() -> None:
    env = dict(os.environ, OPENBLAS_NUM_THREADS="2")  # BLAS threads exist before the filter: TSYNC covers them
    done = subprocess.run([sys.executable, "-c", CHECKS, str(REPO / "autograder" / "sandbox")], env=env,
                          capture_output=True, text=True, timeout=60, check=False)
    assert done.returncode == 0, done.stderr
    out = json.loads(done.stdout)
    refused = "[Errno 1] Operation not permitted (network access is not allowed while grading"
    for key in ("AF_INET/SOCK_STREAM", "AF_INET/SOCK_DGRAM", "AF_INET6/SOCK_STREAM", "AF_NETLINK/SOCK_RAW",
                "AF_PACKET/SOCK_RAW"):
        assert out[key].startswith(refused), (key, out[key])
    assert out["socketpair"] == "x" and out["threads"] == [200.0] * 3 and out["fork"] == 7
    assert out["exec"] == "PermissionError: [Errno 1] Operation not permitted"  # what it starts inherits it
    assert out["status"] == ["1", "2"]  # NoNewPrivs 1, Seccomp 2 (filter)
    eperm = -1
    assert {k: out[k] for k in ("ptrace", "unshare", "clone_newnet", "bpf", "io_uring", "personality",
                                "x32_socket")} == dict.fromkeys(("ptrace", "unshare", "clone_newnet", "bpf",
                                                                 "io_uring", "personality", "x32_socket"), eperm)
    assert out["clone3"] == -38  # ENOSYS: glibc falls back to clone, whose flags the filter reads
    assert out["ipc"] == [eperm] * 5  # no System V IPC, no POSIX message queue: nothing outlives the worker


@pytest.mark.parametrize("machine", ["x86_64", "aarch64"])
def test_the_program_checks_the_architecture_first_and_ends_in_a_verdict(machine: str) -> None:
    code = seccomp.program(machine)
    assert code[0] == (seccomp.LD_ABS, 0, 0, seccomp.ARCH)
    assert code[1][0] == seccomp.JEQ and code[1][3] == seccomp.ARCHES[machine]["audit"]
    assert code[-1][0] == seccomp.RET and len(code) < 120
    for i, (op, jt, jf, _) in enumerate(code):  # every jump lands inside the program
        if op in (seccomp.JEQ, seccomp.JGE, seccomp.JSET):
            assert i + 1 + max(jt, jf) < len(code)
    refused = {k for op, _, _, k in code if op == seccomp.JEQ} - {seccomp.ARCHES[machine]["audit"], seccomp.AF_UNIX}
    assert set(seccomp.ARCHES[machine]["refused"].values()) < refused


def test_only_a_refused_socket_is_explained() -> None:
    try:
        os.kill(1, 0) if not ROOT else open("/proc/1/mem", "wb")  # a PermissionError not from socket.py
    except PermissionError as e:
        assert seccomp.explain(e, str(e)) == str(e)
    assert seccomp.explain(ValueError("x"), "x") == "x"

    class OddError(PermissionError):
        @property
        def errno(self):
            raise RuntimeError("a student's property")

    assert seccomp.explain(OddError(), "odd") == "odd"


SNOOP = textwrap.dedent("""
    import socket

    def snoop(x):
        status = [int(line.split()[1]) for line in open("/proc/self/status")
                  if line.startswith(("Seccomp:", "NoNewPrivs:"))]
        try:
            socket.socket(socket.AF_INET, socket.SOCK_STREAM).close()
            refused = 0
        except PermissionError:
            refused = 1
        a, b = socket.socketpair()  # AF_UNIX still works
        a.send(b"x")
        return status + [refused, int(b.recv(1) == b"x")]
""")


@pytest.fixture(params=["started", "forked"])
def how(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> Iterator[str]:
    if request.param == "started":
        monkeypatch.setenv(namespace.SWITCH, "0")
        yield request.param
        return
    if not ROOT or namespace.unavailable():
        pytest.skip("the zygote needs root and namespaces")
    if zygotes.running(sys.executable):
        yield request.param
        return
    assert zygotes.start() == ""
    yield request.param
    zygotes.stop()


@needs_filter
def test_the_worker_has_the_filter_before_student_code_started_or_forked(how: str) -> None:
    with Student(program(SNOOP)) as s:
        s.start()
        assert (type(s.sandbox._proc).__name__ == "ForkedWorker") == (how == "forked")
        assert s.call("snoop", np.zeros(1)) == [1, 2, 1, 1]  # NoNewPrivs, Seccomp: filter, socket refused; AF_UNIX
        assert any(layer.startswith("seccomp: no network sockets") for layer in s.sandbox.layers)


class Listener:
    """TCP and UDP on 127.0.0.1 (ports chosen by the kernel), recording whatever arrives."""

    def __init__(self) -> None:
        self.tcp = socket.create_server(("127.0.0.1", 0))
        self.udp = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        self.udp.bind(("127.0.0.1", 0))
        self.received: list[bytes] = []
        self.tcp.settimeout(0.2)
        self.udp.settimeout(0.2)
        self.stopped = False
        self.thread = threading.Thread(target=self._run, daemon=True)
        self.thread.start()

    def _run(self) -> None:
        while not self.stopped:
            try:
                connection, _ = self.tcp.accept()
                with connection:
                    self.received.append(b"tcp:" + connection.recv(1000))
            except OSError:
                pass
            try:
                self.received.append(b"udp:" + self.udp.recv(1000))
            except OSError:
                pass

    def ports(self) -> tuple[int, int]:
        return self.tcp.getsockname()[1], self.udp.getsockname()[1]

    def close(self) -> list[bytes]:
        time.sleep(0.5)
        self.stopped = True
        self.thread.join()
        self.tcp.close()
        self.udp.close()
        return self.received


def leaking_submission(tcp: int, udp: int, *, in_calls: bool = True) -> str:
    """The reference, sending at load and (``in_calls``) every input of scaled_dot_product_attention before using
    it."""
    leak = textwrap.dedent(f"""

        import socket as _socket

        def _send(data):
            with _socket.create_connection(("127.0.0.1", {tcp}), timeout=2) as s:
                s.sendall(data)
            u = _socket.socket(_socket.AF_INET, _socket.SOCK_DGRAM)
            u.sendto(data, ("127.0.0.1", {udp}))

        _send(b"loaded")
    """)
    spy = textwrap.dedent("""
        _reference_sdpa = scaled_dot_product_attention

        def scaled_dot_product_attention(Q, K, V, mask=None, scale=None):
            _send(Q.tobytes())
            return _reference_sdpa(Q, K, V, mask, scale)
    """)
    return REFERENCE.read_text() + leak + (spy if in_calls else "")


def test_listener_receives_what_is_sent_without_the_filter() -> None:
    """The control of the test below: the listener does record a send from this process."""
    listener = Listener()
    with socket.create_connection(("127.0.0.1", listener.tcp.getsockname()[1])) as s:
        s.sendall(b"control")
    assert listener.close() == [b"tcp:control"]


def grade_without_namespaces_or_cap_sys_admin(folder: Path) -> dict:
    """``grade --json`` as under Docker's default capabilities: neither namespaces nor a network namespace."""
    env = dict(os.environ, **{namespace.SWITCH: "0"})
    command = f"{sys.executable} -m autograder grade --json --all --allow-exposed {folder}"
    done = subprocess.run(["capsh", "--drop=cap_sys_admin", "--", "-c", command], cwd=REPO, env=env,
                          capture_output=True, text=True, timeout=300, check=False)
    results = json.loads(done.stdout)
    assert any(layer.startswith("no private world") for layer in results["extra_data"]["isolation_layers"])
    assert any(layer.startswith("seccomp: no network sockets") for layer in results["extra_data"]["isolation_layers"])
    assert "grader_error" not in json.dumps(results.get("extra_data", {}))
    assert "network access is not allowed while grading" in results["output"]  # the load note
    return results


needs_capsh = pytest.mark.skipif(not ROOT or not shutil.which("capsh"), reason="needs root and capsh (libcap2-bin)")


@needs_capsh
@needs_filter
def test_without_namespaces_a_correct_submission_sending_at_load_delivers_nothing_and_scores_100(
        tmp_path: Path) -> None:
    listener = Listener()
    (tmp_path / "attention.py").write_text(leaking_submission(*listener.ports(), in_calls=False))
    results = grade_without_namespaces_or_cap_sys_admin(tmp_path)
    assert listener.close() == []
    assert results["score"] == TOTAL


@needs_capsh
@needs_filter
def test_without_namespaces_a_function_sending_its_inputs_delivers_nothing_and_fails_saying_why(
        tmp_path: Path) -> None:
    listener = Listener()
    (tmp_path / "attention.py").write_text(leaking_submission(*listener.ports()))
    results = grade_without_namespaces_or_cap_sys_admin(tmp_path)
    assert listener.close() == []
    failed = [t for t in results["tests"] if t["score"] < t["max_score"]]
    own = [t for t in failed if t["name"].startswith("scaled_dot_product_attention")]
    assert own and all("network access is not allowed while grading" in t["output"] for t in own)
    assert all("your `scaled_dot_product_attention` fails" in t["output"] for t in failed if t not in own)
    assert sum(t["score"] for t in results["tests"] if "scaled_dot_product_attention" not in t["output"]) == sum(
        t["max_score"] for t in results["tests"] if "scaled_dot_product_attention" not in t["output"])


def test_a_machine_without_a_filter_is_named_in_the_layers_and_install_refuses(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(seccomp.platform, "machine", lambda: "sparc64")
    assert seccomp._probe() == "none written for sparc64"
    with pytest.raises(OSError, match="no seccomp filter for sparc64"):
        seccomp.install()
    monkeypatch.setattr(seccomp, "_verdict", [seccomp._probe()])
    assert seccomp.describe() == "no seccomp filter (none written for sparc64)"
