"""The turn page in real headless Chromium (Debian's package, driven by Playwright), at a phone's and a
desktop's size: open a link, build with a path card, break another player's tool, pass, meet a stale page.

Ann (seat 0) plays in the browser; the others' moves go through the game service. Seed 1 deals Ann path
cards, a broken lantern and a map, and she plays first. Screenshots land in artifacts/screenshots/.
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Page, expect

import engine
from tests.support.browser import LiveServer, open_turn_page
from tests.support.games import store_game

pytestmark = pytest.mark.browser

NAMES = ["Ann", "Ben", "Cat"]
SEED = 1
Shoot = Callable[[Any, str], Path]


@pytest.fixture
def game(live_server: LiveServer) -> str:
    return store_game(live_server.runtime, engine.new_game(NAMES, seed=SEED), title="Friday mine")


def state_of(live_server: LiveServer, game_id: str) -> engine.Game:
    return live_server.runtime.games.engine_state(game_id)[0]


def others_play(live_server: LiveServer, game_id: str, rng: random.Random) -> None:
    """Everyone after Ann takes a turn through the service, until it is Ann's turn again."""
    while True:
        state, seq = live_server.runtime.games.engine_state(game_id)
        seat = engine.to_act(state)
        if seat in (0, None):
            return
        live_server.runtime.games.submit_move(game_id, seat, engine.bots.choose(state, seat, rng), seq, f"bot-{seq}")


def test_opening_a_link_shows_the_table_without_the_token(
    page: Page, live_server: LiveServer, game: str, screenshots: Shoot
) -> None:
    open_turn_page(page, live_server, game, until_a_card_is_choosable=True)

    assert page.url == f"{live_server.url}/table/{game}"
    expect(page.locator("h1")).to_have_text("Your turn: play a card, or pass.")
    expect(page.locator("section.you")).to_contain_text("You are Ann")
    expect(page.locator(".hand-card")).to_have_count(len(engine.view(state_of(live_server, game), 0)["you"]["hand"]))
    expect(page.locator("#move-list")).not_to_have_attribute("open", "")  # the script folds the plain list away
    screenshots(page, "table")


def test_playing_a_path_card_by_clicking_the_card_and_a_lit_cell(
    page: Page, live_server: LiveServer, game: str, screenshots: Shoot
) -> None:
    move = next(m for m in engine.legal_moves(state_of(live_server, game), 0) if "rotated" in m and not m["rotated"])
    open_turn_page(page, live_server, game, until_a_card_is_choosable=True)

    page.locator(f'.hand-card[data-card="{move["card"]}"]').click()
    cell = page.locator(f'svg.board .target[data-x="{move["x"]}"][data-y="{move["y"]}"]')
    cell.click()
    expect(page.locator("#confirm-text")).to_have_text(
        f"Build the {label(live_server, game, move['card'])} at ({move['x']}, {move['y']})?"
    )
    screenshots(page, "confirm")
    page.get_by_role("button", name="Play it").click()

    expect(page.locator(".message.played")).to_contain_text("You built a")
    expect(page.locator(f'svg.board .card[data-x="{move["x"]}"][data-y="{move["y"]}"]')).to_have_attribute(
        "data-card", str(move["card"])
    )
    expect(page.locator("h1")).to_have_text("Ben's turn.")
    assert state_of(live_server, game).board[(move["x"], move["y"])][0] == move["card"]
    screenshots(page, "built")


def test_breaking_another_players_tool_by_clicking_the_card_and_the_player(
    page: Page, live_server: LiveServer, game: str, screenshots: Shoot
) -> None:
    hand = engine.view(state_of(live_server, game), 0)["you"]["hand"]
    broken = next(card for card in hand if card.get("effect") == "break")
    open_turn_page(page, live_server, game, until_a_card_is_choosable=True)

    page.locator(f'.hand-card[data-card="{broken["id"]}"]').click()
    ben = page.locator('.seat[data-seat="1"]')
    expect(ben).to_have_class(re.compile(r"\btarget\b"))
    ben.click()
    expect(page.locator("#confirm-text")).to_have_text(f"Break Ben's {broken['tools'][0]}?")
    page.get_by_role("button", name="Play it").click()

    expect(page.locator(".message.played")).to_contain_text(f"You broke Ben's {broken['tools'][0]}")
    expect(page.locator('.seat[data-seat="1"] .tool-icon.broken')).to_have_count(1)
    assert engine.view(state_of(live_server, game), None)["seats"][1]["broken"] == [broken["tools"][0]]
    screenshots(page, "broken-tool")


def test_passing_by_discarding_a_card(page: Page, live_server: LiveServer, game: str, screenshots: Shoot) -> None:
    others_play_after_one_move(live_server, game)
    card = engine.view(state_of(live_server, game), 0)["you"]["hand"][0]
    open_turn_page(page, live_server, game, until_a_card_is_choosable=True)

    page.locator(f'.hand-card[data-card="{card["id"]}"]').click()
    page.get_by_role("button", name="Discard it (pass)").click()
    expect(page.locator("#confirm-text")).to_have_text(f"Pass: discard your {card['label']}, face down?")
    page.get_by_role("button", name="Play it").click()

    expect(page.locator(".message.played")).to_contain_text("You passed, discarding ")
    assert card["id"] in state_of(live_server, game).discard
    screenshots(page, "passed")


def test_a_stale_page_says_so_and_plays_nothing(
    page: Page, live_server: LiveServer, game: str, screenshots: Shoot
) -> None:
    open_turn_page(page, live_server, game, until_a_card_is_choosable=True)
    state, seq = live_server.runtime.games.engine_state(game)
    elsewhere = next(m for m in engine.legal_moves(state, 0) if m["type"] == "pass")
    live_server.runtime.games.submit_move(game, 0, elsewhere, seq, "from-the-phone")  # Ann, on another device
    others_play(live_server, game, random.Random(2))
    before = live_server.runtime.games.engine_state(game)[1]

    move = next(m for m in engine.legal_moves(state, 0) if "rotated" in m)
    page.locator(f'.hand-card[data-card="{move["card"]}"]').click()
    page.locator("svg.board .target").first.click()
    page.get_by_role("button", name="Play it").click()

    expect(page.locator(".message.problem")).to_have_text(
        "You already played from another window or device; here is the table now. Nothing more was played."
    )
    assert live_server.runtime.games.engine_state(game)[1] == before
    screenshots(page, "stale")


def others_play_after_one_move(live_server: LiveServer, game: str) -> None:
    """Ann builds once (through the service), the others answer: the page then shows a table in play."""
    state, seq = live_server.runtime.games.engine_state(game)
    build = next(m for m in engine.legal_moves(state, 0) if "rotated" in m)
    live_server.runtime.games.submit_move(game, 0, build, seq, "ann-first")
    others_play(live_server, game, random.Random(3))


def label(live_server: LiveServer, game: str, card: int) -> str:
    return next(c["label"] for c in engine.view(state_of(live_server, game), 0)["you"]["hand"] if c["id"] == card)


def test_without_javascript_the_list_of_moves_and_a_confirm_page_play_a_turn(
    browser: Any, live_server: LiveServer, game: str, screenshots: Shoot
) -> None:
    context = browser.new_context(java_script_enabled=False, viewport={"width": 390, "height": 844})
    try:
        page = context.new_page()
        page.goto(live_server.link(game, 0))
        expect(page.locator("#move-list")).to_have_attribute("open", "")

        page.get_by_role("button", name=re.compile(r"^Pass: discard your ")).first.click()
        expect(page.locator("h1")).to_have_text("Play this move?")
        screenshots(page, "confirm-page")
        page.get_by_role("button", name="Yes, play it").click()

        expect(page.locator(".message.played")).to_contain_text("You passed, discarding ")
        assert page.url == f"{live_server.url}/table/{game}"
        screenshots(page, "after")
    finally:
        context.close()
