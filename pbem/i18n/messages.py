"""Translating a message into the reader's language: the one set of functions for Python code and templates.

The reader's language is the one forced by `in_language` (an email to a seat, rendered by the scheduler or
a request), else the request's (Flask-Babel's locale selector, pbem/i18n/web.py), else English. Messages are
%-formatted like Flask-Babel's: `gettext("%(name)s plays", name=...)`, so translators see whole sentences.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from gettext import NullTranslations
from typing import Any

import flask_babel
from babel import Locale
from babel.support import LazyProxy
from flask import current_app, g, has_request_context
from flask.globals import _cv_request  # Flask's own context variable of the request: read without a proxy
from jinja2 import Environment, pass_context
from jinja2.runtime import Context

from pbem.i18n.catalogues import translations
from pbem.i18n.hyphens import hyphenated
from pbem.i18n.languages import DEFAULT_LANGUAGE, supported
from pbem.i18n.particles import Text, with_particles

# The language `in_language` forces, with its catalogue.
_forced: ContextVar[tuple[str, NullTranslations] | None] = ContextVar("pbem_language", default=None)
# The request's language and catalogue, chosen at its first word (Flask-Babel's locale selector) and kept for every
# word after, with the request they belong to: read through context variables, a word costs a dictionary lookup.
_page: ContextVar[tuple[object, str, NullTranslations] | None] = ContextVar("pbem_page_language", default=None)


def _reading() -> tuple[str, NullTranslations] | None:
    forced = _forced.get()
    if forced is not None:
        return forced
    request_context = _cv_request.get(None)
    if request_context is None:
        return None
    page = _page.get()
    if page is not None and page[0] is request_context:
        return page[1], page[2]
    if "babel" not in current_app.extensions:
        return None
    locale = flask_babel.get_locale()
    chosen = (supported(str(locale)) if locale is not None else None) or DEFAULT_LANGUAGE
    _page.set((request_context, chosen, translations(chosen)))
    return chosen, translations(chosen)


def _catalogue() -> NullTranslations:
    reading = _reading()
    return reading[1] if reading is not None else translations(DEFAULT_LANGUAGE)


# What a language does to a sentence once its values are in (Korean particles take the form of the word before).
_FINISHING: dict[str, Callable[[Any], Any]] = {"ko": with_particles}


def _finished(text: Text) -> Text:
    """`text`, its values filled in, as the language being written in finishes a sentence."""
    reading = _reading()
    finish = _FINISHING.get(reading[0]) if reading is not None else None
    return finish(text) if finish is not None else text


def current_language() -> str:
    """The code of the language being written in now ("de", "en", "ko")."""
    return language_in_effect() or DEFAULT_LANGUAGE


def language_in_effect() -> str | None:
    """The language `in_language` forces, else the request's; None outside both (the caller knows a default)."""
    reading = _reading()
    return reading[0] if reading is not None else None


def choose_page_language_again() -> None:
    """The request learnt who reads it (a seat's page): its language is chosen again at the next word."""
    _page.set(None)
    if has_request_context():
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
    token = _forced.set((language, translations(language)))
    try:
        with flask_babel.force_locale(language):  # Flask-Babel's own formatters agree, where an app is current
            yield language
    finally:
        _forced.reset(token)


def gettext(message: str, **variables: Any) -> str:
    text = _catalogue().gettext(message)
    return _finished(text % variables) if variables else text


def ngettext(singular: str, plural: str, num: int, **variables: Any) -> str:
    """The form for `num` ("%(num)d cards" gets num itself unless given)."""
    variables.setdefault("num", num)
    return _finished(_catalogue().ngettext(singular, plural, num) % variables)


def pgettext(context: str, message: str, **variables: Any) -> str:
    """`message` in `context` ("card", "Map"): one English word, two meanings, two translations."""
    text = _catalogue().pgettext(context, message)
    return _finished(text % variables) if variables else text


def npgettext(context: str, singular: str, plural: str, num: int, **variables: Any) -> str:
    variables.setdefault("num", num)
    return _finished(_catalogue().npgettext(context, singular, plural, num) % variables)


def lazy_gettext(message: str, **variables: Any) -> LazyProxy:
    """Translated when used (a module constant read by readers of different languages)."""
    return LazyProxy(gettext, message, enable_cache=False, **variables)


def lazy_ngettext(singular: str, plural: str, num: int, **variables: Any) -> LazyProxy:
    return LazyProxy(ngettext, singular, plural, num, enable_cache=False, **variables)


def lazy_pgettext(context: str, message: str, **variables: Any) -> LazyProxy:
    return LazyProxy(pgettext, context, message, enable_cache=False, **variables)


def install_translations(environment: Environment) -> None:
    """`_`, `gettext`, `ngettext`, `pgettext`, `{% trans %}` and the `hyphenated` filter in `environment`'s
    templates, in the current language. Jinja formats the variables itself (escaped in HTML), so the callables only
    look the words up; the whitespace inside `{% trans %}` is collapsed, as `pybabel extract` does (babel.cfg:
    trimmed)."""
    environment.add_extension("jinja2.ext.i18n")
    environment.policies["ext.i18n.trimmed"] = True
    environment.globals["current_language"] = current_language  # <html lang="{{ current_language() }}">
    environment.filters["hyphenated"] = lambda text: hyphenated(str(text), current_language())
    environment.install_gettext_callables(  # type: ignore[attr-defined]
        gettext=lambda message: _catalogue().gettext(message),
        ngettext=lambda singular, plural, num: _catalogue().ngettext(singular, plural, num),
        newstyle=True,
        pgettext=lambda context, message: _catalogue().pgettext(context, message),
        npgettext=lambda context, singular, plural, num: _catalogue().npgettext(
            context, singular, plural, num
        ),
    )
    for name in ("gettext", "ngettext", "pgettext", "npgettext"):  # Jinja fills the values in, then the language
        translate = environment.globals[name]
        assert callable(translate)
        environment.globals[name] = _finishing(translate)


def _finishing(translate: Callable[..., Any]) -> Callable[..., Any]:
    """Jinja's translating callable, with the sentence finished by its language once Jinja has filled it in."""

    @pass_context
    def translated(context: Context, *args: Any, **variables: Any) -> Any:
        return _finished(translate(context, *args, **variables))

    return translated
