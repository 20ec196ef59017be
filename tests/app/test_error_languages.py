"""Every error a client can cause is told in the reader's language: a typed error's default (translated when the
page is written, English on the command line and in the logs), the HTTP errors' own words (not found, method not
allowed, too large, the server's fault), a stale form, a database that went away, and the messages the service
words as it refuses. The JSON's `error` code stays the same in every language; English stays word for word."""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Iterator
from datetime import timedelta

import pytest
from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy.exc import OperationalError
from werkzeug.exceptions import NotFound, default_exceptions

from pbem.chance import SeededChance
from pbem.clock import SettableClock
from pbem.config import Config
from pbem.errors import (
    CsrfFailed,
    DatabaseUnavailable,
    GameNotFound,
    NotYourTurn,
    PbemError,
    RateLimited,
    ValidationError,
)
from pbem.i18n import in_language
from pbem.runtime import Runtime
from pbem.service.text import clean_text
from pbem.service.turns.values import PlayerSpec
from pbem.tokens import HostLinkSigner
from pbem.web.errors import HTTP_DESCRIPTIONS, handle_database_unavailable, handle_pbem_error, handle_unexpected
from pbem.web.languages import read_as_seat
from tests.support.games import PEOPLE
from tests.support.web import HOST, built_app

pytestmark = pytest.mark.usefixtures("compiled_catalogues")

NOT_FOUND = {
    "en": NotFound.description,
    "de": "Die angefragte URL wurde auf dem Server nicht gefunden.",
    "ko": "요청한 URL을 서버에서 찾을 수 없어요.",
}
STALE_FORM = {
    "en": "This form has expired, so nothing was done. Please look at the page again and retry.",
    "de": "Dieses Formular ist abgelaufen, daher wurde nichts gemacht.",
    "ko": "이 양식은 만료되어 아무것도 처리되지 않았어요.",
}


def page_message(body: str) -> str:
    start = body.index('<p class="error-message">') + len('<p class="error-message">')
    return body[start:body.index("</p>", start)]


def answer(client: FlaskClient, method: str, path: str, language: str, *, as_json: bool = False,
           **kwargs: object) -> tuple[int, str, dict[str, str] | None]:
    """Status, the HTML error page's message or the JSON's message, and the JSON itself."""
    headers = {"Accept-Language": language, "Accept": "application/json" if as_json else "text/html"}
    response = client.open(path, method=method, headers=headers, **kwargs)  # type: ignore[arg-type]
    if as_json:
        data = response.get_json()
        return response.status_code, data["message"], data
    return response.status_code, page_message(response.get_data(as_text=True)), None


# -- the classes' defaults: the reader's language in a request, English elsewhere ----------------------------------


def test_a_default_message_is_english_outside_a_request_and_in_the_logs() -> None:
    error = NotYourTurn()

    assert error.message == "It is not your turn."
    assert str(error) == "It is not your turn."


@pytest.mark.parametrize(("language", "said"), [("de", "Du bist nicht am Zug."), ("ko", "내 차례가 아니에요.")])
def test_a_default_message_is_said_in_the_language_written_in_when_it_is_read(language: str, said: str) -> None:
    error = NotYourTurn()  # raised before the language was known

    with in_language(language):
        assert error.message == said
    assert error.message == "It is not your turn."
    assert str(error) == "It is not your turn."  # the logs stay English


def test_a_message_given_when_raising_is_kept_as_given() -> None:
    with in_language("de"):
        assert ValidationError("Schon übersetzt.").message == "Schon übersetzt."
        assert PbemError("").message == "Mit dieser Anfrage stimmt etwas nicht."


# -- HTTP errors, the stale form, a rate limit, the database, the server's own fault -------------------------------


@pytest.mark.parametrize("language", ["en", "de", "ko"])
def test_a_page_that_does_not_exist_says_so_in_the_readers_language_on_a_page_and_in_json(
    client: FlaskClient, language: str
) -> None:
    status, said, _ = answer(client, "GET", "/no-such-page", language)
    json_status, json_said, data = answer(client, "GET", "/no-such-page", language, as_json=True)

    assert status == json_status == 404
    assert said.startswith(NOT_FOUND[language]) and json_said.startswith(NOT_FOUND[language])
    assert data is not None and data["error"] == "not_found"
    if language == "en":
        assert json_said == NotFound.description


@pytest.mark.parametrize(("language", "said"), [
    ("en", "The method is not allowed for the requested URL."),
    ("de", "Diese Methode ist für die angefragte URL nicht erlaubt."),
    ("ko", "요청한 URL에는 이 메서드를 쓸 수 없어요."),
])
def test_a_method_the_address_does_not_take_is_refused_in_the_readers_language(
    client: FlaskClient, language: str, said: str
) -> None:
    status, message, data = answer(client, "GET", "/language", language, as_json=True)

    assert status == 405
    assert message == said
    assert data is not None and data["error"] == "method_not_allowed"


@pytest.mark.parametrize("language", ["en", "de", "ko"])
def test_a_form_without_its_token_is_refused_in_the_readers_language(client: FlaskClient, language: str) -> None:
    status, said, _ = answer(client, "POST", "/language", language, data={"language": "de", "next": "/"})
    json_status, json_said, data = answer(client, "POST", "/language", language, as_json=True,
                                          data={"language": "de", "next": "/"})

    assert status == json_status == 400
    assert said.startswith(STALE_FORM[language]) and json_said.startswith(STALE_FORM[language])
    assert data is not None and data["error"] == "csrf_failed"
    if language == "en":
        assert json_said == STALE_FORM["en"]


@pytest.fixture
def small_app(config: Config, clock: SettableClock, chance: SeededChance) -> Iterator[Flask]:
    yield from built_app(dataclasses.replace(config, max_request_kb=512), clock, chance)


@pytest.mark.parametrize(("language", "said"), [
    ("en", "That was too much to send at once: this server accepts at most 512 KB per request, so nothing was done. "
           "Please go back and send something shorter (a deck file, for example, may be at most 256 KB)."),
    ("de", "Das war zu viel auf einmal: Dieser Server nimmt höchstens 512 KB pro Anfrage an, daher wurde nichts "
           "gemacht."),
    ("ko", "한 번에 보내기엔 너무 많아요. 이 서버는 요청 하나에 최대 512 KB까지만 받아서"),
])
def test_a_body_too_large_is_refused_in_the_readers_language_naming_the_limits(
    small_app: Flask, language: str, said: str
) -> None:
    status, message, data = answer(small_app.test_client(), "POST", "/language", language, as_json=True,
                                   data={"language": "x" * 600_000})

    assert status == 413
    assert message.startswith(said) and (language != "en" or message == said)
    assert data is not None and data["error"] == "too_large"


@pytest.mark.parametrize(("language", "said"), [
    ("en", "The game's database cannot be reached just now, so nothing was saved."),
    ("de", "Die Datenbank des Spiels ist gerade nicht erreichbar, daher wurde nichts gespeichert."),
    ("ko", "지금은 게임 데이터베이스에 연결할 수 없어서 아무것도 저장되지 않았어요."),
])
def test_a_database_gone_away_is_said_in_the_readers_language(app: Flask, language: str, said: str) -> None:
    lost = OperationalError("SELECT 1", {}, Exception("server closed the connection"))
    with app.test_request_context("/table/x", headers={"Accept-Language": language, "Accept": "application/json"}):
        response, status = handle_database_unavailable(lost)

    data = json.loads(response.get_data(as_text=True))  # type: ignore[union-attr]
    assert status == 503 and data["error"] == "database_unavailable"
    assert data["message"].startswith(said)
    assert response.headers["Retry-After"] == "30"  # type: ignore[union-attr]
    if language == "en":
        assert data["message"] == DatabaseUnavailable.default_message


def test_a_seats_page_whose_database_is_gone_says_so_in_the_browsers_language(
    app: Flask, monkeypatch: pytest.MonkeyPatch
) -> None:
    lost = OperationalError("SELECT language", {}, Exception("server closed the connection"))

    def unreachable(*_args: object) -> object:
        raise lost

    with app.test_request_context("/table/x", headers={"Accept-Language": "ko"}):
        monkeypatch.setattr(app.extensions["pbem"].seat_languages, "of", unreachable)
        read_as_seat("g1", 0)  # the seat's language is in the database that just went away
        page, status = handle_database_unavailable(lost)

    assert status == 503
    assert page_message(page.get_data(as_text=True)).startswith("지금은 게임 데이터베이스에 연결할 수 없어서")  # type: ignore[union-attr]


@pytest.mark.parametrize(("language", "said"), [
    ("en", default_exceptions[500].description),
    ("de", "Auf dem Server ist ein interner Fehler aufgetreten"),
    ("ko", "서버에 내부 오류가 생겨서 요청을 끝까지 처리하지 못했어요."),
])
def test_the_servers_own_fault_is_said_in_the_readers_language(app: Flask, language: str, said: str) -> None:
    with app.test_request_context("/", headers={"Accept-Language": language}):
        page, status = handle_unexpected(RuntimeError("a bug"))

    assert status == 500
    assert page_message(str(page)).startswith(said)


@pytest.mark.parametrize(("language", "said"), [
    ("en", "Too many requests from here. Please wait a while and try again."),
    ("de", "Zu viele Anfragen von hier. Bitte warte eine Weile und versuch es dann noch einmal."),
    ("ko", "이곳에서 요청이 너무 많아요. 잠시 기다린 뒤 다시 시도해 주세요."),
])
def test_a_rate_limit_and_a_missing_game_are_said_in_the_readers_language(app: Flask, language: str, said: str) -> None:
    with app.test_request_context("/", headers={"Accept-Language": language, "Accept": "application/json"}):
        limited, status = handle_pbem_error(RateLimited())
        missing, _ = handle_pbem_error(GameNotFound())
        stale, _ = handle_pbem_error(CsrfFailed())

    assert status == 429
    assert limited.get_json() == {"error": "rate_limited", "message": said}  # type: ignore[union-attr]
    assert missing.get_json()["error"] == "game_not_found"  # type: ignore[union-attr]
    assert stale.get_json()["message"].startswith(STALE_FORM[language])  # type: ignore[union-attr]


def test_every_http_error_werkzeug_words_is_in_the_catalogue_word_for_word() -> None:
    """The English page says Werkzeug's own description; a new wording in a Werkzeug upgrade is noticed here."""
    assert {error.description for error in default_exceptions.values()} <= HTTP_DESCRIPTIONS


# -- what the service words as it refuses ------------------------------------------------------------------------


def refused(call: object, language: str | None = None) -> str:
    with in_language(language):
        try:
            call()  # type: ignore[operator]
        except PbemError as error:
            return error.message
    raise AssertionError("not refused")


def test_a_new_games_refusals_are_in_the_readers_language_and_english_word_for_word(runtime: Runtime) -> None:
    def titled(title: str) -> object:
        return lambda: runtime.games.create_game(title=title, players=PEOPLE, host_email=HOST)

    def named(name: str) -> object:
        players = [PlayerSpec(name, "one@example.org"), *PEOPLE[1:]]
        return lambda: runtime.games.create_game(title="Mine", players=players, host_email=HOST)

    assert refused(titled(" \u200e ")) == (
        "The title must not be empty (invisible and control characters do not count)."
    )
    assert refused(titled(" \u200e "), "de") == (
        "Das Feld „Titel“ darf nicht leer sein (unsichtbare Zeichen und Steuerzeichen zählen nicht)."
    )
    assert refused(titled(" \u200e "), "ko") == (
        "‘제목’ 항목은 비워 둘 수 없어요(보이지 않는 문자와 제어 문자는 세지 않아요)."
    )
    assert refused(named("x" * 200)) == "The name of player 1 must be at most 80 characters."
    assert refused(named("x" * 200), "de") == "Das Feld „Name von Spieler 1“ darf höchstens 80 Zeichen haben."
    assert refused(named("x" * 200), "ko") == "‘플레이어 1 이름’ 항목은 최대 80자까지 쓸 수 있어요."
    assert refused(named("You"), "de").startswith("„You“ kann kein Spielername sein")


def test_a_chat_message_too_long_counts_its_characters_the_readers_way() -> None:
    assert refused(lambda: clean_text("x" * 1234)) == (
        "A message may have at most 1,000 characters; this one has 1,234."
    )
    assert refused(lambda: clean_text("x" * 1234), "de") == (
        "Eine Nachricht darf höchstens 1.000 Zeichen haben; diese hat 1.234."
    )
    assert refused(lambda: clean_text("   "), "ko") == "메시지가 비어 있어요. 먼저 내용을 써 주세요."


def test_a_bad_sign_in_link_is_refused_in_the_readers_language(runtime: Runtime) -> None:
    signer = HostLinkSigner(("secret",), "https://pbem.example", timedelta(hours=1), runtime.clock)

    assert refused(lambda: signer.verify("forged")) == (
        "This host link is not valid (host links work once, for one hour)."
    )
    assert refused(lambda: signer.verify("forged"), "ko") == (
        "유효하지 않은 방장 링크예요(방장 링크는 한 시간 안에 한 번만 쓸 수 있어요)."
    )
