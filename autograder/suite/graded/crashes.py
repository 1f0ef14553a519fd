"""A raise in the student's own code: their line, and what it assumed that the case breaks.

When a graded call raises, the traceback's innermost frame in the student's files is their line (``raises``
finds it). It is the function's own line when no frame between the call and it is another contract function's; a
line of ours or of a library is never quoted. A callee's raise is not quoted here: the call is made again with
correct stand-ins for the callees (``callees.explain_crash``), and a line of the function's own that raises then is
explained through them, so a callee that raises first does not hide it.

What the line assumed is found in two ways:

* a probe search: the homework lists properties of the case (``crash_properties``: as many queries as keys,
  d_v = d_k, another number of leading axes, a mask or none, ...), each with a rewriting of the inputs that
  makes it hold. The same call on the rewritten inputs is made for each, at most ``MAX_PROBES`` calls; a
  property whose rewriting gets past that line (the call returns, or raises at another line) is what the line
  assumed only if no other property's rewriting gets past it too (when two do, neither is named: a reshape may get
  past its line both with as many queries as keys and with a batch axis; unless the other's call returns the
  contract's answer but for that same mistake, output evidence of it), and, where the homework gives a property
  an ``unless`` rewriting (the mask taken away), only if the call still raises there that way too (a line reached
  only with a mask says nothing of the code's axes). The rewritten call's answer does not matter: only whether the
  line still raises; an ``assert`` is read by its condition as well as its message;
* the exception and its operands, where Python itself says it (``^`` between numbers is XOR, not a power; an array
  is not callable, so ``K.T(-2, -1)`` calls the transposed array).

``explain`` returns a ``Crash``: the markdown that quotes the line and says what it assumed, the mistake the
property names (if the homework gives one), and how it was shown (results.json's evidence).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from typing import Any, NamedTuple

from autograder.sandbox.student import StudentError
from autograder.suite.graded import hooks, probing, raises
from autograder.suite.graded.tools import quiet

MAX_PROBES = 12  # probe calls per failing case that raised, the ones that tell readings apart included (each
# also counts against the case's probe budget, which the homework's rewritings charge)


class Property(NamedTuple):
    """What a line may assume of a case, as a homework states it (``crash_properties``).

    ``assumed``: what the line assumed, in the case's terms ("Q and K have as many rows (n_q = n_k); this case
    has n_q = 3, n_k = 5"); ``how``: the rewriting ("with as many queries as keys"); ``rewrite``: the case's named
    arguments -> arguments where the property holds (any answer: only whether the line still raises is read);
    ``mistake``: the known mistake whose sentence says the same, or None."""

    mistake: str | None
    assumed: str
    how: str
    rewrite: Callable[[dict[str, Any]], dict[str, Any]]
    also: tuple[Callable[[dict[str, Any]], dict[str, Any]], str | None, str | None] | None = None
    # (another rewriting, the mistake when the line gets past it too, the mistake when it does not): one more probe
    # that tells two readings apart (e.g. "exactly one leading axis" from "some leading axis")
    when: str | None = None  # a pattern the exception's message must show for the property to be tried (a
    # rewriting that changes sizes may get past a line by a coincidence of sizes: e.g. a rank only for an unpacking)
    answered: bool = False  # counts only when the call where it holds returns the contract's answer (but for known
    # mistakes): a rewriting that makes an axis of length 1 gets past a broadcast by coincidence (e.g. one head)
    unless: tuple[Callable[[dict[str, Any]], dict[str, Any]], str] | None = None  # (a rewriting that leaves this
    # property broken but takes away something else the line may need, how: "without the mask"): when the call gets
    # past the line that way too, the line is reached only through that, so no mistake is named (its quote still is)
    within: tuple[str, ...] = ()  # mistakes whose change this rewriting makes too (a mask written out in full has the
    # leading axis a shared (n_q, n_k) mask lacks): when one of them is what the line assumed, this one getting past
    # the line too is no second reading


class Crash(NamedTuple):
    """A raise explained at the student's line: the text the student reads, the mistake named (or None), how, and
    the mistakes the call where the property holds shows beside it (its answer is the contract's but for them)."""

    text: str
    mistake: str | None
    how: str
    more: tuple[str, ...] = ()


@quiet(None)
def explain(student: Any, stored: Any, named: Mapping[str, Any], error: StudentError,
            properties: Callable[[], Sequence[Property]], *, calls: int = MAX_PROBES, lead: str = "") -> Crash | None:
    """The student's line that raised on this case and what it assumed, or None (not their own code's raise, or
    nothing to say). ``properties``: the homework's, asked only for a raise in the function's own code; ``calls``:
    probe calls it may make; ``lead``: what the quote of the line follows (how the call was made)."""
    frame = raises.own_frame(student, error, stored.function)
    if frame is None:
        return None
    candidates, skipped, original = list(properties()), [], raises.frames(student, error)
    shown, says = raises.checked_at(error, frame, original), raises.says(error, frame, original)
    line = raises.quote(shown, lead)
    if operands := raises.operands(error, frame.code):
        return Crash(f"{raises.WHERE} {line} {operands}", None, "the exception and its operands")
    for index, prop in enumerate(candidates):
        if calls <= 0:
            break
        if prop.when and not re.search(prop.when, says):
            skipped.append(prop)  # not named for this exception, but tried below should another be
            continue
        calls -= 1
        seen: list[tuple[str, ...] | None] = []
        if _gets_past(student, stored, named, prop.rewrite, original, seen) != PAST:
            continue  # still raises at that line (or cannot tell): the property is not what it assumed
        mistake, found = prop.mistake, seen[0] if seen else None
        right = found[0] if found is not None else None
        if prop.answered and right is None:  # past the line, but perhaps by a coincidence of sizes: no evidence
            skipped.append(prop)  # either way, and still another reading should another property get past
            continue
        answer = "" if found is None else f"returns the contract's answer{' ' * bool(found[1])}{found[1]}"
        text = (f"{raises.WHERE} {line} assumes {prop.assumed}. "
                f"The same call {prop.how} {answer or 'no longer raises there'}.")
        how = f"a probe: the same case {prop.how} no longer raises at the student's line {shown.line}"
        how += f"; it {answer}" if answer else ""
        passes = None if prop.also is None or calls <= 0 else _gets_past(
            student, stored, named, prop.also[0], original)
        calls -= prop.also is not None
        if prop.also is not None and passes in (PAST, RAISES):
            mistake = prop.also[1] if passes == PAST else prop.also[2]
            how += "; the same case read the other way " + ("gets past it too" if passes == PAST else
                                                            "still raises there")
        if mistake is not None and prop.unless is not None:
            calls -= 1
            apart = _gets_past(student, stored, named, prop.unless[0], original, anywhere=True) if calls >= 0 \
                else UNKNOWN  # the line's own check refusing the control earlier, for another array, still refuses
            if apart in (PAST, UNKNOWN):  # the line is reached only with what ``unless`` takes away (or cannot tell)
                mistake = None
                if apart == PAST:  # what the line assumed is then neither: say only what the probes showed
                    text = (f"{raises.WHERE} {line} raised on this case. "
                            f"The same call {prop.how} no longer raises there, nor does the same call "
                            f"{prop.unless[1]}: these probes do not tell what it assumed.")
                how += f"; the same case {prop.unless[1]} " + ("gets past it too, so no mistake is named" if apart
                                                                 == PAST else "could not be told: no mistake is named")
            elif apart == RAISES:
                how += f"; the same case {prop.unless[1]} still raises there"
        if mistake is None:  # the line says nothing of its own; the call where the property holds still may
            return Crash(text, None, how, right or ())
        aside: list[str] = []
        other = _another_gets_past(student, stored, named, [*skipped, *candidates[index + 1:]], {prop.mistake, mistake},
                                   original, calls, says, aside)
        if other is None:  # every other property still raises there: this one is what the line assumed
            how += "; every other property of the case tried still raises there"
            how += f" (the same case {'; the same case '.join(aside)})" if aside else ""
            return Crash(text, mistake, how, right or ())
        if other and right is not None and mistake in right:  # the call's answer shows the mistake itself:
            return Crash(text, mistake, f"{how}; the same case {other} gets past it too, but this call's answer is "
                         "the mistake's own", right)  # output evidence, whichever reading the line has
        if other:  # two readings fit the line: it says nothing of its own (the traceback still shows it)
            return None
        if right is not None:  # the call is right where the property holds: what could not be told is moot
            return Crash(text, mistake, how + "; not every other property could be told apart", right)
        return Crash(text, None, how + "; not every other property could be told apart")
    return None


def _another_gets_past(student: Any, stored: Any, named: Mapping[str, Any], others: Sequence[Property],
                       found: set[str | None], original: Sequence[raises.Frame], calls: int, says: str = "",
                       aside: list[str] | None = None) -> str | None:
    """Whether a property of another mistake than ``found`` (those of the one whose rewriting got past the line)
    gets past it too (one whose sentence says one of them, or that one of them says, is the same reading; so is one
    whose call then returns the contract's answer but for one of them), tried whatever the exception says (a
    coincidence of sizes is then no evidence either way): how, for the first that does; None when every other one
    still raises there (or does not apply); "" when one could not be told (the probe calls ran out, or its call
    stopped before the line), unless the exception (``says``) shows no sign of it (its ``when``): a rank the
    message does not speak of, whose rewriting stops the call at an earlier line, is no second reading; nor is one
    whose rewriting stops the call at an earlier line (which this case gets past) with the kind of exception the
    property speaks of (a rank that breaks an earlier unpacking `B, T, C = X.shape`: the code needs this case's rank
    there). Each such how is added to ``aside``."""
    unknown = False
    covers = hooks.covers()
    same = found | {c for m in found for c in covers.get(m or "", ())}
    for prop in others:
        if prop.mistake in same or set(covers.get(prop.mistake or "", ())) & found or set(prop.within) & found:
            continue
        if calls <= 0:
            return ""
        calls -= 1
        seen: list[tuple[tuple[str, ...], str] | None] = []
        stopped: list[str] = []
        outcome = _gets_past(student, stored, named, prop.rewrite, original, seen, stopped)
        if outcome == PAST and seen and seen[0] is not None and set(seen[0][0]) & (found - {None}):
            continue  # past it too, but its call's answer shows the same mistake: the readings agree on it
        if outcome == PAST:
            return prop.how
        if outcome == UNKNOWN and prop.when and not re.search(prop.when, says):
            if aside is not None:
                aside.append(f"{prop.how} stops at an earlier line, and the exception does not speak of it")
            continue
        if outcome == UNKNOWN and prop.when and stopped and re.search(prop.when, stopped[0]):  # this case gets past
            # that earlier line, which raises the property's kind of exception where it holds: the code needs this
            # case's side of the property there, so the property is no reading of the later line
            if aside is not None:
                aside.append(f"{prop.how} stops at an earlier line, which this case gets past, with that kind of "
                             "exception")
            continue
        unknown = unknown or outcome == UNKNOWN
    return "" if unknown else None


PAST, RAISES, NOT_APPLICABLE, UNKNOWN = "past", "raises", "not applicable", "unknown"  # what a rewritten call shows


def _gets_past(student: Any, stored: Any, named: Mapping[str, Any], rewrite: Callable[[dict[str, Any]], Any],
               original: Sequence[raises.Frame], seen: list | None = None, stopped: list | None = None, *,
               anywhere: bool = False) -> str:
    """What the call on the rewritten case shows of the line the original raise came from (``original``: its
    frames in the student's files): PAST when it returns, or raises after that line; RAISES when it raises at that
    line again, reached the same way (``anywhere``: or from another line, as a checking helper called for another
    array: the same check refuses it), or inside a call that line makes; NOT_APPLICABLE when the rewriting does
    not apply to the case; UNKNOWN when it cannot tell (the probe budget is spent, the call stopped before it
    reached the line, or it timed out or crashed); ``stopped`` gets what the raise of a call that stopped before
    the line says."""
    try:
        inputs = rewrite(dict(named))
    except probing.ProbeBudgetError:
        return UNKNOWN
    except (ValueError, IndexError, TypeError, KeyError):
        return NOT_APPLICABLE
    try:
        actual = student.call(stored.function, *inputs.values())
    except probing.ProbeBudgetError:
        return UNKNOWN
    except StudentError as again:
        if again.kind != "exception":
            return UNKNOWN
        new = raises.frames(student, again)
        now, then = raises.lines(new), raises.lines(original)
        same = bool(now and then) and now[-1] == then[-1]  # the line, reached the same way (a helper's line called
        if same and (now == then or (anywhere and raises.stopped_before(original, new))):  # from another line of the
            return RAISES  # function, its checks' one `raise`, is another raise)
        if then and len(now) > len(then) and now[:len(then)] == then:  # raised inside a call the line makes (a
            return RAISES  # helper of the student's, given what the line gave it): the line did not get past
        if not raises.stopped_before(original, new):
            return PAST
        if stopped is not None and new:  # what the earlier line's raise says (an assert's condition too)
            stopped.append(raises.says(again, new[-1], new))
        return UNKNOWN
    if seen is not None:  # which answer it returned: the contract's, or the contract's but for known mistakes
        seen.append(_answer_of(stored.function, inputs, actual))
    return PAST


@quiet(None)
def _answer_of(function: str, inputs: Mapping[str, Any], actual: Any) -> tuple[tuple[str, ...], str] | None:
    return hooks.answer_of(function, inputs, actual)


