"""The languages the server speaks, each named in itself, and the choice among them a browser asks for."""

from __future__ import annotations

from babel import Locale, UnknownLocaleError

DEFAULT_LANGUAGE = "en"  # the source language: the words in the code and templates are English
# Each language's own name for itself, for the choices a reader picks from (sorted by that name).
LANGUAGES: dict[str, str] = {"de": "Deutsch", "en": "English", "ko": "한국어"}
SUPPORTED = tuple(LANGUAGES)


def supported(code: str | None) -> str | None:
    """`code` as one of SUPPORTED ("de-AT" and "DE" are "de"), or None if the server does not speak it."""
    if not code:
        return None
    if code in LANGUAGES:  # the common case, on every word a page translates
        return code
    try:
        language = Locale.parse(code.strip().replace("-", "_")).language
    except (ValueError, TypeError, UnknownLocaleError):
        return None
    return language if language in LANGUAGES else None


def browser_language(accept_language: str | None) -> str | None:
    """The first supported language of an Accept-Language header, by its q-values; None when the header is missing
    or names none we speak (the caller then keeps what it had)."""
    if not accept_language:
        return None
    wanted: list[tuple[float, int, str]] = []
    for position, part in enumerate(accept_language.split(",")):
        tag, _, params = part.strip().partition(";")
        quality = 1.0
        for param in params.split(";"):
            name, _, value = param.strip().partition("=")
            if name.strip().lower() == "q":
                try:
                    quality = float(value)
                except ValueError:
                    quality = 0.0
        if tag and quality > 0:
            wanted.append((-quality, position, tag.strip()))
    for _, _, tag in sorted(wanted):
        found = supported(tag) if tag != "*" else None
        if found is not None:
            return found
    return None


def reading_language(*choices: str | None) -> str:
    """The first of `choices` the server speaks (a seat's own choice, its browser's, its game's, the server's, in
    that order), else English."""
    for choice in choices:
        found = supported(choice)
        if found is not None:
            return found
    return DEFAULT_LANGUAGE


def native_name(code: str) -> str:
    """The language's name in itself ("Deutsch"), for a language the server speaks."""
    return LANGUAGES[code]


__all__ = ["DEFAULT_LANGUAGE", "LANGUAGES", "SUPPORTED", "browser_language", "native_name",
           "reading_language", "supported"]
