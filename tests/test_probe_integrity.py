"""Red team, round 4 (issue 28): probes that cannot be turned against the grader.

Served stand-ins are bounded like ``layer`` and ``cache`` (cases 1 and 2): arguments no larger than the probed case
needs, answers capped, and whatever fails in computing or sending an answer is raised in the student's call, never
the grader's error. A probe's death is the probe's (case 3): no retry re-scores a test after a probe ran.
"""

from __future__ import annotations

import resource
from pathlib import Path

import numpy as np
import pytest

from autograder import runner
from autograder.sandbox.callbacks import Served
from autograder.sandbox.student import Student
from tests.homework import module as homework_module
from tests.hostile import REFERENCE, program, sandbox_user

oracle = homework_module("generated.oracle")
Cache = homework_module("diagnosis.objects").Cache

# attention_scores fails its own tests (its scores are doubled), so the probe of
# scaled_dot_product_attention serves it; inside that probe the student asks the stand-in for a huge answer
OVERSIZED = '''
def attention_scores(Q, K):
    return 2.0 * (Q @ np.swapaxes(K, -1, -2))

def scaled_dot_product_attention(Q, K, V, mask=None, scale=None):
    refused = 0
    if attention_scores.__code__.co_name == "served":  # the grader's stand-in (worker.py), during a probe
        for rows in (3000, 7000):
            for big in (np.ones((rows, 1)), [[1.0]] * rows):
                try:
                    attention_scores(big, big)
                except ValueError:
                    refused += 1
        HUGE.append(refused)
    scale = 1.0 / np.sqrt(Q.shape[-1]) if scale is None else scale
    scores = attention_scores(Q, K) * scale
    if mask is not None:
        scores = np.where(mask, scores, -np.inf)
    weights = softmax(scores)
    return weights @ V, weights

HUGE = []

def huge_refused():
    return np.array(HUGE, dtype=float)
'''


def _peak_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def test_case_1_a_served_stand_in_refuses_arguments_larger_than_its_case_in_the_students_call() -> None:
    rng = np.random.default_rng(0)
    Q, K, V = rng.normal(size=(3, 4)), rng.normal(size=(5, 4)), rng.normal(size=(5, 2))
    peak = _peak_mb()
    with sandbox_user() as user, Student(program(REFERENCE.read_text() + OVERSIZED), user=user) as student:
        served = Served({"attention_scores": oracle.attention_scores})
        out, _ = student.call_served(served, "scaled_dot_product_attention", Q, K, V)
        np.testing.assert_allclose(out, oracle.scaled_dot_product_attention(Q, K, V)[0])  # the probe still answers
        assert student.call("huge_refused").tolist() == [4.0]  # every oversized call raised in the student's code
        assert served.calls == 5 and served.used == {"attention_scores": 5}
    assert _peak_mb() - peak < 150  # a (7000, 7000) answer alone would be 392 MB in this process


def test_served_answers_and_caches_are_capped_by_the_probed_case() -> None:
    served = Served({"attention_scores": oracle.attention_scores, "KVCache": Cache})
    served.bound(((np.ones((4, 8)), np.ones((4, 8))), {}))
    assert served.serve("attention_scores", ([np.ones((4, 8)), np.ones((6, 8))], [])).shape == (4, 6)
    for args in ([np.ones((100, 1)), np.ones((100, 1))], [[[1.0]] * 100, [[1.0]] * 100],
                 [np.ones((2,) * 9), np.ones((2,) * 9)], [np.ones((16, 16, 16)), np.ones((16, 16))]):
        with pytest.raises(ValueError, match=r"larger than this case needs|more than .* numbers"):
            served.serve("attention_scores", (args, []))
    index = served.serve("KVCache", ([], []))
    with pytest.raises(ValueError, match="at most 16 rows"):
        served.serve("KVCache.append", ([index, np.ones((16, 8)), np.ones((16, 8))], []))
        served.serve("KVCache.append", ([index, np.ones(8), np.ones(8)], []))
    for _ in range(63):
        served.serve("KVCache", ([], []))
    with pytest.raises(ValueError, match="at most 64 objects"):
        served.serve("KVCache", ([], []))


def grade_source(tmp_path: Path, source: str) -> dict:
    folder = tmp_path / "submission"
    folder.mkdir(parents=True)
    (folder / "attention.py").write_text(source)
    return runner.grade_folder(folder)


def _scores(data: dict) -> dict[str, float]:
    return {t["name"]: t["score"] for t in data["tests"]}


def test_case_1_in_a_whole_grading_an_oversized_served_call_is_no_grader_error(tmp_path: Path) -> None:
    data = grade_source(tmp_path, REFERENCE.read_text() + OVERSIZED)
    assert "grader_error" not in data["extra_data"], data["extra_data"]
    plain = grade_source(tmp_path / "plain", REFERENCE.read_text() + OVERSIZED.replace("for rows in", "for rows in ()"
                                                                                         " or"))
    assert _scores(data) == _scores(plain)  # the trick changes nothing: the same scores, test by test
    assert any("attention_scores" in t["output"] and "Check first" in t["output"] for t in data["tests"]
               if t["tags"] == ["scaled_dot_product_attention"])


# rope fails its tests, and answers every later call (the probes' rewritten inputs, the fits' calls) with (x, None)
RAGGED_ROPE = '''
_calls = [0]
_rope = rope

def rope(x, positions, base=10000.0):
    _calls[0] += 1
    if _calls[0] > 1:
        return (np.asarray(x), None)
    return _rope(x, positions, base)[..., ::-1]
'''


@pytest.mark.parametrize("odd", ["(np.asarray(x), None)", "[np.asarray(x), np.ones(3)]", "[[1.0, 2.0], [3.0]]",
                                 "np.full(np.shape(x), np.nan)", "np.ones((4000, 4000))",
                                 "np.asarray(x).astype(bool)"])
def test_case_2_an_odd_answer_to_a_probe_or_a_fit_is_no_grader_error(tmp_path: Path, odd: str) -> None:
    data = grade_source(tmp_path, REFERENCE.read_text() + RAGGED_ROPE.replace("(np.asarray(x), None)", odd))
    assert "grader_error" not in data["extra_data"], data["extra_data"]
    rope_tests = [t for t in data["tests"] if t["tags"] == ["rope"]]
    assert rope_tests and all(t["score"] < t["max_score"] for t in rope_tests if "d = 2" not in t["name"])
    assert sum(t["score"] for t in data["tests"] if t["tags"] == ["softmax"]) == 12  # the rest is graded as usual


PROBE_REPLAY = (Path(__file__).resolve().parent / "hostile" / "probe_replay.py").read_text()
HONEST = PROBE_REPLAY.replace('softmax.__code__.co_name == "served"', "False")
GRADE_SCRIPT = """
import json, pathlib, sys
from autograder import runner
print(json.dumps(runner.grade_folder(pathlib.Path(sys.argv[1]))))
"""
# What the graded suite and the results plugin do with one failing test of scaled_dot_product_attention: its scored
# call, a probe with the grader's softmax served, and (on WorkerLost, the grading's free retry) the scored call again.
PROBE_SCRIPT = """
import json, pathlib, sys
import numpy as np
from autograder.sandbox.callbacks import Served
from autograder import contract
from autograder.sandbox.student import Student, StudentError, WorkerLost
from tests.hostile import program
oracle = contract.HOMEWORK.module("generated.oracle")
rng = np.random.default_rng(0)
Q, K, V = rng.normal(size=(3, 4)), rng.normal(size=(5, 4)), rng.normal(size=(5, 2))
right = oracle.scaled_dot_product_attention(Q, K, V)[0]
with Student(program(pathlib.Path(sys.argv[1]).read_text()), user=sys.argv[2]) as student:
    scored = [bool(np.allclose(student.call("scaled_dot_product_attention", Q, K, V)[0], right))]
    try:
        served = Served({"softmax": oracle.softmax})
        out = student.call_served(served, "scaled_dot_product_attention", Q, K, V)[0]
        probe = "passed" if np.allclose(out, right) else "failed"
    except (StudentError, WorkerLost) as e:
        probe = type(e).__name__
    student.discard()
    scored.append(bool(np.allclose(student.call("scaled_dot_product_attention", Q, K, V)[0], right)))
    print(json.dumps({"scored": scored, "probe": probe, "stashed": student.call("stashed").tolist()}))
"""


def in_setting(setting: str, user: str | None) -> tuple[tuple[str, ...], dict[str, str]]:
    """The command prefix and environment of a process run in ``setting`` (see ``_run_as``) as ``user``'s pool."""
    import os

    from autograder.sandbox import accounts, namespace
    from tests.test_gradescope_e2e import docker_wrapper

    env = dict(os.environ, **({accounts.USER_ENV: user} if user else {}))
    if setting != "namespaces":
        env[namespace.SWITCH] = "0"
    return (docker_wrapper() if setting == "docker" else ()), env


def _run_as(tmp_path: Path, script: str, argument: str, setting: str, user: str | None) -> dict:
    """``script`` run with ``argument`` (and ``user``) in ``setting``: "namespaces" (where the kernel allows them),
    "no namespaces" (AUTOGRADER_NAMESPACES=0) or "docker" (no namespaces, and only Docker's default capabilities:
    capsh, as tests/test_gradescope_e2e.py does). Its last line of output, read as JSON."""
    import json
    import subprocess
    import sys

    wrapper, env = in_setting(setting, user)
    done = subprocess.run([*wrapper, sys.executable, "-c", script, argument, str(user)], env=env, capture_output=True,
                          text=True, timeout=600, check=False, cwd=Path(__file__).resolve().parent.parent)
    assert done.returncode == 0, done.stderr[-3000:]
    return json.loads(done.stdout.strip().splitlines()[-1])


def _docker_possible() -> bool:
    import os
    import shutil

    return os.geteuid() == 0 and bool(shutil.which("capsh"))


needs_docker = pytest.mark.skipif(not _docker_possible(), reason="needs root and capsh (apt-get install libcap2-bin)")
SETTINGS = ["namespaces", "no namespaces", pytest.param("docker", marks=needs_docker)]


@pytest.mark.parametrize("setting", SETTINGS)
def test_case_3_a_probe_that_stashes_served_answers_and_kills_itself_forges_no_pass(tmp_path: Path,
                                                                                      setting: str) -> None:
    """The probe's death is the probe's (a StudentError the probe reads as "not the answer", never the grading's
    free retry of the scored test), and nothing it kept reaches a later worker: System V shared memory is refused
    by the seccomp filter, and removed at each worker start. Before issue 28, under Docker's capabilities, the
    probe died with WorkerLost and the scored call, run again, replayed the served softmax's answers."""
    (tmp_path / "attention.py").write_text(REFERENCE.read_text() + "\n" + PROBE_REPLAY)
    with sandbox_user() as user:
        seen = _run_as(tmp_path, PROBE_SCRIPT, str(tmp_path / "attention.py"), setting, user)
    assert seen["scored"] == [False, False], seen
    assert seen["probe"] in ("StudentError", "passed"), seen  # passed: the filter refused the segment (no kill)
    assert seen["stashed"] == [-1.0], seen  # no segment: refused
    # without the segment, a probe that kills itself all the same: its death is its own, never WorkerLost
    (tmp_path / "attention.py").write_text(REFERENCE.read_text() + "\n" + PROBE_REPLAY.replace(
        "    if segment is None:\n", "    if segment is None and softmax.__code__.co_name == 'served':\n"
        "        os.kill(os.getpid(), signal.SIGKILL)\n    if segment is None:\n"))
    with sandbox_user() as user:
        seen = _run_as(tmp_path, PROBE_SCRIPT, str(tmp_path / "attention.py"), setting, user)
    assert seen["scored"] == [False, False] and seen["probe"] == "StudentError", seen


@needs_docker
def test_case_3_in_a_whole_grading_under_dockers_capabilities(tmp_path: Path) -> None:
    forged, honest = tmp_path / "forged", tmp_path / "honest"
    with sandbox_user() as user:
        for folder, snippet in ((forged, PROBE_REPLAY), (honest, HONEST)):
            folder.mkdir()
            (folder / "attention.py").write_text(REFERENCE.read_text() + "\n" + snippet)
        forged_data, honest_data = (_run_as(tmp_path, GRADE_SCRIPT, str(f), "docker", user) for f in (forged, honest))
    for data in (forged_data, honest_data):
        assert "grader_error" not in data["extra_data"], data["extra_data"]
    attention = [t for t in forged_data["tests"] if t["tags"] == ["scaled_dot_product_attention"]]
    assert attention and all(t["score"] == 0 for t in attention), [t["name"] for t in attention if t["score"]]
    assert _scores(forged_data) == _scores(honest_data)


@pytest.mark.parametrize("setting", SETTINGS)
def test_cases_1_and_2_hold_in_every_setting(tmp_path: Path, setting: str) -> None:
    """Cases 1 and 2 are the grader's own computations on what student code asks or answers; they hold whatever
    confines the worker: with namespaces, without, and under Docker's default capabilities."""
    oversized, ragged = tmp_path / "oversized", tmp_path / "ragged"
    with sandbox_user() as user:
        for folder, source in ((oversized, REFERENCE.read_text() + OVERSIZED),
                               (ragged, REFERENCE.read_text() + RAGGED_ROPE)):
            folder.mkdir()
            (folder / "attention.py").write_text(source)
        first, second = (_run_as(tmp_path, GRADE_SCRIPT, str(f), setting, user) for f in (oversized, ragged))
    for data in (first, second):
        assert "grader_error" not in data["extra_data"], data["extra_data"]
    assert any("attention_scores" in t["output"] and "Check first" in t["output"] for t in first["tests"]
               if t["tags"] == ["scaled_dot_product_attention"])
    rope_tests = [t for t in second["tests"] if t["tags"] == ["rope"]]
    assert rope_tests and all(t["score"] < t["max_score"] for t in rope_tests if "d = 2" not in t["name"])
    assert sum(t["score"] for t in second["tests"] if t["tags"] == ["softmax"]) == 12
