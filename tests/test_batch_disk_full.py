"""A disk that fills up during a batch leaves a valid output folder, and a rerun resumes (issue 11).

OUTDIR is a small tmpfs (root only) that fills after a few submissions: the batch stops
cleanly with a clear message (no traceback), state.jsonl stays readable, every results file
there is complete; after the disk is grown, the same command grades only what is missing.
"""

from __future__ import annotations

import contextlib
import json
import os
import subprocess
from pathlib import Path

import pytest

from autograder import batch
from autograder.batch import state
from tests import fixtures_export as fx

VERSION = "d" * 64
GOOD = fx.fake_source(*fx.FAKE_FUNCTIONS)


@contextlib.contextmanager
def small_disk(path: Path, size: str) -> object:
    path.mkdir()
    if os.geteuid() != 0:
        pytest.skip("mounting a small tmpfs needs root")
    done = subprocess.run(["mount", "-t", "tmpfs", "-o", f"size={size},mode=0700", "tmpfs", str(path)],
                          capture_output=True, text=True, check=False)
    if done.returncode != 0:
        pytest.skip(f"cannot mount a tmpfs here: {done.stderr.strip()}")
    try:
        yield path
    finally:
        subprocess.run(["umount", "-l", str(path)], check=False)


def run(export: Path, out: Path) -> int:
    return batch.run(export, out, jobs=2, timeout=30.0, plain=True, target=fx.FAKE_GRADER, version=VERSION)


def test_a_full_disk_stops_the_batch_cleanly_and_a_rerun_resumes(tmp_path: Path,
                                                                   capsys: pytest.CaptureFixture[str]) -> None:
    export, ids = fx.write_export(tmp_path / "in", [GOOD] * 30)
    with small_disk(tmp_path / "out", "96k") as out:
        assert run(export, out) == 1
        err = capsys.readouterr().err
        assert "No space left on device" in err and "rerun the same command to resume" in err
        assert "Traceback" not in err
        records = state.load_records(out)
        graded = {sid for sid, r in records.items() if r.graded}
        assert 0 < len(graded) < len(ids), "the disk filled part of the way through"
        for sid in graded:  # what is recorded as graded is complete
            assert json.loads(state.results_path(out, sid).read_text())["score"] == 10.0 * len(fx.FAKE_FUNCTIONS)
        for path in (out / "results").glob("*.json"):  # nothing half-written anywhere
            json.loads(path.read_text())
        for sid, record in records.items():
            if not record.graded:
                assert "No space left on device" in record.error, sid
        subprocess.run(["mount", "-o", "remount,size=8m", str(out)], check=True)  # space is freed
        assert run(export, out) == 0
        printed = capsys.readouterr().out
        assert f"{len(ids) - len(graded)} left to grade ({len(graded)} of {len(ids)} already graded" in printed
        rows = (out / "scores.csv").read_text().splitlines()
        assert len(rows) == 1 + len(ids)
        assert all(state.load_records(out)[sid].graded for sid in ids)
