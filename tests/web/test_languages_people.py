"""My games, the join pages and the unsubscribe page in German and Korean, and a seat's language chosen ahead of its
page: for all games in My games, and on the join form (the joiner's, their seat's once the game starts). Each choice
is followed to the seat's page and its next email."""

from __future__ import annotations

import re

import pytest
from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import select

from pbem.i18n import in_language
from pbem.models import Game, Joiner, Seat
from pbem.runtime import Runtime
from pbem.service.seats.presence import away_label
from pbem.service.turns.values import PlayerSpec
from tests.support.games import play_until_turn_of, seat_token
from tests.support.invites import confirm_path, create_invite, joined_and_confirmed, person, share_link
from tests.support.mail import mailbox
from tests.support.web import post, sign_in_player, with_csrf

pytestmark = pytest.mark.usefixtures("compiled_catalogues")

HTML_LANG = re.compile(r'<html lang="([a-z]+)">')
HANGUL = re.compile(r"[\uac00-\ud7a3]")
PEOPLE = [("Ann", "ann@example.org"), ("Ben", "ben@example.org"), ("Cat", "cat@example.org")]
# The turn page's settings heading the seat's language, in each language (templates/play/_language.html).
SEAT_LANGUAGE_HEADING = {"en": ">Language</h2>", "de": ">Sprache</h2>", "ko": ">언어</h2>"}

MY_GAMES = {
    "de": ["Meine Spiele", "Abmelden", "Du bist am Zug", "Deine Bilanz", "Gespielte Spiele", "Wie du E-Mails bekommst",
           "Für alle Spiele ändern", "Angemeldet als ann@example.org. Zeiten in UTC."],
    "ko": ["내 게임", "로그아웃", "내 차례", "<span>사보추어</span>", "내 기록", "플레이한 게임", "이메일 받는 방법",
           "모든 게임 설정 바꾸기", "ann@example.org(으)로 로그인했어요. 시각은 UTC 기준이에요."],
}
PREFERENCES = {
    "de": ["Einstellungen für alle Spiele", "Wie du erfährst, dass du am Zug bist", "Zeitzone",
           "Sprache der Seiten und E-Mails deiner Spiele", "Für alle Spiele speichern"],
    "ko": ["모든 게임 설정", "내 차례를 알려 주는 방법", "시간대", "내 게임의 페이지와 이메일 언어",
           "모든 게임에 저장"],
}
# English sentences of those pages that must not be left in them.
ENGLISH = ["My games", "Sign out", "Your record", "Games played", "How you are emailed", "Change for all games",
           "Signed in as", "Preferences for all games", "How to be told it is your turn", "Save for all games",
           "Only what you change here"]


def language_of(page: str) -> str:
    found = HTML_LANG.search(page)
    assert found, page[:200]
    return found.group(1)


def started_game(runtime: Runtime, title: str = "Mine") -> str:
    game_id = runtime.games.create_game(
        title=title, players=[PlayerSpec(name, email) for name, email in PEOPLE], host_email="host@example.org",
    )
    runtime.games.start_game(game_id)
    return game_id


def reading(client: FlaskClient, language: str) -> FlaskClient:
    """The browser names `language` first in every request from now on."""
    client.environ_base["HTTP_ACCEPT_LANGUAGE"] = language
    return client


def seat_language(runtime: Runtime, game_id: str, email: str) -> str | None:
    with runtime.db.read() as session:
        return session.scalar(select(Seat.language).join(Game).where(Game.public_id == game_id, Seat.email == email))


def turn_page(app: Flask, runtime: Runtime, game_id: str, seat: int, accept: str = "en") -> str:
    """The seat's page as a new browser reading `accept` opens its link."""
    client = reading(app.test_client(), accept)
    response = client.get(f"/play/{seat_token(runtime, game_id, seat)}", follow_redirects=True)
    assert response.status_code == 200
    return response.get_data(as_text=True)


def latest_mail(runtime: Runtime, kind: str, to: str) -> tuple[str, str]:
    """The Content-Language and the text of the latest email of `kind` to `to`, written as it goes out."""
    message = mailbox(runtime, kind, to=to)[-1]
    return message.headers.get("Content-Language", ""), message.body_text


# -- My games in German and Korean ----------------------------------------------------------------------------


@pytest.mark.parametrize("language", ["de", "ko"])
def test_my_games_and_its_preferences_read_in_german_and_in_korean(
    client: FlaskClient, runtime_of: Runtime, language: str,
) -> None:
    game_id = started_game(runtime_of)
    play_until_turn_of(runtime_of, game_id, 0)
    sign_in_player(reading(client, language), runtime_of, "ann@example.org")

    index = client.get("/my-games").get_data(as_text=True)
    preferences = client.get("/my-games/preferences").get_data(as_text=True)

    assert language_of(index) == language == language_of(preferences)
    for said in MY_GAMES[language]:
        assert said in index
    for said in PREFERENCES[language]:
        assert said in preferences
    for english in ENGLISH:
        assert english not in index and english not in preferences, english


@pytest.mark.parametrize(("language", "words"), [
    ("de", ["Schau in dein Postfach", "Prüfe dein E-Mail-Postfach", "Melde dich bei Meine Spiele an"]),
    ("ko", ["이메일을 확인", "내 게임에 로그인"]),
])
def test_the_sign_in_answer_and_the_continue_page_read_in_the_browsers_language(
    client: FlaskClient, runtime_of: Runtime, language: str, words: list[str],
) -> None:
    started_game(runtime_of)
    with_csrf(reading(client, language))

    answer = post(client, "/sign-in", email="ann@example.org").get_data(as_text=True)
    path = "/sign-in/" + mailbox(runtime_of, "player_sign_in")[-1].body_text.split("/sign-in/", 1)[1].split()[0]
    continuing = client.get(path).get_data(as_text=True)

    assert language_of(answer) == language == language_of(continuing)
    assert "Check your email" not in answer and "Sign in to My games" not in continuing
    assert HANGUL.search(answer) if language == "ko" else "E-Mail" in answer


@pytest.mark.parametrize(("language", "refusal"), [
    ("de", "Unbekannte Zeitzone &#39;Mars/Olympus&#39;: nimm"),
    ("ko", "알 수 없는 시간대예요: &#39;Mars/Olympus&#39;."),
])
def test_a_refused_preference_is_said_in_the_readers_language(
    client: FlaskClient, runtime_of: Runtime, language: str, refusal: str,
) -> None:
    started_game(runtime_of)
    sign_in_player(reading(client, language), runtime_of, "ann@example.org")

    response = post(client, "/my-games/preferences", timezone="Mars/Olympus", quiet_hours="", notify_mode="turn")

    assert response.status_code == 400
    assert refusal in response.get_data(as_text=True)


def test_saving_preferences_says_so_in_the_readers_language_with_the_count_of_games(
    client: FlaskClient, runtime_of: Runtime,
) -> None:
    started_game(runtime_of)
    sign_in_player(reading(client, "de"), runtime_of, "ann@example.org")

    saved = post(client, "/my-games/preferences", timezone="Europe/Berlin", notify_mode="turn", was_timezone="UTC",
                 was_notify_mode="turn")

    assert saved.status_code == 303
    page = client.get("/my-games").get_data(as_text=True)
    assert "Für alle deine Spiele gespeichert (1 Spiel läuft gerade oder beginnt bald)." in page


def test_my_games_not_signed_in_says_so_in_the_readers_language(client: FlaskClient) -> None:
    response = reading(client, "ko").get("/my-games")

    assert response.status_code == 401
    assert "첫 페이지에서 로그인해 주세요" in response.get_data(as_text=True)


def test_the_record_counts_saboteur_rounds_whatever_the_readers_language() -> None:
    from collections import Counter

    from pbem.service.players.record import GameRecord, Record

    record = Record([GameRecord("Mine", True, False, Counter({"saboteur": 2, "digger": 1}), 3, 4)])
    for language in ("de", "ko"):
        with in_language(language):
            assert (record.rounds_as_saboteur, record.rounds_as_digger) == (2, 1)
            assert sorted(record.rounds_won.values()) == [1, 2]
            assert "saboteur" not in record.rounds_won


# -- a language for all games, chosen in My games -----------------------------------------------------------


def test_the_preferences_offer_each_language_named_in_itself_the_one_read_chosen(
    client: FlaskClient, runtime_of: Runtime,
) -> None:
    started_game(runtime_of)
    sign_in_player(reading(client, "de"), runtime_of, "ann@example.org")

    page = client.get("/my-games/preferences").get_data(as_text=True)

    assert '<select id="language" name="language">' in page
    assert '<option value="de" lang="de" selected>Deutsch</option>' in page
    assert '<option value="en" lang="en">English</option>' in page
    assert '<option value="ko" lang="ko">한국어</option>' in page
    assert '<input type="hidden" name="was_language" value="de">' in page


def test_a_language_chosen_for_all_games_is_each_seats_on_its_page_and_in_its_next_email(
    app: Flask, client: FlaskClient, runtime_of: Runtime,
) -> None:
    running = started_game(runtime_of, "Running")
    other = started_game(runtime_of, "Other")
    sign_in_player(client, runtime_of, "ann@example.org")  # an English browser

    saved = post(client, "/my-games/preferences", timezone="UTC", notify_mode="turn", language="ko",
                 was_timezone="UTC", was_notify_mode="turn", was_language="en")
    later = started_game(runtime_of, "Started later")

    assert saved.status_code == 303
    assert [seat_language(runtime_of, game, "ann@example.org") for game in (running, other, later)] == ["ko"] * 3
    assert seat_language(runtime_of, running, "ben@example.org") is None
    page = turn_page(app, runtime_of, running, 0, accept="en")
    assert language_of(page) == "ko" and SEAT_LANGUAGE_HEADING["ko"] in page
    assert '<option value="ko" lang="ko" selected>한국어</option>' in page
    play_until_turn_of(runtime_of, running, 1)
    play_until_turn_of(runtime_of, running, 0)
    language, text = latest_mail(runtime_of, "your_turn", "ann@example.org")
    assert language == "ko" and HANGUL.search(text)
    summary = client.get("/my-games").get_data(as_text=True)
    assert "Your games' pages and emails are in 한국어." in summary


def test_leaving_the_language_as_it_was_shown_changes_no_seat(client: FlaskClient, runtime_of: Runtime) -> None:
    game_id = started_game(runtime_of)
    sign_in_player(client, runtime_of, "ann@example.org")
    runtime_of.seat_languages.choose(game_id, 0, "de")  # chosen on the game's own page

    post(client, "/my-games/preferences", timezone="Europe/Berlin", notify_mode="turn", language="en",
         was_timezone="UTC", was_notify_mode="turn", was_language="en")

    assert seat_language(runtime_of, game_id, "ann@example.org") == "de"


def test_a_language_the_server_does_not_speak_is_refused_and_changes_nothing(
    client: FlaskClient, runtime_of: Runtime,
) -> None:
    game_id = started_game(runtime_of)
    sign_in_player(client, runtime_of, "ann@example.org")

    response = post(client, "/my-games/preferences", timezone="UTC", notify_mode="turn", language="fr",
                    was_timezone="UTC", was_notify_mode="turn", was_language="en")

    assert response.status_code == 400
    assert "Choose a language: Deutsch, English, 한국어." in response.get_data(as_text=True)
    assert seat_language(runtime_of, game_id, "ann@example.org") is None


# -- the join form's language -------------------------------------------------------------------------------


@pytest.mark.parametrize(("language", "words"), [
    ("de", ["Bei „Open mine“ mitspielen", "Dein Name am Tisch", "Deine Sprache", "Um einen Platz bitten"]),
    ("ko", ["“Open mine” 참가하기", "테이블에서 쓸 이름", "내 언어", "자리 신청하기"]),
])
def test_the_join_page_reads_in_the_browsers_language_and_offers_it_first(
    app: Flask, host: FlaskClient, language: str, words: list[str],
) -> None:
    link = share_link(host, create_invite(host))

    page = reading(person(app), language).get(link).get_data(as_text=True)

    assert language_of(page) == language
    for said in words:
        assert said in page
    assert f'<option value="{language}" lang="{language}" selected>' in page
    assert "Your name at the table" not in page and "Ask for a seat" not in page


def test_the_joiners_language_is_their_confirmation_email_s_and_their_seats_once_the_game_starts(
    app: Flask, host: FlaskClient, runtime_of: Runtime,
) -> None:
    link = share_link(host, create_invite(host, auto_start="yes"))
    joiner = person(app)  # an English browser that picks German

    answer = post(joiner, link, name="Ann", email="ann@example.org", timezone="Europe/Berlin", language="de")

    assert answer.status_code == 200 and language_of(answer.get_data(as_text=True)) == "de"
    assert latest_mail(runtime_of, "join_confirm", "ann@example.org")[0] == "de"
    path = confirm_path(runtime_of, "ann@example.org")
    assert post(person(app), path).status_code == 200
    for name in ("Ben", "Cat"):
        joined_and_confirmed(app, link, name, f"{name.lower()}@example.org")

    with runtime_of.db.read() as session:
        game_id = session.scalar(select(Game.public_id))
        assert session.scalar(select(Joiner.language).where(Joiner.email == "ben@example.org")) is None
    assert game_id is not None
    assert seat_language(runtime_of, game_id, "ann@example.org") == "de"
    assert seat_language(runtime_of, game_id, "ben@example.org") is None
    language, text = latest_mail(runtime_of, "game_started", "ann@example.org")
    assert language == "de" and "Test mine" not in text
    assert latest_mail(runtime_of, "game_started", "ben@example.org")[0] == "en"
    with runtime_of.db.read() as session:
        seat = session.scalar(select(Seat.seat_index).join(Game).where(Seat.email == "ann@example.org"))
    assert seat is not None
    page = turn_page(app, runtime_of, game_id, seat, accept="ko")
    assert language_of(page) == "de" and SEAT_LANGUAGE_HEADING["de"] in page


def test_a_refused_join_is_said_in_the_language_picked_and_marks_its_field(app: Flask, host: FlaskClient) -> None:
    link = share_link(host, create_invite(host))

    response = post(person(app), link, name="Ann", email="ann.example.org", timezone="UTC", language="de")

    page = response.get_data(as_text=True)
    assert response.status_code == 400 and language_of(page) == "de"
    assert 'id="email" name="email" type="email" value="ann.example.org" autocomplete="email" required aria-invalid' \
        in page
    assert '<option value="de" lang="de" selected>Deutsch</option>' in page


@pytest.mark.parametrize(("language", "said"), [
    ("de", "Bestätige deinen Platz"), ("ko", "자리 확정하기"),
])
def test_the_confirmation_page_reads_in_the_browsers_language(
    app: Flask, host: FlaskClient, runtime_of: Runtime, language: str, said: str,
) -> None:
    link = share_link(host, create_invite(host))
    assert post(person(app), link, name="Ann", email="ann@example.org", timezone="UTC").status_code == 200

    page = reading(person(app), language).get(confirm_path(runtime_of, "ann@example.org")).get_data(as_text=True)

    assert language_of(page) == language and said in page and "Confirm your place" not in page


# -- the unsubscribe page and a seat away --------------------------------------------------------------------


def test_the_unsubscribe_page_is_in_the_seats_language(app: Flask, runtime_of: Runtime) -> None:
    game_id = started_game(runtime_of)
    runtime_of.seat_languages.choose(game_id, 1, "ko")
    play_until_turn_of(runtime_of, game_id, 1)
    message = mailbox(runtime_of, "your_turn", to="ben@example.org")[-1]
    found = re.search(r"https://pbem\.test(/mail/unsubscribe/[^\s\"<>]+)", message.body_text)
    assert found, message.body_text

    page = reading(app.test_client(), "de").get(found.group(1)).get_data(as_text=True)

    assert language_of(page) == "ko" and "하루 요약 메일로 바꾸기" in page and "Fewer emails?" not in page


def test_away_until_is_written_in_the_readers_language() -> None:
    from datetime import UTC, datetime

    now = datetime(2026, 12, 1, 12, 0, tzinfo=UTC)
    back = datetime(2026, 12, 4, 8, 0, tzinfo=UTC)
    said = {}
    for language in ("en", "de", "ko"):
        with in_language(language):
            said[language] = away_label(back, "UTC", now)

    assert said == {
        "en": "away until Fri 4 Dec", "de": "abwesend bis Fr., 4. Dez.", "ko": "12월 4일 (금)까지 자리 비움",
    }


def test_a_spent_sign_in_link_and_too_many_asked_for_are_said_in_the_readers_language(
    client: FlaskClient, runtime_of: Runtime,
) -> None:
    started_game(runtime_of)
    sign_in_player(reading(client, "ko"), runtime_of, "ann@example.org")
    path = "/sign-in/" + mailbox(runtime_of, "player_sign_in")[-1].body_text.split("/sign-in/", 1)[1].split()[0]

    spent = post(client, path)
    for _ in range(10):
        post(client, "/sign-in", email="ben@example.org")
    limited = post(client, "/sign-in", email="ben@example.org")

    assert spent.status_code == 403 and "이 로그인 링크는 이미 사용했어요" in spent.get_data(as_text=True)
    assert limited.status_code == 429 and "로그인 링크를 너무 많이 요청했어요" in limited.get_data(as_text=True)
