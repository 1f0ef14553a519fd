"""PNG plots of a batch (matplotlib, an optional TA extra): score histogram and pass rates.

They are the batch's last step, so two things keep them short: ``import_in_background`` (called
before grading) imports matplotlib while the warm graders start (~0.5 s), and the two bigger plots
are drawn in forked processes while this one draws the third (the three took ~1 s one after another).
"""

from __future__ import annotations

import os
import threading
from collections.abc import Callable
from pathlib import Path

from autograder.batch.table import Summary

HISTOGRAM = "score_histogram.png"
TEST_RATES = "test_pass_rates.png"
FUNCTION_RATES = "function_pass_rates.png"
Draw = Callable[[object, Summary, Path], Path]  # one of the plots below: (pyplot, summary, where) -> where


_importing: list[threading.Thread] = []


def import_in_background() -> None:
    """Start importing matplotlib in a thread (once); ``write_plots`` waits for it."""
    if not _importing:
        _importing.append(threading.Thread(target=_pyplot, name="import-matplotlib", daemon=True))
        _importing[0].start()


def _pyplot() -> object | None:
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        return None
    return plt


def write_plots(summary: Summary, folder: Path) -> tuple[list[Path], str]:
    """Write the plots into ``folder``; return their paths and a note if none could be made."""
    for thread in _importing:
        thread.join()
    plt = _pyplot()
    if plt is None:
        return [], "matplotlib not installed: no PNG plots (pip install matplotlib)"
    if not summary.graded:
        return [], "no graded submissions: no plots"
    folder.mkdir(parents=True, exist_ok=True)
    plots = [(_histogram, HISTOGRAM), (_test_rates, TEST_RATES), (_function_rates, FUNCTION_RATES)]
    return _draw(plt, summary, [(draw, folder / name) for draw, name in plots]), ""


def _draw(plt: object, summary: Summary, plots: list[tuple[Draw, Path]]) -> list[Path]:
    """Draw the first plot here and the others in forked children at the same time (with more than one
    core); a plot whose child failed is drawn again here, so that its error shows as it would alone."""
    children: dict[int, tuple[Draw, Path]] = {}
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1
    if hasattr(os, "fork") and cores > 1:
        for draw, path in plots[1:]:
            pid = os.fork()
            if pid == 0:  # draw, write the file, leave at once (no atexit, no buffered output of the parent)
                code = 1
                try:
                    draw(plt, summary, path)
                    code = 0
                finally:
                    os._exit(code)
            children[pid] = (draw, path)
    for draw, path in plots[: 1 if children else len(plots)]:
        draw(plt, summary, path)
    for pid, (draw, path) in children.items():
        if os.waitpid(pid, 0)[1] != 0:
            draw(plt, summary, path)
    return [path for _, path in plots]


def _histogram(plt: object, summary: Summary, path: Path) -> Path:
    bins = summary.histogram(bins=20)
    fig, ax = plt.subplots(figsize=(8, 4.2), dpi=110)
    lows = [low for low, _, _ in bins]
    widths = [high - low for low, high, _ in bins]
    counts = [count for _, _, count in bins]
    ax.bar(lows, counts, width=widths, align="edge", color="#4C72B0", edgecolor="white")
    stats = summary.describe()
    ax.axvline(stats["mean"], color="#C44E52", linestyle="--", linewidth=1.5, label=f"mean {stats['mean']:.1f}")
    ax.axvline(stats["median"], color="#55A868", linestyle=":", linewidth=1.8, label=f"median {stats['median']:.1f}")
    ax.set_xlim(0, max(summary.max_points, 1))
    ax.set_xlabel(f"total score (out of {summary.max_points:g})")
    ax.set_ylabel("submissions")
    ax.set_title(f"Score distribution ({len(summary.graded)} graded submissions)")
    ax.legend(frameon=False)
    return _save(plt, fig, ax, path)


def _test_rates(plt: object, summary: Summary, path: Path) -> Path:
    """One bar per test, hardest (lowest pass rate) at the top, coloured by band, with a legend of the bands."""
    from matplotlib.patches import Patch

    tests = summary.hardest_first()
    height = max(3.0, 0.22 * len(tests) + 1.6)
    fig, ax = plt.subplots(figsize=(9, height), dpi=110)
    names = [_short(t.label) for t in tests]
    rates = [100 * t.pass_rate for t in tests]
    colors = [_color(rate) for rate in rates]
    positions = range(len(tests))
    ax.barh(list(positions), rates, color=colors)
    ax.margins(y=0.01)
    for position, rate in zip(positions, rates):
        ax.text(min(rate + 1, 92), position, f"{rate:.0f}%", va="center", fontsize=6, color="#444")
    ax.set_yticks(list(positions), names, fontsize=7)
    ax.invert_yaxis()
    ax.set_xlim(0, 100)
    ax.set_xlabel("% of submissions passing")
    ax.set_title("Pass rate per graded test (hardest first)")
    ax.legend(handles=[Patch(color=color, label=label) for color, label in BANDS], frameon=False, fontsize=7,
              loc="upper right", title="submissions passing", title_fontsize=7)  # the hardest: short bars
    return _save(plt, fig, ax, path)


def _function_rates(plt: object, summary: Summary, path: Path) -> Path:
    names = list(summary.functions)
    rates = [100 * p / n if n else 0 for p, n, _, _ in summary.functions.values()]
    points = [100 * got / top if top else 0 for _, _, got, top in summary.functions.values()]
    fig, ax = plt.subplots(figsize=(9, max(3.0, 0.35 * len(names) + 1.2)), dpi=110)
    positions = list(range(len(names)))
    ax.barh([p - 0.2 for p in positions], rates, height=0.4, color="#4C72B0", label="all tests passed")
    ax.barh([p + 0.2 for p in positions], points, height=0.4, color="#DD8452", label="points earned")
    ax.set_yticks(positions, names, fontsize=8)
    ax.invert_yaxis()
    ax.set_xlim(0, 100)
    ax.set_xlabel("% of submissions / % of points")
    ax.set_title("Per contract function")
    ax.legend(frameon=False, loc="lower right")
    return _save(plt, fig, ax, path)


BANDS = (("#55A868", "80% or more"), ("#DD8452", "50% to 79%"), ("#C44E52", "under 50%"))  # the bars' colours


def _color(rate: float) -> str:
    return BANDS[0][0] if rate >= 80 else BANDS[1][0] if rate >= 50 else BANDS[2][0]


def _short(name: str, width: int = 70) -> str:
    return name if len(name) <= width else name[: width - 1] + "…"


def _save(plt: object, fig: object, ax: object, path: Path) -> Path:
    """The finish every plot shares: no top/right frame, tight layout, written to ``path``, figure closed."""
    ax.spines[["top", "right"]].set_visible(False)
    fig.tight_layout()
    fig.savefig(path, pil_kwargs={"compress_level": 3})  # smaller and faster to write than the default (6)
    plt.close(fig)
    return path
