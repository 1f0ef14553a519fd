"""Student, Remote and grader objects (the attention homework's Layer and Cache) against real worker processes
running real (and hostile) code."""

from __future__ import annotations

import importlib.util
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pytest

from autograder.sandbox import namespace, protocol
from autograder.sandbox import student as student_module
from autograder.sandbox.student import Student, StudentError, WorkerLost
from autograder.suite import stored
from tests.homework import module as homework_module
from tests.hostile import HERE, REFERENCE, program, sandbox_user, snippet

Layer, Cache = homework_module("diagnosis.objects").Layer, homework_module("diagnosis.objects").Cache

RNG = np.random.default_rng(189)
ROOT = os.geteuid() == 0


@pytest.fixture(scope="module")
def user():
    with sandbox_user() as name:
        yield name


def make(user, *sources, **options) -> Student:
    return Student(program(*sources), user=user, **options)


@pytest.fixture(scope="module")
def reference(user):
    with make(user, REFERENCE.read_text()) as s:
        yield s


@pytest.fixture(scope="module")
def ref():
    spec = importlib.util.spec_from_file_location("reference_attention", REFERENCE)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def raises(kind: str, fn, *args, **kwargs) -> StudentError:
    with pytest.raises(StudentError) as info:
        fn(*args, **kwargs)
    assert info.value.kind == kind, str(info.value)
    return info.value


# ----------------------------------------------------------------------------
# Correct code
# ----------------------------------------------------------------------------


def test_reference_code_returns_the_reference_arrays(reference, ref) -> None:
    X, W = RNG.normal(size=(2, 5, 4)), RNG.normal(size=(4, 6))
    Z = RNG.normal(size=(3, 5)) * 100
    for got, want in [
        (reference.call("qkv_project", X, W, W, W[:, :2]), ref.qkv_project(X, W, W, W[:, :2])),
        (reference.call("softmax", Z, axis=0, temperature=2.0), ref.softmax(Z, axis=0, temperature=2.0)),
        (reference.call("causal_mask", 3, 5), ref.causal_mask(3, 5)),
        (reference.call("scaled_dot_product_attention", X, X, X, mask=ref.causal_mask(5)),
         ref.scaled_dot_product_attention(X, X, X, mask=ref.causal_mask(5))),
        (reference.call("multi_head_attention", X, W, W, W, W.T, 2), ref.multi_head_attention(X, W, W, W, W.T, 2)),
        (reference.call("rope", X, np.arange(5.0)), ref.rope(X, np.arange(5.0))),
    ]:
        for g, w in zip(got if isinstance(got, tuple) else (got,), want if isinstance(want, tuple) else (want,)):
            assert g.dtype == w.dtype and g.shape == w.shape
            # the worker may run other SIMD kernels than this process (another CPU, NPY_DISABLE_CPU_FEATURES
            # is not passed to it): equal within the few ulps regen --check allows
            np.testing.assert_allclose(g, w, rtol=stored.REL, atol=stored.REL)
    assert reference.has("KVCache") and reference.has("softmax") and not reference.has("nonexistent")
    assert reference.notes == []


def test_results_are_writable_copies_owned_by_the_grader(reference) -> None:
    out = reference.call("softmax", np.zeros((2, 2)))
    out[0, 0] = 5.0  # would raise if it were the read-only view of the received bytes
    assert out.flags.owndata


def test_float32_results_pass_through_and_lists_stay_lists(user) -> None:
    with make(user, snippet("outputs")) as s:
        Z = RNG.normal(size=(3, 4))
        assert s.call("float32", Z).dtype == np.float32
        rows = s.call("list_of_rows", Z)  # the grader sees a list where an array is due, and says so
        assert isinstance(rows, list) and len(rows) == 3 and all(isinstance(r, list) and len(r) == 4 for r in rows)
        pair = s.call("pair", Z)
        assert isinstance(pair, tuple) and pair[1].dtype == bool


def test_callbacks_are_counted_in_the_grader_and_the_worker_never_gets_the_weights(reference, ref) -> None:
    W_Q, W_K, W_V = RNG.normal(size=(4, 4)), RNG.normal(size=(4, 4)), RNG.normal(size=(4, 2))
    X = RNG.normal(size=(5, 4))
    sent: list[bytes] = []  # every frame to the worker: JSON ones and compact projection replies alike
    real_send = reference.sandbox.send_frame

    def spy(frame, *, deadline):
        sent.append(bytes(frame))
        return real_send(frame, deadline=deadline)

    reference.sandbox.send_frame = spy
    try:
        naive = Layer(W_Q, W_K, W_V)
        got = reference.call("generate_naive", naive, X, rope_base=100.0)
        cached = Layer(W_Q, W_K, W_V)
        got_cached = reference.call("generate_cached", cached, X)
    finally:
        del reference.sandbox.send_frame
    assert naive.counts == {"query": 5, "key": 15, "value": 15}
    assert cached.counts == {"query": 5, "key": 5, "value": 5}
    np.testing.assert_allclose(got, ref.generate_naive(ref.AttentionLayer(W_Q, W_K, W_V), X, rope_base=100.0))
    np.testing.assert_allclose(got_cached, ref.generate_cached(ref.AttentionLayer(W_Q, W_K, W_V), X))
    everything = b"".join(sent)
    assert sum(frame[8:12] == protocol.PROJECTION for frame in sent) == 5 + 15 + 15 + 5 * 3  # compact replies
    for W in (W_Q, W_K, W_V):
        for column in W.T:
            assert column.tobytes() not in everything and W.tobytes() not in everything


def test_decode_step_appends_to_the_grader_cache(reference, ref) -> None:
    W_Q, W_K, W_V = RNG.normal(size=(3, 4, 2))
    keys, values = RNG.normal(size=(2, 3, 2))
    layer, cache = Layer(W_Q, W_K, W_V), Cache(keys, values)
    x = RNG.normal(size=4)
    got = reference.call("decode_step", layer, x, cache)
    mirror = ref.KVCache()
    mirror.append(keys, values)
    np.testing.assert_allclose(got, ref.decode_step(ref.AttentionLayer(W_Q, W_K, W_V), x, mirror))
    assert cache.appends == 1 and len(cache) == 4 and layer.counts == {"query": 1, "key": 1, "value": 1}


def test_projections_of_any_real_token_are_counted_compact_or_not(user) -> None:
    source = ("import numpy as np\n"
              "def tokens(layer, x):\n"
              "    return np.stack([layer.query(x), layer.key(x.astype(np.float32)), layer.value(list(x)),\n"
              "                     layer.key(x.astype(int)), layer.value(x[::2].repeat(2))])\n")
    W = RNG.normal(size=(3, 4, 2))
    layer, x = Layer(*W), np.array([1.0, 2.0, 3.0, 4.0])
    with make(user, source) as s:
        got = s.call("tokens", layer, x)
    assert layer.counts == {"query": 1, "key": 2, "value": 2}
    np.testing.assert_allclose(got, [x @ W[0], x @ W[1], x @ W[2], x @ W[1], x[::2].repeat(2) @ W[2]], rtol=1e-6)


def test_a_bad_projection_call_raises_inside_student_code(user) -> None:
    source = "def batched(layer, X):\n    return layer.key(X)\n"
    with make(user, source) as s:
        error = raises("exception", s.call, "batched", Layer(*np.ones((3, 4, 2))), np.ones((3, 4)))
        assert "ONE token" in str(error) and "(attention.py, line 2)" in str(error)


def test_a_student_kvcache_is_used_through_new_and_remote(reference, ref) -> None:
    cache = reference.new("KVCache")
    assert cache.len() == 0
    cache.call("append", np.ones(3), np.zeros(3))
    cache.call("append", np.full((2, 3), 2.0), np.ones((2, 3)))
    assert cache.len() == 3
    np.testing.assert_array_equal(cache.get("keys"), [[1, 1, 1], [2, 2, 2], [2, 2, 2]])
    layer = Layer(*RNG.normal(size=(3, 3, 3)))
    out = reference.call("decode_step", layer, np.ones(3), cache)  # the student's cache, inside the worker
    assert out.shape == (3,) and cache.len() == 4


# ----------------------------------------------------------------------------
# Errors in student code
# ----------------------------------------------------------------------------


def test_exceptions_are_reported_with_the_students_line(user) -> None:
    with make(user, snippet("errors")) as s:
        error = raises("exception", s.call, "softmax", np.ones(2))
        assert error.message == "softmax raised ZeroDivisionError: integer division or modulo by zero " \
                                "(attention.py, line 9)"
        assert 'File "attention.py", line 9, in softmax' in str(error) and "scale = 1 // 0" in str(error)
        assert "worker.py" not in str(error)
        error = raises("exception", s.call, "helper_fails", np.ones(2))
        assert "IndexError" in error.message and "(attention.py, line 34)" in error.message
        assert "line 30, in helper_fails" in error.traceback
        assert "raised NotImplementedError: Dis 10 Q1(c)" in raises("exception", s.call, "not_implemented", 1).message
        pid = s.sandbox.pid
        assert "raised SystemExit: bye" in raises("exception", s.call, "quits", 1).message
        assert "raised KeyboardInterrupt" in raises("exception", s.call, "interrupted", 1).message
        assert "infinite recursion" in raises("exception", s.call, "recurse", 0).message
        assert s.sandbox.pid == pid  # none of that ended the worker


def test_a_missing_function_or_class_is_reported(reference) -> None:
    assert raises("missing", reference.call, "attention").message == "attention is not defined in your submission"
    assert "a class" in raises("missing", reference.call, "KVCache").message
    assert "a function" in raises("missing", reference.new, "softmax").message


def test_modifying_an_input_in_place_is_reported_as_such(user) -> None:
    with make(user, snippet("outputs")) as s:
        error = raises("modified_input", s.call, "in_place", np.ones((2, 3)))
        assert error.message == "in_place modified its input `Z` in place; work on a copy (attention.py, line 51)"
        assert "one of its input arrays" in raises("modified_input", s.call, "in_place_two", np.ones((2, 2)),
                                                   np.ones((2, 2))).message


@pytest.mark.parametrize(("name", "says"), [
    ("an_object", "the result is an object"),
    ("a_function", "the result is a function"),
    ("a_dict", "the result is a dict"),
    ("complex_array", "complex128 array"),
    ("nested_bad", "item 1 of the result is a dict"),
    ("a_string", "returned a str"),
    ("nothing", "returned None"),
    ("huge", "MiB"),
])
def test_unusable_results_are_invalid_output(user, name, says) -> None:
    with make(user, snippet("outputs")) as s:
        assert says in raises("invalid_output", s.call, name, np.ones(3)).message


def test_printed_output_is_captured_truncated_and_reset(user) -> None:
    with make(user, "print('hello from load')\n" + snippet("outputs")) as s:
        s.start()
        assert s.output == "hello from load\n"
        s.call("spam", np.ones(2))
        assert s.output.startswith("line 0 of debugging output\n")
        assert len(s.output) < 5000 and "more bytes of output not shown" in s.output
        s.call("float32", np.ones(2))
        assert s.output == ""


# ----------------------------------------------------------------------------
# Timeouts, crashes, budget
# ----------------------------------------------------------------------------


def test_an_infinite_loop_times_out_then_the_next_call_works(user) -> None:
    with make(user, snippet("loops"), call_timeout=1.0) as s:
        error = raises("timeout", s.call, "spin", 1)
        assert error.message.startswith("spin did not return within 1 s (infinite loop?)")
        assert error.message.endswith("it was stopped at attention.py, line 7")
        np.testing.assert_array_equal(s.call("fine", np.ones(2)), [2, 2])
        began = time.monotonic()
        assert "was not run again" in raises("timeout", s.call, "spin", 1).message
        assert time.monotonic() - began < 1.0  # not run: well within the call's own timeout, however loaded


class SlowLayer(Layer):
    """A layer whose every projection takes the grader 0.06 s to answer (a grader slowed by a loaded machine)."""

    def _project(self, method, x):
        time.sleep(0.06)
        return super()._project(method, x)


def test_the_time_the_grader_takes_to_answer_callbacks_is_not_the_students(reference, ref) -> None:
    """35 projections answered in 0.06 s each: 2.1 s of waiting for the grader, in a call allowed 1 s of the
    student's time. The student's code computes for milliseconds, so the call returns, with the right answer."""
    W_Q, W_K, W_V = RNG.normal(size=(4, 4)), RNG.normal(size=(4, 4)), RNG.normal(size=(4, 2))
    X = RNG.normal(size=(5, 4))
    limit, reference.call_timeout = reference.call_timeout, 1.0
    try:
        began = time.monotonic()
        got = reference.call("generate_naive", SlowLayer(W_Q, W_K, W_V), X)
    finally:
        reference.call_timeout = limit
    assert time.monotonic() - began > 2.0
    np.testing.assert_allclose(got, ref.generate_naive(ref.AttentionLayer(W_Q, W_K, W_V), X))


CLOCK_TAMPERING = """
import os


def _clock_fds():
    found = []
    for fd in os.listdir("/proc/self/fd"):
        try:
            if os.readlink(f"/proc/self/fd/{fd}").endswith("schedstat"):
                found.append(int(fd))
        except OSError:  # the listing's own descriptor, gone
            pass
    assert found, "the worker's clock is open"
    return found


def close_the_clock_and_spin(x):
    for fd in _clock_fds():
        os.close(fd)
    while True:
        pass


def replace_the_clock_and_spin(x):
    read, write = os.pipe()
    os.write(write, b"1 999999999999 1\\n")  # a forged wait of 1000 s, forever
    for fd in _clock_fds():
        os.dup2(read, fd)
    while True:
        pass
"""


@pytest.mark.parametrize("name", ["close_the_clock_and_spin", "replace_the_clock_and_spin"])
def test_code_that_closes_or_replaces_the_workers_clock_still_times_out_at_its_limit(user, name) -> None:
    """The worker keeps its /proc/self/schedstat open (its clock): a student's code that closes it, or puts a file
    of forged waits in its place, still stops at the call's limit, at the student's own line."""
    with make(user, CLOCK_TAMPERING, call_timeout=1.0) as s:
        began = time.monotonic()
        error = raises("timeout", s.call, name, 1)
        assert error.message.startswith(f"{name} did not return within 1 s (infinite loop?)")
        assert time.monotonic() - began < 30


def test_a_loop_that_swallows_the_alarm_is_killed_and_a_fresh_worker_takes_over(user) -> None:
    with make(user, snippet("loops"), call_timeout=0.5) as s:
        s.start()
        first = s.sandbox.pid
        began = time.monotonic()
        raises("timeout", s.call, "stubborn", 1)
        assert time.monotonic() - began < 0.5 + student_module.GRACE + 1
        np.testing.assert_array_equal(s.call("fine", np.ones(2)), [2, 2])
        assert s.sandbox.pid != first


@pytest.mark.parametrize(("name", "says"), [
    ("os_exit", "exited with status 3"),
    ("segfault", "killed by signal 11"),
    ("kill_self", "killed by signal 9: probably out of memory, limit 512 MB"),
])
def test_a_crash_is_reported_and_grading_continues(user, name, says) -> None:
    with make(user, snippet("crashes")) as s:
        if name == "kill_self":  # SIGKILL may come from outside: the first loss is the grader's, the test reruns
            with pytest.raises(WorkerLost, match="maybe not because of the student's code"):
                s.call(name, 1)
        error = raises("crash", s.call, name, 1)
        assert error.message.startswith("the worker process died") and says in error.message
        np.testing.assert_array_equal(s.call("fine", np.ones(2)), [2, 2])


def test_the_free_retry_of_a_lost_worker_is_one_per_grading_whatever_the_signal(user) -> None:
    """Issue 22: the first worker lost to SIGKILL is retried (it may have come from outside); another function's
    SIGTERM, or SIGKILL again, is the student's crash: a process can send itself any signal."""
    source = "import os, signal\n" + "".join(f"def {name}(x):\n    os.kill(os.getpid(), signal.{sig})\n"
                                              for name, sig in (("a", "SIGKILL"), ("b", "SIGTERM"), ("c", "SIGKILL")))
    with make(user, source + "def fine(x):\n    return x + 1\n") as s:
        with pytest.raises(WorkerLost, match="maybe not because of the student's code"):
            s.call("a", 1)
        assert "killed by signal 15" in raises("crash", s.call, "b", 1).message
        assert "killed by signal 9" in raises("crash", s.call, "c", 1).message
        np.testing.assert_array_equal(s.call("fine", np.ones(2)), [2, 2])


def test_a_worker_that_dies_after_the_load_request_before_any_statement_is_the_students(user, monkeypatch) -> None:
    """Issue 22: once the load request is sent, nothing is "a problem on our side": a worker that never announces
    its first statement (here killed each time, just after the request) leaves the code not loaded."""
    send = student_module.Sandbox.send

    def killed_after_load(self, header, *args, **kwargs):
        if header.get("op") == "load":
            os.kill(self.clock.pid, signal.SIGSTOP)  # it never reads the request
        send(self, header, *args, **kwargs)
        if header.get("op") == "load":
            os.kill(self.clock.pid, signal.SIGKILL)

    monkeypatch.setattr(student_module.Sandbox, "send", killed_after_load)
    with make(user, "def fine(x):\n    return x + 1\n") as s:
        message = raises("not_loaded", s.call, "fine", 1).message
        assert message.startswith("Your code could not be loaded: the worker process died (killed by signal 9")
        assert "not_loaded" == raises("not_loaded", s.call, "fine", 1).kind  # and fails fast from then on


LOWERED = """
import ctypes, os, signal
def lone(x):
    ctypes.CDLL(None).prctl(4, 1, 0, 0, 0)  # PR_SET_DUMPABLE: its /proc files are its own again
    try:
        with open("/proc/self/autogroup", "w") as f:
            f.write("19")  # its session's CPU weight, 1024 -> 15
    except OSError:
        pass
    os.nice(19)
    signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGALRM})
    while True:
        pass
"""


@pytest.mark.skipif(not ROOT, reason="the sandbox user's autogroup: as root")
def test_a_worker_that_yields_the_cpu_to_everyone_else_times_out_and_blames_no_machine(user, monkeypatch) -> None:
    """Issue 22: a lone worker that lowers its own priority waits for a CPU on any busy machine, so its time hardly
    advances: once the backstop said "the machine was overloaded" (45 s here). Its waits are its own time now."""
    from autograder.sandbox import shares

    monkeypatch.setattr(shares, "slot_group", lambda *args, **kwargs: None)  # a slot's cgroup keeps its weight
    monkeypatch.setattr(shares, "slot", lambda *args, **kwargs: shares.Slot())
    busy = [subprocess.Popen([sys.executable, "-c", "while True: pass"]) for _ in range(2 * (os.cpu_count() or 1))]
    try:
        with make(user, LOWERED, call_timeout=2.0) as s:
            began = time.monotonic()
            assert "lone did not return within 2 s" in raises("timeout", s.call, "lone", 1).message
            assert time.monotonic() - began < 15
    finally:
        for proc in busy:
            proc.kill()
            proc.wait()


@pytest.mark.parametrize(("frame", "last", "ok"), [
    ({"chunk": 0, "stmt": -1, "line": 1}, None, True),
    ({"chunk": 0, "stmt": 3, "line": 9}, (0, 2, 7), True),
    ({"chunk": 1, "stmt": -1, "line": 1}, (0, 5, 20), True),
    ({"chunk": 2, "stmt": 0, "line": 1}, (0, 5, 20), False),  # no such chunk
    ({"chunk": -1, "stmt": 0, "line": 1}, None, False),
    ({"chunk": 0, "stmt": 2, "line": 7}, (0, 2, 7), False),  # the same statement twice
    ({"chunk": 0, "stmt": 1, "line": 3}, (0, 2, 7), False),  # backwards
    ({"chunk": 0, "stmt": -2, "line": 1}, None, False),
    ({"chunk": "0", "stmt": 0, "line": 1}, None, False),
])
def test_a_progress_frame_must_announce_the_next_statement_of_a_chunk_that_exists(frame, last, ok) -> None:
    owner = type("Loading", (), {"chunks": [{}, {}]})()
    if ok:
        assert Student._progress(owner, frame, last) == (frame["chunk"], frame["stmt"], frame["line"])
    else:
        with pytest.raises(protocol.ProtocolError):
            Student._progress(owner, frame, last)


def test_a_memory_bomb_fails_and_the_grader_survives(user) -> None:
    with make(user, snippet("crashes")) as s:
        for name in ("memory_bomb", "list_bomb"):
            with pytest.raises(StudentError) as info:
                s.call(name, 1)
            assert info.value.kind in ("exception", "crash")
            assert "MemoryError" in str(info.value) or "signal" in str(info.value)
        np.testing.assert_array_equal(s.call("fine", np.ones(2)), [2, 2])


def test_a_function_that_keeps_crashing_is_not_run_again(user) -> None:
    with make(user, snippet("crashes")) as s:
        for _ in range(student_module.MAX_CRASHES):
            raises("crash", s.call, "os_exit", 1)
        assert "not run again" in raises("crash", s.call, "os_exit", 1).message


def test_once_the_budget_is_spent_every_call_fails_fast(user) -> None:
    with make(user, snippet("loops"), call_timeout=1.0, budget=1.0) as s:
        raises("timeout", s.call, "spin", 1)
        began = time.monotonic()
        assert "time budget (1 s) is used up" in raises("budget", s.call, "fine", 1).message
        assert time.monotonic() - began < 1.0  # not run: well within the call's own timeout, however loaded


def test_a_remote_object_does_not_survive_a_worker_restart(user) -> None:
    with make(user, REFERENCE.read_text() + "\n\ndef die():\n    import os\n    os._exit(1)\n") as s:
        cache = s.new("KVCache")
        raises("crash", s.call, "die")
        assert "was lost" in raises("crash", cache.len).message


# ----------------------------------------------------------------------------
# Processes and the grader's integrity
# ----------------------------------------------------------------------------


def alive(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().rsplit(")", 1)[1].split()[0] != "Z"
    except FileNotFoundError:
        return False


@pytest.mark.parametrize("switch", [True, False], ids=["sandbox-user", "no-user-switch"])
def test_a_detached_double_forked_process_is_killed_by_close(user, switch, monkeypatch) -> None:
    monkeypatch.setenv(namespace.SWITCH, "0")  # the fallback; in a private world see tests/test_world.py
    s = make(user, snippet("processes"), switch_user=switch)
    daemon = s.call("daemon")
    assert alive(daemon)
    s.close()
    assert not alive(daemon)


@pytest.mark.skipif(not ROOT, reason="the process limit applies to the sandbox user, which needs root")
def test_a_fork_bomb_is_limited_and_cleaned_up(user, monkeypatch) -> None:
    monkeypatch.setenv(namespace.SWITCH, "0")  # the fallback (sessions seen from here); see tests/test_world.py
    with make(user, snippet("processes")) as s:
        assert s.sandbox.account is not None  # the user switch is on
        made = s.call("fork_bomb")
        assert 0 < made < s.sandbox.limits.processes
        session = s.sandbox.pid
        assert len(in_session(session)) == made + 1
    assert in_session(session) == []


def in_session(sid: int) -> list[int]:
    """Live processes of session ``sid``."""
    found = []
    for entry in os.listdir("/proc"):
        try:
            with open(f"/proc/{entry}/stat") as f:
                fields = f.read().rsplit(")", 1)[1].split()
        except (OSError, IndexError):
            continue
        if int(fields[3]) == sid and fields[0] != "Z":
            found.append(int(entry))
    return found


@pytest.mark.skipif(not ROOT, reason="needs root to make a root-only file")
def test_student_code_cannot_read_a_file_only_root_can_read(user, tmp_path: Path) -> None:
    secret = tmp_path / "expected_outputs.npz"
    secret.write_bytes(b"the answers")
    secret.chmod(0o600)
    with make(user, snippet("tricks")) as s:
        assert s.sandbox.account is not None  # the user switch is on
        error = "FileNotFoundError" if s.sandbox.world_missing == "" else "PermissionError"  # unseen or closed
        assert f"raised {error}" in raises("exception", s.call, "read_file", str(secret)).message


def test_patching_numpy_in_the_worker_does_not_reach_the_grader(user) -> None:
    with make(user, snippet("tricks")) as s:
        Z = np.ones(3)
        got = s.call("wrong_but_patched", Z)
        assert not np.allclose(got, Z) and not np.array_equal(got, Z)
        with pytest.raises(AssertionError):
            np.testing.assert_allclose(got, Z)


@pytest.mark.parametrize("name", ["garbage", "huge_frame"])
def test_garbage_on_the_protocol_pipe_fails_the_call_cleanly_and_the_next_call_works(user, name) -> None:
    with make(user, snippet("tricks")) as s:
        assert "sent malformed data" in raises("crash", s.call, name, np.ones(2)).message
        np.testing.assert_array_equal(s.call("fine", np.ones(2)), [0, 0])


# ----------------------------------------------------------------------------
# Loading notebooks
# ----------------------------------------------------------------------------


def notebook() -> list[str]:
    return [cell.strip() + "\n" for cell in (HERE / "notebook_cells.txt").read_text().split("# %% cell")[1:]]


def test_a_notebook_loads_around_bad_cells_and_notes_them(user) -> None:
    with make(user, *notebook(), statement_timeout=2.0) as s:
        np.testing.assert_allclose(s.call("softmax", np.zeros(4)), np.full(4, 0.25))
        np.testing.assert_array_equal(s.call("double", np.ones(2)), [2, 2])
        np.testing.assert_array_equal(s.call("first"), [0, 1])
        notes = "\n".join(s.notes)
        assert "code cell 1, line 1: `import numpy as np, matplotlib.pyplot as plt` failed (ModuleNotFound" in notes
        assert "(only numpy and the Python standard library are available)); the rest" in notes
        assert "code cell 3, line 3: `time.sleep(100) # a slow experiment` was stopped after 2 s" in notes
        assert "code cell 4, line 1: `print(undefined_name)` raised NameError" in notes
        assert "main block" not in notes and len(s.notes) == 3
        s.sandbox.kill()  # a fresh worker does not wait for the slow cell again: its reload takes less of the
        began = s.spent  # student's time (the grading's budget, waits for a CPU left out) than the cell's 2 s
        s.call("double", np.ones(2))
        assert s.spent - began < 2.0
        assert len(s.notes) == 3


def test_a_statement_that_kills_the_worker_while_loading_is_skipped(user) -> None:
    cells = ["import os\n", "def before():\n    return 1\n", "os._exit(7)\n", "def after():\n    return 2\n"]
    with make(user, *cells) as s:
        assert s.call("before") == 1 and s.call("after") == 2
        assert s.notes == ["code cell 3, line 1: this statement stopped the worker process (exited with status 7: "
                           "os._exit() or exit() in native code); it was skipped and the rest of the code was loaded."]


def test_a_syntax_error_skips_only_its_chunk(user) -> None:
    with make(user, "def broken(:\n    pass\n", "def fine():\n    return 3\n") as s:
        assert s.call("fine") == 3
        assert len(s.notes) == 1 and s.notes[0].startswith("code cell 1, line 1: syntax error (")


def test_an_unloadable_submission_fails_every_call_with_its_message(user) -> None:
    with Student.unloaded("Your `attention.py` has a syntax error on line 3.", user=user) as s:
        s.start()
        assert not s.has("softmax") and s.sandbox.pid is None
        assert raises("not_loaded", s.call, "softmax", 1).message == "Your `attention.py` has a syntax error on line 3."


# ----------------------------------------------------------------------------
# Notes and messages: markdown
# ----------------------------------------------------------------------------

STOPS = " Python itself stops importing your file at this line (your own tests would fail): remove or fix it."


@pytest.mark.parametrize(("sources", "note"), [
    (["import numpy as np\nraise RuntimeError('not finished')\ndef f():\n    return 1\n"],
     "attention.py, line 2: `raise RuntimeError('not finished')` raised RuntimeError: not finished; the rest of the "
     "code was loaded." + STOPS),
    (["import numpy as np\n", "raise RuntimeError('not finished')\n", "def f():\n    return 1\n"],
     "code cell 2, line 1: `raise RuntimeError('not finished')` raised RuntimeError: not finished; the rest of the "
     "code was loaded."),
    (["import not_a_module_ag\ndef f():\n    return 1\n"],
     "attention.py, line 1: `import not_a_module_ag` failed (ModuleNotFoundError: No module named 'not_a_module_ag' "
     "(only numpy and the Python standard library are available)); the rest of the code was loaded."),
], ids=["py file: says Python would stop", "notebook cell: scratch work is normal", "failed import"])
def test_a_statement_that_raises_while_loading_is_noted_and_the_rest_loads(user, sources, note) -> None:
    with make(user, *sources) as s:
        assert s.call("f") == 1
        assert s.notes == [note]


def test_student_code_in_a_note_is_shown_literally_and_the_message_is_defused(user) -> None:
    source = 'import numpy as np\nassert np.zeros(3)[0] > 0.3, "p[0] <= 0.3 `x`"\n'
    with make(user, source) as s:
        s.start()
        (note,) = s.notes
        assert note.startswith("attention.py, line 2: ``assert np.zeros(3)[0] > 0.3, \"p[0] <= 0.3 `x`\"`` raised "
                               "AssertionError: p\\[0\\] &lt;= 0.3 \\`x\\`; the rest")


@pytest.mark.parametrize("traceback", ["  File \"attention.py\", line 2\nValueError: ```", "x = '````'", "plain"])
def test_a_traceback_cannot_break_out_of_its_code_block(traceback) -> None:
    text = str(StudentError("exception", "f raised ValueError", traceback))
    message, block = text.split("\n\n", 1)
    fence = block.split("\n", 1)[0]
    assert message == "f raised ValueError" and set(fence) == {"`"} and len(fence) >= 3
    assert block == f"{fence}\n{traceback}\n{fence}"
    assert not any(line.startswith(fence) for line in traceback.split("\n"))


def test_a_call_reports_which_top_level_functions_it_entered_as_names_and_counts(user) -> None:
    source = ("import numpy as np\n"
              "def helper(x):\n    return x + 1\n"
              "def twice(x):\n    return helper(helper(x))\n"
              "def fails(x):\n    helper(x)\n    raise ValueError('no')\n"
              "def alone(x):\n    return x\n"
              "class Box:\n    def append(self, x):\n        return x\n"
              "def boxed(x):\n    Box().append(x)\n    return x\n")
    with make(user, source) as s:
        assert s.call("twice", np.zeros(2)).tolist() == [2.0, 2.0]
        assert s.entered == {"helper": 2}
        with pytest.raises(StudentError):
            s.call("fails", np.zeros(2))
        assert s.entered == {"helper": 1}
        s.call("alone", np.zeros(2))
        assert s.entered == {}
        assert s.call("twice", np.zeros(2)).tolist() == [2.0, 2.0]  # the wrappers were removed after each call
        s.call("boxed", np.zeros(2))
        assert s.entered == {"Box": 1}  # a class counts by its own __init__ or append


def test_the_graders_cache_accepts_every_append_the_contracts_kvcache_accepts_and_names_its_interface(user) -> None:
    source = ("import numpy as np\n"
              "def row_and_vector(cache, k, v):\n    cache.append(k[None, :], v)\n    return cache.keys\n"
              "def index(cache):\n    return cache.cache_index\n")
    cache = Cache(np.zeros((2, 3)), np.zeros((2, 4)))
    with make(user, source) as s:
        keys = s.call("row_and_vector", cache, np.ones(3), np.ones(4))
        assert keys.shape == (3, 3) and len(cache) == 3 and cache.values.shape == (3, 4)
        with pytest.raises(StudentError) as info:
            s.call("index", Cache())
        assert "cache.cache_index is not part of its interface" in str(info.value)
        assert "the contract's KVCache interface only" in str(info.value)
        assert "append(k, v), keys, values and len(cache)" in str(info.value)
