"""``autograder batch``: regrade a whole class from a Gradescope export.

    autograder batch EXPORT -o OUTDIR [--jobs N] [--shard i/n | --shard auto [--shards N]] [--timeout S]
                     [--force] [--plain] [--allow-root-students]
    autograder batch --merge OUTDIR1 OUTDIR2 ... -o OUT

EXPORT is Gradescope's "Export Submissions" zip or folder (``submission_metadata.yml``
next to ``submission_<id>/`` folders), or any folder of per-student subfolders or
files. Each submission is graded by the same engine and the same function as on
Gradescope (``runner.grade_folder``), in its own process forked from a warm grader
(numpy, pytest and the engine imported once), at most N at a time.

OUTDIR gets ``scores.csv`` (and ``scores_key.csv``: its test numbers' titles), ``report.html``,
``plots/*.png``, ``results/<id>.json`` (each submission's results.json), ``logs/<id>.log``,
``state.jsonl``, ``batch.json``, ``changes.csv`` (what changed since the previous run into OUTDIR: per
student, the old and new total, the tests that changed and why) and ``runs/<n>/`` (every run kept:
its scores.csv stays readable after the next run).

Interrupted? Rerun the same command: submissions already graded by the same
autograder version (a sha256 of the zip's contents) with the same content (a sha256 of
what intake reads) are skipped; a changed test or case regrades everything, a new export
regrades the submissions whose files changed. ``--shard i/n`` (1 <= i <= n) grades the submissions at
positions i-1, i-1+n, i-1+2n, ... of the export sorted by submission id (numeric ids
numerically), so n machines with the same export and command but i = 1..n cover the
class exactly once; ``--merge`` then combines their OUTDIRs. ``--shard auto`` takes i and n from a job
scheduler's array: Slurm's ``SLURM_ARRAY_TASK_ID`` (i is its rank from ``SLURM_ARRAY_TASK_MIN``, by
``SLURM_ARRAY_TASK_STEP``) and ``SLURM_ARRAY_TASK_COUNT``, or a Kubernetes Indexed Job's
``JOB_COMPLETION_INDEX`` (0-based) with n from ``--shards N`` or ``AUTOGRADER_SHARDS`` (the Job's
``completions``). ``--shards N`` overrides the count Slurm gives.

SIGTERM and SIGHUP (a closed terminal) stop it like Ctrl-C; should it be killed outright, its
gradings die with it, and the next run removes what it left in TMPDIR (batch/lifeline.py).

Exit status: 0 when every submission was graded, 1 when the grader could not grade
some or some are not graded yet (both listed in the report; a rerun retries them),
2 on usage errors, 130 when interrupted.
"""

from __future__ import annotations

import argparse
import os
import signal
import sys
import threading
import time
from collections import Counter
from pathlib import Path

from autograder.batch import isolation, lifeline, plots, pool, progress, report, state
from autograder.batch import merge as merging
from autograder.batch.export import Export, ExportError, Submission, open_export
from autograder.batch.shards import auto_shard, parse_shard, select_shard
from autograder.batch.table import Summary
from autograder.results.hygiene import visible
from autograder.sandbox import accounts, namespace

RUN_FILE = merging.RUN_FILE
STOP_SIGNALS = (signal.SIGTERM, signal.SIGHUP)  # handled like Ctrl-C (SIGKILL: lifeline.py)


def main(argv: list[str]) -> int:
    args = _parser().parse_args(argv)
    if args.merge:
        return _merge(args)
    if args.export is None:
        print("batch: give an EXPORT to grade, or --merge OUTDIR...", file=sys.stderr)
        return 2
    try:
        if args.shards is not None and args.shard != "auto":
            raise ValueError("--shards N goes with --shard auto (--shard i/n gives n itself)")
        shard = (auto_shard(os.environ, args.shards) if args.shard == "auto" else parse_shard(args.shard)
                 ) if args.shard else None
    except ValueError as error:
        print(f"batch: {error}", file=sys.stderr)
        return 2
    from autograder.suite import stamp

    stale = stamp.refusal()
    if stale:  # every submission would be graded against an old oracle or old cases
        print(f"batch: {stale}", file=sys.stderr)
        return 3
    timeout = args.timeout or pool.default_timeout()
    return run(
        args.export, args.output, jobs=args.jobs, shard=shard, timeout=timeout, force=args.force, plain=args.plain,
        allow_root=args.allow_root_students, allow_exposed=args.allow_exposed,
    )


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="autograder batch",
        usage="%(prog)s EXPORT -o OUTDIR [--jobs N] [--shard i/n | --shard auto [--shards N]] [--timeout S] "
        "[--force] [--plain] [--allow-root-students]\n"
        "       %(prog)s --merge OUTDIR [OUTDIR ...] -o OUT",
        description=__doc__.split("\n\n")[0].split(": ", 1)[1].replace("``", "`"),
        formatter_class=argparse.RawDescriptionHelpFormatter,
        epilog="\n\n".join(__doc__.split("\n\n")[2:]).replace("``", "`"),
    )
    parser.add_argument(
        "export", nargs="?", type=Path, help="Gradescope export (zip or folder), or a folder of submissions"
    )
    parser.add_argument("-o", "--output", type=Path, required=True, help="output folder (reused to resume)")
    parser.add_argument("-j", "--jobs", type=_positive, default=os.cpu_count() or 1,
                        help="parallel graders, at least 1 (default: cores)")
    parser.add_argument("--shard", metavar="i/n",
                        help="grade only the i-th of n deterministic slices (1-based); `auto`: from a Slurm job "
                        "array or a Kubernetes Indexed Job (see below)")
    parser.add_argument("--shards", type=_positive, metavar="N",
                        help="with --shard auto: how many slices (default SLURM_ARRAY_TASK_COUNT or AUTOGRADER_SHARDS)")
    parser.add_argument(
        "--timeout",
        type=float,
        help="outer wall-clock limit per submission, a backstop behind the engine's own limits "
        "(default: the engine's budget for student code + 2 minutes)",
    )
    parser.add_argument("--force", action="store_true", help="regrade everything, even what is already graded")
    parser.add_argument("--merge", nargs="+", type=Path, metavar="OUTDIR", help="merge these batch outputs into -o")
    parser.add_argument("--plain", action="store_true", help="plain-text progress lines even if tqdm is installed")
    parser.add_argument(accounts.ALLOW_FLAG, action="store_true",
                        help="grade even though, with no namespaces here, the sandbox users can read this checkout, "
                        "the export or OUTDIR")
    parser.add_argument("--allow-root-students", action="store_true",
                        help="as root, grade even if student code would run as root (no usable sandbox user)")
    return parser


def _positive(text: str) -> int:
    """An integer >= 1 (argparse type): ``--jobs 0`` would grade nothing."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a whole number: {text!r}") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be at least 1, not {value}")
    return value


def run(
    export_path: Path,
    outdir: Path,
    *,
    jobs: int = 2,
    shard: tuple[int, int] | None = None,
    timeout: float | None = None,
    force: bool = False,
    plain: bool = False,
    target: str = pool.GRADE_FUNCTION,
    version: str | None = None,
    stats: dict | None = None,
    allow_root: bool = False,
    allow_exposed: bool = False,
) -> int:
    """Grade the export into ``outdir``; the exit status of the command.

    ``timeout`` is the outer limit per submission (default: ``pool.default_timeout()``);
    ``target`` the grading function ("module:function", called with the submission
    folder); ``version`` overrides the autograder version (tests); ``stats``, if
    given, receives ``graded`` and ``seconds`` of the grading phase (benchmarks); ``allow_root``
    lets student code run as root when no sandbox user can run it (see batch/isolation.py);
    ``allow_exposed`` lets it run where the sandbox users can read this checkout, the export or OUTDIR
    (no namespaces here: see sandbox/accounts.py). As root, everything written is private (umask 077).
    """
    timeout = timeout or pool.default_timeout()
    stats = {} if stats is None else stats
    umask = os.umask(0o077) if os.geteuid() == 0 else None  # results, state, logs, copies: root's alone
    try:
        with state.locked(outdir) as mine:
            if not mine:
                print(f"batch: another batch is running in {outdir}; wait for it or choose another -o",
                      file=sys.stderr)
                return 2
            return _run(export_path, outdir, jobs, shard, timeout, force, plain, target, version, stats,
                        (allow_root, allow_exposed))
    finally:
        if umask is not None:
            os.umask(umask)


def _run(
    export_path: Path,
    outdir: Path,
    jobs: int,
    shard: tuple[int, int] | None,
    timeout: float,
    force: bool,
    plain: bool,
    target: str,
    version: str | None,
    stats: dict,
    allowed: tuple[bool, bool],
) -> int:
    version = version or state.autograder_version()
    try:
        export = open_export(export_path, outdir)
    except ExportError as error:
        print(f"batch: {error}", file=sys.stderr)
        return 2
    chosen = select_shard(export.submissions, shard)
    contents = {s.id: state.content_hash(s.path) for s in chosen}
    try:
        _write_run(outdir, export_path, export, chosen, shard, version, contents)
    except OSError as error:
        print(f"batch: cannot write to {outdir} ({error.strerror or error}); free some space and rerun",
              file=sys.stderr)
        return 1
    done = set() if force else state.done_ids(outdir, version, contents)
    todo = [s for s in chosen if s.id not in done]
    label = f"shard {shard[0]}/{shard[1]}: " if shard else ""
    for note in export.notes:
        print(visible(f"batch: {note}"))
    print(
        f"batch: {len(export.submissions)} submissions in the export; {label}{len(todo)} left to grade "
        f"({len(chosen) - len(todo)} of {len(chosen)} already graded by autograder {version[:12]}); "
        f"{jobs} warm graders, outer limit {timeout:g} s each"
    )
    try:
        environments, isolation_notes = isolation.slot_environments(jobs, allow_root=allowed[0]) if todo else (None, [])
    except isolation.RootStudentsError as error:
        print(f"batch: {error}", file=sys.stderr)
        return 2
    slot_users = isolation.slot_users(jobs) if environments else []  # each grading takes a free one (lock.py)
    user = slot_users[0] if slot_users else ""
    refusal = accounts.refusal(user, [export_path, outdir], allowed=allowed[1]) if environments else ""
    if refusal and not allowed[1]:
        print(f"batch: {refusal}", file=sys.stderr)
        report.write_outputs(outdir, chosen, version, title=_title(export_path, shard), notes=[*export.notes, refusal],
                             contents=contents)
        return 2
    if refusal:
        isolation_notes.append(refusal)  # printed below, and in report.html
    if todo:
        users = ", ".join(slot_users) if slot_users else None
        print(f"batch: isolation: {'; '.join(namespace.layers(users, namespace.unavailable()))}")
    for note in isolation_notes:
        print(f"batch: {note}", file=sys.stderr)
    if todo:
        left = lifeline.remove_stale()  # what a killed batch left in TMPDIR (its gradings died with it)
        if left:
            print(f"batch: removed {len(left)} folders a killed batch left: {', '.join(left[:3])}"
                  + (" ..." if len(left) > 3 else ""))
        plots.import_in_background()  # while the warm graders start (plots.py)
    bar = progress.Progress(len(chosen), done=len(chosen) - len(todo), plain=plain)
    if bar.note:
        print(f"batch: {bar.note}")
    started = time.monotonic()
    interrupted, stopped = False, ""
    main_thread = threading.current_thread() is threading.main_thread()
    if main_thread:  # a job scheduler's stop (SIGTERM) and a closed terminal (SIGHUP) clean up like Ctrl-C
        previous = {sig: signal.signal(sig, _interrupt) for sig in STOP_SIGNALS
                    if signal.getsignal(sig) != signal.SIG_IGN}  # under nohup, a hangup stays ignored
    try:
        _grade(todo, outdir, (version, contents), bar, jobs=jobs, timeout=timeout, target=target,
               environments=environments)
    except KeyboardInterrupt:
        interrupted = True
    except state.OutputError as error:  # a full disk: stop cleanly, what was recorded stays valid
        stopped = str(error)
    finally:
        if main_thread:
            for sig, handler in previous.items():
                signal.signal(sig, handler)
        bar.close()
    elapsed = time.monotonic() - started
    stats.update(graded=bar.graded_now, seconds=elapsed)
    if interrupted:
        print(f"\nbatch: interrupted after {bar.graded_now} submissions; rerun the same command to resume")
    if stopped:
        print(f"\nbatch: stopped after {bar.graded_now} submissions: {stopped}. Free some space and rerun the same "
              "command to resume (what is recorded as graded is not graded again)", file=sys.stderr)
    try:
        summary, notes = report.write_outputs(
            outdir, chosen, version, title=_title(export_path, shard),
            notes=export.notes + isolation_notes + ([bar.note] if bar.note else []) + ([stopped] if stopped else []),
            contents=contents,
        )
    except OSError as error:
        print(f"batch: could not write scores.csv, report.html or the plots in {outdir} ({error.strerror or error}); "
              "free some space and rerun the same command: it only rewrites them", file=sys.stderr)
        return 130 if interrupted else 1
    _print_summary(outdir, summary, notes, bar.graded_now, elapsed)
    if interrupted:
        return 130
    return 1 if summary.errors or summary.pending or stopped else 0


def _interrupt(signum: int, frame: object) -> None:
    raise KeyboardInterrupt


def _grade(todo: list[Submission], outdir: Path, key: tuple[str, dict[str, str]], bar: progress.Progress,
           **options: object) -> None:
    """Grade ``todo``, recording each with ``key``: the autograder version and each submission's content hash."""
    version, contents = key
    tasks = []
    for submission in todo:
        results = state.results_path(outdir, submission.id)
        log = state.log_path(outdir, submission.id)
        if submission.path is None:
            try:
                _missing(outdir, submission, version, results)
            except OSError as error:
                raise state.OutputError(f"{outdir} cannot be written ({error.strerror or error})") from None
            bar.update(submission.id, error=True)
            continue
        tasks.append(pool.Task(submission.id, str(submission.path), str(results), str(log)))

    def done(outcome: pool.Outcome) -> None:
        record = state.Record(
            id=outcome.id,
            version=version,
            status=outcome.status,
            results=state.results_path(outdir, outcome.id).relative_to(outdir).as_posix(),
            seconds=outcome.seconds,
            error=outcome.error,
            log=state.log_path(outdir, outcome.id).relative_to(outdir).as_posix(),
            content=contents.get(outcome.id, ""),
        )
        try:
            state.append_record(outdir, record)
        except OSError as error:  # stops the pool (its gradings are killed); state.jsonl stays readable
            raise state.OutputError(f"{outdir / 'state.jsonl'} cannot be written ({error.strerror or error})") from None
        bar.update(outcome.id, error=outcome.status != state.GRADED)

    pool.grade_all(tasks, done, **options)


def _missing(outdir: Path, submission: Submission, version: str, results: Path) -> None:
    reason = "the submission's folder is listed in submission_metadata.yml but missing from the export"
    pool.write_results(results, pool.fallback_results(pool.GRADER_FAILED))
    relative = results.relative_to(outdir).as_posix()
    state.append_record(outdir, state.Record(submission.id, version, state.GRADER_ERROR, relative, 0.0, reason))


def _write_run(
    outdir: Path, export_path: Path, export: Export, chosen: list[Submission], shard: tuple | None, version: str,
    contents: dict[str, str],
) -> None:
    state.write_json(
        outdir / RUN_FILE,
        {
            "format": 1,
            "version": version,
            "export": str(export_path.resolve()),
            "export_submissions": len(export.submissions),
            "shard": list(shard) if shard else None,
            "submissions": [s.to_json() for s in chosen],
            "contents": contents,
        },
    )


def _title(export_path: Path, shard: tuple[int, int] | None) -> str:
    name = export_path.name.removesuffix(".zip") if isinstance(export_path, Path) else str(export_path)
    return f"Batch regrade: {name}" + (f" (shard {shard[0]}/{shard[1]})" if shard else "")


def _print_summary(outdir: Path, summary: Summary, notes: list[str], graded_now: int, elapsed: float) -> None:
    stats = summary.describe()
    if graded_now:
        print(f"batch: graded {graded_now} submissions in {elapsed:.1f} s ({graded_now / elapsed:.2f} submissions/s)")
    if stats:
        print(
            f"batch: {len(summary.graded)} graded, mean {stats['mean']:.1f} / {summary.max_points:g}, "
            f"median {stats['median']:g}, {stats['full']} full marks, {stats['zero']} zero"
        )
    if summary.intake_zeros:
        why = ", ".join(f"{n} {kind}" for kind, n in Counter(row.intake[0] for row in summary.intake_zeros).items())
        print(f"batch: {len(summary.intake_zeros)} scored 0 because their upload could not be graded ({why}); "
              "see report.html")
    for note in notes:
        if note.startswith("matplotlib"):
            print(f"batch: {note}")
    partial = summary.engine_problems()
    if partial:
        print(f"batch: warning: in {len(partial)} graded submissions some tests could not run (see report.html)")
    if summary.errors:
        print(f"batch: the grader could not grade {len(summary.errors)} submissions (see report.html):")
        for row in summary.errors[:10]:
            why = (row.record.error or "its results.json is missing").splitlines()[0][:200]
            print(visible(f"  {row.submission.id} {row.submission.names}: {why}"))  # names: student text
    if summary.pending:
        print(f"batch: {len(summary.pending)} submissions not graded yet")
    for name in ("scores.csv", "report.html", "plots"):
        if (outdir / name).exists():
            print(f"batch: wrote {outdir / name}")


def _merge(args: argparse.Namespace) -> int:
    if args.export is not None or args.shard:
        print("batch: --merge takes output folders only (no EXPORT, no --shard)", file=sys.stderr)
        return 2
    try:
        run_info, warnings = merging.merge(args.merge, args.output)
    except merging.MergeError as error:
        print(f"batch --merge: {error}", file=sys.stderr)
        return 2
    for warning in warnings:
        print(f"batch --merge: warning: {warning}")
    submissions = [Submission.from_json(s) for s in run_info["submissions"]]
    title = f"Batch regrade: {Path(run_info['export']).name.removesuffix('.zip')} (merged)"
    summary, notes = report.write_outputs(args.output, submissions, run_info["version"], title=title, notes=warnings,
                                          contents=run_info.get("contents"))
    _print_summary(args.output, summary, notes, 0, 0.0)
    return 1 if summary.errors or summary.pending or warnings else 0
