"""PNG plots of a batch (matplotlib, an optional TA extra): score histogram and pass rates."""

from __future__ import annotations

from pathlib import Path

from autograder.batch.table import Summary

HISTOGRAM = "score_histogram.png"
TEST_RATES = "test_pass_rates.png"
FUNCTION_RATES = "function_pass_rates.png"


def write_plots(summary: Summary, folder: Path) -> tuple[list[Path], str]:
    """Write the plots into ``folder``; return their paths and a note if none could be made."""
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        return [], "matplotlib not installed: no PNG plots (pip install matplotlib)"
    if not summary.graded:
        return [], "no graded submissions: no plots"
    folder.mkdir(parents=True, exist_ok=True)
    paths = [
        _histogram(plt, summary, folder / HISTOGRAM),
        _test_rates(plt, summary, folder / TEST_RATES),
        _function_rates(plt, summary, folder / FUNCTION_RATES),
    ]
    return paths, ""


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
    tests = list(summary.tests.values())
    height = max(3.0, 0.22 * len(tests) + 1.2)
    fig, ax = plt.subplots(figsize=(9, height), dpi=110)
    names = [_short(t.name) for t in tests]
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
    ax.set_title("Pass rate per graded test")
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


def _color(rate: float) -> str:
    return "#55A868" if rate >= 80 else "#DD8452" if rate >= 50 else "#C44E52"


def _short(name: str, width: int = 70) -> str:
    return name if len(name) <= width else name[: width - 1] + "…"


def _save(plt: object, fig: object, ax: object, path: Path) -> Path:
    """The finish every plot shares: no top/right frame, tight layout, written to ``path``, figure closed."""
    ax.spines[["top", "right"]].set_visible(False)
    fig.tight_layout()
    fig.savefig(path)
    plt.close(fig)
    return path
