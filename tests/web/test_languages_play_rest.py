"""The pages after the turn itself, read in German and in Korean: the round that just ended, the podium and the rounds
played on the turn page, a round's page with its sealed deal, the replay and its offline file, table talk's history,
the spectator's page, the rules page, and the messages those pages' code says (a bounce for a reply by email is
written in the seat's language). No English sentence is left in any of them, and English stays as it was."""

from __future__ import annotations

import random
import re
from html.parser import HTMLParser

import pytest
from flask import Flask, render_template
from flask.testing import FlaskClient

import engine
from pbem.i18n import in_language
from pbem.runtime import Runtime
from pbem.service.talk.replies import reason_words
from pbem.web.rules_page import card_help
from tests.support.games import dig_for_gold, store_game
from tests.support.web import app_runtime, seat_client
from tests.support.words_left import english_left, visible_words

pytestmark = pytest.mark.usefixtures("compiled_catalogues")
SQLITE = pytest.mark.parametrize("database_url", ["sqlite"], indirect=True)  # words, not storage

NAMES = ["Ann", "Ben", "Cat"]
KEPT = frozenset({*NAMES, "Test", "mine", "sha", "sum", "deal", "json", "round", "Home", "End"})
LANGUAGES = ("de", "ko")


class Element(HTMLParser):
    """The HTML of the first element whose start tag holds `marker`, up to its matching end tag."""

    def __init__(self, marker: str) -> None:
        super().__init__(convert_charrefs=False)
        self.marker, self.tag, self.depth, self.start, self.end = marker, "", 0, -1, -1
        self.lines: list[int] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if self.end >= 0:
            return
        text = self.get_starttag_text() or ""
        if self.start < 0 and self.marker in text:
            self.tag, self.depth, self.start = tag, 1, self._offset()
        elif self.start >= 0 and tag == self.tag:
            self.depth += 1

    def handle_endtag(self, tag: str) -> None:
        if self.start >= 0 and self.end < 0 and tag == self.tag:
            self.depth -= 1
            if self.depth == 0:
                self.end = self._offset()

    def _offset(self) -> int:
        line, column = self.getpos()
        return self.lines[line - 1] + column


def element(page: str, marker: str) -> str:
    parser = Element(marker)
    parser.lines = [0]
    for line in page.splitlines(keepends=True):
        parser.lines.append(parser.lines[-1] + len(line))
    parser.feed(page)
    assert parser.start >= 0, f"no element with {marker!r}"
    return page[parser.start:parser.end]


# Not these pages' words: the drawings (pbem/drawing/) and the clock's dates (pbem/times.py) have their own tests.
DRAWN = re.compile(r"<svg\b.*?</svg>", re.S)
ENGLISH_DATE = re.compile(r"\b(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun) \d{1,2} [A-Z][a-z]{2},? \d\d:\d\d(?: [A-Z]{2,5})?")


def english_in(html: str, language: str) -> list[str]:
    return english_left(ENGLISH_DATE.sub(" ", visible_words(DRAWN.sub(" ", html))), language, KEPT)


def assert_no_english(html: str, language: str) -> None:
    found = english_in(html, language)
    assert not found, "English left:\n" + "\n".join(found)


def finished_game(runtime: Runtime, seed: int = 20) -> str:
    """Three players who dig for the gold, played to the end (seed 20: the gold is found in each of three rounds)."""
    game_id = store_game(runtime, engine.new_game(NAMES, seed=seed))
    rng = random.Random(seed)
    while True:
        state, seq = runtime.games.engine_state(game_id)
        if engine.is_over(state):
            return game_id
        seat = engine.to_act(state)
        assert seat is not None
        runtime.games.submit_move(game_id, seat, dig_for_gold(state, seat, rng), seq, f"move-{seq}")


def round_one_over(runtime: Runtime, seed: int = 20) -> str:
    """The same game, stopped at the first move of round 2."""
    game_id = store_game(runtime, engine.new_game(NAMES, seed=seed))
    rng = random.Random(seed)
    while True:
        state, seq = runtime.games.engine_state(game_id)
        if state.round > 1 and state.phase == "play":
            return game_id
        seat = engine.to_act(state)
        assert seat is not None
        runtime.games.submit_move(game_id, seat, dig_for_gold(state, seat, rng), seq, f"move-{seq}")


def reader(app: Flask, game_id: str, seat: int, language: str) -> FlaskClient:
    app_runtime(app).seat_languages.choose(game_id, seat, language)
    return seat_client(app, game_id, seat)


def page(client: FlaskClient, path: str, **headers: str) -> str:
    response = client.get(path, headers=headers)
    assert response.status_code == 200, path
    return response.get_data(as_text=True)


@pytest.mark.parametrize("language", LANGUAGES)
@SQLITE
def test_the_rules_page_reads_in_the_browsers_language(client: FlaskClient, language: str) -> None:
    rules = page(client, "/rules", **{"Accept-Language": language})

    assert f'<html lang="{language}">' in rules
    assert_no_english(element(rules, '<main'), language)
    assert {"de": "So spielt man Saboteur", "ko": "사보추어 게임 방법"}[language] in rules
    assert {"de": "Spitzhacke", "ko": "곡괭이"}[language] in rules


@SQLITE
def test_the_rules_page_in_english_is_as_it_was(client: FlaskClient) -> None:
    rules = page(client, "/rules")

    assert "<h1>How to play Saboteur</h1>" in rules
    assert "Lay it in front of a player (usually another): with a broken pickaxe they cannot build" in rules
    assert "Mends a broken pickaxe or lantern in front of any player" in rules
    assert "A tunnel card: lay it next to the tunnel so every side it touches matches; it must join the start." in rules


def test_a_cards_help_names_its_tools_in_the_readers_words() -> None:
    repair = {"effect": "repair", "tools": ["pick", "cart"]}

    with in_language("de"):
        assert card_help(repair) == ("Repariert eine kaputte Spitzhacke oder Lore vor einem beliebigen Spieler, auch "
                                     "vor dir selbst; danach darf er wieder bauen.")
    with in_language("ko"):
        assert "부서진 도구(곡괭이 또는 수레)" in card_help(repair)
    assert card_help(repair).startswith("Mends a broken pickaxe or cart in front of any player")


@pytest.mark.parametrize("language", LANGUAGES)
@SQLITE
def test_the_round_just_over_is_told_in_the_seats_language(app: Flask, language: str) -> None:
    game_id = round_one_over(app_runtime(app))
    table = page(reader(app, game_id, 0, language), f"/table/{game_id}")

    over = element(table, 'id="round-over"')
    assert_no_english(over, language)
    assert {"de": "Runde 1 ist vorbei", "ko": "1라운드가 끝났어요"}[language] in over
    assert_no_english(element(table, 'class="results"'), language)
    assert_no_english(element(table, 'class="trust"'), language)


@pytest.mark.parametrize("language", LANGUAGES)
@SQLITE
def test_game_over_the_podium_the_round_page_and_the_replay_are_in_the_seats_language(
    app: Flask, language: str
) -> None:
    game_id = finished_game(app_runtime(app))
    client = reader(app, game_id, 1, language)
    table = page(client, f"/table/{game_id}")

    podium = element(table, 'class="final podium-section"')
    assert_no_english(podium, language)
    assert {"de": "Goldklumpen", "ko": "금덩이"}[language] in podium
    assert_no_english(element(table, 'id="round-over"'), language)

    round_page = page(client, f"/table/{game_id}/rounds/1")
    assert_no_english(element(round_page, "<main"), language)
    assert re.search(r"님\([^)]*\) 님", round_page) is None  # a recap line names each player once

    replay = page(client, f"/table/{game_id}/replay?step=5")
    assert_no_english(element(replay, "<main"), language)
    offline = page(client, f"/table/{game_id}/replay.html")
    assert_no_english(re.sub(r"<script.*?</script>", "", offline, flags=re.S), language)
    assert f'<html lang="{language}">' in offline


@SQLITE
def test_the_english_round_over_and_podium_read_as_before(app: Flask) -> None:
    game_id = finished_game(app_runtime(app))
    table = page(seat_client(app, game_id, 1), f"/table/{game_id}")

    assert "<h2 id=\"final-heading\">Final standings</h2>" in table
    assert re.search(r'<span class="podium-gold">\d+ nuggets?</span>', table)
    assert "Round 3 is over" in table
    replay = page(seat_client(app, game_id, 1), f"/table/{game_id}/replay?step=5")
    assert "Step 5 of " in replay
    assert re.search(r"\d+ cards? · \d+ gold", replay)


@pytest.mark.parametrize("language", LANGUAGES)
@SQLITE
def test_table_talk_history_is_in_the_seats_language(app: Flask, language: str) -> None:
    runtime = app_runtime(app)
    game_id = round_one_over(runtime)
    runtime.chat.post(game_id, 0, "Ben is a saboteur")
    runtime.chat.post_as_host(game_id, "Be nice")
    client = reader(app, game_id, 0, language)

    history = page(client, f"/table/{game_id}/chat/history")
    shown = re.sub(r'<span class="chat-text">.*?</span>', "", element(history, "<main"))
    assert_no_english(shown, language)
    assert {"de": "Spielleitung", "ko": "방장"}[language] in shown


@pytest.mark.parametrize("language", LANGUAGES)
@SQLITE
def test_a_spectator_reads_the_game_in_the_browsers_language(app: Flask, client: FlaskClient, language: str) -> None:
    runtime = app_runtime(app)
    game_id = round_one_over(runtime)
    url = runtime.spectators.create(game_id, show_chat=True, actor_email="host@example.org")
    path = url[url.index("/watch/"):]

    watched = page(client, path, **{"Accept-Language": language})

    assert_no_english(element(watched, "<main"), language)
    assert {"de": "Du schaust zu", "ko": "관전 중이에요"}[language] in watched


def test_why_a_reply_was_not_posted_is_said_in_the_language_being_written() -> None:
    with in_language("de"):
        assert reason_words("expired", days=1, kb=512).startswith("Du hast auf eine E-Mail geantwortet, die älter "
                                                                   "als 1 Tag ist")
    with in_language("ko"):
        assert "512 KB" in reason_words("too_large", days=30, kb=512)
    assert reason_words("expired", days=30, kb=512).startswith("You replied to an email older than 30 days,")


class Access:
    """Enough of a seat's address for a template's links."""

    def url(self, endpoint: str, **values: object) -> str:
        return f"/table/g/{endpoint}"


SMALL_PAGES = [
    ("play/address_change.html", {"done": False}),
    ("play/address_change.html", {"done": True}),
    ("play/confirm.html", {"label": "Ann", "seq": 3, "submission_id": "s", "move_value": "{}"}),
    ("play/fresh_link_sent.html", {"answer": "asked_often"}),
    ("play/fresh_link_sent.html", {"answer": "sent"}),
    ("play/link_invalid.html", {"fate": "may_ask", "action": "/x", "message": ""}),
    ("play/link_invalid.html", {"fate": "seat_changed_hands", "message": ""}),
    ("play/link_invalid.html", {"fate": "newer_link", "message": ""}),
    ("play/link_invalid.html", {"fate": "unknown", "message": "Ann"}),
    ("play/rematch_without_you.html", {"title": "Test mine"}),
    ("spectate/asked.html", {"token": "t"}),
    ("spectate/confirm.html", {"confirmation": "c", "email": "ann@example.org", "title": "Test mine"}),
    ("spectate/stop.html", {"stop": "s", "email": "ann@example.org", "title": "Test mine", "watch_url": "/w"}),
    ("spectate/stop.html", {"stop": "s", "email": "ann@example.org", "title": "Test mine", "stopped": True}),
    ("host_links/auto_pass.html", {"done": False, "auto_pass": False}),
    ("host_links/auto_pass.html", {"done": False, "auto_pass": True}),
    ("host_links/auto_pass.html", {"done": True, "auto_pass": True}),
]


@SQLITE
@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize(("template", "context"), SMALL_PAGES)
def test_the_small_pages_around_a_seat_read_in_the_readers_language(
    app: Flask, template: str, context: dict[str, object], language: str
) -> None:
    change = {"game_title": "Test mine", "seat_name": "Ann", "old_email": "ann@example.org",
              "new_email": "ann@example.net"}
    target = {"seat_name": "Ann", "game_title": "Test mine", "auto_pass": context.get("auto_pass", False)}
    with app.test_request_context("/", headers={"Accept-Language": language}):
        html = render_template(template, access=Access(), change=change, target=target, **context)

    assert f'<html lang="{language}">' in html
    assert_no_english(element(html, "<main"), language)
