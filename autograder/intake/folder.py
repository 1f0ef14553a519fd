"""Walking and copying a submission folder, bounded whatever it holds: never recursive, never deeper than
``MAX_DEPTH`` folders, never more than ``MAX_ENTRIES`` entries, never opening anything but regular files.

Special files (named pipes, devices, sockets) are skipped with a note: opening a pipe would block, and a
device is not a submission. Symbolic links are never followed (a copy keeps them as links). What was left out
is said in notes (markdown), so a student or TA knows why a file was not seen.
"""

from __future__ import annotations

import os
import shutil
import stat
import time
from dataclasses import dataclass, field
from pathlib import Path

from autograder.feedback.markdown import code_span

MAX_DEPTH = 32  # folders below the submission's root that are looked into
MAX_ENTRIES = 20_000  # directory entries looked at, at most
SECONDS = 10.0  # a walk or copy gives up (with a note) after this long
SKIP_DIRS = {"__MACOSX", "__pycache__", "site-packages", "dist-packages", "node_modules"}
SPECIAL = ((stat.S_ISFIFO, "a named pipe"), (stat.S_ISSOCK, "a socket"), (stat.S_ISCHR, "a device"),
           (stat.S_ISBLK, "a device"))


@dataclass
class Walk:
    """What a walk found: regular files (shallowest first), whether links were skipped, notes about what was not."""

    files: list[Path] = field(default_factory=list)
    links: bool = False
    notes: list[str] = field(default_factory=list)


def special_kind(mode: int) -> str:
    """"a named pipe", "a socket", "a device", or "" for a regular file, folder or link."""
    return next((name for test, name in SPECIAL if test(mode)), "")


class _Limits:
    """Counts entries, depth and time for one walk or copy; collects what was left out."""

    def __init__(self, root: Path) -> None:
        self.root, self.entries, self.deadline = root, 0, time.monotonic() + SECONDS
        self.special: list[tuple[str, str]] = []
        self.too_deep = self.stopped = False

    def spent(self) -> bool:
        self.entries += 1
        if self.entries > MAX_ENTRIES or time.monotonic() > self.deadline:
            self.stopped = True
        return self.stopped

    def notes(self) -> list[str]:
        notes = []
        if self.special:
            shown = ", ".join(f"{code_span(rel, 100)} ({kind})" for rel, kind in sorted(self.special)[:3])
            more = f" and {len(self.special) - 3} more" if len(self.special) > 3 else ""
            notes.append(f"Skipped {shown}{more}: not a regular file.")
        if self.too_deep:
            notes.append(f"Folders nested more than {MAX_DEPTH} levels deep were not searched.")
        if self.stopped:
            notes.append(f"The submission folder holds too many files (more than {MAX_ENTRIES:,}); only part of "
                         "it was searched.")
        return notes


def walk(folder: Path) -> Walk:
    """Regular files under ``folder``, skipping hidden folders, ``SKIP_DIRS``, virtualenvs and links."""
    folder = Path(folder)
    limits, result = _Limits(folder), Walk()
    stack: list[tuple[Path, int]] = [(folder, 0)]
    while stack and not limits.stopped:
        top, depth = stack.pop()
        try:
            with os.scandir(top) as listing:
                entries = sorted(listing, key=lambda e: e.name, reverse=True)
        except OSError:
            continue
        for entry in entries:
            if limits.spent():
                break
            try:
                mode = entry.stat(follow_symlinks=False).st_mode
            except OSError:
                continue
            full = Path(entry.path)
            if stat.S_ISLNK(mode):
                result.links = True
            elif entry.name.startswith("."):
                continue
            elif stat.S_ISDIR(mode):
                if entry.name in SKIP_DIRS or (full / "pyvenv.cfg").exists():
                    continue
                if depth >= MAX_DEPTH:
                    limits.too_deep = True
                    continue
                stack.append((full, depth + 1))
            elif stat.S_ISREG(mode):
                result.files.append(full)
            elif special_kind(mode):
                limits.special.append((full.relative_to(folder).as_posix(), special_kind(mode)))
    result.files.sort(key=lambda p: (len(p.relative_to(folder).parts), str(p).lower()))
    result.notes = limits.notes()
    return result


def copy_folder(source: Path, destination: Path) -> list[str]:
    """Copy ``source``'s tree to ``destination`` (made here): regular files and folders, links as links;
    special files, folders deeper than ``MAX_DEPTH`` and entries past ``MAX_ENTRIES`` are left out.
    Returns notes (markdown) about what was left out."""
    source, destination = Path(source), Path(destination)
    limits = _Limits(source)
    destination.mkdir(parents=True)
    stack: list[tuple[Path, Path, int]] = [(source, destination, 0)]
    while stack and not limits.stopped:
        here, there, depth = stack.pop()
        try:
            with os.scandir(here) as listing:
                entries = list(listing)
        except OSError:
            continue
        for entry in entries:
            if limits.spent():
                break
            target = there / entry.name
            try:
                mode = entry.stat(follow_symlinks=False).st_mode
                if stat.S_ISLNK(mode):
                    os.symlink(os.readlink(entry.path), target)
                elif stat.S_ISDIR(mode):
                    if depth >= MAX_DEPTH:
                        limits.too_deep = True
                        continue
                    target.mkdir()
                    stack.append((Path(entry.path), target, depth + 1))
                elif stat.S_ISREG(mode):
                    shutil.copy2(entry.path, target, follow_symlinks=False)
                elif special_kind(mode):
                    limits.special.append((Path(entry.path).relative_to(source).as_posix(), special_kind(mode)))
            except OSError:
                continue  # unreadable: the walk will not see it either
    return limits.notes()
