"""Counting and listing: "2 cards", "Ann, Bo and Cy", "one less", in the reader's language.

A count in a sentence goes through `ngettext` in the sentence's own message; `plural` is for an English word
the caller holds (pages not yet translated), never for a message a translation must say.
"""

from __future__ import annotations

from collections.abc import Sequence

from pbem.i18n import gettext, pgettext
from pbem.words.table import N_, Words

# Small counts written as words ("two less", "for three").
COUNT_WORDS = Words({"1": N_("one"), "2": N_("two"), "3": N_("three"), "4": N_("four"), "5": N_("five"),
                     "6": N_("six")})


def count_word(count: int) -> str:
    """ "one" .. "six" (a larger count as its figure)."""
    return COUNT_WORDS[str(count)] if str(count) in COUNT_WORDS else str(count)


def plural(count: int, word: str, words: str | None = None) -> str:
    """ "0 nuggets", "1 nugget", "2 nuggets": never "nugget(s)". English words only: a translated sentence
    counts with `ngettext` instead."""
    return f"{count} {word if count == 1 else (words or word + 's')}"


def and_list(words: Sequence[str]) -> str:
    """Words in a row as a sentence lists them: "Ann", "Ann and Bo", "Ann, Bo and Cy" (never "Ann and Bo and Cy").
    The separator and the last joint are the locale's."""
    if len(words) > 1:
        head = pgettext("list separator", ", ").join(words[:-1])
        return gettext("%(items)s and %(last)s", items=head, last=words[-1])
    return words[0] if words else ""


def or_list(words: Sequence[str]) -> str:
    """Choices in a row: "pick", "pick or lantern", "'play' or 'clear' or 'pass'"."""
    if not words:
        return ""
    joined = words[0]
    for word in words[1:]:
        joined = gettext("%(items)s or %(last)s", items=joined, last=word)
    return joined
