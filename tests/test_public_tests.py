"""The public tests, run as a student runs them: plain pytest in a copy of student_template/.

They must pass on the reference, fail on the blank template with one short line per
test, and, on a buggy solution, say what differs and name the mistake.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

from autograder.feedback import compare
from autograder.suite.cases import load_cases

REPO = Path(__file__).resolve().parent.parent
STUDENT = REPO / "student_template"
REFERENCE = (REPO / "reference" / "attention.py").read_text()
SUMMARY = re.compile(r"^(\d+) (passed|failed)")


def run_public_tests(folder: Path, attention: str | None, *, python: str = sys.executable, env: dict | None = None):
    """Copy student_template/ to ``folder`` (with ``attention`` as attention.py) and run pytest there."""
    shutil.copytree(STUDENT, folder, ignore=shutil.ignore_patterns("__pycache__", ".pytest_cache"))
    if attention is not None:
        (folder / "attention.py").write_text(attention)
    environment = {k: v for k, v in os.environ.items() if k != "ATTENTION_IMPL"}
    environment |= {"COLUMNS": "1000", "PYTHONDONTWRITEBYTECODE": "1", **(env or {})}
    return subprocess.run(
        [python, "-m", "pytest", "-q", "-rf", "-p", "no:cacheprovider"],
        cwd=folder, env=environment, capture_output=True, text=True, timeout=300, check=False,
    )


def counts(output: str) -> dict[str, int]:
    last = output.strip().splitlines()[-1]
    return {kind: int(n) for n, kind in re.findall(r"(\d+) (passed|failed|error)", last)}


def failures(output: str) -> list[str]:
    """The short summary's lines: 'FAILED test_attention.py::test_x[case] - Failed: message'."""
    return [line for line in output.splitlines() if line.startswith("FAILED ")]


def test_the_reference_passes_every_public_test(tmp_path):
    result = run_public_tests(tmp_path / "s", REFERENCE)
    assert result.returncode == 0, result.stdout[-3000:]
    assert counts(result.stdout)["passed"] >= 2 * 12 * 2  # two tests of two cases per function, at least


def test_the_template_fails_every_test_with_one_line_saying_what_is_not_implemented(tmp_path):
    result = run_public_tests(tmp_path / "s", None)
    assert result.returncode == 1
    tally = counts(result.stdout)
    assert tally == {"failed": tally["failed"]} and tally["failed"] >= 48
    lines = failures(result.stdout)
    assert len(lines) == tally["failed"]
    for line in lines:
        assert re.search(r" - Failed: [\w.]+ is not implemented yet \(hint: .+\)$", line), line
    assert "Traceback" not in result.stdout and "During handling" not in result.stdout
    assert "softmax is not implemented yet (hint: " in result.stdout
    assert "KVCache is not implemented yet (hint: " in result.stdout, "a class is named, not its __init__"


def test_a_missing_scale_is_named_with_the_largest_error_and_where(tmp_path):
    buggy = REFERENCE.replace("scale = 1.0 / np.sqrt(Q.shape[-1])", "scale = 1.0")
    assert buggy != REFERENCE
    result = run_public_tests(tmp_path / "s", buggy)
    assert result.returncode == 1
    failed = {re.match(r"FAILED test_attention.py::(\w+)\[", line)[1] for line in failures(result.stdout)}
    assert "test_scaled_dot_product_attention_returns_the_expected_output_and_weights" in failed
    assert not any("qkv" in name or "softmax" in name or "rope" in name for name in failed)
    assert f"**Likely mistake:** {compare.MISTAKES['no_scale']}" in result.stdout
    assert re.search(r"Largest absolute error [\d.e+-]+ at index \(\d+(, \d+)*\)", result.stdout)
    assert "Heatmap" in result.stdout


def test_a_kv_cache_that_overwrites_is_named(tmp_path):
    buggy = REFERENCE.replace("self._keys.append(", "self._keys = [] ; self._keys.append(", 1)
    buggy = buggy.replace("self._values.append(", "self._values = [] ; self._values.append(", 1)
    assert buggy.count("= [] ;") == 2
    result = run_public_tests(tmp_path / "s", buggy)
    assert result.returncode == 1
    assert f"**Likely mistake:** {compare.MISTAKES['cache_overwrites']}" in result.stdout
    assert "test_decode_step" not in result.stdout, "decode_step is tested with the tests' own cache"


def test_wrong_call_counts_list_every_projection(tmp_path):
    result = run_public_tests(tmp_path / "s", REFERENCE + "\n\ngenerate_cached = generate_naive\n")
    assert result.returncode == 1
    assert "made the wrong number of projections (with a cache: N calls each of query, key and value)" in result.stdout
    assert "- layer.key: 15 calls, expected 5" in result.stdout


def test_modifying_an_input_in_place_fails_every_test_of_the_function_as_the_grader_does(tmp_path):
    # the inputs are read-only, as the grader passes them: `Z /= T` raises here too, on every case
    buggy = REFERENCE.replace("Z = np.asarray(Z) / temperature", "Z /= temperature")
    assert buggy != REFERENCE
    result = run_public_tests(tmp_path / "s", buggy)
    assert result.returncode == 1
    line = next(i + 1 for i, text in enumerate(buggy.splitlines()) if "Z /= temperature" in text)
    said = f"`softmax` tried to change one of its input arrays in place (attention.py, line {line}): inputs are " \
           "read-only here, as in the autograder."
    assert said in result.stdout and compare.MISTAKES["modified_input"] in result.stdout
    softmax = [f for f in failures(result.stdout) if "::test_softmax_" in f]
    assert softmax and all(said in f for f in softmax)
    cases = sum(case.function == "softmax" for case in load_cases(STUDENT / "public_cases.npz").values())
    assert len(softmax) == 3 * cases  # its three tests, on every case
    assert not [f for f in failures(result.stdout) if "::test_softmax_" not in f]


def test_a_syntax_error_fails_every_test_with_its_line(tmp_path):
    result = run_public_tests(tmp_path / "s", REFERENCE + "\ndef broken(:\n    pass\n")
    assert result.returncode == 1
    lines = failures(result.stdout)
    assert lines and all("attention.py has a syntax error on line" in line for line in lines)


def test_attention_impl_points_the_tests_at_another_file(tmp_path):
    (tmp_path / "elsewhere.py").write_text(REFERENCE)
    result = run_public_tests(tmp_path / "s", None, env={"ATTENTION_IMPL": str(tmp_path / "elsewhere.py")})
    assert result.returncode == 0, result.stdout[-3000:]
