"""The grader's end of the worker's two pipes: frames sent and read before a deadline, on the student's clock.

A mixin of ``Sandbox`` (supervisor.py), which holds the pipes (``_rfd``, ``_wfd``), the worker (``_proc``), the
bytes read past the frame asked for (``_inbox``), the pollers, the clock, and says how the worker ended
(``_death``), checks the machine is not too loaded (``_check_budget``) and kills it (``kill``). Any failure kills
the worker: WorkerTimeout, WorkerDied or ProtocolError leave no process behind.
"""

from __future__ import annotations

import os
import select
from typing import Any

from autograder.sandbox import protocol

POLL_SLICE = 0.05  # seconds between checks that the worker is still alive


class WorkerTimeout(Exception):  # noqa: N818 - reads better at the call sites than WorkerTimeoutError
    """The worker did not answer before the deadline (it has been killed)."""


class WorkerDied(Exception):  # noqa: N818
    """The worker exited or closed its pipe; str() says how (it has been cleaned up)."""


class Pipes:
    """Frames to and from the worker (see the module docstring for what the class using it provides)."""

    _proc: Any
    _rfd: int
    _wfd: int
    _inbox: bytearray
    _pollers: dict
    clock: Any

    def kill(self) -> None:
        raise NotImplementedError

    def _death(self, grace: float = 0.0) -> str:
        raise NotImplementedError

    def _check_budget(self, deadline: float) -> None:
        raise NotImplementedError

    def send(self, header: dict, arrays: Any = (), *, deadline: float) -> None:
        """Send one frame before ``deadline`` (``self.deadline``); on any failure the worker is killed."""
        try:
            frame = protocol.pack_frame(header, arrays, max_header=protocol.MAX_REQUEST_HEADER)
        except BaseException:
            self.kill()
            raise
        self.send_frame(frame, deadline=deadline)

    def send_frame(self, frame: bytes, *, deadline: float) -> None:
        """Send the bytes of one frame (``protocol.pack_frame``, ``pack_projection``): as ``send``."""
        try:
            if self._proc is None:
                raise WorkerDied("the worker is not running")
            view = memoryview(frame)
            while view:
                try:  # the pipe holds 1 MiB: most frames go at once, and poll only when it is full
                    view = view[os.write(self._wfd, view[: 1 << 20]) :]
                except BlockingIOError:
                    self._wait_ready(self._wfd, select.POLLOUT, deadline)
                except BrokenPipeError:
                    raise WorkerDied(self._death(grace=1.0) or "the worker closed its connection") from None
        except BaseException:
            self.kill()
            raise

    def receive(self, deadline: float) -> tuple[dict, list]:
        """Read one frame; WorkerTimeout, WorkerDied or ProtocolError leave no process behind."""
        try:
            return protocol.unpack_body(self._read(protocol.body_length(self._read(8, deadline)), deadline))
        except BaseException:
            self.kill()
            raise

    def _read(self, n: int, deadline: float) -> bytes:
        """``n`` bytes from the worker. Reads take whatever the pipe holds (up to 1 MiB): a frame's prefix and
        body usually arrive in one read; bytes past ``n`` wait in ``_inbox`` for the next call."""
        buf = self._inbox
        while len(buf) < n:
            self._wait_ready(self._rfd, select.POLLIN, deadline)
            chunk = os.read(self._rfd, min(max(n - len(buf), 1 << 16), 1 << 20))
            if not chunk:
                raise WorkerDied(self._death(grace=1.0) or "the worker closed its connection to the grader")
            buf += chunk
        data = bytes(buf[:n])
        del buf[:n]
        return data

    def _wait_ready(self, fd: int, event: int, deadline: float) -> None:
        if self._proc is None:
            raise WorkerDied("the worker is not running")
        poller = self._pollers.get((fd, event))
        if poller is None:
            poller = self._pollers[(fd, event)] = select.poll()
            poller.register(fd, event)
        while True:
            remaining = deadline - self.clock.fast()
            if remaining <= 0 and deadline - self.clock.now() <= 0:  # /proc is read only near the deadline
                raise WorkerTimeout("no answer before the deadline")
            remaining = max(remaining, 0.001)
            if poller.poll(min(remaining, POLL_SLICE) * 1000):
                return
            death = self._death()  # its children may hold the pipe open after it died
            if death:
                raise WorkerDied(death)
            self._check_budget(deadline)
