"""What a TA reads in a batch's outputs: the per-test plot sorted hardest first with a legend of its colours,
scores.csv's test columns named by number (titles in scores_key.csv), students' messages cut at line boundaries."""

from __future__ import annotations

import csv
import io
from html import escape
from pathlib import Path

import pytest

from autograder.batch import export, plots, report, scores, state, table
from autograder.batch.plots import BANDS

VERSION = "v" * 64
TESTS = [("A.1", "easy: all pass"), ("A.2", "hard: none pass"), ("A.3", "middling: half pass"), ("A.4", "tie")]


def _row(i: int, intake_message: str = "") -> table.Row:
    """A graded submission: A.1 always passes, A.2 never, A.3 for even ``i``, A.4 never."""
    passes = {"A.1": True, "A.2": False, "A.3": i % 2 == 0, "A.4": False}
    tests = [{"number": number, "name": name, "score": 5.0 * passes[number], "max_score": 5.0,
              "status": "passed" if passes[number] else "failed", "tags": [], "visibility": "visible"}
             for number, name in TESTS]
    extra = {"intake": {"status": "misnamed", "message": intake_message}} if intake_message else {}
    results = {"score": sum(t["score"] for t in tests), "tests": tests, "extra_data": extra}
    record = state.Record(str(i), VERSION, state.GRADED, f"results/{i}.json", 0.1)
    return table.Row(export.Submission(str(i), None, (export.Submitter(name=f"S{i}"),)), record, results)


def summary(n: int = 4, **row_options: str) -> table.Summary:
    return table.summarize([_row(i, **row_options) for i in range(n)])


def test_hardest_first_is_by_pass_rate_and_keeps_suite_order_on_ties() -> None:
    assert [t.name for t in summary().hardest_first()] == ["A.2", "A.4", "A.3", "A.1"]


def test_the_per_test_plot_is_sorted_hardest_first_and_has_a_legend_for_its_colours(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    plt = plots._pyplot()
    if plt is None:
        pytest.skip("matplotlib (a TA extra) is not installed")
    drawn = {}
    real_save = plots._save

    def save(plt: object, fig: object, ax: object, path: Path) -> Path:
        fig.canvas.draw()
        ticks = [(ax.transData.transform((0, label.get_position()[1]))[1], label.get_text())
                 for label in ax.get_yticklabels()]
        drawn["order"] = [text for _, text in sorted(ticks, reverse=True)]  # as read: from the top of the image
        drawn["widths"] = [bar.get_width() for bar in ax.patches]
        drawn["colors"] = [bar.get_facecolor() for bar in ax.patches]
        legend = ax.get_legend()
        drawn["legend"] = [text.get_text() for text in legend.get_texts()] if legend else []
        return real_save(plt, fig, ax, path)

    monkeypatch.setattr(plots, "_save", save)
    plots._test_rates(plt, summary(), tmp_path / "rates.png")
    assert drawn["order"] == ["A.2 hard: none pass", "A.4 tie", "A.3 middling: half pass", "A.1 easy: all pass"]
    assert drawn["widths"] == sorted(drawn["widths"]) == [0, 0, 50, 100]
    assert drawn["legend"] == [label for _, label in BANDS]
    from matplotlib.colors import to_rgba

    assert drawn["colors"] == [to_rgba(BANDS[2][0])] * 2 + [to_rgba(BANDS[1][0]), to_rgba(BANDS[0][0])]
    assert (tmp_path / "rates.png").stat().st_size > 0


def test_the_report_table_is_hardest_first_too() -> None:
    html = report.html_text(summary(), title="t", version=VERSION, plots=[], notes=[])
    positions = [html.index(f"<td>{escape(name)}</td>") for _, name in TESTS]
    assert sorted(range(4), key=positions.__getitem__) == [1, 3, 2, 0]


def test_scores_csv_columns_are_test_numbers_and_the_key_file_has_their_titles(tmp_path: Path) -> None:
    scores.write_csv(summary(), tmp_path / "scores.csv")
    with open(tmp_path / "scores.csv", newline="") as f:
        reader = csv.reader(f)
        header = next(reader)
        rows = list(reader)
    assert header == [*scores.FIXED_COLUMNS, "A.1", "A.2", "A.3", "A.4"]
    assert len(rows) == 4 and all(cell.replace(".", "").isdigit() for row in rows for cell in row[4:5] + row[6:])
    key = list(csv.DictReader(io.StringIO((tmp_path / scores.KEY_FILE).read_text())))
    assert [(k["column"], k["test"], k["points"]) for k in key] == [(n, name, "5") for n, name in TESTS]


FENCED = "\n".join([
    "Your notebook's code cell 4 does not compile:",
    "",
    "```python",
    *(f"    line_{i} = {i}" for i in range(12)),
    "```",
    "Fix it and resubmit.",
])


def _fences_balanced(text: str) -> bool:
    return sum(bool(report.FENCE.match(line)) for line in text.split("\n")) % 2 == 0


@pytest.mark.parametrize("max_lines", [3, 5, 8, 20])
def test_a_message_is_cut_at_a_line_boundary_and_never_inside_a_code_fence(max_lines: int) -> None:
    shown = report.excerpt(FENCED, max_chars=10_000, max_lines=max_lines)
    if max_lines >= len(FENCED.split("\n")):
        assert shown == FENCED
        return
    kept, note = shown.rsplit("\n", 1)
    assert FENCED.startswith(kept + "\n") and kept.split("\n") == FENCED.split("\n")[: len(kept.split("\n"))]
    assert _fences_balanced(kept) and "```" not in kept  # the fence would be cut: the excerpt ends before it
    left = len(FENCED.split("\n")) - len(kept.split("\n"))
    assert note == f"[... {left:,} more lines not shown]"


def test_a_message_that_starts_with_a_fence_is_closed_and_long_lines_stay_whole() -> None:
    text = "```\n" + "\n".join("x" * 50 for _ in range(30)) + "\n```"
    shown = report.excerpt(text, max_chars=200, max_lines=8)
    assert _fences_balanced(shown) and shown.split("\n")[1:4] == ["x" * 50] * 3
    long_line = "y" * 1000
    assert report.excerpt(f"{long_line}\nsecond", max_chars=100).split("\n")[0] == long_line


def test_the_report_shows_the_message_cut_at_a_line_boundary() -> None:
    html = report.html_text(summary(intake_message=FENCED), title="t", version=VERSION, plots=[], notes=[])
    assert escape(report.excerpt(FENCED)) in html and escape("line_11 = 11") not in html
