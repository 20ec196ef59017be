"""Translating a message into the reader's language: the one set of functions for Python code and templates.

The reader's language is the one forced by `in_language` (an email to a seat, rendered by the scheduler or
a request), else the request's (Flask-Babel's locale selector, pbem/i18n/web.py), else English. Messages are
%-formatted like Flask-Babel's: `gettext("%(name)s plays", name=...)`, so translators see whole sentences.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Any

import flask_babel
from babel import Locale
from babel.support import LazyProxy
from flask import current_app, g, has_request_context
from jinja2 import Environment

from pbem.i18n.catalogues import translations
from pbem.i18n.languages import DEFAULT_LANGUAGE, supported

_forced: ContextVar[str | None] = ContextVar("pbem_language", default=None)
PAGE_LANGUAGE = "pbem_page_language"  # in flask.g


def current_language() -> str:
    """The code of the language being written in now ("de", "en", "ko")."""
    return language_in_effect() or DEFAULT_LANGUAGE


def language_in_effect() -> str | None:
    """The language `in_language` forces, else the request's; None outside both (the caller knows a default)."""
    forced = _forced.get()
    if forced is not None:
        return forced
    if has_request_context() and "babel" in current_app.extensions:
        chosen: str | None = g.get(PAGE_LANGUAGE)
        if chosen is None:  # chosen once per request (Flask-Babel's locale selector), read by every word after
            locale = flask_babel.get_locale()
            chosen = (supported(str(locale)) if locale is not None else None) or DEFAULT_LANGUAGE
            setattr(g, PAGE_LANGUAGE, chosen)
        return chosen
    return None


def choose_page_language_again() -> None:
    """The request learnt who reads it (a seat's page): its language is chosen again at the next word."""
    if has_request_context():
        g.pop(PAGE_LANGUAGE, None)
        babel_state = g.get("_flask_babel")
        if babel_state is not None:
            babel_state.babel_locale = None
            babel_state.babel_translations = None


def current_locale() -> Locale:
    """The current language as a Babel Locale, for babel.dates and babel.numbers."""
    return Locale.parse(current_language())


@contextmanager
def in_language(code: str | None) -> Iterator[str]:
    """Write in `code` inside the block (an unsupported or missing code: the server's default, English), in a
    request or outside one (the scheduler's emails); nests, and restores the language before it on leaving."""
    language = supported(code) or DEFAULT_LANGUAGE
    token = _forced.set(language)
    try:
        with flask_babel.force_locale(language):  # Flask-Babel's own formatters agree, where an app is current
            yield language
    finally:
        _forced.reset(token)


def gettext(message: str, **variables: Any) -> str:
    text = translations(current_language()).gettext(message)
    return text % variables if variables else text


def ngettext(singular: str, plural: str, num: int, **variables: Any) -> str:
    """The form for `num` ("%(num)d cards" gets num itself unless given)."""
    variables.setdefault("num", num)
    return translations(current_language()).ngettext(singular, plural, num) % variables


def pgettext(context: str, message: str, **variables: Any) -> str:
    """`message` in `context` ("card", "Map"): one English word, two meanings, two translations."""
    text = translations(current_language()).pgettext(context, message)
    return text % variables if variables else text


def npgettext(context: str, singular: str, plural: str, num: int, **variables: Any) -> str:
    variables.setdefault("num", num)
    return translations(current_language()).npgettext(context, singular, plural, num) % variables


def lazy_gettext(message: str, **variables: Any) -> LazyProxy:
    """Translated when used (a module constant read by readers of different languages)."""
    return LazyProxy(gettext, message, enable_cache=False, **variables)


def lazy_ngettext(singular: str, plural: str, num: int, **variables: Any) -> LazyProxy:
    return LazyProxy(ngettext, singular, plural, num, enable_cache=False, **variables)


def lazy_pgettext(context: str, message: str, **variables: Any) -> LazyProxy:
    return LazyProxy(pgettext, context, message, enable_cache=False, **variables)


def install_translations(environment: Environment) -> None:
    """`_`, `gettext`, `ngettext`, `pgettext` and `{% trans %}` in `environment`'s templates, in the current
    language. Jinja formats the variables itself (escaped in HTML), so the callables only look the words up; the
    whitespace inside `{% trans %}` is collapsed, as `pybabel extract` does (babel.cfg: trimmed)."""
    environment.add_extension("jinja2.ext.i18n")
    environment.policies["ext.i18n.trimmed"] = True
    environment.globals["current_language"] = current_language  # <html lang="{{ current_language() }}">
    environment.install_gettext_callables(  # type: ignore[attr-defined]
        gettext=lambda message: translations(current_language()).gettext(message),
        ngettext=lambda singular, plural, num: translations(current_language()).ngettext(singular, plural, num),
        newstyle=True,
        pgettext=lambda context, message: translations(current_language()).pgettext(context, message),
        npgettext=lambda context, singular, plural, num: translations(current_language()).npgettext(
            context, singular, plural, num
        ),
    )
