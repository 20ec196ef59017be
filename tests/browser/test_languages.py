"""A whole turn in German and in Korean in real Chromium, and a table where three seats read three languages.

The browser names its language as a reader's does (Playwright's `locale` sets Accept-Language and the page's
`navigator.language`); nothing on the page, the script's words included, may be English, and the first screen
still shows the role, whose turn, the board and the whole hand."""

from __future__ import annotations

import random
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Page, expect

import engine
from pbem.i18n.hyphens import SOFT_HYPHEN
from tests.support.browser import (
    FIRST_SCREEN,
    LiveServer,
    english_left_on,
    open_turn_page,
    wholly_on_first_screen,
)
from tests.support.games import PEOPLE, store_game
from tests.support.mail import mailbox

pytestmark = [pytest.mark.browser, pytest.mark.usefixtures("compiled_catalogues")]

Shoot = Callable[[Any, str], Path]
NAMES = ["Ann", "Ben", "Cat"]


def english_on(page: Page, language: str) -> list[str]:
    return english_left_on(page, language, frozenset({*NAMES, "Friday", "mine"}))


def first_move_is_a_build(state: engine.Game) -> dict[str, Any]:
    return next(move for move in engine.legal_moves(state, 0) if "rotated" in move and not move["rotated"])


@pytest.mark.parametrize("language", ["de", "ko"])
def test_a_whole_turn_in_german_or_korean_on_a_phone(
    reader: Callable[[str], Page], live_server: LiveServer, screenshots: Shoot, language: str, size: str
) -> None:
    state = engine.new_game(NAMES, seed=1)
    game_id = store_game(live_server.runtime, state, title="Friday mine")
    move = first_move_is_a_build(state)
    page = reader(language)

    open_turn_page(page, live_server, game_id, until_a_card_is_choosable=True)

    expect(page.locator("html")).to_have_attribute("lang", language)
    assert [miss for selector in FIRST_SCREEN for miss in wholly_on_first_screen(page, selector)] == []
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")  # nothing wider than the screen
    assert english_on(page, language) == []
    if language == "de":  # a long German card name breaks at a syllable, not wherever the label ends
        assert any(SOFT_HYPHEN in label for label in page.locator(".hand-card .card-label").all_inner_texts())
    screenshots(page, f"{language}-{size}-turn")
    page.locator(f'.hand-card[data-card="{move["card"]}"]').click()
    page.locator(f'svg.board .target[data-x="{move["x"]}"][data-y="{move["y"]}"]').click()
    expect(page.locator("#confirm-bar")).to_be_visible()
    assert english_on(page, language) == []
    screenshots(page, f"{language}-{size}-confirm")
    page.locator("#confirm-actions button").first.click()
    expect(page.locator(".message.played")).to_be_visible()
    assert engine.view(live_server.runtime.games.engine_state(game_id)[0], None)["board"] != engine.view(state, None)[
        "board"]
    assert english_on(page, language) == []
    screenshots(page, f"{language}-{size}-played")
    page.locator(".settings-all > summary").click()
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")  # the settings' lists too
    assert english_on(page, language) == []
    screenshots(page, f"{language}-{size}-settings")


def content_languages(live_server: LiveServer) -> dict[str, set[str]]:
    """The Content-Language of each address's emails so far."""
    found: dict[str, set[str]] = {}
    for message in mailbox(live_server.runtime):
        found.setdefault(message.to_address, set()).add(message.headers.get("Content-Language", ""))
    return found


def test_three_seats_at_one_table_each_read_their_own_language_on_the_page_and_in_their_email(
    reader: Callable[[str], Page], live_server: LiveServer, size: str
) -> None:
    runtime = live_server.runtime
    game_id = runtime.games.create_game(title="Friday mine", players=PEOPLE, host_email="host@example.org")
    for seat, language in enumerate(["de", "ko", "en"]):
        runtime.seat_languages.choose(game_id, seat, language)
    runtime.games.start_game(game_id)
    pages = [reader("en") for _ in NAMES]  # every browser English: each seat's own choice wins

    for seat, page in enumerate(pages):
        open_turn_page(page, live_server, game_id, seat)
    state, seq = runtime.games.engine_state(game_id)
    seat = engine.to_act(state)
    assert seat is not None
    runtime.games.submit_move(game_id, seat, engine.bots.choose(state, seat, random.Random(3)), seq, "three-languages")
    for page in pages:
        page.reload()

    assert [page.locator("html").get_attribute("lang") for page in pages] == ["de", "ko", "en"]
    assert english_on(pages[0], "de") == [] and english_on(pages[1], "ko") == []
    assert content_languages(live_server) == {
        "ann@example.org": {"de"}, "ben@example.org": {"ko"}, "cat@example.org": {"en"},
    }
