"""Which language each page is written in, and the switch a browser picks another with.

A seat's pages (its link, its table, its rounds, its replay) are in the seat's language: the one it chose, else
this browser's, else the one its browser's visits lent it, else its game's (pbem/service/seats/languages.py). Every
other page (home, sign-in, join, spectators, the host's) is in this browser's: the one picked with the switch (a
cookie), else the first supported one its Accept-Language names, else the server's `language`. The locale is chosen
once per request, at the first word translated.
"""

from __future__ import annotations

from urllib.parse import urlsplit

from flask import Blueprint, Flask, g, redirect, request
from flask_babel import Babel
from werkzeug.wrappers import Response

from pbem.errors import PbemError
from pbem.i18n import LANGUAGES, TRANSLATIONS_DIR, browser_language, install_translations, supported
from pbem.i18n.messages import choose_page_language_again
from pbem.service.seats.languages import SeatLanguages, checked_language
from pbem.web import csrf
from pbem.web.app_context import runtime

COOKIE = "pbem_language"
COOKIE_MAX_AGE = 365 * 24 * 3600
SEAT_KEY = "pbem_reading_seat"
KNOWN_KEY = "pbem_reading_seat_languages"

blueprint = Blueprint("languages", __name__)
csrf.protect(blueprint)


def init_app(app: Flask, server_language: str) -> None:
    Babel(
        app, locale_selector=page_language, default_locale=server_language, configure_jinja=False,
        default_translation_directories=str(TRANSLATIONS_DIR),
    )
    install_translations(app.jinja_env)
    app.jinja_env.globals.update(languages=LANGUAGES, seat_page=seat_page)
    app.register_blueprint(blueprint)


def read_as_seat(game_id: str, seat: int, known: SeatLanguages | None = None) -> None:
    """This request is a seat's page: its words are in the seat's language, `known` (from a read the request made
    anyway: a move's locked row) or looked up at the first word."""
    if g.get(SEAT_KEY) is None or known is not None:
        setattr(g, SEAT_KEY, (game_id, seat))
        if known is not None:
            setattr(g, KNOWN_KEY, known)
        choose_page_language_again()  # in case a word was translated before the seat was known


def read_as_browser() -> None:
    """This request's words are in this browser's language after all: the database that knows the seat's cannot
    answer, and the page saying so must not ask it."""
    g.pop(SEAT_KEY, None)
    g.pop(KNOWN_KEY, None)
    choose_page_language_again()


def seat_page() -> bool:
    """Whether this page is a seat's (its language is chosen in its settings, not with the browser's switch)."""
    return g.get(SEAT_KEY) is not None


def this_browser() -> str | None:
    """The language this browser reads: picked with the switch, else its Accept-Language's first supported one."""
    return supported(request.cookies.get(COOKIE)) or browser_language(request.headers.get("Accept-Language"))


def page_language() -> str:
    """Flask-Babel's locale selector: the seat's language on a seat's page, else this browser's, else the server's."""
    server = runtime().config.language
    browser = this_browser()
    reading = g.get(SEAT_KEY)
    if reading is not None:
        known: SeatLanguages | None = g.get(KNOWN_KEY)
        try:
            return (known or runtime().seat_languages.of(*reading)).reading(server, browser_now=browser)
        except PbemError:  # no such game or seat: the page says so in the browser's language
            pass
    return browser or server


@blueprint.post("/language")
def switch() -> Response:
    """The browser's switch: remember the language picked (a cookie) and go back to the page it was picked on."""
    language = checked_language(request.form.get("language", ""))
    response = redirect(_back_to(request.form.get("next", "")), 303)
    response.set_cookie(
        COOKIE, language, max_age=COOKIE_MAX_AGE, httponly=True, samesite="Lax",
        secure=runtime().config.base_url.startswith("https://"),
    )
    return response


def _back_to(target: str) -> str:
    """A path on this site to return to ("/" for anything else: no open redirect)."""
    parts = urlsplit(target)
    if parts.scheme or parts.netloc or not target.startswith("/") or target.startswith("//") or "\\" in target:
        return "/"
    return target
