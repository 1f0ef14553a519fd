"""No student text forges what a person reads (issue 12): control and bidi characters are shown as escapes at
every sink, spreadsheet formulas are defused, results.json stays under 1 MB and `grade`'s console output is
bounded whatever the submission."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from autograder.commands import grade
from autograder.results import document, hygiene
from autograder.results.document import GradedTest

FORGERY = "\x1b[2J\x1b[H\rScore (all tests): 100 / 100\x07\x9b31m\u202egnp.exe\u2066x\u2069"


@pytest.mark.parametrize(
    "raw, shown",
    [("a\x1b[2Jb", "a\\x1b[2Jb"), ("tab\tand\nnewline", "tab\tand\nnewline"), ("\r", "\\x0d"),
     ("\x7f\x85", "\\x7f\\x85"), ("\u202eabc\u202c", "\\u202eabc\\u202c"),
     ("\u200f\u061c\u2067", "\\u200f\\u061c\\u2067"), ("é ü 😀", "é ü 😀")],
)
def test_control_and_bidi_characters_are_shown_as_escapes(raw: str, shown: str) -> None:
    assert hygiene.visible(raw) == shown


@pytest.mark.parametrize(
    "raw, cell",
    [("=1+1", "'=1+1"), ("+1", "'+1"), ("-2", "'-2"), ("@SUM(A1)", "'@SUM(A1)"), ("\uff1dSUM(A1)", "'\uff1dSUM(A1)"),
     ("\uff0b1", "'\uff0b1"), ("\uff20x", "'\uff20x"), ("  =1", "'  =1"), ("\t=1", "'\t=1"), ("\r=1", "'\\x0d=1"),
     ("Ada Lovelace", "Ada Lovelace"), ("\u202eevil", "\\u202eevil")],
)
def test_spreadsheet_cells_never_start_a_formula(raw: str, cell: str) -> None:
    assert hygiene.cell(raw) == cell


def test_results_json_shows_no_control_character_a_student_wrote(tmp_path: Path) -> None:
    data = document.build_results([GradedTest(f"t {FORGERY}", 0, 1, output=FORGERY, tags=[FORGERY])],
                                  execution_time=1, notes=[FORGERY])
    document.write_results(tmp_path / "results.json", data)
    text = (tmp_path / "results.json").read_text(encoding="utf-8")
    assert not any((ord(c) < 32 and c not in "\n\t") or 0x7F <= ord(c) < 0xA0 for c in text)
    assert not any(c in text for c in "\u202e\u2066\u2069")
    loaded = json.loads(text)
    assert loaded["tests"][0]["output"].startswith("\\x1b[2J\\x1b[H\\x0dScore")  # shown, not obeyed


def test_the_console_summary_shows_no_control_character(capsys: pytest.CaptureFixture) -> None:
    data = document.build_results([GradedTest("softmax", 0, 1, output=FORGERY)], execution_time=1, notes=[FORGERY])
    printed = grade.console(document.summary_text(data))
    assert "\x1b" not in printed and "\r" not in printed and "\u202e" not in printed
    assert "Score (visible tests): 0 / 1" in printed


def test_the_console_output_is_bounded() -> None:
    text = "\n".join(f"line {i}" for i in range(100_000))
    shown = grade.console(text)
    assert shown.count("\n") <= grade.MAX_CONSOLE_LINES + 1 and len(shown) <= grade.MAX_CONSOLE_CHARS + 100
    assert shown.endswith(f"({100_000 - grade.MAX_CONSOLE_LINES:,} more lines) not shown]")


def test_notes_are_capped_with_a_count_of_those_left_out() -> None:
    notes = [f"code cell {i}, line 1: this is a `%%bash` cell, not Python; it was skipped." for i in range(27_000)]
    data = document.build_results([], execution_time=1, notes=notes)
    shown = data["extra_data"]["notes"]
    assert len(shown) == document.MAX_NOTES + 1
    assert shown[-1] == f"... and {27_000 - document.MAX_NOTES} more notes not shown."


@pytest.mark.parametrize("char", ["x", "😀", "\x1b"])
def test_results_json_is_at_most_1_mb_whatever_the_outputs(tmp_path: Path, char: str) -> None:
    tests = [GradedTest(f"test {i}", 0, 1, output=char * 50_000, visibility="visible") for i in range(60)]
    data = document.build_results(tests, execution_time=1, notes=[char * 50_000] * 40)
    document.write_results(tmp_path / "results.json", data)
    size = (tmp_path / "results.json").stat().st_size
    assert 500_000 < size <= document.MAX_BYTES
    loaded = json.loads((tmp_path / "results.json").read_text(encoding="utf-8"))
    assert [t["name"] for t in loaded["tests"]] == [f"test {i}" for i in range(60)]
    assert all(t["output"].endswith("*(output truncated)*") for t in loaded["tests"])


def test_small_results_are_written_unchanged(tmp_path: Path) -> None:
    data = document.build_results([GradedTest("softmax", 1, 1, status="passed")], execution_time=1, notes=["n"])
    assert document.bound_size(data) is data


def test_a_tests_grader_extra_data_is_kept() -> None:
    entry = GradedTest("softmax", 0, 1, mistakes=["no_scale"]).to_json()
    assert entry["extra_data"] == {"mistakes": ["no_scale"]}
    assert GradedTest.from_mapping(entry).mistakes == ["no_scale"]
    assert GradedTest("softmax", 1, 1).to_json()["extra_data"] == {"mistakes": []}
