"""What a batch output folder remembers, so that an interrupted run can resume.

Layout of OUTDIR (all written atomically: temp file + rename, or one appended line)::

    batch.json              the run: autograder version, export, shard, the shard's submissions
    state.jsonl             one line per graded submission: id, version, content, status, seconds, results file
    results/<id>.json       that submission's results.json, exactly as Gradescope would store it
    logs/<id>.log           the grader's own output while grading it (pytest, warnings)
    scores.csv, scores_key.csv, report.html, plots/*.png   rebuilt at the end of every run
    changes.csv, runs/<n>/  each run kept, and what changed since the previous one (history.py)

The autograder version is a sha256 over the files that go into the Gradescope zip
(names and contents), so a fixed test or regenerated case changes it and a rerun
regrades. A submission's content is a sha256 over what intake reads of it (``content_hash``):
a rerun skips a submission only when ``state.jsonl`` holds a grading of the same content by
the same version, so a new export with one student's file changed regrades that student.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import re
from collections.abc import Iterable, Iterator
from dataclasses import asdict, dataclass
from pathlib import Path

from autograder.intake.folder import walk
from autograder.results.document import atomic_write_text

GRADED = "graded"  # results.json written by the engine (whatever the score)
GRADER_ERROR = "grader_error"  # the grader itself could not grade it (timeout of the outer guard, crash)


class OutputError(RuntimeError):
    """OUTDIR could not be written (a full disk, a quota): the batch stops cleanly and a rerun resumes."""


def _grader_members(repo: Path | None) -> Iterator[tuple[str, bytes]]:
    """(name, bytes) of each member of the Gradescope zip."""
    from autograder.commands import build

    repo = repo or build.REPO
    for name in build.zip_members(repo):
        yield name, build.source_of(name, repo).read_bytes()


def autograder_version(repo: Path | None = None) -> str:
    """sha256 over the Gradescope zip's members (names and bytes): the autograder's identity."""
    digest = hashlib.sha256()
    for name, data in _grader_members(repo):
        digest.update(f"{name}\0{len(data)}\0".encode())
        digest.update(data)
    return digest.hexdigest()


def grader_files(repo: Path | None = None) -> dict[str, str]:
    """Each member of the Gradescope zip and its sha256: which files of the grader a new version changed."""
    return {name: hashlib.sha256(data).hexdigest() for name, data in _grader_members(repo)}


def content_hash(path: Path | None) -> str:
    """sha256 over what intake reads of a submission: a file's name and bytes, or a folder's regular files (as
    ``intake.folder.walk`` finds them: no hidden folder, no link) by relative path and bytes. "" when absent."""
    if path is None or not path.exists():
        return ""
    digest = hashlib.sha256()
    files = [path] if path.is_file() else walk(path).files
    for file in files:
        name = file.name if file == path else file.relative_to(path).as_posix()
        try:
            data = file.read_bytes()
        except OSError:
            data = b"\0unreadable"
        digest.update(f"{name}\0{len(data)}\0".encode())
        digest.update(data)
    return digest.hexdigest()


@dataclass
class Record:
    """One line of state.jsonl."""

    id: str
    version: str
    status: str
    results: str  # path of the results.json, relative to OUTDIR
    seconds: float  # wall-clock time to grade, as the batch saw it
    error: str = ""  # why the grader could not grade it
    log: str = ""  # path of the grader's log, relative to OUTDIR
    content: str = ""  # content_hash of the submission graded ("" in outputs of earlier versions: regraded)

    @property
    def graded(self) -> bool:
        return self.status == GRADED


def file_stem(submission_id: str) -> str:
    """A safe file name for an id (ids of Gradescope exports are digits already)."""
    stem = re.sub(r"[^A-Za-z0-9._-]", "_", submission_id).lstrip(".") or "_"
    if stem != submission_id:
        stem += "-" + hashlib.sha256(submission_id.encode()).hexdigest()[:8]
    return stem


def results_path(outdir: Path, submission_id: str) -> Path:
    return outdir / "results" / f"{file_stem(submission_id)}.json"


def log_path(outdir: Path, submission_id: str) -> Path:
    return outdir / "logs" / f"{file_stem(submission_id)}.log"


def write_json(path: Path, data: object) -> None:
    atomic_write_text(path, json.dumps(data, indent=2, sort_keys=False) + "\n")


def read_json(path: Path) -> dict:
    return json.loads(path.read_text(encoding="utf-8"))


def append_record(outdir: Path, record: Record) -> None:
    """Append one line to state.jsonl and make it durable before returning."""
    line = (json.dumps(asdict(record), sort_keys=True) + "\n").encode()
    with open(outdir / "state.jsonl", "ab+") as f:
        if f.seek(0, os.SEEK_END) > 0:
            f.seek(-1, os.SEEK_END)
            if f.read(1) != b"\n":  # a line cut short by an interruption: keep it apart
                line = b"\n" + line
        f.write(line)
        f.flush()
        os.fsync(f.fileno())


def load_records(outdir: Path) -> dict[str, Record]:
    """The latest record of each submission; a line cut short by an interruption is ignored."""
    records: dict[str, Record] = {}
    path = outdir / "state.jsonl"
    if not path.exists():
        return records
    for line in path.read_text(encoding="utf-8").splitlines():
        try:
            record = Record(**json.loads(line))
        except (ValueError, TypeError):
            continue
        records[record.id] = record
    return records


def current(record: Record | None, version: str, content: str | None) -> bool:
    """Whether ``record`` grades this submission as it is now: the same autograder version and, when ``content``
    is known (None: not checked, e.g. a merge of shards), the same content."""
    return record is not None and record.version == version and (content is None or record.content == content)


def done_ids(outdir: Path, version: str, contents: dict[str, str] | None = None) -> set[str]:
    """Submissions already graded by this autograder version, with the content they have now (``contents``: id
    -> ``content_hash``; None: not checked), whose results.json is on disk."""
    return {
        r.id
        for r in load_records(outdir).values()
        if r.graded and current(r, version, None if contents is None else contents.get(r.id, ""))
        and (outdir / r.results).is_file()
    }


@contextlib.contextmanager
def locked(outdir: Path) -> Iterator[bool]:
    """Hold OUTDIR's lock while grading; yields False when another batch holds it."""
    outdir.mkdir(parents=True, exist_ok=True)
    with open(outdir / ".lock", "w") as f:
        try:
            import fcntl
        except ImportError:  # not on Unix: no lock
            yield True
            return
        try:
            fcntl.flock(f, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            yield False
            return
        try:
            yield True
        finally:
            fcntl.flock(f, fcntl.LOCK_UN)


def rewrite_records(outdir: Path, records: Iterable[Record]) -> None:
    """Replace state.jsonl with exactly ``records`` (used by merge)."""
    text = "".join(json.dumps(asdict(r), sort_keys=True) + "\n" for r in records)
    atomic_write_text(outdir / "state.jsonl", text)
