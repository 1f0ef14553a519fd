"""Red team, round 4, case 6 (issue 28): one import merged a class. A class folder of loose files (``alice.py``,
``bob.py``, ``carol.py``) where alice's file says ``import bob`` was read as one submission: bob's code was graded as
alice's, and the class lost two rows. Loose files are one submission each; which files belong to one student is never
inferred from imports, and a file that imports a classmate's gets that import error, with a note."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from autograder.batch import export, state
from tests import fixtures_export as fx
from tests.homework import TOTAL
from tests.hostile import sandbox_user
from tests.test_probe_integrity import SETTINGS, _run_as

BATCH_SCRIPT = """
import json, sys
from pathlib import Path
from autograder import batch
print(json.dumps(batch.run(Path(sys.argv[1]), Path(sys.argv[1]).parent / "out", jobs=2, plain=True,
                           allow_exposed=True)))
"""


@pytest.mark.parametrize("setting", SETTINGS)
def test_case_6_loose_files_are_one_submission_each_whatever_they_import(tmp_path: Path, setting: str) -> None:
    folder = tmp_path / "in" / "hw4"
    folder.mkdir(parents=True)
    (folder / "alice.py").write_text(fx.blank_source() + "\nimport bob\nfrom carol import softmax\n")
    (folder / "bob.py").write_text(fx.REFERENCE.read_text())
    (folder / "carol.py").write_text(fx.buggy_sources()["forgot_scale"] + "\nimport alice\n")
    found = export.open_export(tmp_path / "in", tmp_path / "listed").submissions
    assert [s.id for s in found] == ["alice", "bob", "carol"]
    out = tmp_path / "out"
    with sandbox_user() as user:
        assert _run_as(tmp_path, BATCH_SCRIPT, str(tmp_path / "in"), setting, user) == 0
    data = {s.id: json.loads(state.results_path(out, s.id).read_text()) for s in found}
    assert data["bob"]["score"] == TOTAL  # bob's own code, graded as bob's only
    assert data["alice"]["score"] == 0  # her blank template: none of bob's (or carol's) code
    assert 0 < data["carol"]["score"] < 100, data["carol"]["output"][:2000]
    notes = data["alice"]["output"]
    for name in ("bob", "carol"):
        assert f"`import {name}` fails here: `{name}.py` beside your file is graded as a submission of its own" \
            in notes, notes
    assert "No module named 'bob'" in notes  # the import error itself, as Python gives it
    assert "`import alice` fails here" in data["carol"]["output"]
    assert "fails here" not in data["bob"]["output"]
