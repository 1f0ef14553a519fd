"""A raise in the student's own code: their line, and what it assumed that the case breaks.

When a graded call raises, the traceback's innermost frame in the student's files is their line. It is the
function's own line when no frame between the call and it is another contract function's; a line of ours or of a
library is never quoted. A callee's raise is not quoted here: the call is made again with correct stand-ins for
the callees (``callees.explain_crash``), and a line of the function's own that raises then is explained through
them, so a callee that raises first does not hide it.

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

import ast
import io
import re
import tokenize
from collections.abc import Callable, Mapping, Sequence
from typing import Any, NamedTuple

from autograder import contract
from autograder.feedback.markdown import code_span, plain
from autograder.sandbox.student import StudentError
from autograder.suite.graded import hooks, probing
from autograder.suite.graded.tools import quiet

MAX_PROBES = 12  # probe calls per failing case that raised, the ones that tell readings apart included (each
# also counts against the case's probe budget, which the homework's rewritings charge)
FRAME = re.compile(r'^  File "(?P<file>[^"\n]+)", line (?P<line>\d+), in (?P<name>[^\n]+)$', re.MULTILINE)


class Frame(NamedTuple):
    """One frame of the traceback in the student's files: where (label, line), in which function, the code."""

    label: str
    line: int
    function: str
    code: str


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


WHERE = "**Where it fails:**"  # the paragraph of a case's text that quotes the student's line


def without_line(text: str) -> str:
    """A case's text without its paragraph quoting the student's line (``WHERE``)."""
    return "\n\n".join(block for block in text.split("\n\n") if not block.startswith(WHERE))


class Crash(NamedTuple):
    """A raise explained at the student's line: the text the student reads, the mistake named (or None), how, and
    the mistakes the call where the property holds shows beside it (its answer is the contract's but for them)."""

    text: str
    mistake: str | None
    how: str
    more: tuple[str, ...] = ()


def frames(student: Any, error: StudentError) -> list[Frame]:
    """The traceback's frames in the student's own files (their code read from the submission, not the
    traceback), outermost first; [] without a traceback."""
    text = getattr(error, "traceback", "") or ""
    sources = _sources(student)
    found = []
    for match in FRAME.finditer(text):
        source = sources.get(match["file"])
        if source is None:
            continue
        label, first, lines = source
        index = int(match["line"]) - first
        if 0 <= index < len(lines) and lines[index].strip():
            found.append(Frame(label, int(match["line"]), match["name"].strip(), _code(lines[index])))
    return found


def _code(line: str) -> str:
    """A line of code without its comment (a ``#`` inside a string is kept), stripped."""
    try:
        for token in tokenize.generate_tokens(io.StringIO(line.strip() + "\n").readline):
            if token.type == tokenize.COMMENT:
                return line.strip()[:token.start[1]].rstrip() or line.strip()
    except (tokenize.TokenError, IndentationError, SyntaxError):
        pass
    return line.strip()


def _sources(student: Any) -> dict[str, tuple[str, int, list[str]]]:
    """Every name a traceback may give a student file (its filename, its label), with its label, first line and
    lines."""
    out: dict[str, tuple[str, int, list[str]]] = {}
    for chunk in [*getattr(student, "chunks", []), *getattr(student, "modules", [])]:
        if not isinstance(chunk, Mapping):
            continue
        entry = (str(chunk.get("label")), int(chunk.get("first_line") or 1), str(chunk.get("source")).splitlines())
        for name in (chunk.get("filename"), chunk.get("label")):
            if name and str(name) not in out:
                out[str(name)] = entry
    return out


def where_raised(student: Any, error: StudentError) -> str | None:
    """The quote of a raise's line in the student's files ("Your line `...` (file, line N)"), for a homework's own
    search (a method of an object's); None without one (a library's raise alone, or no traceback)."""
    found = frames(student, error) if error.kind == "exception" else []
    return _quote(_checked_at(error, found[-1], found)) if found else None


def _quote(frame: Frame, lead: str = "") -> str:
    """The quote of a line, "Your line `...` (file, line N)"; after ``lead``, "your line ..."."""
    return f"{lead}{'your' if lead else 'Your'} line {code_span(frame.code)} ({plain(frame.label)}, line {frame.line})"


def own_frame(student: Any, error: StudentError, function: str) -> Frame | None:
    """The innermost frame of the student's code when the raise is in ``function``'s own code (its frames, or
    helpers of the student's that are no contract function); None when it is a callee's (another contract
    function's frame is on the way), a library's alone, or unknown."""
    if error.kind != "exception":
        return None
    found = frames(student, error)
    if not found or not any(f.function == function for f in found):
        return None
    inner = found[max(i for i, f in enumerate(found) if f.function == function):]
    if any(f.function in contract.FUNCTIONS and f.function != function and _top_level(student, f) for f in inner):
        return None
    return inner[-1]


def _top_level(student: Any, frame: Frame) -> bool:
    """Whether ``frame`` runs in a function defined at the top level of its file under the frame's name (a contract
    function's, when the name is one): not a helper of the same name nested in the function or in a class. True
    when the file cannot be read."""
    source = _sources(student).get(frame.label)
    if source is None:
        return True
    _, first, lines = source
    try:
        tree = ast.parse("\n".join(lines))
    except (SyntaxError, ValueError, RecursionError, MemoryError):  # the student's file, whatever it holds
        return True
    return any(isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and node.name == frame.function
               and node.lineno <= frame.line - first + 1 <= (node.end_lineno or node.lineno) for node in tree.body)


@quiet(None)
def explain(student: Any, stored: Any, named: Mapping[str, Any], error: StudentError,
            properties: Callable[[], Sequence[Property]], *, calls: int = MAX_PROBES, lead: str = "") -> Crash | None:
    """The student's line that raised on this case and what it assumed, or None (not their own code's raise, or
    nothing to say). ``properties``: the homework's, asked only for a raise in the function's own code; ``calls``:
    probe calls it may make; ``lead``: what the quote of the line follows (how the call was made)."""
    frame = own_frame(student, error, stored.function)
    if frame is None:
        return None
    candidates, skipped, original = list(properties()), [], frames(student, error)
    shown, says = _checked_at(error, frame, original), _says(error, frame, original)
    line = _quote(shown, lead)
    if operands := _operands(error, frame.code):
        return Crash(f"{WHERE} {line} {operands}", None, "the exception and its operands")
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
        text = f"{WHERE} {line} assumes {prop.assumed}. The same call {prop.how} {answer or 'no longer raises there'}."
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
                    text = (f"{WHERE} {line} raised on this case. The same call {prop.how} no longer raises there, "
                            f"nor does the same call {prop.unless[1]}: these probes do not tell what it assumed.")
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
                       found: set[str | None], original: Sequence[Frame], calls: int, says: str = "",
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
               original: Sequence[Frame], seen: list | None = None, stopped: list | None = None, *,
               anywhere: bool = False) -> str:
    """What the call on the rewritten case shows of the line the original raise came from (``original``: its
    frames in the student's files): PAST when it returns, or raises after that line; RAISES when it raises at that
    line again, reached the same way (``anywhere``: or from another line, as a checking helper called for another
    array: the same check refuses it); NOT_APPLICABLE when the rewriting does not apply to the case; UNKNOWN when it
    cannot tell (the probe budget is spent, the call stopped before it reached the line, or it timed out or
    crashed); ``stopped`` gets what the raise of a call that stopped before the line says."""
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
        new = frames(student, again)
        same = bool(new and original) and _lines(new)[-1] == _lines(original)[-1]  # the line, reached the same way
        if same and (_lines(new) == _lines(original) or (anywhere and _stopped_before(original, new))):  # (a helper's
            return RAISES  # line called from another line of the function, its checks' one `raise`, is another raise)
        if not _stopped_before(original, new):
            return PAST
        if stopped is not None and new:  # what the earlier line's raise says (an assert's condition too)
            stopped.append(_says(again, new[-1], new))
        return UNKNOWN
    if seen is not None:  # which answer it returned: the contract's, or the contract's but for known mistakes
        seen.append(_answer_of(stored.function, inputs, actual))
    return PAST


@quiet(None)
def _answer_of(function: str, inputs: Mapping[str, Any], actual: Any) -> tuple[tuple[str, ...], str] | None:
    return hooks.answer_of(function, inputs, actual)


def _lines(found: Sequence[Frame]) -> list[tuple[str, int]]:
    return [(f.label, f.line) for f in found]


def _stopped_before(original: Sequence[Frame], new: Sequence[Frame]) -> bool:
    """Whether a raise (frames ``new``) came before the original one's line: in the first frame where the two
    calls' stacks part, both in the same function, the new one stood at an earlier line (e.g. a rewriting that
    removes a batch axis makes an earlier line raise)."""
    for old, now in zip(original, new):
        if (old.label, old.function) != (now.label, now.function):
            return False
        if old.line != now.line:
            return now.line < old.line
    return False


def _bare(error: StudentError, frame: Frame) -> bool:
    """Whether the line is a ``raise`` whose exception says nothing (``raise AssertionError``)."""
    said = re.sub(r"\s*\([^()]*, line \d+\)$", "", error.message)  # without where it was raised
    return re.match(r"raise\b", frame.code) is not None and not said.split(":", 1)[-1].strip()


def _checked_at(error: StudentError, frame: Frame, chain: Sequence[Frame]) -> Frame:
    """The line to quote: the raise's own, or for a bare ``raise`` in a checking helper the line that called the
    helper with what it checks (``_check(Q.ndim == 3)``)."""
    return chain[-2] if _bare(error, frame) and len(chain) > 1 else frame


def _says(error: StudentError, frame: Frame, chain: Sequence[Frame] = ()) -> str:
    """What a raise says of its cause: its message, and for an ``assert`` statement its condition too (an assert
    without a message says nothing else: ``assert Q.ndim == 3`` is what failed); a bare ``raise`` with no message
    (a checking helper's: ``def _check(c): if not c: raise AssertionError``) says what the lines that called it
    (``chain``: the raise's frames in the student's files) passed it, read as asserts."""
    if re.match(r"assert\b", frame.code):
        return f"{error.message}\n{frame.code}"
    if _bare(error, frame):
        return error.message + "".join(f"\nassert {f.code}" for f in chain[:-1])
    return error.message


def _operands(error: StudentError, code: str = "") -> str | None:
    """What the exception itself says the line assumed, where Python's own rules say it (``code``: the line)."""
    message = error.message
    if "unsupported operand type(s) for ^" in message or "ufunc 'bitwise_xor' not supported" in message:
        return ("uses `^` as a power: in Python `^` is bitwise XOR, defined for integers and booleans only, so it "
                "raises on floats; a power is `**` (e.g. `d_k ** 0.5`).")
    if "'numpy.ndarray' object is not callable" in message:
        if re.search(r"\.T\(", code):
            return ("calls `.T` as a method: `.T` is the transposed array itself (an attribute), so `.T(...)` calls "
                    "an array; to swap the last two axes of an array `a` write `np.swapaxes(a, -2, -1)`.")
        return "calls an array as if it were a function (an array is indexed with `[...]`, not called with `(...)`)."
    return None
