"""The text part of an email, wrapped to fit a reader 80 columns wide.

Templates write each paragraph on one line; `wrapped` breaks the lines at spaces when the email is composed, so
every kind is wrapped the same way in one place. A line keeps its indent, and the lines of an item ("  - ...",
"  1. ...") line up under its first word. A word is never broken: a link longer than a line stands on a line of
its own, whole, so a mail client still finds all of it.
"""

from __future__ import annotations

import re
import textwrap

WIDTH = 76  # under 78, the most RFC 5322 asks of a line, with room for a quoting ">" or two
# An indent, then maybe an item's mark ("- ", "* ", "1. "): what a wrapped line's continuation lines up under.
LEAD = re.compile(r"( *)((?:[-*]|\d+\.) )?")


def wrapped(text: str, width: int = WIDTH) -> str:
    """`text` with every line longer than `width` broken at its spaces; shorter lines are left as they are."""
    return "\n".join(_wrap_line(line, width) for line in text.split("\n"))


def _wrap_line(line: str, width: int) -> str:
    if len(line) <= width:
        return line
    lead = LEAD.match(line)
    assert lead is not None  # the pattern matches the empty string
    indent = lead.group(1)
    hanging = " " * (lead.end() - len(indent))
    return "\n".join(textwrap.wrap(
        line[lead.end():], width=width, initial_indent=line[:lead.end()], subsequent_indent=indent + hanging,
        break_long_words=False, break_on_hyphens=False,
    )) or line
