"""What a submission's source defines and imports, read from its tokens; never executed, never parsed into an AST.

Used to choose among several candidate files (the one defining the contract's functions) and to find the
student's own modules the graded file imports (``from helpers import softmax``). ``tokenize`` reads any text in
linear time and needs no valid syntax (``ast.parse`` can crash Python 3.10 on hostile nesting, see source.py);
a file that stops tokenizing keeps what was found before the error.
"""

from __future__ import annotations

import io
import keyword
import tokenize
from dataclasses import dataclass, field

from autograder.intake.source import check_time

SKIPPED = {tokenize.COMMENT, tokenize.NL, tokenize.ENCODING}


@dataclass
class Scan:
    """Top-level ``def``/``class`` names, and the top-level module names of every import (at any depth)."""

    defined: set[str] = field(default_factory=set)
    imported: set[str] = field(default_factory=set)

    def add(self, other: Scan) -> None:
        self.defined |= other.defined
        self.imported |= other.imported


def scan(source: str) -> Scan:
    """What ``source`` defines at top level and imports anywhere (absolute imports only)."""
    found, statement, depth = Scan(), [], 0
    tokens = tokenize.generate_tokens(io.StringIO(source).readline)
    try:
        for count, token in enumerate(tokens):
            if count % 4096 == 0:
                check_time()
            if token.type == tokenize.INDENT:
                depth += 1
            elif token.type == tokenize.DEDENT:
                depth -= 1
            elif token.type in (tokenize.NEWLINE, tokenize.ENDMARKER) or token.string == ";":
                _statement(statement, depth, found)
                statement = []
            elif token.type not in SKIPPED:
                statement.append(token.string)
    except (tokenize.TokenError, SyntaxError):  # unterminated string or bracket, bad dedent: keep what was found
        _statement(statement, depth, found)
    return found


def _statement(words: list[str], depth: int, found: Scan) -> None:
    if words[:1] == ["async"]:
        words = words[1:]
    if not words:
        return
    if words[0] in ("def", "class") and depth == 0 and len(words) > 1 and words[1].isidentifier():
        found.defined.add(words[1])
    elif words[0] == "import":
        clauses = " ".join(words[1:]).replace("(", " ").replace(")", " ").split(",")
        found.imported |= {c.split()[0] for c in clauses if c.split() and _name(c.split()[0])}
    elif words[0] == "from" and len(words) > 1 and _name(words[1]):
        found.imported.add(words[1])


def _name(word: str) -> bool:
    return word.isidentifier() and not keyword.iskeyword(word)
