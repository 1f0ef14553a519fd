"""Student-controlled text in markdown (results.json output is rendered by Gradescope).

Inside code spans and blocks text is shown literally, so it is never escaped there; a
delimiter longer than any backtick run in the text keeps it inside. Elsewhere HTML,
links, images and code spans are defused.
"""

from __future__ import annotations

import re


def plain(value: object, limit: int = 500) -> str:
    """Text for one markdown line outside code: whitespace collapsed, capped, no HTML, links or code spans."""
    text = " ".join(str(value).split())[:limit].replace("\\", "\\\\")
    return text.replace("<", "&lt;").replace(">", "&gt;").replace("[", "\\[").replace("]", "\\]").replace("`", "\\`")


def code_span(value: object, limit: int = 500) -> str:
    """``value`` as one inline code span, shown literally (CommonMark: a longer backtick run delimits it)."""
    text = " ".join(str(value).split())
    text = text if len(text) <= limit else text[: limit - 3] + "..."
    longest = max((len(m) for m in re.findall(r"`+", text)), default=0)
    pad = " " if text.startswith("`") or text.endswith("`") or not text else ""
    return f"{'`' * (longest + 1)}{pad}{text}{pad}{'`' * (longest + 1)}"


def fenced(text: str) -> str:
    """A markdown code block that ``text`` cannot break out of (its fence is longer than any backtick run)."""
    longest = max((len(m) for m in re.findall(r"`+", text)), default=0)
    fence = "`" * max(3, longest + 1)
    return f"{fence}\n{text}\n{fence}"
