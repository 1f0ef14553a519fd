"""autograder/results/plugin.py + autograder/results/document.py: real pytest runs of generated suites.

Each suite is run in-process with ``pytest.main(..., plugins=[ResultsPlugin])`` using the
real gradescope-utils decorators; every results.json produced is written with
``write_results``, read back and validated against Gradescope's schema.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
import textwrap
from pathlib import Path
from typing import Any

import jsonschema
import pytest

from autograder.results import document
from autograder.results.document import GradedTest
from autograder.results.plugin import INTERNAL, NOT_RUN, ResultsPlugin

ROOT = Path(__file__).resolve().parents[1]
SCHEMA = json.loads((ROOT / "tests" / "schema" / "gradescope_results.schema.json").read_text())
VALIDATOR = jsonschema.Draft202012Validator(SCHEMA)
HEADER = """\
import pytest
from gradescope_utils.autograder_utils.decorators import number, partial_credit, tags, visibility, weight


class StudentError(Exception):
    student_facing = True

"""
TEST_KEYS = {"name", "score", "max_score", "status", "tags", "visibility", "output", "output_format"}


def check(data: dict[str, Any]) -> None:
    """Valid for Gradescope, and complete the way DESIGN.md promises: no nulls, no missing keys."""
    VALIDATOR.validate(data)
    text = json.dumps(data)
    assert "null" not in re.sub(r'"(?:[^"\\]|\\.)*"', '""', text)
    assert {"score", "execution_time", "output", "output_format", "stdout_visibility", "tests"} <= set(data)
    assert data["output_format"] == "md" and data["stdout_visibility"] == "hidden"
    for test in data["tests"]:
        assert TEST_KEYS <= set(test) <= TEST_KEYS | {"number", "extra_data"}
        assert test["output_format"] == "md"
        assert 0 <= test["score"] <= test["max_score"]


def run_suite(
    tmp_path: Path, *modules: str, expected: dict[str, float] | None = None, notes: tuple[str, ...] = ()
) -> tuple[dict[str, Any], int]:
    """Run the given test modules; return the validated results.json and pytest's exit code."""
    suite = tmp_path / "suite"
    suite.mkdir(parents=True)
    (suite / "pytest.ini").write_text("[pytest]\npython_files = test_*.py\n")
    tag = re.sub(r"\W", "_", tmp_path.name)  # unique module names: no clash between runs in one process
    for i, body in enumerate(modules):
        (suite / f"test_{tag}_{i}.py").write_text(HEADER + textwrap.dedent(body))
    collector = ResultsPlugin(expected_points=expected or {})
    args = [str(suite), "-q", "-p", "no:cacheprovider", "-c", str(suite / "pytest.ini"), "--rootdir", str(suite)]
    code = pytest.main([*args, "--import-mode=importlib"], plugins=[collector])
    data = document.build_results(collector.tests, execution_time=0.25, notes=list(notes))
    path = tmp_path / "results" / "results.json"
    document.write_results(path, data)
    loaded = json.loads(path.read_text(encoding="utf-8"))
    check(loaded)
    return loaded, int(code)


def by_name(data: dict[str, Any]) -> dict[str, dict[str, Any]]:
    return {test["name"]: test for test in data["tests"]}


OUTCOMES = """
@pytest.fixture
def broken():
    raise RuntimeError("fixture bug in grader_helpers.py")

@pytest.fixture
def unloaded():
    raise StudentError("Your `attention.py` could not be loaded: **NameError** in line 3.")

@pytest.fixture
def bad_teardown():
    yield
    raise RuntimeError("teardown bug")

@weight(2)
@tags("softmax")
def test_pass():
    '''passes'''

@weight(3)
@tags("softmax")
def test_assert_message():
    '''assertion with a message'''
    expected = 1
    assert expected == 2, "**Wrong values**\\n\\n```\\n[1 2]\\n```\\n  indented"

@weight(1)
@tags("softmax")
def test_bare_assert():
    '''bare assertion'''
    secret_reference_value = 42
    assert secret_reference_value == 41

@weight(1)
@tags("softmax")
def test_fail_call():
    '''pytest.fail'''
    pytest.fail("`softmax` returned shape (3,); expected (3, 4).")

@weight(1)
@tags("softmax")
def test_student_error():
    '''student error'''
    raise StudentError("Your `softmax` raised `ZeroDivisionError` (line 7).")

@weight(1)
@tags("softmax")
def test_internal():
    '''internal error'''
    {}["grader_secret_key"]

@weight(1)
@tags("softmax")
def test_setup_error(broken):
    '''setup error'''

@weight(1)
@tags("softmax")
def test_setup_student_error(unloaded):
    '''setup student error'''

@weight(1)
@tags("softmax")
def test_teardown_error(bad_teardown):
    '''teardown error'''

@weight(1)
@tags("softmax")
@pytest.mark.skip(reason="needs causal_mask")
def test_skipped():
    '''skipped'''

@weight(1)
@tags("softmax")
def test_skip_inside():
    '''skip inside'''
    pytest.skip("skipped at run time")

@weight(1)
@tags("softmax")
@pytest.mark.xfail(reason="known issue")
def test_xfail():
    '''xfail'''
    assert False

@weight(1)
@tags("softmax")
@pytest.mark.xfail(reason="lenient")
def test_xpass():
    '''xpass'''

@weight(1)
@tags("softmax")
@pytest.mark.xfail(reason="strict one", strict=True)
def test_xpass_strict():
    '''xpass strict'''

@weight(1)
@tags("softmax")
def test_system_exit():
    '''system exit'''
    raise SystemExit(3)
"""

EXPECTED_OUTCOMES = {
    "passes": (2, "passed", ""),
    "assertion with a message": (0, "failed", "**Wrong values**\n\n```\n[1 2]\n```\n  indented"),
    "bare assertion": (0, "failed", "A check in this test failed."),
    "pytest.fail": (0, "failed", "`softmax` returned shape (3,); expected (3, 4)."),
    "student error": (0, "failed", "Your `softmax` raised `ZeroDivisionError` (line 7)."),
    "internal error": (0, "failed", INTERNAL),
    "setup error": (0, "failed", INTERNAL),
    "setup student error": (0, "failed", "Your `attention.py` could not be loaded: **NameError** in line 3."),
    "teardown error": (0, "failed", INTERNAL),
    "skipped": (0, "failed", "This test was skipped: needs causal_mask"),
    "skip inside": (0, "failed", "This test was skipped: skipped at run time"),
    "xfail": (0, "failed", "This test is marked as expected to fail (known issue); it earns no points."),
    "xpass": (0, "failed", "This test is marked as expected to fail (lenient); it earns no points."),
    "xpass strict": (0, "failed", "This test failed."),
    "system exit": (0, "failed", INTERNAL),
}


def test_outcomes_scores_and_messages(tmp_path: Path, capfd: pytest.CaptureFixture[str]) -> None:
    data, code = run_suite(tmp_path, OUTCOMES)
    err = capfd.readouterr().err
    tests = by_name(data)
    assert set(tests) == set(EXPECTED_OUTCOMES)
    for name, (score, status, output) in EXPECTED_OUTCOMES.items():
        assert (tests[name]["score"], tests[name]["status"], tests[name]["output"]) == (score, status, output), name
    assert data["score"] == 2
    assert code == 1
    # nothing of the grader's source, paths or pytest's explanations reaches the student
    everything = json.dumps(data)
    for leak in ("Traceback", "secret_reference_value", "grader_secret_key", "grader_helpers", "assert ", ".py:"):
        assert leak not in everything
    # ...but the instructor's log has the details
    for detail in ("grader_secret_key", "fixture bug in grader_helpers.py", "teardown bug", "SystemExit"):
        assert detail in err


def test_partial_credit(tmp_path: Path) -> None:
    data, _ = run_suite(
        tmp_path,
        """
        @partial_credit(4)
        @number("3")
        @tags("rope")
        @pytest.mark.parametrize("value", [2.5, -1, 99, None, "junk", float("nan"), 1])
        def test_partial(value, set_score=None):
            '''partial {value}'''
            if value is not None:
                set_score(value)

        @partial_credit(5)
        @tags("rope")
        def test_partial_then_fail(set_score=None):
            '''partial then fail'''
            set_score(2)
            pytest.fail("Only the first row is right.")

        @partial_credit(5)
        @tags("rope")
        def test_partial_then_internal(set_score=None):
            '''partial then internal error'''
            set_score(2)
            raise KeyError("x")

        @partial_credit(5)
        @tags("rope")
        def test_full_partial(set_score=None):
            '''full partial'''
            set_score(5)
        """,
    )
    tests = by_name(data)
    expected = {  # a score left over from one parameter must not leak into the next (None: never set)
        "partial 2.5": (2.5, "failed", "Partial credit: 2.5 / 4 points."),
        "partial -1": (0, "failed", "Partial credit: 0 / 4 points."),
        "partial 99": (4, "passed", ""),
        "partial None": (4, "passed", ""),
        "partial junk": (0, "failed", "Partial credit: 0 / 4 points."),
        "partial nan": (0, "failed", "Partial credit: 0 / 4 points."),
        "partial 1": (1, "failed", "Partial credit: 1 / 4 points."),
        "partial then fail": (2, "failed", "Only the first row is right."),
        "partial then internal error": (2, "failed", INTERNAL),
        "full partial": (5, "passed", ""),
    }
    assert {name: (t["score"], t["status"], t["output"]) for name, t in tests.items()} == expected
    assert [t["number"] for t in data["tests"][:7]] == [f"3.{k}" for k in range(1, 8)]
    assert all(t["max_score"] == 4 for t in data["tests"][:7])


def test_names_and_numbers(tmp_path: Path) -> None:
    data, _ = run_suite(
        tmp_path,
        """
        @weight(1)
        @number("1.1")
        def test_plain():
            '''
            Softmax rows sum to one

            More details that are not part of the name.
            '''

        @weight(1)
        @number("1.2")
        @pytest.mark.parametrize("n, d", [(2, 4), (3, 8)], ids=["small", "large"])
        def test_format(n, d):
            '''RoPE keeps norms (N={n}, d={d})'''

        @weight(1)
        @number("1.3")
        @pytest.mark.parametrize("case", ["a", "b"])
        def test_no_placeholder(case):
            '''Mask is causal'''

        @weight(1)
        @number("1.4")
        @pytest.mark.parametrize("case", ["a"])
        def test_bad_placeholder(case):
            '''Uses {missing} and {0}'''

        @weight(1)
        @pytest.mark.parametrize("x", [1, 2])
        @pytest.mark.parametrize("y", ["u", "v"])
        @number("2")
        def test_stacked(x, y):
            '''stacked {x}{y}'''

        @weight(1)
        def test_no_docstring_no_number():
            pass

        @weight(1)
        @pytest.mark.parametrize("k", [7])
        def test_param_without_doc(k):
            pass

        class TestInAClass:
            @weight(2)
            @number("9")
            def test_method(self):
                '''A method'''
        """,
    )
    got = [(t["name"], t.get("number")) for t in data["tests"]]
    assert got == [
        ("Softmax rows sum to one", "1.1"),
        ("RoPE keeps norms (N=2, d=4)", "1.2.1"),
        ("RoPE keeps norms (N=3, d=8)", "1.2.2"),
        ("Mask is causal [a]", "1.3.1"),
        ("Mask is causal [b]", "1.3.2"),
        ("Uses {missing} and {0} [a]", "1.4.1"),
        ("stacked 1u", "2.1"),
        ("stacked 2u", "2.2"),
        ("stacked 1v", "2.3"),
        ("stacked 2v", "2.4"),
        ("test_no_docstring_no_number", None),
        ("test_param_without_doc[7]", None),
        ("A method", "9"),
    ]
    assert data["score"] == 14 and all(t["status"] == "passed" for t in data["tests"])


BROKEN_MODULE = """
import module_that_does_not_exist_xyz

@weight(6)
@tags("qkv_project")
def test_qkv():
    '''never collected'''
"""

GOOD_MODULE = """
@weight(6)
@tags("attention_scores")
def test_scores():
    '''scores'''

@weight(4)
@tags("rotation_matrix")
def test_rotation():
    '''rotation, half of its tests'''
"""


def test_collection_error_points_still_appear(tmp_path: Path, capfd: pytest.CaptureFixture[str]) -> None:
    expected = {"qkv_project": 6, "attention_scores": 6, "rotation_matrix": 8}
    data, _ = run_suite(tmp_path, BROKEN_MODULE, GOOD_MODULE, expected=expected)
    err = capfd.readouterr().err
    tests = by_name(data)
    assert tests["scores"]["status"] == "passed"  # the good module still ran
    made_up = tests["Grader error: tests worth 6 points for qkv_project could not be run"]
    assert (made_up["score"], made_up["max_score"], made_up["status"]) == (0, 6, "failed")
    assert made_up["tags"] == ["qkv_project"]
    assert made_up["visibility"] == "visible" and "not in your code" in made_up["output"]
    assert tests["Grader error: tests worth 4 points for rotation_matrix could not be run"]["max_score"] == 4
    assert sum(t["max_score"] for t in data["tests"]) == sum(expected.values())
    assert "module_that_does_not_exist_xyz" in err and "collection error" in err
    assert "module_that_does_not_exist_xyz" not in json.dumps(data)


def test_everything_missing_when_pytest_never_ran() -> None:
    collector = ResultsPlugin(expected_points={"softmax": 12, "rope": 12})
    assert [(t.name, t.max_score, t.score) for t in collector.tests] == [
        ("Grader error: tests worth 12 points for softmax could not be run", 12, 0),
        ("Grader error: tests worth 12 points for rope could not be run", 12, 0),
    ]


def test_tests_that_never_ran_keep_their_points(tmp_path: Path) -> None:
    data, _ = run_suite(
        tmp_path,
        """
        @weight(2)
        def test_first():
            '''first'''

        @weight(3)
        def test_stop():
            '''stops the session'''
            pytest.exit("out of time")

        @weight(5)
        def test_after():
            '''after'''
        """,
    )
    got = {t["name"]: (t["score"], t["max_score"], t["output"]) for t in data["tests"]}
    assert got == {"first": (2, 2, ""), "stops the session": (0, 3, NOT_RUN), "after": (0, 5, NOT_RUN)}


def test_invalid_decorator_values(tmp_path: Path, capfd: pytest.CaptureFixture[str]) -> None:
    data, _ = run_suite(
        tmp_path,
        """
        @weight("lots")
        @visibility("after_due")
        def test_weird():
            '''weird'''
        """,
    )
    (test,) = data["tests"]
    assert (test["max_score"], test["visibility"]) == (0, "hidden")
    err = capfd.readouterr().err
    assert "invalid weight" in err and "invalid visibility" in err


HIDDEN_SUITE = """
@weight(3)
@tags("softmax")
def test_visible_pass():
    '''visible pass'''

@weight(2)
@tags("causal_mask")
def test_visible_fail():
    '''visible fail'''
    pytest.fail("Your mask is upside down.")

@weight(5)
@visibility("after_due_date")
@tags("rope")
def test_hidden_a():
    '''HIDDEN-NAME-A'''
    assert {ok}, "HIDDEN-MESSAGE-A"

@weight(7)
@visibility("after_due_date")
@tags("softmax")
def test_hidden_b():
    '''HIDDEN-NAME-B'''
    assert {ok}, "HIDDEN-MESSAGE-B"

@weight(1)
@visibility("hidden")
@tags("KVCache")
def test_hidden_never():
    '''HIDDEN-NAME-C'''
"""


def test_hidden_tests_not_revealed_in_summary(tmp_path: Path) -> None:
    outputs = []
    for ok in ("True", "False"):
        data, _ = run_suite(tmp_path / ok, HIDDEN_SUITE.replace("{ok}", ok), notes=("Graded `attention.py`.",))
        outputs.append(data["output"])
        summary = data["output"]
        assert summary.startswith("Graded `attention.py`.\n\n| Part | Topic | Points |")
        assert "| B | Softmax (Dis 10 Q1, Dis 11 Q2) | 3 / 3 |" in summary
        assert "| C | Masks and scaled dot-product attention (Dis 10 Q2, Dis 11 Q2) | 0 / 2 |" in summary
        assert "**3 / 5**" in summary
        assert "2 hidden tests worth 12 points are shown after the due date." in summary
        assert "1 hidden test worth 1 point is not shown to students." in summary
        assert "HIDDEN" not in summary and "| E |" not in summary and "| F |" not in summary
        terminal = document.summary_text(data)
        assert "HIDDEN" not in terminal and "Your mask is upside down." in terminal
        assert "HIDDEN-MESSAGE-A" in document.summary_text(data, show_hidden=True) or ok == "True"
    assert outputs[0] == outputs[1]  # hidden outcomes change nothing in the summary


def test_build_results_from_mappings_and_objects() -> None:
    tests = [
        GradedTest("a", 1, 2, "failed", "out", "1.1", ["qkv_project"]),
        {"name": "b", "score": 6, "max_score": 6, "status": "passed", "tags": ["decode_step"]},
        {"name": "c", "score": float("inf"), "max_score": 1, "tags": ["not-a-contract-name"], "visibility": "bogus"},
        GradedTest("d", 0, 1, tags=[]),
    ]
    data = document.build_results(tests, execution_time=1.23456, notes=["note 1", "  ", "note 2"], extra_output="fin")
    check(data)
    assert data["score"] == 7 and data["execution_time"] == 1.235
    assert data["extra_data"] == {"notes": ["note 1", "note 2"]}
    assert data["tests"][2]["score"] == 0 and data["tests"][2]["visibility"] == "hidden"
    assert "number" not in data["tests"][1] and data["tests"][0]["number"] == "1.1"
    assert data["output"].split("\n\n")[:2] == ["note 1", "note 2"]
    assert data["output"].endswith("fin")
    assert "| A | Projections and scores (Dis 10 Q1) | 1 / 2 |" in data["output"]
    assert "| F | KV caching (Dis 11 Q3) | 6 / 6 |" in data["output"]
    assert "| Other | Other checks | 0 / 1 |" in data["output"]
    assert "1 hidden test worth 1 point is not shown to students." in data["output"]


def test_build_results_empty() -> None:
    data = document.build_results([], execution_time=0, notes=["`attention.py` is empty."])
    check(data)
    assert data["score"] == 0 and data["tests"] == []
    assert data["output"] == "`attention.py` is empty.\n\nNo tests were run."


def test_text_is_json_safe_and_bounded(tmp_path: Path) -> None:
    long = "```\n" + "x" * (document.MAX_OUTPUT + 10)
    tests = [
        GradedTest("bad \ud800 name\0", 0, 1, output="lone \udfff surrogate and NUL \0"),
        GradedTest("l", 0, 1, output=long),
    ]
    data = document.build_results(tests, execution_time=0, notes=[])
    document.write_results(tmp_path / "r.json", data)
    loaded = json.loads((tmp_path / "r.json").read_bytes().decode("utf-8"))
    check(loaded)
    assert "\0" not in loaded["tests"][0]["name"] + loaded["tests"][0]["output"]
    out = loaded["tests"][1]["output"]
    assert len(out) < document.MAX_OUTPUT + 100 and out.endswith("*(output truncated)*") and out.count("```") == 2


def test_write_results_is_atomic(tmp_path: Path) -> None:
    path = tmp_path / "results" / "results.json"
    document.write_results(path, {"score": 1})
    document.write_results(path, document.fallback_results("again"))
    assert json.loads(path.read_text())["output"] == "again"
    assert [p.name for p in path.parent.iterdir()] == ["results.json"]
    with pytest.raises(TypeError):
        document.write_results(path, {"score": {1, 2}})  # not JSON: the old file stays, no temp file
    with pytest.raises(ValueError):
        document.write_results(path, {"score": float("nan")})
    assert json.loads(path.read_text())["output"] == "again"
    assert [p.name for p in path.parent.iterdir()] == ["results.json"]
    assert oct(path.stat().st_mode & 0o777) == "0o600"  # readable by the grader alone


def test_fallback_results_valid_and_stdlib_only(tmp_path: Path) -> None:
    data = document.fallback_results("**The autograder crashed.** Please resubmit.", max_score=100)
    check(data)
    assert data["score"] == 0 and data["tests"][0]["max_score"] == 100
    assert data["output"] == data["tests"][0]["output"] == "**The autograder crashed.** Please resubmit."
    script = (
        "import sys, json; sys.path.insert(0, sys.argv[1]); from autograder.results import document; "
        "document.write_results(sys.argv[2], document.fallback_results('x', 50)); "
        "bad = {'numpy', 'pytest', 'nbformat', 'autograder.contract'} & set(sys.modules); print(sorted(bad))"
    )
    out = subprocess.run(
        [sys.executable, "-I", "-S", "-c", script, str(ROOT), str(tmp_path / "f.json")],
        capture_output=True,
        text=True,
        check=True,
    )
    assert out.stdout.strip() == "[]"
    check(json.loads((tmp_path / "f.json").read_text()))


def test_summary_text(tmp_path: Path) -> None:
    data, _ = run_suite(tmp_path, HIDDEN_SUITE.replace("{ok}", "False"), notes=("Graded `attention.py`.",))
    text = document.summary_text(data)
    assert text.startswith("Notes:\n  - Graded `attention.py`.\n\nScore (visible tests): 3 / 5\n")
    assert "B  Softmax (Dis 10 Q1, Dis 11 Q2)" in text and "C  Masks" in text
    assert "2 hidden tests worth 12 points are shown after the due date." in text
    assert "Failing tests (1):\n\nvisible fail: 0 / 2\n    Your mask is upside down." in text
    full = document.summary_text(data, show_hidden=True)
    assert "Score (all tests): 4 / 18" in full
    assert "HIDDEN-NAME-A (after_due_date): 0 / 5\n    HIDDEN-MESSAGE-A" in full
    assert "hidden tests worth" not in full
    passing = document.build_results([GradedTest("ok", 1, 1, "passed")], execution_time=0, notes=[])
    assert document.summary_text(passing).endswith("All shown tests passed.")


def test_visible_tests_run_before_hidden_ones_and_results_keep_collection_order(tmp_path: Path) -> None:
    log = tmp_path / "order.txt"
    body = f"""
    LOG = {str(log)!r}

    def record(name):
        with open(LOG, "a") as f:
            f.write(name + "\\n")

    @weight(1)
    @visibility("after_due_date")
    def test_hidden_first():
        record("hidden_first")

    @weight(1)
    def test_visible_second():
        record("visible_second")

    @weight(1)
    @visibility("hidden")
    def test_hidden_third():
        record("hidden_third")

    @weight(1)
    @visibility("visible")
    def test_visible_fourth():
        record("visible_fourth")
    """
    data, code = run_suite(tmp_path, body)
    assert code == 0
    assert log.read_text().split() == ["visible_second", "visible_fourth", "hidden_first", "hidden_third"]
    assert [t["name"].split()[-1] for t in data["tests"]] == [
        "test_hidden_first", "test_visible_second", "test_hidden_third", "test_visible_fourth"]


LOST = """
class WorkerLost(Exception):
    retry_test = True

runs = {"once": 0, "twice": 0}

@pytest.fixture
def fresh():
    return []  # a new value for every run of a test: the retry starts from a fresh setup

@weight(2)
@tags("softmax")
def test_lost_once(fresh):
    '''lost once'''
    fresh.append(1)
    runs["once"] += 1
    assert fresh == [1]
    if runs["once"] == 1:
        raise WorkerLost("killed by signal 9")

@weight(3)
@tags("softmax")
def test_lost_twice():
    '''lost twice'''
    runs["twice"] += 1
    raise WorkerLost(f"killed by signal 9 (run {runs['twice']})")

@weight(1)
@tags("softmax")
def test_student_fails():
    '''student fails'''
    raise StudentError("wrong")

@weight(1)
@tags("softmax")
def test_grader_bug():
    '''grader bug'''
    raise KeyError("oops")
"""


def test_a_test_that_lost_its_worker_runs_once_more_and_internal_errors_are_recorded_apart(
    tmp_path: Path, capfd: pytest.CaptureFixture[str]
) -> None:
    suite = tmp_path / "suite"
    suite.mkdir()
    (suite / "pytest.ini").write_text("[pytest]\npython_files = test_*.py\n")
    (suite / "test_lost_worker.py").write_text(HEADER + textwrap.dedent(LOST))
    collector = ResultsPlugin()
    pytest.main([str(suite), "-q", "-p", "no:cacheprovider", "-c", str(suite / "pytest.ini"), "--rootdir", str(suite),
                 "--import-mode=importlib"], plugins=[collector])
    tests = {t.name: t for t in collector.tests}
    assert (tests["lost once"].score, tests["lost once"].status) == (2, "passed")  # only the second run counts
    assert (tests["lost twice"].score, tests["lost twice"].output) == (0, INTERNAL)
    assert tests["student fails"].output == "wrong"
    assert collector.internal_errors == ["lost twice", "grader bug"]  # the student's failure is not one
    err = capfd.readouterr().err
    assert err.count("running the test once more") == 2 and "(run 2)" in err and "(run 3)" not in err
