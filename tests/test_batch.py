"""``python -m autograder batch``: reading exports, sharding, resuming, merging, the CSV and report.

Most tests run the real batch machinery (fork server, pool, outer time limit, state,
outputs) with ``fixtures_export.fake_grade`` in place of the grading engine, so they
are fast and test the batch alone. ``test_batch_equals_grade_alone`` runs the real
engine on a small export and compares every total with ``grade`` on each submission
alone; the 60-submission class run is marked slow (also: benchmarks/bench_batch.py).
"""

from __future__ import annotations

import csv
import json
import os
import sys
import time
import zipfile
from html import escape
from pathlib import Path

import pytest

from autograder import batch
from autograder.batch import export, merge, plots, pool, progress, report, scores, state, table
from autograder.feedback.compare import MISTAKES
from tests import fixtures_export as fx
from tests.homework import HOMEWORK, TOTAL

VERSION = "v" * 64


def fake_export(tmp_path: Path, sources: list[str], **kwargs: object) -> tuple[Path, dict[str, str]]:
    return fx.write_export(tmp_path / "in", sources, **kwargs)


def run_fake(export_path: Path, out: Path, **kwargs: object) -> int:
    options = {"jobs": 2, "timeout": 20.0, "plain": True, "target": fx.FAKE_GRADER, "version": VERSION}
    options.update(kwargs)
    return batch.run(export_path, out, **options)


def read_csv(path: Path) -> list[dict[str, str]]:
    with open(path, newline="", encoding="utf-8") as f:
        return list(csv.DictReader(f))


GOOD = fx.fake_source(*fx.FAKE_FUNCTIONS)
HALF = fx.fake_source("softmax", mistake="mask_after_softmax")


# ---------------------------------------------------------------- reading exports


def test_metadata_with_ruby_symbol_keys_and_group_submissions(tmp_path: Path) -> None:
    path, ids = fake_export(tmp_path, [GOOD] * 12)
    found = export.open_export(path, tmp_path / "out")
    assert [s.id for s in found.submissions] == sorted(ids, key=int)
    first = found.submissions[0]
    assert (first.names, first.emails, first.sids) == ("Ada Lovelace", "student0@example.edu", "3030000000")
    assert first.created_at.startswith("2024-03-01")
    assert first.export_score == 0.0 and found.submissions[1].export_score == 37.0
    group = found.submissions[4]  # i % 11 == 4: two submitters
    assert group.names.count("; ") == 1 and group.sids == "3030000004; 3030001004"
    assert found.submissions[9].names == "<script>alert('x')</script>"
    assert all(s.path is not None and (s.path / "attention.py").is_file() for s in found.submissions)


def test_metadata_keys_without_colons_and_ruby_tags(tmp_path: Path) -> None:
    (tmp_path / "submission_7").mkdir()
    (tmp_path / "submission_12").mkdir()
    (tmp_path / "submission_metadata.yml").write_text(
        "submission_12:\n  submitters:\n  - name: Plain Keys\n    sid: 12\n    email: p@x.edu\n  score: 5\n"
        "submission_7:\n  :submitters:\n  - :name: Big Decimal\n  :score: !ruby/object:BigDecimal 18:0.875e2\n"
    )
    found = export.open_export(tmp_path, tmp_path / "out")
    assert [s.id for s in found.submissions] == ["7", "12"]  # numeric order, not "12" < "7"
    assert found.submissions[0].export_score == 87.5
    assert (found.submissions[1].names, found.submissions[1].sids) == ("Plain Keys", "12")


def test_minimal_reader_without_pyyaml_agrees_with_pyyaml(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path, _ = fake_export(tmp_path, [GOOD] * 30)
    with_yaml = export.open_export(path, tmp_path / "a").submissions
    monkeypatch.setitem(sys.modules, "yaml", None)
    without = export.open_export(path, tmp_path / "b")
    assert any("PyYAML not installed" in note for note in without.notes)
    key = lambda s: (s.id, s.names, s.emails, s.sids, s.export_score, s.created_at[:10])  # noqa: E731
    assert [key(s) for s in without.submissions] == [key(s) for s in with_yaml]


def test_zip_export_reads_like_the_folder(tmp_path: Path) -> None:
    folder, _ = fake_export(tmp_path, [GOOD, HALF, GOOD])
    archive, _ = fx.write_export(tmp_path / "z", [GOOD, HALF, GOOD], as_zip=True)
    a = export.open_export(folder, tmp_path / "a").submissions
    b = export.open_export(archive, tmp_path / "b").submissions
    assert [(s.id, s.names) for s in a] == [(s.id, s.names) for s in b]
    assert all((s.path / "attention.py").read_text() == (t.path / "attention.py").read_text() for s, t in zip(a, b))


def test_zip_entries_cannot_escape_the_output(tmp_path: Path) -> None:
    archive = tmp_path / "evil.zip"
    with zipfile.ZipFile(archive, "w") as zf:
        zf.writestr("../escaped.txt", "x")
        zf.writestr("/abs.txt", "x")
        zf.writestr("alice/attention.py", GOOD)
    found = export.open_export(archive, tmp_path / "out")
    assert [s.id for s in found.submissions] == ["alice"]
    assert not (tmp_path / "escaped.txt").exists() and not Path("/abs.txt").exists()


def test_without_metadata_each_folder_or_file_is_a_submission(tmp_path: Path) -> None:
    (tmp_path / "bob").mkdir()
    (tmp_path / "bob" / "attention.py").write_text(GOOD)
    (tmp_path / "carol.ipynb").write_text("{}")
    (tmp_path / "dave.py").write_text(GOOD)
    (tmp_path / "dave.ipynb").write_text("{}")
    (tmp_path / ".DS_Store").write_text("")
    (tmp_path / "out").mkdir()  # the output folder may sit among the submissions: never one of them
    found = export.open_export(tmp_path, tmp_path / "out")
    assert [s.id for s in found.submissions] == ["bob", "carol", "dave.ipynb", "dave.py"]
    assert found.metadata is None and "no submission_metadata.yml" in found.notes[0]


def test_missing_and_unlisted_folders_are_reported(tmp_path: Path) -> None:
    path, ids = fake_export(tmp_path, [GOOD, GOOD])
    gone = sorted(ids)[0]
    for f in (path / f"submission_{gone}").iterdir():
        f.unlink()
    (path / f"submission_{gone}").rmdir()
    (path / "late_upload").mkdir()
    (path / "late_upload" / "attention.py").write_text(GOOD)
    found = export.open_export(path, tmp_path / "out")
    by_id = {s.id: s for s in found.submissions}
    assert by_id[gone].path is None and by_id["late_upload"].names == ""
    assert len(found.notes) == 2


# ---------------------------------------------------------------- shards


def test_shards_are_deterministic_disjoint_and_cover_the_class(tmp_path: Path) -> None:
    path, ids = fake_export(tmp_path, [GOOD] * 23)
    subs = export.open_export(path, tmp_path / "out").submissions
    for n in range(1, 6):
        slices = [[s.id for s in batch.select_shard(subs, (i, n))] for i in range(1, n + 1)]
        flat = [x for piece in slices for x in piece]
        assert sorted(flat) == sorted(ids) and len(flat) == len(set(flat))
        assert max(map(len, slices)) - min(map(len, slices)) <= 1
        again = export.open_export(path, tmp_path / "again").submissions
        assert slices == [[s.id for s in batch.select_shard(again, (i, n))] for i in range(1, n + 1)]
    assert batch.parse_shard("2/4") == (2, 4)
    for bad in ("0/3", "4/3", "1-3", "x/y"):
        with pytest.raises(ValueError):
            batch.parse_shard(bad)


# ---------------------------------------------------------------- the batch run (fake engine)


def test_batch_outputs_and_a_hostile_submission_costs_only_its_limit(tmp_path: Path) -> None:
    sources = [GOOD, HALF, fx.fake_source(), "FAKE_HANG", "FAKE_DIE", "FAKE_RAISE", GOOD, HALF]
    path, ids = fake_export(tmp_path, sources)
    out = tmp_path / "out"
    started = time.monotonic()
    status = run_fake(path, out, timeout=4.0)
    assert time.monotonic() - started < 20
    assert status == 1  # three submissions the grader could not grade
    order = sorted(ids, key=int)
    rows = read_csv(out / "scores.csv")
    assert [r["submission_id"] for r in rows] == order
    assert list(rows[0])[:6] == ["submission_id", "names", "emails", "sids", "total", "status"]
    assert list(rows[0])[6:] == ["1", "2", "3"]  # the tests' numbers; their titles are in the key file
    assert read_csv(out / "scores_key.csv") == [
        {"column": str(n), "test": f"{fn}: matches the reference", "function": fn, "visibility": "visible",
         "points": "10"} for n, fn in enumerate(fx.FAKE_FUNCTIONS, 1)]
    assert [r["total"] for r in rows] == ["30", "10", "0", "", "", "", "30", "10"]
    assert [r["status"] for r in rows] == ["graded"] * 3 + ["grader error"] * 3 + ["graded"] * 2
    assert rows[1]["1"] == "10" and rows[1]["3"] == "0"
    records = state.load_records(out)
    errors = {i: records[order[i]].error for i in (3, 4, 5)}
    assert "time limit of 4 s" in errors[3]
    assert "exited with code 7" in errors[4]
    assert "RuntimeError: the fake engine broke" in errors[5]
    for sid in ids:
        data = json.loads(state.results_path(out, sid).read_text())
        assert isinstance(data["tests"], list) and "execution_time" in data
    assert "fake grader:" in state.log_path(out, order[0]).read_text()
    assert "Traceback" in state.log_path(out, order[5]).read_text()
    html = (out / "report.html").read_text()
    assert "could not grade" in html and escape(MISTAKES["mask_after_softmax"]) in html  # from the grader's id
    assert sorted(p.name for p in (out / "plots").glob("*.png")) == sorted(
        ["score_histogram.png", "test_pass_rates.png", "function_pass_rates.png"]
    )
    run_info = json.loads((out / "batch.json").read_text())
    assert run_info["version"] == VERSION and len(run_info["submissions"]) == len(ids)


def test_rerun_skips_what_this_version_graded_and_retries_errors(tmp_path: Path) -> None:
    path, ids = fake_export(tmp_path, [GOOD, HALF, "FAKE_RAISE", GOOD])
    out = tmp_path / "out"
    assert run_fake(path, out) == 1
    assert len((out / "state.jsonl").read_text().splitlines()) == 4
    before = {sid: state.results_path(out, sid).stat().st_mtime_ns for sid in ids}
    assert run_fake(path, out) == 1
    lines = (out / "state.jsonl").read_text().splitlines()
    assert len(lines) == 5  # only the grader error was retried
    after = {sid: state.results_path(out, sid).stat().st_mtime_ns for sid in ids}
    assert sum(before[s] != after[s] for s in ids) == 1
    assert run_fake(path, out, version="w" * 64) == 1  # a new autograder version regrades all
    assert len((out / "state.jsonl").read_text().splitlines()) == 9
    (out / "state.jsonl").write_text((out / "state.jsonl").read_text() + '{"id": "cut sho')  # interrupted write
    broken = sorted(ids, key=int)[2]
    assert state.done_ids(out, "w" * 64) == set(ids) - {broken}
    state.append_record(out, state.Record("next", "w" * 64, state.GRADED, "results/next.json", 1.0))
    assert "next" in state.load_records(out)  # not glued to the cut line


def test_interrupt_kills_running_graders_and_the_rerun_resumes(tmp_path: Path) -> None:
    path, ids = fake_export(tmp_path, [GOOD, "FAKE_HANG", GOOD, GOOD])
    out = tmp_path / "out"
    subs = export.open_export(path, out).submissions
    tasks = [
        pool.Task(s.id, str(s.path), str(state.results_path(out, s.id)), str(state.log_path(out, s.id))) for s in subs
    ]
    seen: list[str] = []
    pids: list[int] = []
    real_start = pool._start

    def start(*args: object) -> pool._Running:
        job = real_start(*args)
        pids.append(job.process.pid)
        return job

    def on_done(outcome: pool.Outcome) -> None:
        seen.append(outcome.id)
        graded = next(s.path for s in subs if s.id == outcome.id)
        state.append_record(out, state.Record(outcome.id, VERSION, outcome.status,
                                              f"results/{state.file_stem(outcome.id)}.json", 0.1,
                                              content=state.content_hash(graded)))
        raise KeyboardInterrupt

    pool._start = start
    try:
        with pytest.raises(KeyboardInterrupt):
            pool.grade_all(tasks, on_done, jobs=2, timeout=60, target=fx.FAKE_GRADER)
    finally:
        pool._start = real_start
    time.sleep(0.2)
    for pid in pids:
        with pytest.raises(ProcessLookupError):
            os.kill(pid, 0)
    assert len(seen) == 1
    tasks_left = len(ids) - 1
    assert run_fake(path, out, timeout=3.0) == 1  # the hanging one is a grader error
    assert len((out / "state.jsonl").read_text().splitlines()) == 1 + tasks_left


def test_merge_of_shards_equals_the_whole_run(tmp_path: Path) -> None:
    sources = [GOOD, HALF, fx.fake_source("rope", mistake="no_scale"), GOOD, HALF, fx.fake_source()] * 2
    path, _ = fake_export(tmp_path, sources)
    assert run_fake(path, tmp_path / "whole") == 0
    for i in (1, 2, 3):
        assert run_fake(path, tmp_path / f"s{i}", shard=(i, 3)) == 0
    shards = [str(tmp_path / f"s{i}") for i in (1, 2, 3)]
    assert batch.main(["--merge", *shards, "-o", str(tmp_path / "merged")]) == 0
    assert (tmp_path / "merged" / "scores.csv").read_text() == (tmp_path / "whole" / "scores.csv").read_text()
    assert (tmp_path / "merged" / "report.html").is_file()
    # Missing shard: merged with a warning and a non-zero status.
    assert batch.main(["--merge", *shards[:2], "-o", str(tmp_path / "partial")]) == 1
    # Mixed autograder versions: refused.
    assert run_fake(path, tmp_path / "stale", shard=(3, 3), version="s" * 64) == 0
    with pytest.raises(merge.MergeError, match="different autograder versions"):
        merge.merge([tmp_path / "s1", tmp_path / "s2", tmp_path / "stale"], tmp_path / "mixed")
    assert batch.main(["--merge", shards[0], str(tmp_path / "stale"), "-o", str(tmp_path / "mixed")]) == 2


def test_csv_and_report_escape_student_strings(tmp_path: Path) -> None:
    path, _ = fake_export(tmp_path, [GOOD] * 50)
    out = tmp_path / "out"
    assert run_fake(path, out) == 0
    rows = read_csv(out / "scores.csv")
    assert rows[9]["names"] == "<script>alert('x')</script>"
    assert rows[19]["emails"].startswith("'=cmd")  # no formula injection in spreadsheets
    assert rows[39]["names"] == "\\u202eevil\\u202c Mallory"  # a bidi override shown, not obeyed
    assert rows[49]["names"] == "'\uff1dSUM(A1)"  # full-width formulas defused too
    html = (out / "report.html").read_text()
    assert "<script>" not in html and "&lt;script&gt;alert(&#x27;x&#x27;)&lt;/script&gt;" in html
    for text in (html, (out / "scores.csv").read_text()):
        assert not any(c in text for c in "\u202e\u202c\x1b"), "no bidi or escape character reaches a TA"


def test_mistakes_are_counted_by_the_graders_ids_per_submission(tmp_path: Path) -> None:
    mask = next(iter(MISTAKES))
    sources = [fx.fake_source(mistake=mask)] * 3 + [fx.fake_source("softmax", mistake="other_id")] + [GOOD]
    sources += [fx.fake_source(mistake="probed_id", extra="FAKE_PROBED")] * 4  # more, but shown by a probe only
    sources.append(fx.fake_source(extra="FAKE_FORGED_MISTAKE"))  # "**Likely mistake:**" printed by student code
    path, _ = fake_export(tmp_path, sources)
    out = tmp_path / "out"
    assert run_fake(path, out) == 0
    subs = export.open_export(path, out).submissions
    summary = table.summarize(table.load_rows(out, subs, VERSION))
    assert summary.mistakes == [(mask, 3, ["causal_mask", "rope", "softmax"], 3),
                                ("other_id", 1, ["causal_mask", "rope"], 1),
                                ("probed_id", 4, ["causal_mask", "rope", "softmax"], 0)]  # exact evidence first
    assert summary.functions["softmax"][:2] == (2, 10)  # all tests of softmax passed in 2 of 10
    html = (out / "report.html").read_text()
    assert escape(MISTAKES[mask]) in html and "forged" not in html
    assert "3 exact, 0 by a probe or the error" in html and "0 exact, 4 by a probe or the error" in html


@pytest.mark.parametrize("extra", [None, {}, {"mistakes": "no_scale"}, {"mistakes": [3, None, ""]}, []])
def test_a_test_without_grader_mistake_ids_counts_nothing(extra: object) -> None:
    test = {"output": "**Likely mistake:** printed by the student"}
    test.update({"extra_data": extra} if extra is not None else {})
    assert table.diagnosed(test) == []


def test_plots_are_drawn_side_by_side_in_order_and_an_error_in_a_child_shows_here(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(os, "sched_getaffinity", lambda pid: {0, 1}, raising=False)  # as on a 2-core machine
    drawers: list[int] = []

    def ok(plt: object, summary: object, path: Path) -> Path:
        drawers.append(os.getpid())  # the children's appends stay in the children
        path.write_text(str(os.getpid()))
        return path

    def broken(plt: object, summary: object, path: Path) -> Path:
        raise RuntimeError("no fonts here")

    paths = [tmp_path / name for name in ("a.png", "b.png", "c.png")]
    assert plots._draw(None, None, [(ok, p) for p in paths]) == paths
    writers = {p.read_text() for p in paths}
    assert drawers == [os.getpid()] and len(writers) == 3  # the first here, the other two in two children
    with pytest.raises(RuntimeError, match="no fonts here"):  # failed in its child, drawn again here
        plots._draw(None, None, [(ok, paths[0]), (broken, paths[1])])


def test_without_tqdm_and_matplotlib_batch_still_works_and_says_so(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture
) -> None:
    for name in ("tqdm", "matplotlib", "matplotlib.pyplot"):
        monkeypatch.setitem(sys.modules, name, None)
    monkeypatch.setattr(progress, "_is_terminal", lambda stream: True)  # tqdm is wanted on a terminal only
    path, _ = fake_export(tmp_path, [GOOD, HALF])
    out = tmp_path / "out"
    assert run_fake(path, out, plain=False) == 0
    printed = capsys.readouterr()
    assert "tqdm not installed" in printed.out and "matplotlib not installed" in printed.out
    assert "submissions/s" in printed.err
    assert not (out / "plots").exists() and "matplotlib not installed" in (out / "report.html").read_text()


# ---------------------------------------------------------------- the real engine

GRADED_SUITE = HOMEWORK.tests
needs_engine = pytest.mark.skipif(not any(GRADED_SUITE.glob("test_*.py")), reason="the graded suite is not written yet")


@needs_engine
def test_batch_equals_grade_alone(tmp_path: Path) -> None:
    """Each submission gets from batch exactly what `grade` gives it alone (totals and every test)."""
    from autograder.commands import grade
    from tests.submissions import notebook_from_source

    bugs = fx.buggy_sources()
    sources = [
        fx.REFERENCE.read_text(),
        bugs["forgot_scale"],
        bugs["mask_after_softmax"],
        fx.blank_source(),
        bugs["cache_overwrites"],
    ]
    path, ids = fx.write_export(tmp_path / "in", sources)
    notebook = path / "submission_999999999"
    notebook.mkdir()
    (notebook / "attention.ipynb").write_text(notebook_from_source(fx.REFERENCE.read_text(), scratch=True))
    out = tmp_path / "out"
    status = batch.run(path, out, jobs=2, plain=True)
    assert status == 0, [r.error for r in state.load_records(out).values() if r.error]
    rows = {row["submission_id"]: row for row in read_csv(out / "scores.csv")}
    assert len(rows) == 6
    for sid in [*ids, "999999999"]:
        alone = grade.grade(path / f"submission_{sid}")
        mine = json.loads(state.results_path(out, sid).read_text())
        assert float(rows[sid]["total"]) == alone["score"] == mine["score"], sid
        assert [(t["name"], t["score"], t["status"]) for t in mine["tests"]] == [
            (t["name"], t["score"], t["status"]) for t in alone["tests"]
        ], sid
    assert float(rows["999999999"]["total"]) == TOTAL
    html = (out / "report.html").read_text()
    assert "Likely mistake" not in html  # the sentences are shown, not the markdown
    summary = table.summarize(
        table.load_rows(out, export.open_export(path, out).submissions, state.autograder_version())
    )
    written = {m for sid in [*ids, "999999999"] for t in json.loads(state.results_path(out, sid).read_text())["tests"]
               for m in table.diagnosed(t)}  # the grader's ids (issue 13 adds them to every graded test)
    assert {m for m, _, _, _ in summary.mistakes} == written


@needs_engine
@pytest.mark.slow
@pytest.mark.skipif(not os.environ.get("AUTOGRADER_SLOW"), reason="set AUTOGRADER_SLOW=1 (a few minutes)")
def test_a_class_of_60_regraded_like_grade_alone_at_2_per_second() -> None:
    sys.path.insert(0, str(fx.REPO / "benchmarks"))
    import bench_batch

    assert bench_batch.main(["--n", "60", "--correct", "60", "--jobs", "2"]) == 0


def test_a_stopped_batch_cleans_up_and_says_what_is_left(tmp_path: Path) -> None:
    """SIGTERM (a job scheduler's stop, like Ctrl-C): graders killed, outputs written, exit 130."""
    import signal
    import subprocess

    path, ids = fake_export(tmp_path, [GOOD, GOOD, "FAKE_HANG", "FAKE_HANG", GOOD, GOOD])
    out = tmp_path / "out"
    driver = (
        "import sys; from pathlib import Path; from autograder import batch; "
        f"sys.exit(batch.run(Path({str(path)!r}), Path({str(out)!r}), jobs=2, plain=True, "
        f"target={fx.FAKE_GRADER!r}, version={VERSION!r}))"
    )
    proc = subprocess.Popen([sys.executable, "-c", driver], cwd=fx.REPO, stdout=subprocess.PIPE, text=True)
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline and len(state.load_records(out)) < 2:
        time.sleep(0.1)
    time.sleep(0.5)  # both graders are now stuck on the hanging submissions
    proc.send_signal(signal.SIGTERM)
    stdout, _ = proc.communicate(timeout=30)
    assert proc.returncode == 130, stdout
    assert "rerun the same command to resume" in stdout and "not graded yet" in stdout
    assert "Not graded yet" in (out / "report.html").read_text()
    logs = [out / "logs" / f"{sid}.log" for sid in ids if sid not in state.load_records(out)]
    pids = [int(log.read_text().split("pid ")[1].split()[0]) for log in logs if log.exists()]
    assert len(pids) == 2, "both hanging submissions had started"
    time.sleep(0.2)
    for pid in pids:  # killed, not left running
        with pytest.raises(ProcessLookupError):
            os.kill(pid, 0)


def test_a_batch_makes_one_sandbox_user_per_parallel_slot_up_front(monkeypatch: pytest.MonkeyPatch) -> None:
    from autograder.batch import isolation

    monkeypatch.delenv(isolation.USERS_ENV, raising=False)
    environments, notes = isolation.slot_environments(3)
    if os.geteuid() != 0:
        assert environments is None and "Not root" in notes[0]
        return
    import pwd

    assert environments == [{}, {}, {}]  # each grading locks a free user of the pool itself (sandbox/lock.py)
    users = isolation.slot_users(3)
    assert len(set(users)) == 3
    uids = {pwd.getpwnam(name).pw_uid for name in users}  # created when missing
    assert len(uids) == 3 and 0 not in uids
    assert os.environ[isolation.USERS_ENV] == ",".join(users)


def _row(sid: str, names: str, status: str = state.GRADED, extra: dict | None = None) -> table.Row:
    record = state.Record(sid, VERSION, status, f"results/{sid}.json", 0.1)
    results = {"score": 0.0, "tests": [{"name": "t", "score": 0.0, "max_score": 10.0, "status": "failed"}],
               "extra_data": extra or {}}
    submitter = export.Submitter(name=names)
    return table.Row(export.Submission(sid, None, (submitter,)), record, results if status == state.GRADED else None)


def test_every_zero_has_a_status_and_the_report_lists_intake_zeros_in_amber() -> None:
    message = "No `attention.py` or `attention.ipynb` in your submission (found: `<b>hw</b>.pdf`)."
    rows = [
        _row("1", "Ada"),
        _row("2", "<script>x</script>", extra={"intake": {"status": "misnamed", "message": message}}),
        _row("3", "Alan", extra={"intake": {"status": "empty", "message": "`attention.py` is empty."}}),
        _row("4", "Grace", status=state.GRADER_ERROR),
        _row("5", "Edsger", extra={"defines_none": True}),
        table.Row(export.Submission("6", None), None, None),
    ]
    summary = table.summarize(rows)
    with_status = {r["submission_id"]: r["status"] for r in csv.DictReader(scores.csv_text(summary).splitlines())}
    assert with_status == {"1": "graded", "2": "not graded: misnamed", "3": "not graded: empty", "4": "grader error",
                           "5": "graded: defines none of the graded functions", "6": "not graded yet"}
    html = report.html_text(summary, title="t", version=VERSION, plots=[], notes=[])
    assert "<h2 class=warn>Scored 0 by intake: 2</h2>" in html
    assert "<div class='card warn'><b>2</b>scored 0 by intake</div>" in html
    assert escape(message) in html and "<b>hw</b>" not in html and "<script>" not in html


@pytest.mark.parametrize(
    ("files", "submissions"),
    [
        ({"alice.py": "x = 1\n", "dave.ipynb": "{}", "notes.txt": "x"}, ["alice", "dave", "notes"]),
        ({"attention.py": "x = 1\n", "helpers.py": "y = 2\n"}, ["hw4"]),
        ({"Attn.py": "from helpers import f\n", "helpers.py": "def f(): pass\n"}, ["Attn", "helpers"]),
        ({"Attn.py": "x = 1\n", "test_attention.py": "y = 2\n"}, ["hw4"]),
    ],
    ids=["loose per-student files", "a student's folder", "an import never groups files (issue 28)",
         "a file and our tests"],
)
def test_a_lone_folder_of_loose_per_student_files_is_a_class(tmp_path: Path, files: dict, submissions: list) -> None:
    for name, text in files.items():
        (tmp_path / "in" / "hw4").mkdir(parents=True, exist_ok=True)
        (tmp_path / "in" / "hw4" / name).write_text(text)
    found = export.open_export(tmp_path / "in", tmp_path / "out").submissions
    assert [s.id for s in found] == submissions
