"""The compiled catalogues (pbem/translations/<lang>/LC_MESSAGES/messages.mo), loaded once per language.

`make` compiles them from the .po files; a language without its .mo (a checkout before `make`) reads the
English source words, so nothing breaks, it is only untranslated.
"""

from __future__ import annotations

from functools import cache
from gettext import NullTranslations
from pathlib import Path

from babel.support import Translations

TRANSLATIONS_DIR = Path(__file__).resolve().parent.parent / "translations"
DOMAIN = "messages"


@cache
def translations(language: str) -> NullTranslations:
    """The catalogue of `language` (identity for English, and for a language whose .mo is not compiled)."""
    return Translations.load(dirname=str(TRANSLATIONS_DIR), locales=[language], domain=DOMAIN)
