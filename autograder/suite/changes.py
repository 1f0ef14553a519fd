"""What a ``regen`` changes in a case set, in words for the instructor who runs it.

Mid-semester, new stored cases are new hidden tests for everyone, and a known mistake that
no case catches any more is feedback lost. So ``regen`` (and ``regen --check``) compares
the stored file with the regenerated cases and says:

* which cases were added, removed, or changed (their inputs, expected output, description
  or seed; float rounding within ``stored.REL`` is no change);
* per case, which known mistakes are no longer stored (dropped: now within tolerance of
  the expected output, or no longer different from another stored spelling, or no longer
  running on these inputs) and which are newly caught;
* per function, the known mistakes that no case of the set catches any more.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from autograder.suite import stored
from autograder.suite.cases import Case

FIELDS = ("function", "seed", "description")
MAX_LISTED = 8  # ids listed per line before "and N more"


@dataclass
class Changes:
    """The difference between a stored case set and the regenerated one."""

    added: list[str] = field(default_factory=list)
    removed: list[str] = field(default_factory=list)
    changed: dict[str, list[str]] = field(default_factory=dict)  # case id -> what changed ("inputs", ...)
    dropped: dict[str, list[str]] = field(default_factory=dict)  # case id -> mistake ids no longer stored
    within_tolerance: set[tuple[str, str]] = field(default_factory=set)  # (case, mistake) now equal to expected
    caught: dict[str, list[str]] = field(default_factory=dict)  # case id -> mistake ids newly stored
    lost: dict[str, list[str]] = field(default_factory=dict)  # function -> mistakes no case catches any more
    reordered: bool = False

    def __bool__(self) -> bool:
        return bool(self.added or self.removed or self.changed or self.dropped or self.caught or self.reordered)


def compare_sets(old: Mapping[str, Case], new: Mapping[str, Case]) -> Changes:
    """What changed from the stored cases ``old`` to the regenerated ``new``."""
    changes = Changes(added=[i for i in new if i not in old], removed=[i for i in old if i not in new])
    common = [i for i in new if i in old]
    changes.reordered = [i for i in old if i in new] != common
    for case_id in common:
        before, after = old[case_id], new[case_id]
        what = [name for name in FIELDS if getattr(before, name) != getattr(after, name)]
        what += [name for name, a, b in (("inputs", before.inputs, after.inputs),
                                         ("expected output", before.expected, after.expected))
                 if not stored.same_values(a, b)]
        if what:
            changes.changed[case_id] = what
        dropped = [m for m in before.mistakes if m not in after.mistakes]
        caught = [m for m in after.mistakes if m not in before.mistakes]
        if dropped:
            changes.dropped[case_id] = dropped
            if "inputs" not in what:
                changes.within_tolerance |= {(case_id, m) for m in dropped
                                             if stored.same_output(before.mistakes[m], after.expected)}
        if caught:
            changes.caught[case_id] = caught
    before_caught, after_caught = _caught_by_function(old), _caught_by_function(new)
    for function, mistakes in before_caught.items():
        lost = sorted(mistakes - after_caught.get(function, set()))
        if lost:
            changes.lost[function] = lost
    return changes


def describe(changes: Changes, old: Mapping[str, Case], new: Mapping[str, Case]) -> list[str]:
    """The summary's lines (indented under the set's name); one line when nothing changed."""
    if not changes:
        return ["no case changed"]
    lines = [f"cases: {len(changes.added)} added, {len(changes.removed)} removed, {len(changes.changed)} changed"
             + (", order changed" if changes.reordered else "")]
    if changes.added:
        lines.append(f"  added: {_ids(changes.added)}")
    if changes.removed:
        lines.append(f"  removed: {_ids(changes.removed)}")
    by_what: dict[str, list[str]] = {}
    for case_id, what in changes.changed.items():
        by_what.setdefault(", ".join(what), []).append(case_id)
    for what, ids in by_what.items():
        lines.append(f"  changed ({what}): {_ids(ids)}")
    old_count, new_count = (sum(len(c.mistakes) for c in cases.values()) for cases in (old, new))
    lines.append(f"stored known-mistake outputs: {old_count} -> {new_count}")
    for case_id, mistakes in changes.dropped.items():
        lines.append(f"  dropped in {case_id}: " + ", ".join(
            f"{m} ({_why_dropped(changes, case_id, m)})" for m in mistakes))
    for case_id, mistakes in changes.caught.items():
        lines.append(f"  newly caught in {case_id}: {', '.join(mistakes)}")
    for function, mistakes in changes.lost.items():
        lines.append(f"  no case of {function} catches any more: {', '.join(mistakes)}")
    lines += _old_rules(changes)
    return lines


def _old_rules(changes: Changes) -> list[str]:
    """A known mistake whose stored output the solution now gives: its sentence now tells students that the rule
    they follow, the solution's own, is their mistake. Said with the sentence, to review in sentences.py."""
    from autograder.feedback import compare

    lines = []
    for mistake in sorted({m.split(".")[0] for _, m in changes.within_tolerance}):
        cases = sorted(c for c, m in changes.within_tolerance if m.split(".")[0] == mistake)
        sentence = compare.MISTAKES.get(mistake, "")
        lines.append(f"  REVIEW {mistake}: the solution now gives its output (on {_ids(cases)}), so its sentence "
                     f"states the old rule; change or remove it in sentences.py"
                     + (f": \"{sentence[:160]}{'...' if len(sentence) > 160 else ''}\"" if sentence else ""))
    return lines


def _why_dropped(changes: Changes, case_id: str, mistake: str) -> str:
    if (case_id, mistake) in changes.within_tolerance:
        return "now within tolerance of the expected output"
    if "inputs" in changes.changed.get(case_id, ()):
        return "new inputs"
    return "no longer runs on these inputs, or now equal to another stored spelling"


def _caught_by_function(cases: Mapping[str, Case]) -> dict[str, set[str]]:
    found: dict[str, set[str]] = {}
    for case in cases.values():
        found.setdefault(case.function, set()).update(m.split(".")[0] for m in case.mistakes)
    return found


def _ids(ids: list[str]) -> str:
    shown = ", ".join(ids[:MAX_LISTED])
    return shown + (f" and {len(ids) - MAX_LISTED} more" if len(ids) > MAX_LISTED else "")
