"""Progress of a batch: a tqdm bar with ETA on a terminal when tqdm is installed, plain lines otherwise.

Plain lines come at most every ``TERMINAL_SECONDS`` on a terminal. Without one (a log file, a
job scheduler, CI) a redrawn bar would flood the log, so a line comes only every
``LOG_SECONDS``, or when another tenth of the submissions is done, an error happens or the
last one finishes: about a dozen lines for a whole class.
"""

from __future__ import annotations

import sys
import time
from typing import TextIO

from autograder.results.hygiene import visible

TERMINAL_SECONDS = 2.0
LOG_SECONDS = 30.0


class Progress:
    """Counts finished submissions; ``update`` after each, ``close`` at the end."""

    def __init__(self, total: int, *, done: int = 0, stream: TextIO | None = None, plain: bool = False) -> None:
        self.total = total
        self.count = done
        self.errors = 0
        self.started = time.monotonic()
        self.graded_now = 0
        self.stream = stream or sys.stderr
        self._last_print = 0.0
        self._terminal = _is_terminal(self.stream)
        self._interval = TERMINAL_SECONDS if self._terminal else LOG_SECONDS
        self._step = max(1, -(-total // 10))  # a tenth of the submissions, rounded up
        self._bar = None if plain or not self._terminal else _tqdm(total, done, self.stream)
        wanted = not plain and self._terminal
        self.note = "tqdm not installed: plain-text progress (pip install tqdm)" if wanted and not self._bar else ""

    def update(self, submission_id: str, *, error: bool = False) -> None:
        self.count += 1
        self.graded_now += 1
        self.errors += error
        if self._bar is not None:
            self._bar.update(1)
            if self.errors:
                self._bar.set_postfix(grader_errors=self.errors, refresh=False)
            return
        now = time.monotonic()
        milestone = not self._terminal and self.count % self._step == 0
        if now - self._last_print >= self._interval or milestone or self.count == self.total or error:
            self._last_print = now
            print(visible(self.line(submission_id, error=error)), file=self.stream, flush=True)  # ids: folder names

    def line(self, submission_id: str = "", *, error: bool = False) -> str:
        rate = self.rate()
        left = self.total - self.count
        eta = f"{_clock(left / rate)}" if rate > 0 else "?"
        width = len(str(self.total))
        text = f"[{self.count:>{width}}/{self.total}] {rate:.2f} submissions/s, ETA {eta}"
        if self.errors:
            text += f", {self.errors} grader errors"
        if error:
            text += f" (the grader could not grade {submission_id})"
        return text

    def rate(self) -> float:
        elapsed = time.monotonic() - self.started
        return self.graded_now / elapsed if elapsed > 0 else 0.0

    def close(self) -> None:
        if self._bar is not None:
            self._bar.close()


def _is_terminal(stream: TextIO) -> bool:
    try:
        return stream.isatty()
    except (AttributeError, ValueError):  # a closed or unusual stream
        return False


def _tqdm(total: int, done: int, stream: TextIO) -> object | None:
    try:
        from tqdm import tqdm
    except ImportError:
        return None
    return tqdm(total=total, initial=done, unit="sub", desc="grading", file=stream, smoothing=0.1, dynamic_ncols=True)


def _clock(seconds: float) -> str:
    seconds = round(seconds)
    return (
        f"{seconds // 3600}:{seconds // 60 % 60:02d}:{seconds % 60:02d}"
        if seconds >= 3600
        else (f"{seconds // 60}:{seconds % 60:02d}")
    )
