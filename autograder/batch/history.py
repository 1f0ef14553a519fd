"""Every run of a batch kept in its output folder, and what changed since the previous run.

    runs/<n>/run.json       run n: when it ended, the autograder version and each of its files' sha256, and per
                            submission its content hash, status, total and every test's score
    runs/<n>/scores.csv     run n's scores.csv and scores_key.csv (OUTDIR's own are rewritten by the next run)
    runs/<n>/changes.csv    what changed since run n-1
    changes.csv             the latest run's changes.csv

A change is a submission whose total, status or score on any test differs from the previous run's, or whose
content changed. Its reason says why: the submission changed (what intake reads of it, ``state.content_hash``),
the grader changed (its version, and which of the Gradescope zip's files), both, or neither (a grader error
retried, an interrupted run finished, a submission new to the export or gone from it).
"""

from __future__ import annotations

import csv
import io
import shutil
import time
from dataclasses import dataclass, field
from pathlib import Path

from autograder.batch import scores, state
from autograder.batch.table import Summary, keyed_tests
from autograder.results.document import atomic_write_text

RUNS = "runs"
RUN_FILE = "run.json"
CHANGES = "changes.csv"
CHANGE_COLUMNS = ["submission_id", "names", "old_total", "new_total", "old_status", "new_status", "tests_changed",
                  "reason"]
MOST_FILES = 5  # grader files named in a reason


@dataclass
class Change:
    """One submission's change since the previous run."""

    id: str
    names: str
    old_total: float | None
    new_total: float | None
    old_status: str
    new_status: str
    tests: list[tuple[str, float | None, float | None]]  # (test number, old score, new score)
    reason: str

    def tests_text(self) -> str:
        return "; ".join(f"{key}: {_score(old)} -> {_score(new)}" for key, old, new in self.tests)


@dataclass
class History:
    """This run (its number) and what changed since the previous one (None on a folder's first run)."""

    number: int
    previous: dict | None = None  # the previous run's run.json
    changes: list[Change] = field(default_factory=list)


def snapshot(summary: Summary, version: str, files: dict[str, str]) -> dict:
    """What run.json keeps of a run."""
    submissions = {}
    for row in summary.rows:
        tests = keyed_tests(row)
        submissions[row.submission.id] = {
            "names": row.submission.names,
            "content": row.record.content if row.record else "",
            "status": row.status,
            "total": row.total,
            "tests": {key: float(test.get("score", 0)) for key, test in tests.items()},
        }
    return {"format": 1, "ended": time.strftime("%Y-%m-%d %H:%M:%S %z"), "version": version, "grader_files": files,
            "submissions": submissions}


def compare(previous: dict, now: dict) -> list[Change]:
    """The changes from run ``previous`` to run ``now`` (both run.json), in ``now``'s order, then those gone."""
    before, after = previous.get("submissions", {}), now["submissions"]
    grader = _grader_change(previous, now)
    changes = []
    for sid in [*after, *(sid for sid in before if sid not in after)]:
        old, new = before.get(sid), after.get(sid)
        if old is None or new is None:
            changes.append(_change(sid, old, new, "new in the export" if old is None else "no longer in the export"))
            continue
        tests = [(key, old["tests"].get(key), new["tests"].get(key)) for key in dict.fromkeys([*new["tests"],
                                                                                              *old["tests"]])]
        tests = [(key, a, b) for key, a, b in tests if a != b]
        submitted = bool(old["content"]) and old["content"] != new["content"]
        if not (tests or submitted or old["total"] != new["total"] or old["status"] != new["status"]):
            continue
        reasons = (["the submission changed"] if submitted else []) + ([grader] if grader else [])
        reason = "; ".join(reasons) if len(reasons) < 2 else f"both: {'; '.join(reasons)}"
        changes.append(_change(sid, old, new, reason or f"graded again (it was: {old['status']})", tests))
    return changes


def _change(sid: str, old: dict | None, new: dict | None, reason: str,
            tests: list[tuple[str, float | None, float | None]] | None = None) -> Change:
    return Change(sid, (new or old or {}).get("names", ""), (old or {}).get("total"), (new or {}).get("total"),
                  (old or {}).get("status", ""), (new or {}).get("status", ""), tests or [], reason)


def _grader_change(previous: dict, now: dict) -> str:
    """'' when the same grader graded both runs, else which of its files changed."""
    if previous.get("version") == now["version"]:
        return ""
    old, new = previous.get("grader_files", {}), now["grader_files"]
    files = sorted(name for name in {*old, *new} if old.get(name) != new.get(name))
    shown = ", ".join(files[:MOST_FILES]) + (f" and {len(files) - MOST_FILES} more" if len(files) > MOST_FILES else "")
    versions = f"{str(previous.get('version'))[:12]} -> {now['version'][:12]}"
    return f"the grader changed ({versions}{': ' + shown if files else ''})"


def record(outdir: Path, summary: Summary, version: str) -> History:
    """Keep this run in OUTDIR/runs/<n> (after scores.csv is written) and write changes.csv; what changed."""
    folder = outdir / RUNS
    done = sorted(int(p.name) for p in folder.glob("*") if p.name.isdigit() and (p / RUN_FILE).is_file()) \
        if folder.is_dir() else []
    previous = state.read_json(folder / str(done[-1]) / RUN_FILE) if done else None
    now = snapshot(summary, version, state.grader_files())
    history = History((done[-1] if done else 0) + 1, previous, compare(previous, now) if previous else [])
    run = folder / str(history.number)
    run.mkdir(parents=True, exist_ok=True)
    for name in ("scores.csv", scores.KEY_FILE):
        if (outdir / name).is_file():
            shutil.copyfile(outdir / name, run / name)
    text = changes_text(history.changes)
    atomic_write_text(run / CHANGES, text)
    atomic_write_text(outdir / CHANGES, text)
    state.write_json(run / RUN_FILE, now)  # last: a run without it is not counted
    return history


def changes_text(changes: list[Change]) -> str:
    """changes.csv: one row per changed submission."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(CHANGE_COLUMNS)
    for c in changes:
        totals = [scores.number(c.old_total), scores.number(c.new_total)]
        writer.writerow([scores.cell(c.id), scores.cell(c.names), *totals, c.old_status, c.new_status, c.tests_text(),
                         c.reason])
    return out.getvalue()


def _score(value: float | None) -> str:
    return "-" if value is None else scores.number(value)
