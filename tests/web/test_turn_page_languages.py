"""The turn page in the seat's language: its status, hand, moves, seats, settings and refusals read in German or
Korean, and in English as before; what is drawn once per snapshot is drawn again in the language read."""

from __future__ import annotations

import html
import re

import pytest
from flask import Flask
from flask.testing import FlaskClient

import engine
from pbem.drawing.board_svg import board_svg
from pbem.i18n import in_language
from pbem.runtime import Runtime
from pbem.web.hand_reasons import unplayable_reason
from pbem.web.moves import describe_move
from pbem.web.timing_form import timing_saved
from tests.support.games import seat_to_act, seat_token, store_game
from tests.support.web import app_runtime, post, table_path, with_csrf

pytestmark = pytest.mark.usefixtures("compiled_catalogues")

TAG = re.compile(r"<[^>]+>")
# Sentences of the turn page's own parts that must not be left in English on a German or Korean page.
ENGLISH = ["Your turn", "Round 1 of", "Around the table", "Draw pile", "Discards:", "How to play", "Your hand",
           "All your moves", "cards in hand", "tools fine", "How you are told", "Quiet hours", "Away until",
           "cards on the table", "The board as a list", "(0, 0): the start", "face down", "Deadline for this turn",
           "Also tell me on my phone", "What it gets", "Turn it around", "Put it back", "Settings", "You are Ann",
           "Build the", "Pass: discard", "Look at the", "wake up when it is yours", "We will email you"]


def opened(app: Flask, game_id: str, seat: int, accept: str | None) -> tuple[FlaskClient, str]:
    """A browser reading `accept` that opens the seat's link; the turn page it lands on."""
    client = app.test_client()
    response = client.get(f"/play/{seat_token(app_runtime(app), game_id, seat)}",
                          headers={"Accept-Language": accept} if accept else {}, follow_redirects=True)
    assert response.status_code == 200
    with_csrf(client)
    return client, response.get_data(as_text=True)


def words(page: str) -> str:
    """What a reader sees and a screen reader says: the text, the board's title, the labels of buttons."""
    said = " ".join(re.findall(r'aria-label="([^"]*)"', page))
    page = re.sub(r"<option[^>]*>[^<]*</option>", "", page)  # the time zones' own names
    page = re.sub(r"<script.*?</script>", "", page, flags=re.S)
    return html.unescape(TAG.sub(" ", page) + " " + said)


@pytest.fixture
def table(runtime_of: Runtime) -> str:
    return store_game(runtime_of, engine.new_game(["Ann", "Ben", "Cat"], seed=1))


def mine(page: str, start: str, end: str) -> str:
    """The part of the page this file's templates draw (the chat, log and fair deal belong to others)."""
    return page.split(start, 1)[1].split(end, 1)[0]


@pytest.mark.parametrize("language", ["de", "ko"])
def test_the_seat_to_play_reads_its_turn_page_in_its_language(app: Flask, runtime_of: Runtime, table: str,
                                                                language: str) -> None:
    _, page = opened(app, table, seat_to_act(runtime_of, table), language)

    text = words(mine(page, "<main", 'id="chat"') + mine(page, 'id="settings"', "language-setting"))
    left = [english for english in ENGLISH if english in text]
    assert left == []
    expected = {"de": ["Du bist am Zug: spiel oder passe.", "Runde 1 von 3", "Am Tisch",
                       "Der Tunnel: 1 Karte auf dem Tisch", "Nachziehstapel: 49", "Wie du Bescheid bekommst",
                       "(0, 0): die Startkarte", "6 Karten auf der Hand", "Ruhezeiten"],
                "ko": ["내 차례: 카드를 내거나 패스하세요.", "라운드 1/3",
                       "테이블의 플레이어", "굴: 테이블 위 카드 1장", "뽑을 더미: 49",
                       "알림 받는 방법", "(0, 0): 출발 카드", "손패 6장", "방해 금지 시간"]}[language]
    assert [sentence for sentence in expected if sentence not in text] == []


def test_a_waiting_seat_reads_whose_turn_it_is_in_korean(app: Flask, runtime_of: Runtime, table: str) -> None:
    to_act = seat_to_act(runtime_of, table)
    name = ["Ann", "Ben", "Cat"][to_act]

    _, page = opened(app, table, (to_act + 1) % 3, "ko")

    assert f"{name} 님 차례예요." in page
    assert f"지금은 {name} 님 차례예요. 내 차례가 되면 카드를 낼 수 있어요." in page
    assert "내 차례가 되면 이메일로 알려 드려요." in page


def test_english_reads_as_it_always_did(app: Flask, runtime_of: Runtime, table: str) -> None:
    _, page = opened(app, table, seat_to_act(runtime_of, table), None)

    for sentence in ["Your turn: play a card, or pass.", "Round 1 of 3", "Around the table",
                     "The tunnel: 1 card on the table", "Draw pile: 49", "(0, 0): the start",
                     "6 cards in hand · 0 gold cards", "How should we tell you it is your turn?",
                     "The game's: 22:00-08:00", "Also tell me on my phone or in a chat"]:
        assert sentence in html.unescape(page)


def test_a_page_drawn_once_in_german_is_drawn_again_when_the_seat_picks_korean(
    app: Flask, runtime_of: Runtime, table: str
) -> None:
    client, german = opened(app, table, seat_to_act(runtime_of, table), "de")

    post(client, f"{table_path(table)}/language", language="ko")
    korean = client.get(table_path(table)).get_data(as_text=True)

    assert "„Gerade“ an (0, -1) legen" in html.unescape(german)  # the moves, drawn once per snapshot
    assert "곧은 길 카드를 (0, -1)에 놓기" in html.unescape(korean) and "an (0, -1) legen" not in korean
    assert "Der Tunnel" in german and "굴: 테이블 위 카드" in korean and "Der Tunnel" not in korean


def test_a_refusal_and_a_saved_notice_come_in_the_seats_language(app: Flask, runtime_of: Runtime,
                                                                  table: str) -> None:
    to_act = seat_to_act(runtime_of, table)
    client, _ = opened(app, table, to_act, "de")
    post(client, f"{table_path(table)}/language", language="de")  # a form posted later names no language itself
    page = client.get(table_path(table)).get_data(as_text=True)
    seq = re.search(r'name="seq" value="(\d+)"', page)
    assert seq

    refused = post(client, f"{table_path(table)}/move", compose="pass", seq=seq.group(1))
    saved = post(client, f"{table_path(table)}/settings", notify_mode="digest")
    after = client.get(table_path(table)).get_data(as_text=True)

    assert refused.status_code == 400
    assert "Kreuze die Karten an, die du abwerfen willst, und drücke dann auf Passen." in refused.get_data(as_text=True)
    assert saved.status_code == 303 and "Gespeichert: eine E-Mail am Tag." in after


@pytest.mark.parametrize(("language", "sentence"), [
    ("en", "Your lantern is broken: you can't build."),
    ("de", "Deine Lampe ist kaputt: du kannst nicht bauen."),
    ("ko", "내 랜턴이 부서져서 길을 놓을 수 없어요."),
])
def test_why_a_card_cannot_be_played_is_said_in_the_readers_language(language: str, sentence: str) -> None:
    view = {"you": {"seat": 0}, "seats": [{"seat": 0, "broken": ["lantern"]}, {"seat": 1, "broken": []}]}

    with in_language(language):
        reason = unplayable_reason({"kind": "path"}, view)

    assert reason.sentence == sentence


def test_a_move_a_time_setting_and_the_boards_title_in_german() -> None:
    view = {"you": {"seat": 0, "hand": [{"id": 7, "label": "Map", "effect": "map", "kind": "action"}]},
            "players": ["Ann", "Ben"], "board": [], "seats": [],
            "goals": [{"x": 8, "y": 2}, {"x": 8, "y": 0}, {"x": 8, "y": -2}]}

    with in_language("de"):
        move = describe_move({"type": "play", "card": 7, "x": 8, "y": 0}, view)
        saved = timing_saved("Europe/Berlin", "", True)
    english = board_svg({"board": [{"x": 0, "y": 0, "id": 1, "kind": "start"}], "goals": []})

    assert move == "Die mittlere Zielkarte mit deiner Schatzkarte ansehen"
    assert saved == ("Gespeichert: keine Ruhezeiten und Zeitzone Europe/Berlin. Deine laufende Frist rückt dadurch "
                     "nie nach vorn.")
    assert "<title id=\"board-title\">The tunnel: 1 cards on the table</title>" in english  # a caller's own words
