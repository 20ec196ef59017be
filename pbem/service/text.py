"""The one character filter for text people type: chat messages, player names, game titles, reasons.

Control characters (NUL, ESC, ...) could break a database insert or an email header, and characters that
change the direction of the text around them could make a name or a message seem to say something else
(or seem to come from someone else); both are dropped, after Unicode normalisation (NFC). A message keeps
its lines; a name or title is one line with single spaces.

What is refused is said in the reader's language. A `field` is named in English, as the catalogue holds it (the
names callers use are marked in `FIELDS`), or already in the reader's words (a name with a number in it).
"""

from __future__ import annotations

import unicodedata
from typing import Any

from babel.numbers import format_decimal

from pbem.addresses import address_mistake
from pbem.errors import ValidationError
from pbem.i18n import current_locale, gettext, ngettext
from pbem.words.table import N_

MAX_LENGTH = 1000  # of a chat message
DIRECTION_CONTROLS = frozenset("\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")
LINE_BREAKS = {"\r\n": "\n", "\r": "\n", "\u2028": "\n", "\u2029": "\n", "\x85": "\n"}
# The fields callers name in English, marked for the catalogue: `field_name` translates them when refused.
FIELDS = (
    N_("title"), N_("host email"), N_("new player's name"), N_("new player's email"), N_("corrected email"),
)


def field_name(field: str) -> str:
    """A field's name in the reader's language (one named in English, or one already in the reader's words)."""
    return gettext(field)


def visible_text(raw: str) -> str:
    """`raw` normalised, its line breaks as "\\n", tabs as spaces, every other control character dropped."""
    text = unicodedata.normalize("NFC", raw)
    for line_break, newline in LINE_BREAKS.items():
        text = text.replace(line_break, newline)
    return "".join(" " if char == "\t" else char for char in text if char in "\n\t" or _shown(char))


def _shown(char: str) -> bool:
    return unicodedata.category(char) not in ("Cc", "Cs") and char not in DIRECTION_CONTROLS and char != "\ufeff"


def clean_text(raw: object) -> str:
    """A chat message as it will be stored and shown; ValidationError if nothing or too much is left."""
    if not isinstance(raw, str):
        raise ValidationError(gettext("A message must be text."))
    lines: list[str] = []
    for line in visible_text(raw).split("\n"):
        line = line.rstrip()
        if line or (lines and lines[-1]):  # at most one empty line in a row
            lines.append(line)
    cleaned = "\n".join(lines).strip()
    if not cleaned:
        raise ValidationError(gettext("The message is empty: write something first."))
    if len(cleaned) > MAX_LENGTH:
        locale = current_locale()
        raise ValidationError(gettext(
            "A message may have at most %(most)s characters; this one has %(length)s.",
            most=format_decimal(MAX_LENGTH, locale=locale), length=format_decimal(len(cleaned), locale=locale),
        ))
    return cleaned


def clean_line(field: str, raw: object, limit: int) -> str:
    """A name or a title: one line, single spaces, no control characters; ValidationError when nothing
    visible is left or it is longer than `limit`."""
    if not isinstance(raw, str):
        raise ValidationError(gettext("The %(field)s must be text.", field=field_name(field)))
    cleaned = " ".join(visible_text(raw).split())
    if not cleaned:
        raise ValidationError(gettext(
            "The %(field)s must not be empty (invisible and control characters do not count).",
            field=field_name(field),
        ))
    if len(cleaned) > limit:
        raise ValidationError(ngettext(
            "The %(field)s must be at most %(num)d character.", "The %(field)s must be at most %(num)d characters.",
            limit, field=field_name(field),
        ))
    return cleaned


# Words the game's messages use for people ("You built...", "someone"): a player called so would read as the
# text itself ("You chooses first"), so no name may be one of them, in any case.
RESERVED_NAMES = frozenset({"you", "your", "yours", "yourself", "someone", "nobody", "everyone", "me"})


def reserved_name_problem(name: str) -> str | None:
    """Why `name` cannot be a player's name (a word the game's messages use for people), or None."""
    if name.casefold() not in RESERVED_NAMES:
        return None
    return gettext(
        '"%(name)s" cannot be a player\'s name: the game\'s messages use that word for people (each player reads '
        '"you" for themselves). Please choose another name.', name=name,
    )


def clean_name(field: str, raw: object, limit: int) -> str:
    """A player's name: `clean_line`, and not a word the game's messages use for people."""
    name = clean_line(field, raw, limit)
    problem = reserved_name_problem(name)
    if problem:
        raise ValidationError(problem)
    return name


def clean_email(field: str, value: Any) -> str:
    """An address as it will be stored (`pbem.addresses.address_mistake` is the rule); ValidationError if not one."""
    mistake = address_mistake(value, gettext) if isinstance(value, str) else gettext("An email address is text.")
    if mistake:
        raise ValidationError(gettext(
            "The %(field)s is not an email address (%(value)s): %(mistake)s",
            field=field_name(field), value=repr(value), mistake=mistake,
        ))
    return str(value).strip()
