"""Text hygiene for every sink a person reads: the TA's terminal, results.json, scores.csv, report.html.

Student-controlled text (exception messages, printed output, file and folder names, names and SIDs from an
export's metadata) may carry control characters: an escape sequence can clear a terminal and draw a fake
score, a right-to-left override shows a name or SID reversed. ``visible`` replaces each C0/C1 control
character (newline and tab excepted), DEL and each bidirectional control with a visible escape (``\\x1b``,
``\\u202e``); ``cell`` also defuses spreadsheet formulas (``=``, ``+``, ``-``, ``@`` and their full-width
forms, tab and carriage return at the start). One ``str.translate`` pass: linear in the text. Stdlib only.
"""

from __future__ import annotations

BIDI = (0x061C, 0x200E, 0x200F, *range(0x202A, 0x202F), *range(0x2066, 0x206A))  # marks, embeddings, isolates
CONTROLS = (*(c for c in range(0x20) if c not in (0x09, 0x0A)), *range(0x7F, 0xA0))  # C0 but \t \n, DEL, C1
_TABLE = {c: (f"\\x{c:02x}" if c < 0x100 else f"\\u{c:04x}") for c in (*CONTROLS, *BIDI)}
FORMULA_START = ("=", "+", "-", "@", "\t", "\r", "\uff1d", "\uff0b", "\uff0d", "\uff20", "\ufe62", "\ufe63")


def visible(text: object) -> str:
    """``text`` with every control character (but newline and tab) and bidi control shown as an escape."""
    return str(text).translate(_TABLE)


def cell(text: object) -> str:
    """A spreadsheet cell: ``visible`` text that no spreadsheet reads as a formula (a leading ``'``)."""
    raw = str(text)
    shown = visible(raw)
    return "'" + shown if raw.lstrip(" ").startswith(FORMULA_START) else shown


def bounded(text: str, max_chars: int, max_lines: int) -> str:
    """At most ``max_lines`` lines and about ``max_chars`` characters of ``text``, saying how much was left out."""
    if len(text) <= max_chars and text.count("\n") < max_lines:
        return text
    out = "\n".join(text[:max_chars].split("\n")[:max_lines])
    lines = text.count("\n") - out.count("\n")
    return f"{out}\n[... {len(text) - len(out):,} more characters ({lines:,} more lines) not shown]"
