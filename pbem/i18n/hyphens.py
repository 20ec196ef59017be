"""Where a long word may break: soft hyphens in the reader's language, from Pyphen's (LibreOffice's) dictionaries.

For the narrow labels under the cards. A browser without hyphenation data for the page's language (Chromium on
Linux, for one) would otherwise cut "Abzweigung" anywhere ("Abzweig / ung"); with soft hyphens it breaks at a
syllable and shows the hyphen. The text reads and copies the same: a soft hyphen is invisible unless it breaks.
"""

from __future__ import annotations

import re
from functools import cache

import pyphen

SOFT_HYPHEN = "\u00ad"
SHORTEST = 7  # a shorter word fits under any card
WORD = re.compile(r"[^\W\d_]+")


@cache
def _dictionary(language: str) -> pyphen.Pyphen | None:
    """The language's hyphenation dictionary; None where words break without hyphens (Korean) or none is known."""
    if language == "ko" or language not in pyphen.LANGUAGES:
        return None
    return pyphen.Pyphen(lang=language)


def hyphenated(text: str, language: str) -> str:
    """`text` with a soft hyphen wherever its long words may break in `language`."""
    dictionary = _dictionary(language)
    if dictionary is None:
        return text

    def breaks(word: re.Match[str]) -> str:
        found = word.group(0)
        return dictionary.inserted(found, hyphen=SOFT_HYPHEN) if len(found) >= SHORTEST else found

    return WORD.sub(breaks, text)
