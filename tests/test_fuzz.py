"""Issue 28's fuzz, our own: 500 random misbehaving submissions graded in one ``batch``, and no grader error.

Each submission is the reference whose functions, at random, return an odd value (NaN, inf, extremes; float16,
int, bool, complex, object; ragged lists, tuples of the wrong length, generators, dicts, an object whose
``__array__`` raises, an ndarray subclass, huge arrays...) or raise (ValueError, TypeError, ZeroDivisionError,
RecursionError), in scored calls and inside probes, and call the grader's served stand-ins with odd arguments
(``tests/fuzz_misbehaving.py``). A student's odd value costs at most the tests it touches: never "a problem on our
side". ``AUTOGRADER_FUZZ=N`` grades N submissions instead (``AUTOGRADER_FUZZ_FIRST``: the first seed).
"""

from __future__ import annotations

import json
import os
import time
from pathlib import Path

from autograder import batch
from autograder.batch import state
from tests import fixtures_export as fx
from tests import fuzz_misbehaving

COUNT = int(os.environ.get("AUTOGRADER_FUZZ", "500"))
FIRST = int(os.environ.get("AUTOGRADER_FUZZ_FIRST", "28000"))


def test_random_misbehaving_submissions_are_graded_without_a_grader_error(tmp_path: Path) -> None:
    seeds = list(range(FIRST, FIRST + COUNT))
    path, ids = fx.write_export(tmp_path / "in", [fuzz_misbehaving.source(seed) for seed in seeds],
                                kinds=[str(seed) for seed in seeds])
    out = tmp_path / "out"
    began = time.monotonic()
    status = batch.run(path, out, jobs=2, plain=True)
    print(f"fuzz: {COUNT} submissions graded in {time.monotonic() - began:.0f} s")
    records = state.load_records(out)
    errors = {ids[sid]: record.error for sid, record in records.items() if record.error}
    for sid in ids:
        data = json.loads(state.results_path(out, sid).read_text())
        if "grader_error" in data.get("extra_data", {}):
            errors[ids[sid]] = data["extra_data"]["grader_error"]
    assert not errors, f"seeds with a grader error: {errors}"
    assert status == 0 and len(records) == COUNT
    totals = [json.loads(state.results_path(out, sid).read_text())["score"] for sid in ids]
    assert max(totals) <= 100 and min(totals) < 100  # graded, and the odd values cost points
