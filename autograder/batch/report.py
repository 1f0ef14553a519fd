"""report.html of a batch (scores.csv and its key: ``scores.py``).

The report is one self-contained HTML file (inline CSS, plots embedded as base64
PNGs). Every string that comes from students or their code is escaped.
"""

from __future__ import annotations

import base64
import html
import re
import time
from pathlib import Path

from autograder.batch import history
from autograder.batch.scores import KEY_FILE, number, write_csv
from autograder.batch.table import Row, Summary
from autograder.results import hygiene
from autograder.results.document import atomic_write_text

MESSAGE_CHARS, MESSAGE_LINES = 600, 8  # of a student's message shown in the report, in whole lines
FENCE = re.compile(r"^ {0,3}(`{3,}|~{3,})")  # a markdown code fence's opening or closing line


def escape(text: object) -> str:
    """Text for HTML: control and bidi characters shown as escapes (``hygiene.visible``), then HTML-escaped."""
    return html.escape(hygiene.visible(text))


def excerpt(text: str, max_chars: int = MESSAGE_CHARS, max_lines: int = MESSAGE_LINES) -> str:
    """The first whole lines of a student's message, about ``max_chars`` and at most ``max_lines``: never cut
    inside a line or a code fence (a fence the cut would open ends the excerpt before it; one the message starts
    with is closed after the lines that fit). Says how many lines were left out."""
    lines = text.split("\n")
    kept: list[str] = []
    size, opened = 0, None  # the index in ``kept`` of the fence open at this point, if any
    for line in lines:
        if kept and (len(kept) >= max_lines or size + len(line) > max_chars):
            break
        kept.append(line)
        size += len(line) + 1
        if FENCE.match(line):
            opened = None if opened is not None else len(kept) - 1
    if len(kept) == len(lines):
        return text
    kept = kept[:opened] if opened else kept  # back to before the fence the cut would leave open
    while kept and not kept[-1].strip():
        kept.pop()
    left = len(lines) - len(kept)
    closing = [FENCE.match(kept[0]).group(1)] if opened == 0 else []  # it starts with that fence: close it
    return "\n".join(kept + closing) + f"\n[... {left:,} more lines not shown]"


# ---------------------------------------------------------------- HTML

CSS = """
body{font:14px/1.45 system-ui,-apple-system,Segoe UI,Roboto,sans-serif;margin:2em auto;max-width:1100px;
color:#222;padding:0 1em}
h1{font-size:1.6em;margin-bottom:.2em}h2{margin-top:1.8em;border-bottom:1px solid #ddd;padding-bottom:.2em}
.meta{color:#666}.cards{display:flex;flex-wrap:wrap;gap:.8em;margin:1em 0}
.card{border:1px solid #ddd;border-radius:6px;padding:.5em 1em;min-width:7em}
.card b{display:block;font-size:1.5em}.bad{color:#b00020}.ok{color:#1b7f3b}.warn{color:#a35a00}
table{border-collapse:collapse;width:100%;margin:.6em 0}th,td{border-bottom:1px solid #eee;padding:.3em .5em;
text-align:left;vertical-align:top}th{background:#f6f6f6}td.n{text-align:right;font-variant-numeric:tabular-nums}
.bar{background:#e9eef6;height:.9em;width:12em;display:inline-block;vertical-align:middle}
.bar span{display:block;height:100%;background:#4C72B0}
img{max-width:100%;border:1px solid #eee;margin:.5em 0}code{font-size:.92em}
details summary{cursor:pointer;color:#4C72B0}.msg{white-space:pre-wrap}
"""


def write_html(summary: Summary, path: Path, *, title: str, version: str, plots: list[Path], notes: list[str],
               kept: history.History | None = None) -> Path:
    atomic_write_text(path, html_text(summary, title=title, version=version, plots=plots, notes=notes, kept=kept))
    return path


def html_text(summary: Summary, *, title: str, version: str, plots: list[Path], notes: list[str],
              kept: history.History | None = None) -> str:
    """The report; ``kept``: this run in the folder's history, and what changed since the previous run."""
    parts = [
        "<!doctype html><html lang=en><head><meta charset=utf-8>",
        f"<title>{escape(title)}</title><style>{CSS}</style></head><body>",
        f"<h1>{escape(title)}</h1>",
        f"<p class=meta>autograder version <code>{escape(version[:12])}</code> &middot; "
        f"generated {escape(time.strftime('%Y-%m-%d %H:%M:%S'))}</p>",
        _cards(summary),
        *(f"<p class=meta>{escape(note)}</p>" for note in notes),
        _since(kept),
        _errors(summary),
        _distribution(summary, plots),
        _functions(summary, plots),
        _tests(summary, plots),
        _mistakes(summary),
        _slowest(summary),
        _changed(summary),
        _everyone(summary),
        "</body></html>",
    ]
    return "\n".join(p for p in parts if p)


def _cards(summary: Summary) -> str:
    stats = summary.describe()
    cards = [("submissions", str(len(summary.rows)), ""), ("graded", str(len(summary.graded)), "")]
    errors = len(summary.errors)
    cards.append(("grader could not grade", str(errors), "bad" if errors else "ok"))
    if summary.intake_zeros:
        cards.append(("scored 0 by intake", str(len(summary.intake_zeros)), "warn"))
    if summary.pending:
        cards.append(("not graded yet", str(len(summary.pending)), "bad"))
    if stats:
        cards += [
            ("mean", f"{stats['mean']:.1f} / {number(summary.max_points)}", ""),
            ("median", number(stats["median"]), ""),
            ("full marks", str(stats["full"]), ""),
            ("zero", str(stats["zero"]), ""),
        ]
    body = "".join(
        f"<div class='card {cls}'><b>{escape(value)}</b>{escape(label)}</div>" for label, value, cls in cards
    )
    return f"<div class=cards>{body}</div>"


def _table(headers: list[str], rows: list[list[str]], numeric: set[int] = frozenset()) -> str:
    """``rows`` hold HTML that is already escaped."""
    head = "".join(f"<th>{escape(h)}</th>" for h in headers)
    body = "".join(
        "<tr>" + "".join(f"<td{' class=n' if i in numeric else ''}>{c}</td>" for i, c in enumerate(r)) + "</tr>"
        for r in rows
    )
    return f"<table><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>"


def _bar(fraction: float) -> str:
    return f"<span class=bar><span style='width:{100 * max(0.0, min(1.0, fraction)):.1f}%'></span></span>"


def _img(plots: list[Path], name: str, alt: str) -> str:
    for plot in plots:
        if plot.name == name and plot.is_file():
            data = base64.b64encode(plot.read_bytes()).decode()
            return f"<img alt='{escape(alt)}' src='data:image/png;base64,{data}'>"
    return ""


def _who(row: Row) -> str:
    return escape(row.submission.names or "(no name)")


def _errors(summary: Summary) -> str:
    return _not_graded(summary) + _intake_zeros(summary) + _partly_graded(summary) + _pending(summary)


def _intake_zeros(summary: Summary) -> str:
    """Students whose score comes from intake: nothing of their code ran (missing, misnamed, empty, ...)."""
    zeros = summary.intake_zeros
    if not zeros:
        return ""
    rows = [[escape(row.submission.id), _who(row), escape(row.intake[0]),
             f"<div class=msg>{escape(excerpt(row.intake[1]))}</div>", _results_link(row)] for row in zeros]
    return (
        f"<h2 class=warn>Scored 0 by intake: {len(zeros)}</h2>"
        "<p>Their code never ran: the upload was missing, misnamed, empty, did not compile or could not be read. "
        "The student was told why (the message below); a resubmission is graded as usual.</p>"
        + _table(["submission", "names", "why", "message to the student", ""], rows)
    )


def _pending(summary: Summary) -> str:
    if not summary.pending:
        return ""
    rows = [[escape(row.submission.id), _who(row)] for row in summary.pending]
    return (
        f"<h2 class=bad>Not graded yet: {len(rows)}</h2>"
        "<p>An interrupted run (rerun the same command) or a shard not merged yet.</p>"
        f"<details><summary>show them</summary>{_table(['submission', 'names'], rows)}</details>"
    )


def _partly_graded(summary: Summary) -> str:
    problems = summary.engine_problems()
    if not problems:
        return ""
    rows = [
        [escape(row.submission.id), _who(row), escape("; ".join(names[:3]) + (" ..." if len(names) > 3 else ""))]
        for row, names in problems
    ]
    return (
        "<h2 class=bad>Submissions with tests the grader could not run</h2>"
        "<p>Graded, but some tests failed because of the grader, not the submission (see the logs).</p>"
        + _table(["submission", "names", "tests"], rows)
    )


def _not_graded(summary: Summary) -> str:
    if not summary.errors:
        return ""
    rows = []
    for row in summary.errors:
        record = row.record
        reason = record.error or "its results.json is missing"
        log = f"<a href='{escape(record.log)}'>log</a>" if record.log else ""
        rows.append([escape(row.submission.id), _who(row), escape(reason), log])
    return (
        "<h2 class=bad>Submissions the grader could not grade</h2>"
        "<p>These have no score in scores.csv. Rerunning the same command retries them.</p>"
        + _table(["submission", "names", "why", ""], rows)
    )


def _distribution(summary: Summary, plots: list[Path]) -> str:
    if not summary.graded:
        return "<h2>Score distribution</h2><p>No graded submissions yet.</p>"
    bins = summary.histogram()
    most = max(count for _, _, count in bins) or 1
    rows = [[f"{number(low)}&ndash;{number(high)}", str(count), _bar(count / most)] for low, high, count in bins]
    from autograder.batch.plots import HISTOGRAM

    return (
        "<h2>Score distribution</h2>"
        + _img(plots, HISTOGRAM, "score histogram")
        + _table(["total", "submissions", ""], rows, {1})
    )


def _functions(summary: Summary, plots: list[Path]) -> str:
    from autograder.batch.plots import FUNCTION_RATES

    rows = []
    for fn, (ok, n, got, top) in summary.functions.items():
        rate = ok / n if n else 0.0
        rows.append(
            [f"<code>{escape(fn)}</code>", f"{100 * rate:.0f}%", _bar(rate), f"{100 * got / top if top else 0:.0f}%"]
        )
    return (
        "<h2>Pass rates per function</h2><p>Share of submissions passing every test of the function, "
        "and share of its points earned.</p>"
        + _img(plots, FUNCTION_RATES, "pass rates per function")
        + _table(["function", "all tests passed", "", "points earned"], rows, {1, 3})
    )


def _tests(summary: Summary, plots: list[Path]) -> str:
    from autograder.batch.plots import TEST_RATES

    rows = [
        [
            escape(t.name),
            escape(t.title),
            f"<code>{escape(t.function)}</code>",
            escape(t.visibility),
            number(t.max_score),
            f"{100 * t.pass_rate:.0f}%",
            _bar(t.pass_rate),
        ]
        for t in summary.hardest_first()
    ]
    return (
        f"<h2>Pass rates per test</h2><p>Hardest first. The numbers head the test columns of scores.csv "
        f"({KEY_FILE} has their titles).</p>"
        + _img(plots, TEST_RATES, "pass rates per test")
        + _table(["test", "title", "function", "visibility", "points", "passed", ""], rows, {4, 5})
    )


def _mistakes(summary: Summary) -> str:
    """From each test's grader-written mistake ids (``table.diagnosed``), worded by the feedback's MISTAKES, with
    how the grader showed each (``table.exactly_shown``): an exact output match, or a probe or the error alone."""
    if not summary.mistakes:
        return "<h2>Most frequent diagnosed mistakes</h2><p>No known mistake was diagnosed.</p>"
    from autograder.feedback.compare import MISTAKES

    rows = [
        [escape(MISTAKES.get(mistake, mistake)), str(count), f"{exact} exact, {count - exact} by a probe or the error",
         ", ".join(f"<code>{escape(f)}</code>" for f in functions)]
        for mistake, count, functions, exact in summary.mistakes[:20]
    ]
    return ("<h2>Most frequent diagnosed mistakes</h2><p>Ordered by the submissions in which an exact output match "
            "shows the mistake (the student's output equals the grader's own with that mistake); a probe or the "
            "error alone is weaker evidence.</p>"
            + _table(["likely mistake", "submissions", "evidence", "in"], rows, {1}))


def _slowest(summary: Summary) -> str:
    rows = [
        [escape(r.submission.id), _who(r), f"{r.record.seconds:.2f}", number(r.total), _results_link(r)]
        for r in summary.slowest()
    ]
    if not rows:
        return ""
    return "<h2>Slowest submissions</h2>" + _table(["submission", "names", "seconds", "total", ""], rows, {2, 3})


def _since(kept: history.History | None) -> str:
    """What changed since the previous run into this folder (history.py), per student and why."""
    if kept is None:
        return ""
    head = f"<h2>Changes since the previous run</h2><p>This is run {kept.number} in this folder"
    if kept.previous is None:
        return head + f" (kept in {history.RUNS}/{kept.number}/): no earlier run to compare with.</p>"
    previous = kept.number - 1
    head += (f"; run {previous} ended {escape(kept.previous.get('ended', '?'))} and its scores stay in "
             f"<code>{history.RUNS}/{previous}/scores.csv</code>. {_count(len(kept.changes), 'submission')} changed "
             f"(also in <code>{history.CHANGES}</code>).</p>")
    rows = [[escape(c.id), escape(c.names or "(no name)"), number(c.old_total), number(c.new_total),
             escape(c.tests_text() or (c.new_status if c.new_status != c.old_status else "")), escape(c.reason)]
            for c in kept.changes]
    return head + (_table(["submission", "names", "before", "now", "tests changed", "why"], rows, {2, 3})
                   if rows else "")


def _count(n: int, noun: str) -> str:
    return f"{n} {noun}{'' if n == 1 else 's'}"


def _changed(summary: Summary) -> str:
    changed = summary.changed()
    with_scores = [r for r in summary.graded if r.submission.export_score is not None]
    if not with_scores:
        return ""
    head = f"<h2>Changes from the scores in the export</h2><p>{len(changed)} of {len(with_scores)} totals changed.</p>"
    rows = [
        [escape(r.submission.id), _who(r), number(r.submission.export_score), number(r.total)]
        for r in sorted(changed, key=lambda r: r.total - r.submission.export_score)
    ]
    return head + (_table(["submission", "names", "export", "now"], rows, {2, 3}) if rows else "")


def _everyone(summary: Summary) -> str:
    rows = [
        [escape(r.submission.id), _who(r), escape(r.submission.sids), number(r.total), escape(r.status),
         _results_link(r)]
        for r in summary.rows
    ]
    return (
        f"<h2>All submissions</h2><details><summary>show {len(rows)}</summary>"
        + _table(["submission", "names", "sids", "total", "status", ""], rows, {3})
        + "</details>"
    )


def _results_link(row: Row) -> str:
    if row.record is None:
        return ""
    return f"<a href='{escape(row.record.results)}'>results.json</a>"


def write_outputs(
    outdir: Path, submissions: list, version: str, *, title: str, notes: list[str],
    contents: dict[str, str] | None = None,
) -> tuple[Summary, list[str]]:
    """Rebuild scores.csv, the plots and report.html from OUTDIR's state; return the summary and notes.
    ``contents``: each submission's content hash now (a grading of other content is stale); None: not checked."""
    from autograder.batch import plots, table

    summary = table.summarize(table.load_rows(outdir, submissions, version, contents))
    write_csv(summary, outdir / "scores.csv")
    kept = history.record(outdir, summary, version)
    pngs, plot_note = plots.write_plots(summary, outdir / "plots")
    notes = [*notes, plot_note] if plot_note else list(notes)
    write_html(summary, outdir / "report.html", title=title, version=version, plots=pngs, notes=notes, kept=kept)
    return summary, notes
