"""Our student corpus (tests/students): real students' homework, ported into the contract with its bugs kept.

Each port cites its source; its declared deviating functions are the ground truth found without the grader
(tests/realworld/ground_truth.py); every declared cause is a known mistake id or one named in the corpus;
and the validation third is the one drawn with the recorded seed. The grader's verdicts on the corpus are
measured by ``python -m tests.students.evaluate`` (development and validation halves apart).
"""

from __future__ import annotations

import re

import pytest

from autograder.feedback import compare
from tests.realworld.ground_truth import deviations, load
from tests.students import (
    FRESH,
    FRESH_2,
    FRESH_3,
    HERE,
    NEW_IDS,
    PORTS,
    PROPOSED_IDS,
    SEED,
    VALIDATION,
    Port,
    draw_validation,
    evaluate,
    split,
)
from tests.students.verdicts import VERDICTS

CITATION = re.compile(r"\b[\w.-]+/[\w.-]+, [\w./-]+\.(py|ipynb)\b")  # repository, path


def test_the_corpus_has_at_least_18_cited_ports_of_varied_sources() -> None:
    assert len(PORTS) >= 18 and len({p.name for p in PORTS}) == len(PORTS)
    for port in PORTS:
        header = (HERE / f"{port.name}.py").read_text().split('"""')[1]
        assert CITATION.search(header), port.name
        assert port.notes, port.name
    assert sum(p.name.startswith("cs231n") for p in PORTS) <= 5
    assert {p.name for p in PORTS} == {f.stem for f in HERE.glob("*.py")} - {"__init__", "evaluate", "verdicts"}


@pytest.mark.parametrize("port", PORTS, ids=lambda p: p.name)
def test_the_declared_deviations_are_the_ground_truth(port: Port) -> None:
    found = deviations(load(port.source()))
    assert set(found) == set(port.causes), found
    assert set(port.callee) <= set(port.causes)
    assert all(set(callees) <= set(port.causes) for callees in port.callee.values())


def test_every_declared_cause_has_an_id_and_a_description() -> None:
    assert not set(NEW_IDS) & (set(compare.MISTAKES) | set(PROPOSED_IDS))  # each cause is listed once
    known = set(compare.MISTAKES) | set(PROPOSED_IDS) | set(NEW_IDS)
    for port in PORTS:
        for function, causes in port.causes.items():
            assert set(causes) <= known, (port.name, function, set(causes) - known)


def test_the_validation_third_is_the_recorded_draw() -> None:
    fresh = set(FRESH) | set(FRESH_2) | set(FRESH_3)
    names = [p.name for p in PORTS if p.name not in fresh]  # the draw was over the original 24 ports
    assert len(names) == 24
    assert VALIDATION == draw_validation(names), f"seed {SEED} draws {draw_validation(names)}"
    assert len(VALIDATION) == max(6, len(names) // 3) and set(VALIDATION) <= set(names)
    batches = (FRESH, FRESH_2, FRESH_3)
    assert fresh <= {p.name for p in PORTS} and len(fresh) == sum(map(len, batches))  # three disjoint batches
    assert all(len(batch) == len(set(batch)) for batch in batches)
    assert all(split(p) == "validation" for p in PORTS if p.name in fresh)  # the fresh ports join validation
    assert sum(split(p) == "development" for p in PORTS) == len(PORTS) - len(VALIDATION) - len(fresh)


# ---- the grader's verdicts on the corpus (graded once: about 20 s) ---------------------------------------

@pytest.fixture(scope="module")
def judged(tmp_path_factory: pytest.TempPathFactory) -> tuple[dict, dict]:
    """Every port graded once: (half -> evaluate.Verdicts, port -> test number -> named mistakes)."""
    halves = {half: evaluate.Verdicts() for half in evaluate.HALVES}
    named = {}
    for port in PORTS:
        data = evaluate.grade(port, tmp_path_factory.mktemp(port.name))
        failing = evaluate.judge(port, data, halves[split(port)])
        named[port.name] = {t["number"]: tuple(t["extra_data"]["mistakes"]) for t in failing}
    return halves, named


def test_no_unfair_loss_and_no_grader_error_in_either_half(judged) -> None:
    halves, _ = judged
    for half in evaluate.HALVES:
        assert halves[half].unfair == [] and halves[half].grader_errors == [], half


def test_every_verdict_is_the_reviewed_one(judged) -> None:
    _, named = judged
    assert named == VERDICTS


def test_no_wrong_sentence_in_either_half(judged) -> None:
    halves, _ = judged
    assert halves["development"].wrong == [] and halves["validation"].wrong == []


def test_every_named_mistake_has_its_evidence_in_extra_data(judged) -> None:
    halves, _ = judged
    assert halves["development"].unevidenced == [] and halves["validation"].unevidenced == []


def test_the_real_cause_is_named_in_90_percent_of_development_failures(judged) -> None:
    halves, _ = judged
    development, validation = halves["development"], halves["validation"]
    assert development.named >= 0.9 * development.failing, development.missed
    assert validation.named >= 0.9 * validation.failing, validation.missed  # never tuned on
