"""The graded suite's structure, its stored cases, and the feedback its helpers write.

The suite is collected by pytest exactly as the runner collects it (same arguments, the
results plugin), so names, numbers, tags, weights and visibilities are the ones
Gradescope will show.
"""

from __future__ import annotations

import ast
import hashlib
import io
import json
import os
import re
import subprocess
import sys
import zipfile
from collections import Counter
from pathlib import Path

import numpy as np
import pytest

from autograder import contract
from autograder.commands import build
from autograder.feedback import compare
from autograder.sandbox.student import StudentError
from autograder.suite import regen
from autograder.suite.cases import load_cases
from autograder.suite.graded import support
from tests.homework import GRADED_MODULES, HOMEWORK
from tests.homework import module as homework_module
from tests.test_evidence import LocalStudent

ref = homework_module('attention')
mistakes = homework_module('mistakes')

REPO = Path(__file__).resolve().parent.parent
CASES_NPZ = HOMEWORK.cases_file
MANIFEST = HOMEWORK.cases_file.with_name("manifest.json")
GRADED_SET = next(s for s in regen.case_sets() if s.name == "graded")
WORKSHEET = re.compile(r"\b(Dis 10 Q\d|Dis 11 Q\d|PS4 Q\d|Q&A)")


# ----------------------------------------------------------------------------
# Points, coverage, names
# ----------------------------------------------------------------------------


def test_every_test_gets_exactly_its_contract_points_and_nothing_else_is_graded(suite: list[dict]) -> None:
    assert {t["number"]: (t["tags"][0], t["max_score"]) for t in suite} == contract.TESTS
    assert sum(t["max_score"] for t in suite) == contract.TOTAL_POINTS
    by_function = Counter()
    for t in suite:
        by_function[t["tags"][0]] += t["max_score"]
    assert dict(by_function) == {name: points for name, (_, points) in contract.FUNCTIONS.items()}


def test_at_least_30_tests_and_every_function_has_visible_and_hidden_tests(suite: list[dict]) -> None:
    assert len(suite) >= 30
    for name in contract.FUNCTIONS:
        visibilities = {t["visibility"] for t in suite if t["tags"] == [name]}
        assert visibilities == {contract.VISIBLE, contract.HIDDEN}, name


def test_every_test_is_named_by_a_sentence_numbered_by_part_and_tagged_with_one_function(suite: list[dict]) -> None:
    numbers = [t["number"] for t in suite]
    assert len(set(numbers)) == len(numbers)
    for t in suite:
        (tag,) = t["tags"]
        assert tag in contract.FUNCTIONS
        assert t["name"].startswith(f"{tag}: ") and len(t["name"]) > len(tag) + 15, t["name"]
        part, index = t["number"].split(".")
        assert part == contract.part_of(tag) and index.isdigit(), t["number"]
        assert t["visibility"] in (contract.VISIBLE, contract.HIDDEN)


def test_numbers_run_in_order_within_each_part(suite: list[dict]) -> None:
    for part in contract.PARTS:
        indices = [int(t["number"].split(".")[1]) for t in suite if t["number"].startswith(part + ".")]
        assert indices == list(range(1, len(indices) + 1)), part


def test_at_least_5_worksheet_tests_all_hidden(suite: list[dict]) -> None:
    worksheet = [t for t in suite if WORKSHEET.search(t["name"])]
    assert len(worksheet) >= 5
    assert contract.HIDDEN in {t["visibility"] for t in worksheet}  # the worksheets' numbers: hidden tests
    for source in ("Dis 10 Q1", "PS4 Q3", "Dis 11 Q1", "Dis 11 Q2", "Dis 11 Q3", "Q&A"):
        assert any(source in t["name"] for t in worksheet), source


def test_hidden_visibility_is_set_in_one_place() -> None:
    for path in sorted(HOMEWORK.tests.glob("test_*.py")):
        text = path.read_text()
        assert "after_due_date" not in text and "@visibility" not in text, path.name
    assert "after_due_date" not in (REPO / "autograder" / "suite" / "graded" / "support.py").read_text()
    assert HOMEWORK.HIDDEN == contract.HIDDEN


def test_graded_modules_stay_small_and_never_import_the_reference() -> None:
    for path in GRADED_MODULES:
        text = path.read_text()
        assert len(text.splitlines()) < 400, path.name
        imports = [n for n in ast.walk(ast.parse(text)) if isinstance(n, (ast.Import, ast.ImportFrom))]
        names = [getattr(n, "module", None) or n.names[0].name for n in imports]
        assert not [n for n in names if n and n.split(".")[0] in ("reference", "tests")], path.name
        assert not [n for n in names if n in ("autograder.suite.regen", "autograder.suite.graded_cases")], path.name


# ----------------------------------------------------------------------------
# Stored cases
# ----------------------------------------------------------------------------


def case_ids_in_tests() -> set[str]:
    ids = set()
    for path in HOMEWORK.tests.glob("test_*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Constant) and isinstance(node.value, str) and re.fullmatch(r"[a-z0-9]+-[\w-]+",
                                                                                              node.value):
                ids.add(node.value)
    return ids


def test_every_stored_case_is_used_and_every_used_case_is_stored() -> None:
    assert case_ids_in_tests() == set(load_cases(CASES_NPZ))


def test_regen_check_passes() -> None:
    done = subprocess.run([sys.executable, "-m", "autograder", "regen", "--check"], cwd=REPO,
                          capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stdout + done.stderr


def test_regen_is_byte_identical_across_runs_and_keeps_the_stored_files() -> None:
    """Deterministic on one machine; the stored files equal what it builds up to float rounding (another CPU
    rounds differently), and then regen keeps their bytes (tests/test_stored.py checks both directions)."""
    code = ("import hashlib, sys; from autograder.suite import regen; "
            "s = next(c for c in regen.case_sets() if c.name == 'graded'); "
            "print(*sorted(f'{p}:{hashlib.sha256(d).hexdigest()}' for p, d in regen.render(s).items()))")
    runs = []
    for seed in ("1", "2"):  # a fresh interpreter each time, with a different hash seed
        env = dict(os.environ, PYTHONHASHSEED=seed)
        done = subprocess.run([sys.executable, "-c", code], cwd=REPO, env=env, capture_output=True, text=True,
                              check=True)
        runs.append(done.stdout.split())
    assert runs[0] == runs[1]
    files = regen.render(GRADED_SET)
    assert regen.stale_files(GRADED_SET, files) == {}
    assert all((REPO / path).read_bytes() == data for path, data in files.items())


def test_the_manifest_records_seeds_shapes_numpy_and_the_sha256() -> None:
    manifest = json.loads(MANIFEST.read_text())
    assert manifest["sha256"] == hashlib.sha256(CASES_NPZ.read_bytes()).hexdigest()
    assert manifest["numpy"] == np.__version__
    assert set(manifest["functions"]) == set(contract.FUNCTIONS)
    seeded = [c for c in manifest["cases"] if c["seed"] is not None]
    assert len(seeded) >= 30 and all(c["inputs"] for c in manifest["cases"])


def test_the_stored_cases_carry_data_only_and_the_zip_no_case_builder() -> None:
    with zipfile.ZipFile(CASES_NPZ) as zf:
        names = zf.namelist()
        assert all(n.endswith(".npy") for n in names if n != "index.json")
        for name in names:
            data = zf.read(name)
            assert b"BEGIN SOLUTION" not in data and b"def " not in data and b"import " not in data
            if name.endswith(".npy"):
                assert np.lib.format.read_array(io.BytesIO(data), allow_pickle=False).dtype.kind in "biuf"
    members = build.zip_members()
    assert "homework/generated/cases/graded.npz" in members and not [m for m in members if "/cases/graded.py" in m]


def test_the_hidden_cases_hold_the_worksheets_numbers_not_the_seeds_slips() -> None:
    cases = load_cases(CASES_NPZ)
    np.testing.assert_array_equal(cases["qkv-dis10"].expected[0][1], [-1, 0, -2])  # a handwritten seed says [-1, 0, 2]
    np.testing.assert_array_equal(cases["scores-dis10"].expected[2], [2, 8, -20])
    out, weights = cases["sdpa-dis10"].expected
    np.testing.assert_allclose(weights[2], [0.00247, 0.99753, 6.90e-13], rtol=5e-3)
    np.testing.assert_allclose(out[2], [-7.94, 0.067], atol=5e-3)
    Q, K, V = cases["qkv-ps4"].expected
    np.testing.assert_array_equal(V, [[2.5, -1.5], [-1, 3], [-2, -3]])
    np.testing.assert_array_equal(Q, [[1, 3], [-2, 1], [3, -2]])  # the seed has [[1, 3], [-1, 1], [2.5, -2]]
    np.testing.assert_array_equal(K, [[3, -0.5], [2, -1.5], [-2.5, 3.5]])
    np.testing.assert_allclose(cases["sdpa-ps4"].expected[0][2], [1.5587, -0.2898], atol=1e-4)  # seed: [1.17, 0.21]
    np.testing.assert_array_equal(cases["softmax-dis11-cold"].expected, np.eye(4))
    np.testing.assert_allclose(cases["softmax-dis11-hot"].expected, 0.25, atol=1e-5)
    np.testing.assert_array_equal(cases["mask-dis11-C"].expected, np.tril(np.ones((4, 4), bool)))
    for case_id, n in (("naive-one", 1), ("naive-two", 2), ("naive-seven", 7)):
        assert cases[case_id].expected["calls.key"] == n * (n + 1) // 2
    assert cases["cached-previous-token"].expected["calls.key"] == 7
    previous = cases["sdpa-previous-token"]
    np.testing.assert_allclose(previous.expected[0][1:], previous.inputs["V"][:-1], atol=1e-12)


# ----------------------------------------------------------------------------
# Feedback written by support.check, with a stand-in for the sandboxed student
# ----------------------------------------------------------------------------


def failure(student: LocalStudent, *case_ids: str, **kwargs) -> str:
    with pytest.raises(pytest.fail.Exception) as info:
        support.check(student, *case_ids, **kwargs)
    return str(info.value.msg)


def test_check_passes_the_reference_on_every_stored_case() -> None:
    student = LocalStudent()
    for stored in load_cases(CASES_NPZ).values():
        if stored.function != "KVCache":
            assert support.run_case(student, stored) == (None, None), stored.id


def test_a_mismatch_reports_shapes_errors_an_excerpt_a_heatmap_and_the_mistake(monkeypatch) -> None:
    monkeypatch.setenv("AUTOGRADER_FULL_FEEDBACK", "1")  # excerpts and heatmaps are left out beyond ~24 lines
    text = failure(LocalStudent(scaled_dot_product_attention=mistakes.SDPA["no_scale"]), "sdpa-causal")
    for part in ("**Case:**", "entries differ", "Largest absolute error", "expected", "yours", "Heatmap",
                 f"{support.LIKELY} {compare.MISTAKES['no_scale']}"):
        assert part in text
    text = failure(LocalStudent(attention_scores=mistakes.SCORES["transposed_scores"]), "scores-more-keys")
    assert text.startswith(f"{support.LIKELY} {compare.MISTAKES['transposed_scores']}")  # the diagnosis first
    assert text.index(compare.MISTAKES["transposed_scores"]) < text.index("Shape: expected (3, 6)")
    monkeypatch.delenv("AUTOGRADER_FULL_FEEDBACK")
    short = failure(LocalStudent(scaled_dot_product_attention=mistakes.SDPA["no_scale"]), "sdpa-causal", "sdpa-batch")
    assert len(short.splitlines()) <= support.MAX_LINES and "Heatmap" not in short and "left out" in short


def test_an_input_written_to_and_missing_batch_support_are_named() -> None:
    def writes(*args):
        raise StudentError("modified_input", "softmax modified its input `Z` in place; work on a copy")

    assert compare.MISTAKES["modified_input"] in failure(LocalStudent(softmax=writes), "softmax-rows")

    def two_d_only(Q, K):
        if Q.ndim != 2:
            raise StudentError("exception", "attention_scores raised ValueError: matmul mismatch")
        return Q @ K.T

    text = failure(LocalStudent(attention_scores=two_d_only), "scores-batch", batched=True)
    assert compare.MISTAKES["matrix_input_only"] in text  # it raised: only that it needs 2-D inputs is shown

    def mixes_axes(Q, K):
        return np.asarray(Q).reshape(-1, Q.shape[-1]) @ np.asarray(K).reshape(-1, K.shape[-1]).T

    def by_slices(Q, K):  # right on each 2-D slice, the axes mixed when batched
        return Q @ K.T if Q.ndim == 2 else mixes_axes(Q, K)[: Q.shape[-2], : K.shape[-2]] + np.zeros(
            (*Q.shape[:-1], K.shape[-2]))

    text = failure(LocalStudent(attention_scores=by_slices), "scores-batch", batched=True)
    assert compare.MISTAKES["no_batch_support"] in text, text


def test_call_counts_name_a_cached_path_that_recomputes_and_a_naive_path_that_does_not() -> None:
    recomputes = mistakes.VARIANTS["generate_cached"]["cache_recomputes"]
    text = failure(LocalStudent(generate_cached=recomputes), "cached-six")
    assert "| `layer.key` | 6 | 21 ✗ |" in text and compare.MISTAKES["cache_recomputes"] in text
    text = failure(LocalStudent(generate_naive=ref.generate_cached), "naive-seven")
    assert "| `layer.key` | 28 | 7 ✗ |" in text and compare.MISTAKES["naive_no_recompute"] in text


@pytest.mark.parametrize("key_of, says", [
    (lambda X, n, j: X[0], "| `layer.key` | 7, 6, 5, 4, 3, 2, 1 | 28, 0, 0, 0, 0, 0, 0 ✗ |"),
    (lambda X, n, j: X[j] + 1.0, "| `layer.key` | 7, 6, 5, 4, 3, 2, 1 | 0, 0, 0, 0, 0, 0, 0; 28 of other inputs ✗ |"),
], ids=["always-token-0", "made-up-inputs"])
def test_right_totals_of_the_wrong_tokens_are_shown_per_token(key_of, says) -> None:
    def naive(layer, X, rope_base=None):  # the right output and totals, but not the keys of the right tokens
        weights = ref.AttentionLayer(layer._W["query"], layer._W["key"], layer._W["value"])
        for n in range(len(X)):
            layer.query(X[n])
            for j in range(n + 1):
                layer.key(key_of(X, n, j))
                layer.value(X[j])
        return ref.generate_naive(weights, X, rope_base=rope_base)

    text = failure(LocalStudent(generate_naive=naive), "naive-seven")
    assert "made the right number of projections, but not of the right tokens" in text
    assert says in text and "`layer.value`" not in text and "`layer.query`" not in text


def test_partial_credit_counts_the_cases_that_pass() -> None:
    scores = []
    broken = LocalStudent(softmax=lambda Z, axis=-1, temperature=1.0: np.zeros(Z.shape) if Z[0, 0] == 2.0
                          else ref.softmax(Z, axis, temperature))  # wrong on matrix A only
    with pytest.raises(pytest.fail.Exception):
        support.check(broken, "softmax-dis11-A", "softmax-dis11-B", set_score=scores.append, points=2)
    assert scores == [1.0]
