"""Verdicts on code written the way the world writes it: our real-world corpus (tests/realworld).

Each port (a public implementation in numpy, its conventions kept) is graded by the real engine.
Its ground truth comes from tests/realworld/ground_truth.py (the reference on random inputs, no
grader code); then:
  * no test of a function that matches the contract loses points;
  * no test names a mistake the code does not have (every name is among the port's declared causes);
  * the real cause (a declared mistake, or "Check first" citing the deviating function it calls) is
    named in at least 90% of the failing tests of functions that truly deviate;
  * every verdict is the reviewed one (VERDICTS), and each named mistake's sentence leads the output.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from autograder import runner
from autograder.feedback import compare
from autograder.suite.graded.support import LIKELY
from tests.homework import on_what_it_has
from tests.realworld import PORTS, VERDICTS, Port
from tests.realworld.ground_truth import deviations, load
from tests.students.evaluate import cited


@pytest.fixture(scope="module")
def graded(tmp_path_factory: pytest.TempPathFactory) -> dict[str, dict]:
    """Every port's results.json, graded once."""
    out = {}
    for port in PORTS:
        folder = tmp_path_factory.mktemp(port.name)
        (folder / "attention.py").write_text(port.source())
        out[port.name] = on_what_it_has(runner.grade_folder(folder), port.source())
    return out


def failing(data: dict) -> list[dict]:
    return [t for t in data["tests"] if t["score"] < t["max_score"]]


def test_the_corpus_has_at_least_12_cited_ports() -> None:
    assert len(PORTS) >= 12 and len({p.name for p in PORTS}) == len(PORTS)
    for port in PORTS:
        header = (Path(__file__).parent / "realworld" / f"{port.name}.py").read_text().split('"""')[1]
        assert re.search(r"\b[\w.-]+/[\w.-]+, [\w./-]+\.(py|ipynb|c|h)\b", header), port.name  # repository, path


@pytest.mark.parametrize("port", PORTS, ids=lambda p: p.name)
def test_the_declared_deviations_are_the_ground_truth(port: Port) -> None:
    found = deviations(load(port.source()))
    assert set(found) == set(port.causes), found
    assert set(port.callee) <= set(port.causes)


@pytest.mark.parametrize("port", PORTS, ids=lambda p: p.name)
def test_verdicts_on_each_port(port: Port, graded: dict[str, dict]) -> None:
    data = graded[port.name]
    for t in data["tests"]:
        (function,) = t["tags"]
        if function not in port.causes:
            assert t["status"] == "passed", f"{port.name} {t['number']} lost points:\n{t['output']}"
    assert all(t["extra_data"] == {"mistakes": []} for t in data["tests"] if t["status"] == "passed")
    verdicts = {t["number"]: tuple(t["extra_data"]["mistakes"]) for t in failing(data)}
    assert verdicts == VERDICTS[port.name]
    for t in failing(data):
        (function,) = t["tags"]
        named = t["extra_data"]["mistakes"]
        assert set(named) <= set(port.causes[function]), f"{port.name} {t['number']} names {named}"
        sentences = [f"{LIKELY} {compare.MISTAKES[m]}" for m in named]
        assert t["output"].startswith("\n\n".join(sentences)), t["output"]


def test_the_real_cause_is_named_in_90_percent_of_the_failing_tests(graded: dict[str, dict]) -> None:
    total, named, missed = 0, 0, []
    for port in PORTS:
        for t in failing(graded[port.name]):
            (function,) = t["tags"]
            total += 1
            if set(t["extra_data"]["mistakes"]) & set(port.causes[function]) or cited(t["output"]) & set(
                    port.callee.get(function, ())):
                named += 1
            else:
                missed.append(f"{port.name} {t['number']}")
    assert total >= 100 and named >= 0.9 * total, (named, total, missed)
