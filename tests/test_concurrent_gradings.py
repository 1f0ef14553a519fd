"""Gradings at the same time on one machine never change each other's scores (issue 11's must-show).

Four ``grade`` runs and a ``batch --jobs 2`` started together give every submission exactly
the score, and every test exactly the verdict, it gets when graded alone. As root a "killer"
neighbour takes part: a daemon of its own that SIGKILLs every process of its uid outside its
own worker's session (what any submission could do when two gradings shared a sandbox user).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests import fixtures_export as fx
from tests.homework import TOTAL

REPO = Path(__file__).resolve().parents[1]
ROOT = os.geteuid() == 0
KILLER = '''
import os as _os, time as _time
if _os.fork() == 0:  # a daemon that kills every process of this uid outside its worker's session, for 60 s
    _mine, _end = _os.getsid(0), _time.monotonic() + 60
    while _time.monotonic() < _end:
        for _pid in filter(str.isdigit, _os.listdir("/proc")):
            try:
                _uids = open(f"/proc/{_pid}/status").read().split("\\nUid:")[1].split()[:4]
                if str(_os.getuid()) in _uids and _os.getsid(int(_pid)) != _mine:
                    _os.kill(int(_pid), 9)
            except (OSError, IndexError):
                pass
        _time.sleep(0.02)
    _os._exit(0)
'''


def _command(*args: str) -> list[str]:
    return [sys.executable, "-m", "autograder", *args]


def _verdicts(data: dict) -> tuple[float, list[tuple[str, float, str]]]:
    for test in data["tests"]:
        OUTPUTS[(test["name"], test["score"])] = test.get("output", "")[:3000]
    return data["score"], [(t["name"], t["score"], t.get("status", "")) for t in data["tests"]]


OUTPUTS: dict[tuple[str, float], str] = {}  # for the message of a failure


@pytest.mark.parametrize("batch_names", [
    ["reference", "killer", "blank"],
    pytest.param(["reference", "killer", "rope_half_split", "blank", "softmax_unstable"], marks=[
        pytest.mark.slow, pytest.mark.skipif(not os.environ.get("AUTOGRADER_SLOW"), reason="set AUTOGRADER_SLOW=1")]),
])
def test_four_grades_and_a_batch_at_once_give_every_submission_its_score_alone(tmp_path: Path,
                                                                                 batch_names: list[str]) -> None:
    sources = dict(fx.buggy_sources(), reference=fx.REFERENCE.read_text(), blank=fx.blank_source())
    # not root: the killer would kill the grader itself (same user), so a buggy submission takes its place
    sources["killer"] = sources["reference"] + KILLER if ROOT else sources["cache_overwrites"]
    singles = {name: sources[name] for name in ("reference", "forgot_scale", "killer", "mask_after_softmax")}
    for name, source in singles.items():
        (tmp_path / name).mkdir()
        (tmp_path / name / "attention.py").write_text(source)
    export, ids = fx.write_export(tmp_path / "in", [sources[name] for name in batch_names])
    kinds = dict(zip(ids, batch_names))
    env = dict(os.environ)
    started = [subprocess.Popen(_command("grade", str(tmp_path / name), "--json"), cwd=REPO, env=env,
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True) for name in singles]
    batch = subprocess.Popen(_command("batch", str(export), "-o", str(tmp_path / "out"), "--jobs", "2", "--plain"),
                             cwd=REPO, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    together = {}
    for name, process in zip(singles, started):
        out, err = process.communicate(timeout=600)
        assert process.returncode == 0, err
        together[name] = _verdicts(json.loads(out))
    log, _ = batch.communicate(timeout=600)
    logs = "\n".join(p.read_text()[-3000:] for p in (tmp_path / "out" / "logs").glob("*.log"))
    assert batch.returncode == 0, log + logs
    for sid in ids:
        together[sid] = _verdicts(json.loads((tmp_path / "out" / "results" / f"{sid}.json").read_text()))

    alone = {}  # now one at a time, each distinct submission once
    for name in {*singles, *batch_names}:
        (tmp_path / "alone" / name).mkdir(parents=True)
        (tmp_path / "alone" / name / "attention.py").write_text(sources[name])
        done = subprocess.run(_command("grade", str(tmp_path / "alone" / name), "--json"), cwd=REPO, env=env,
                              capture_output=True, text=True, timeout=600, check=True)
        alone[name] = _verdicts(json.loads(done.stdout))
    assert alone["reference"][0] == TOTAL and (alone["killer"][0] == TOTAL or not ROOT)
    for key, verdicts in together.items():
        name = kinds.get(key, key)
        differ = [(a, b, OUTPUTS.get(a[:2])) for a, b in zip(verdicts[1], alone[name][1]) if a != b]
        assert verdicts == alone[name], (key, name, differ)
