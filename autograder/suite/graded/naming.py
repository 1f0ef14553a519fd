"""Which known mistakes a failing test names: one case's exact matches, resolved across the test's cases.

A case names a mistake when its output equals the mistake's stored output (``diagnose``); when several
stored mistakes give exactly that output on the case, it holds them all as ``Candidates`` and ``resolve``
chooses, from the test's other failing cases, the one they are consistent with. ``mistake_ids`` is what
results.json records (``extra_data.mistakes``).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Collection, Mapping, Sequence
from typing import Any

from autograder import contract
from autograder.feedback import compare
from autograder.suite.cases import Case


class Candidates(tuple):
    """Several stored mistakes give exactly this output on this case (e.g. a top-left causal mask is also the
    off-by-one mask when n_k = n_q + 1): the case evidences one of them; ``resolve`` picks which,
    from the other failing cases of the test."""


Mistakes = str | Candidates | tuple[str | Candidates, ...] | None


# When several stored mistakes give the same output on a case, the first of the homework's PREFERRED_MISTAKES that
# matches is named.
PREFERRED: tuple[str, ...] = tuple(contract.HOMEWORK.PREFERRED_MISTAKES)


def diagnose(actual: Any, mistakes: Mapping[str, Any], expected: Any) -> str | Candidates | None:
    """The stored mistake whose output ``actual`` matches (PREFERRED ones first on a tie); when several
    match, all of them as Candidates, for ``resolve`` to choose from the test's other failing cases."""
    matching = [m for m in mistakes if compare.diagnose(actual, {m: mistakes[m]}, expected=expected)]
    preferred = next((m for m in PREFERRED if m in matching), None)
    if preferred or len(matching) <= 1:
        return preferred or (matching[0] if matching else None)
    return Candidates(matching)


def resolve(failures: Sequence[tuple[Case, str, Mistakes]],
            earlier: Collection[str] = ()) -> list[tuple[Case, str, Mistakes]]:
    """Each case's Candidates become the one mistake the most failing cases of the test are consistent with: one
    case cannot tell a top-left causal mask from an off-by-one mask when n_k = n_q + 1, the test's other cases can.
    When the test's cases support several equally, the one the function's ``earlier`` tests named (unambiguously)
    is chosen; when that does not tell them apart either, none is named: two explanations of one output are never
    settled by an order of our own (an ignored mask and masked scores set to 0 agree on a case whose masked
    scores are 0 after the softmax)."""
    support = Counter(base for _, _, m in failures for item in _items(m) for base in _bases(item))
    before = {_base(m) for m in earlier}

    def pick(item: str | Candidates) -> str | None:
        if not isinstance(item, Candidates):
            return item
        most = max(support[_base(m)] for m in item)
        bases = list(dict.fromkeys(_base(m) for m in item if support[_base(m)] == most))
        if len(bases) > 1:
            bases = [b for b in bases if b in before]
        return next((m for m in item if _base(m) == bases[0]), None) if len(bases) == 1 else None

    def chosen(mistake: Mistakes) -> Mistakes:
        if isinstance(mistake, Candidates):
            return pick(mistake)
        if isinstance(mistake, tuple):
            kept = tuple(m for m in (pick(item) for item in mistake) if m is not None)
            return kept or None
        return mistake

    return [(c, text, chosen(m)) for c, text, m in failures]


def _items(mistake: Mistakes) -> list[str | Candidates]:
    """A case's diagnosis as a list: one mistake, one set of Candidates, or several evidenced ones."""
    if mistake is None:
        return []
    return [mistake] if isinstance(mistake, (str, Candidates)) else list(mistake)


def _bases(item: str | Candidates) -> set[str]:
    return {_base(m) for m in _flat(item)}


def _flat(item: str | Candidates) -> tuple[str, ...]:
    return tuple(item) if isinstance(item, Candidates) else (item,)


def _base(mistake_id: str) -> str:
    return mistake_id.split(".", maxsplit=1)[0]


def mistake_ids(mistake: Mistakes) -> list[str]:
    """The base ids ("<id>.<how>" -> "<id>") of one mistake or several, in order, without repeats."""
    return list(dict.fromkeys(_base(m) for item in _items(mistake) for m in _flat(item)))
