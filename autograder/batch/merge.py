"""``batch --merge OUTDIR... -o OUT``: combine the outputs of shards into one class's outputs.

Every shard must come from the same autograder version (refused otherwise: totals
graded by two different autographers cannot be compared). Results and logs are
copied into OUT, then scores.csv, the plots and report.html are rebuilt there.
"""

from __future__ import annotations

import shutil
from pathlib import Path

from autograder.batch import state
from autograder.batch.export import Submission, sort_key

RUN_FILE = "batch.json"


class MergeError(Exception):
    """The outputs cannot be merged (message for the TA)."""


def read_run(outdir: Path) -> dict:
    path = outdir / RUN_FILE
    if not path.is_file():
        raise MergeError(f"{outdir} is not a batch output folder (no {RUN_FILE})")
    return state.read_json(path)


def merge(dirs: list[Path], out: Path) -> tuple[dict, list[str]]:
    """Copy the shards' results into ``out`` and write its batch.json; return it and warnings."""
    if not dirs:
        raise MergeError("nothing to merge")
    resolved = {d.resolve() for d in dirs}
    if out.resolve() in resolved:
        raise MergeError(f"the merged output {out} must not be one of the inputs")
    runs = [(d, read_run(d)) for d in dirs]
    versions = {run["version"] for _, run in runs}
    if len(versions) > 1:
        detail = ", ".join(f"{d}: {run['version'][:12]}" for d, run in runs)
        raise MergeError(f"the shards were graded by different autograder versions ({detail}); regrade the stale ones")
    version = versions.pop()
    warnings = _shard_warnings(runs)

    out.mkdir(parents=True, exist_ok=True)
    submissions: dict[str, Submission] = {}
    records: list[state.Record] = []
    for folder, run in runs:
        current = state.load_records(folder)
        for item in run["submissions"]:
            submission = Submission.from_json(item)
            if submission.id in submissions:
                warnings.append(f"submission {submission.id} is in more than one shard; kept the first")
                continue
            submissions[submission.id] = submission
            record = current.get(submission.id)
            if record is None or record.version != version:
                warnings.append(f"submission {submission.id} was not graded in {folder} (interrupted run?)")
                continue
            records.append(_copy(folder, out, record))
    ordered = sorted(submissions.values(), key=lambda s: sort_key(s.id))
    state.rewrite_records(out, sorted(records, key=lambda r: sort_key(r.id)))
    run = {
        "format": 1,
        "version": version,
        "export": runs[0][1].get("export", ""),
        "export_submissions": runs[0][1].get("export_submissions", len(ordered)),
        "shard": None,
        "merged_from": [str(d) for d in dirs],
        "submissions": [s.to_json() for s in ordered],
    }
    if all("contents" in run for _, run in runs):  # each shard's submissions' content hashes (state.content_hash)
        run["contents"] = {sid: h for _, shard in runs for sid, h in shard["contents"].items() if sid in submissions}
    state.write_json(out / RUN_FILE, run)
    if len(ordered) < run["export_submissions"]:
        total = run["export_submissions"]
        warnings.append(f"the merged outputs cover {len(ordered)} of the export's {total} submissions")
    return run, list(dict.fromkeys(warnings))


def _shard_warnings(runs: list[tuple[Path, dict]]) -> list[str]:
    shards = [tuple(run["shard"]) for _, run in runs if run.get("shard")]
    if not shards:
        return []
    counts = {n for _, n in shards}
    if len(counts) > 1:
        raise MergeError(f"the outputs were sharded differently ({sorted(counts)} shards)")
    n = counts.pop()
    present = {i for i, _ in shards}
    warnings = []
    missing = sorted(set(range(1, n + 1)) - present)
    if missing:
        warnings.append("missing shards: " + ", ".join(f"{i}/{n}" for i in missing))
    if len(shards) != len(present):
        warnings.append("a shard was given more than once")
    return warnings


def _copy(source: Path, out: Path, record: state.Record) -> state.Record:
    """Copy a record's results (and log) into ``out``; paths stay relative to the output folder."""
    for relative in (record.results, record.log):
        if relative and (source / relative).is_file():
            target = out / relative
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(source / relative, target)
    return record
