"""scores.csv and its key file, scores_key.csv.

The CSV has one row per submission: ``submission_id``, ``names``, ``emails``, ``sids``,
``total``, ``status``, then one column per graded test (its score), headed by the test's number
(``A.1``, ``B.3``...). ``scores_key.csv`` gives each number its title, function, visibility and
points. A key file rather than a second header row: a spreadsheet's sort, filter and pivot table,
and ``pandas.read_csv``, take the first row as the header and every other row as data, so a second
header row would be sorted among the students and turn every score column into text. ``status`` says
where the total comes from: ``graded`` (``graded: defines none of the graded functions``: it ran, the wrong file?);
``not graded: <why>`` (0 from intake: missing, misnamed, empty, syntax error,
unreadable); ``grader error`` (the grader could not grade it: an empty total and empty test cells,
never a silent 0; a rerun retries it); ``not graded yet``.
"""

from __future__ import annotations

import csv
import io
from pathlib import Path

from autograder.batch.table import Summary, keyed_tests
from autograder.results import hygiene
from autograder.results.document import atomic_write_text

FIXED_COLUMNS = ["submission_id", "names", "emails", "sids", "total", "status"]
KEY_FILE = "scores_key.csv"  # scores.csv's test columns: number -> title, function, visibility, points
KEY_COLUMNS = ["column", "test", "function", "visibility", "points"]


def number(value: float | None) -> str:
    if value is None:
        return ""
    return str(int(value)) if float(value).is_integer() else f"{value:.4f}".rstrip("0").rstrip(".")


def cell(text: str) -> str:
    """Student-provided text, safe to open in a spreadsheet: no formula, no control or bidi character."""
    return hygiene.cell(text)


def csv_text(summary: Summary) -> str:
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(FIXED_COLUMNS + [cell(column) for column in summary.columns])
    for row in summary.rows:
        sub = row.submission
        tests = keyed_tests(row)
        cells = [number(float(tests[c].get("score", 0))) if c in tests else "" for c in summary.columns]
        people = [cell(sub.id), cell(sub.names), cell(sub.emails), cell(sub.sids)]
        writer.writerow([*people, number(row.total), row.status, *cells])
    return out.getvalue()


def key_text(summary: Summary) -> str:
    """scores_key.csv: what each test column of scores.csv is."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(KEY_COLUMNS)
    for key, test in summary.tests.items():
        writer.writerow([cell(key), cell(test.title), test.function, test.visibility, number(test.max_score)])
    return out.getvalue()


def write_csv(summary: Summary, path: Path) -> Path:
    """scores.csv at ``path``, and its key file beside it."""
    atomic_write_text(path.with_name(KEY_FILE), key_text(summary))
    atomic_write_text(path, csv_text(summary))
    return path
