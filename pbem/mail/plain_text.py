"""The text part of an email, wrapped to fit a reader 80 columns wide.

Templates write each paragraph on one line; `wrapped` breaks the lines at spaces when the email is composed, so
every kind is wrapped the same way in one place. A line keeps its indent, and the lines of an item ("  - ...",
"  1. ...") line up under its first word. A word is never broken: a link longer than a line stands on a line of
its own, whole, so a mail client still finds all of it. Widths are columns as a fixed-width font shows them: a
Korean letter (or any East Asian wide one) takes two.
"""

from __future__ import annotations

import re
import textwrap
import unicodedata

WIDTH = 76  # under 78, the most RFC 5322 asks of a line, with room for a quoting ">" or two
# An indent, then maybe an item's mark ("- ", "* ", "1. "): what a wrapped line's continuation lines up under.
LEAD = re.compile(r"( *)((?:[-*]|\d+\.) )?")


def wrapped(text: str, width: int = WIDTH) -> str:
    """`text` with every line longer than `width` broken at its spaces; shorter lines are left as they are."""
    return "\n".join(_wrap_line(line, width) for line in text.split("\n"))


def columns(text: str) -> int:
    """How many columns `text` takes in a fixed-width font (a wide letter, as Korean's, two)."""
    return len(text) + sum(1 for char in text if not char.isascii() and unicodedata.east_asian_width(char) in "WF")


def _wrap_line(line: str, width: int) -> str:
    if columns(line) <= width:
        return line
    lead = LEAD.match(line)
    assert lead is not None  # the pattern matches the empty string
    indent = lead.group(1)
    hanging = " " * (lead.end() - len(indent))
    first, rest, body = line[:lead.end()], indent + hanging, line[lead.end():]
    if columns(body) == len(body):  # narrow letters only: textwrap counts them right
        return "\n".join(textwrap.wrap(
            body, width=width, initial_indent=first, subsequent_indent=rest, break_long_words=False,
            break_on_hyphens=False,
        )) or line
    return _wrap_wide(body, width, first, rest)


def _wrap_wide(body: str, width: int, first: str, rest: str) -> str:
    """`body` broken at its spaces so that each line fits `width` columns (a word longer stands alone)."""
    lines: list[str] = []
    current, lead = first, first
    for word in body.split():
        candidate = current + word if current == lead else f"{current} {word}"
        if current != lead and columns(candidate) > width:
            lines.append(current)
            current, lead = rest + word, rest
        else:
            current = candidate
    lines.append(current)
    return "\n".join(lines)
