"""Who reads which language on the web: a seat its own choice, else its browser's, else its game's, else the
server's; everyone else their browser's (the switch, else Accept-Language), else the server's. Every page says its
language in `<html lang>`; the switch and the seat's choice are ordinary forms (POST, CSRF), no script needed."""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Iterator

import pytest
from flask import Flask
from flask.testing import FlaskClient

import engine
from pbem.chance import SeededChance
from pbem.clock import SettableClock
from pbem.config import Config
from pbem.models import Seat
from pbem.runtime import Runtime
from tests.support.games import PEOPLE, seat_token, store_game
from tests.support.web import CSRF, app_runtime, built_app, post, table_path, with_csrf

pytestmark = pytest.mark.usefixtures("compiled_catalogues")

HTML_LANG = re.compile(r'<html lang="([a-z]+)">')
HOME_HEADING = {
    "en": "Saboteur, played by email", "de": "Saboteur, per E-Mail gespielt", "ko": "사보추어, 이메일로 함께하기",
}
LANGUAGE_HEADING = {"en": ">Language</h2>", "de": ">Sprache</h2>", "ko": ">언어</h2>"}


def language_of(page: str) -> str:
    found = HTML_LANG.search(page)
    assert found, page[:200]
    return found.group(1)


def get(client: FlaskClient, path: str, accept: str | None = None) -> str:
    response = client.get(path, headers={"Accept-Language": accept} if accept else {}, follow_redirects=True)
    return response.get_data(as_text=True)


@pytest.fixture
def german_server(config: Config, clock: SettableClock, chance: SeededChance) -> Iterator[Flask]:
    """The app of a server whose `language` is German."""
    yield from built_app(dataclasses.replace(config, language="de"), clock, chance)


def started_game(runtime: Runtime, language: str | None = None) -> str:
    game_id = runtime.games.create_game(title="Test mine", players=PEOPLE, host_email="host@example.org",
                                        language=language)
    runtime.games.start_game(game_id)
    return game_id


def seat_opens_link(app: Flask, game_id: str, seat: int, accept: str | None = None) -> tuple[FlaskClient, str]:
    """A browser that opens the seat's link (its Accept-Language `accept`); the turn page it lands on."""
    client = app.test_client()
    page = get(client, f"/play/{seat_token(app_runtime(app), game_id, seat)}", accept)
    with_csrf(client)
    return client, page


def seat_row(runtime: Runtime, game_id: str, seat: int) -> Seat:
    from pbem.models import Game

    with runtime.db.read() as session:
        game = session.query(Game).filter_by(public_id=game_id).one()
        return game.seats[seat]


# -- strangers, spectators, hosts: the browser's language ---------------------------------------------------------


def test_a_stranger_reads_the_first_language_their_browser_names_that_the_server_speaks(client: FlaskClient) -> None:
    page = get(client, "/", "fr-CH, fr;q=0.9, ko;q=0.8, de;q=0.7")

    assert language_of(page) == "ko"
    assert HOME_HEADING["ko"] in page


@pytest.mark.parametrize("accept", [None, "fr, es;q=0.5", "*"])
def test_a_browser_naming_no_language_the_server_speaks_reads_the_servers(german_server: Flask, accept: str) -> None:
    page = get(german_server.test_client(), "/", accept)

    assert language_of(page) == "de"
    assert HOME_HEADING["de"] in page


@pytest.mark.parametrize("language", ["de", "ko"])
def test_the_start_page_the_sign_in_pages_and_an_error_page_read_in_german_and_in_korean(
    client: FlaskClient, language: str
) -> None:
    words = {
        "/": {"de": "Anmeldelink per E-Mail schicken", "ko": "로그인 링크 받기"},
        "/host": {"de": "Spielleitungs-Link per E-Mail schicken", "ko": "방장 링크 받기"},
        "/no-such-page": {"de": "Zurück zur Startseite", "ko": "첫 페이지로 돌아가기"},
    }
    for path, said in words.items():
        page = get(client, path, language)

        assert language_of(page) == language, path
        assert said[language] in page, path


def test_the_switch_names_each_language_in_itself_and_marks_the_one_read(client: FlaskClient) -> None:
    page = get(client, "/", "de")

    assert 'value="de" lang="de" aria-current="true">Deutsch</button>' in page
    assert 'value="en" lang="en">English</button>' in page
    assert 'value="ko" lang="ko">한국어</button>' in page


def test_the_language_picked_with_the_switch_wins_over_the_browsers(client: FlaskClient) -> None:
    with_csrf(client)

    response = post(client, "/language", language="de", next="/host")

    assert response.status_code == 303
    assert response.headers["Location"] == "/host"
    assert "HttpOnly" in response.headers["Set-Cookie"] and "SameSite=Lax" in response.headers["Set-Cookie"]
    assert language_of(get(client, "/", "ko")) == "de"


def test_the_switch_needs_the_forms_token(client: FlaskClient) -> None:
    response = client.post("/language", data={"language": "de", "next": "/"})

    assert response.status_code == 400
    assert "Set-Cookie" not in response.headers or "pbem_language" not in response.headers["Set-Cookie"]
    assert language_of(get(client, "/")) == "en"


@pytest.mark.parametrize("target", ["https://elsewhere.example/", "//elsewhere.example/", "/\\elsewhere.example", ""])
def test_the_switch_goes_back_only_to_a_page_of_this_site(client: FlaskClient, target: str) -> None:
    with_csrf(client)

    response = post(client, "/language", language="ko", next=target)

    assert response.headers["Location"] == "/"


def test_the_switch_refuses_a_language_the_server_does_not_speak(client: FlaskClient) -> None:
    with_csrf(client)

    response = post(client, "/language", language="fr")

    assert response.status_code == 400
    assert language_of(get(client, "/")) == "en"


# -- a seat: its choice, else its browser's, else its game's, else the server's -----------------------------------


def test_a_seat_that_never_chose_reads_the_language_of_the_browser_that_opens_its_link(
    app: Flask, runtime_of: Runtime
) -> None:
    game_id = started_game(runtime_of, language="de")

    _, page = seat_opens_link(app, game_id, 0, "ko-KR, en;q=0.5")

    assert language_of(page) == "ko"
    assert LANGUAGE_HEADING["ko"] in page


def test_a_seat_whose_browser_names_none_we_speak_reads_its_games_language(app: Flask, runtime_of: Runtime) -> None:
    game_id = started_game(runtime_of, language="de")

    for accept in (None, "fr"):
        _, page = seat_opens_link(app, game_id, 0, accept)

        assert language_of(page) == "de"
        assert LANGUAGE_HEADING["de"] in page


def test_a_seat_of_a_game_without_a_language_reads_the_servers(german_server: Flask) -> None:
    game_id = started_game(app_runtime(german_server))

    _, page = seat_opens_link(german_server, game_id, 1)

    assert language_of(page) == "de"


def test_a_seats_own_choice_wins_over_its_browser_and_its_game(app: Flask, runtime_of: Runtime) -> None:
    game_id = started_game(runtime_of, language="de")
    client, _ = seat_opens_link(app, game_id, 0, "de")

    response = post(client, f"{table_path(game_id)}/language", language="ko")
    page = get(client, table_path(game_id), "de")

    assert response.status_code == 303
    assert language_of(page) == "ko"
    assert "이제 이 게임의 페이지와 이메일이 한국어로 나와요" in page  # said in the language chosen
    assert seat_row(runtime_of, game_id, 0).language == "ko"
    assert language_of(seat_opens_link(app, game_id, 1, "de")[1]) == "de"  # the other seats read on as before


def test_the_seats_choice_is_an_ordinary_form_naming_each_language_in_itself(app: Flask, runtime_of: Runtime) -> None:
    game_id = started_game(runtime_of)

    _, page = seat_opens_link(app, game_id, 0)

    form = page.split('<section class="settings language-setting"', 1)[1].split("</section>", 1)[0]
    assert f'<form method="post" action="{table_path(game_id)}/language">' in form
    assert 'name="csrf_token"' in form and '<select id="seat-language" name="language">' in form
    assert ['Deutsch', 'English', '한국어'] == re.findall(r'<option value="[a-z]+" lang="[a-z]+"[^>]*>([^<]+)<', form)
    assert 'class="language-switch"' not in page  # a seat's page has its own choice, not the browser's switch


def test_the_seats_choice_refuses_a_language_the_server_does_not_speak(app: Flask, runtime_of: Runtime) -> None:
    game_id = started_game(runtime_of)
    client, _ = seat_opens_link(app, game_id, 0)

    response = post(client, f"{table_path(game_id)}/language", language="fr")

    assert response.status_code == 400
    assert seat_row(runtime_of, game_id, 0).language is None


def test_the_seats_choice_needs_the_forms_token(app: Flask, runtime_of: Runtime) -> None:
    game_id = started_game(runtime_of)
    client, _ = seat_opens_link(app, game_id, 0)

    response = client.post(f"{table_path(game_id)}/language", data={"language": "de", "csrf_token": "not-" + CSRF})

    assert response.status_code == 400
    assert seat_row(runtime_of, game_id, 0).language is None


def test_the_turn_pages_side_column_drawn_once_is_drawn_again_in_the_language_chosen(
    app: Flask, runtime_of: Runtime
) -> None:
    game_id = store_game(runtime_of, engine.new_game(["Ann", "Ben", "Cat"], seed=1))
    client, first = seat_opens_link(app, game_id, 0)
    again = get(client, table_path(game_id))

    post(client, f"{table_path(game_id)}/language", language="de")
    german = get(client, table_path(game_id))

    assert LANGUAGE_HEADING["en"] in first and LANGUAGE_HEADING["en"] in again
    assert LANGUAGE_HEADING["de"] in german and LANGUAGE_HEADING["en"] not in german


# -- what a visit lends the seat's emails ---------------------------------------------------------------------


def test_a_visit_lends_the_browsers_language_to_a_seat_that_never_chose(app: Flask, runtime_of: Runtime) -> None:
    game_id = started_game(runtime_of)
    client, _ = seat_opens_link(app, game_id, 0)

    client.post(f"{table_path(game_id)}/seen", headers={"X-CSRF-Token": CSRF, "Accept-Language": "ko, de;q=0.5"})

    assert seat_row(runtime_of, game_id, 0).browser_language == "ko"


@pytest.mark.parametrize("accept", [None, "fr, es;q=0.5"])
def test_a_visit_naming_no_language_we_speak_changes_nothing(app: Flask, runtime_of: Runtime, accept: str) -> None:
    game_id = started_game(runtime_of)
    client, _ = seat_opens_link(app, game_id, 0)
    client.post(f"{table_path(game_id)}/seen", headers={"X-CSRF-Token": CSRF, "Accept-Language": "de"})

    client.post(f"{table_path(game_id)}/seen",
                headers={"X-CSRF-Token": CSRF, **({"Accept-Language": accept} if accept else {})})

    assert seat_row(runtime_of, game_id, 0).browser_language == "de"


def test_a_visit_changes_nothing_for_a_seat_that_chose(app: Flask, runtime_of: Runtime) -> None:
    game_id = started_game(runtime_of)
    client, _ = seat_opens_link(app, game_id, 0)
    post(client, f"{table_path(game_id)}/language", language="de")

    client.post(f"{table_path(game_id)}/seen", headers={"X-CSRF-Token": CSRF, "Accept-Language": "ko"})

    seat = seat_row(runtime_of, game_id, 0)
    assert (seat.language, seat.browser_language) == ("de", None)


def test_a_get_of_the_seats_link_records_no_language(app: Flask, runtime_of: Runtime) -> None:
    """Mail scanners open links too: only the page's script's visit report (a POST) lends a language."""
    game_id = started_game(runtime_of)

    seat_opens_link(app, game_id, 0, "ko")

    assert seat_row(runtime_of, game_id, 0).browser_language is None
