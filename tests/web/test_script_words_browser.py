"""The turn page's script speaks the reader's language, in real headless Chromium (tests/browser/ shows the harness):
a German and a Korean browser open Ann's link, choose a path card and a broken tool, are asked to confirm, and write
an empty message to the table; every word the script writes is the page's own, never the script's English."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Page, expect

import engine
from pbem.i18n import in_language
from pbem.web.script_words import script_words
from tests.support.browser import LiveServer, open_turn_page
from tests.support.games import store_game

pytestmark = [pytest.mark.browser, pytest.mark.usefixtures("compiled_catalogues")]

Shoot = Callable[[Any, str], Path]


@pytest.fixture
def game(live_server: LiveServer) -> str:
    """Seed 1 deals Ann (seat 0, first to play) path cards and a broken lantern."""
    return store_game(live_server.runtime, engine.new_game(["Ann", "Ben", "Cat"], seed=1), title="Freitagsmine")


@pytest.mark.parametrize("language", ["de", "ko"])
def test_the_turn_pages_script_says_everything_in_the_readers_language(
    page: Page, live_server: LiveServer, game: str, language: str, screenshots: Shoot
) -> None:
    with in_language(language):
        words = script_words()
    english = script_words()
    state = live_server.runtime.games.engine_state(game)[0]
    placement = next(m for m in engine.legal_moves(state, 0) if "rotated" in m)
    broken = next(card for card in engine.view(state, 0)["you"]["hand"] if card.get("effect") == "break")
    page.set_extra_http_headers({"Accept-Language": language})

    open_turn_page(page, live_server, game, until_a_card_is_choosable=True)
    assert page.locator("html").get_attribute("lang") == language
    hint = page.locator("#hint")
    expect(hint).to_have_text(str(words["hint_start"]))

    page.locator(f'.hand-card[data-card="{placement["card"]}"]').click()
    assert hint.inner_text() in (words["hint_place"], words["hint_place_or_turn"])
    page.locator(f'svg.board .target[data-x="{placement["x"]}"][data-y="{placement["y"]}"]').first.click()
    confirm = page.locator("#confirm-text")
    expect(confirm).to_be_visible()
    assert confirm.inner_text().endswith("?")
    expect(page.locator("#confirm-actions button")).to_have_text([str(words["confirm_play"])])
    screenshots(page, f"confirm-{language}")
    page.locator("#confirm-bar [data-action=cancel]").click()

    page.locator(f'.hand-card[data-card="{broken["id"]}"]').click()
    expect(hint).to_have_text(str(words["hint_player"]))
    page.locator('.seat[data-seat="1"]').click()
    expect(page.locator("#confirm-actions button")).to_have_text([str(words["confirm_play"])])
    page.locator("#confirm-bar [data-action=cancel]").click()

    page.locator("#chat-text").fill("   ")
    page.locator("#chat-form button[type=submit]").click()
    expect(page.locator("#chat-problem")).to_have_text(str(words["chat_empty"]))

    with page.expect_response(lambda response: response.url.endswith("/chat/read")):  # sent, shown, reported
        page.locator("#chat-text").fill("Glück auf!")
        page.locator("#chat-form button[type=submit]").click()
    expect(page.locator(".chat-line.chat-you .chat-name").last).to_have_text(f"Ann {words['chat_you']}")
    screenshots(page, f"chat-{language}")

    shown = page.evaluate("document.body.innerText")
    assert [key for key, text in english.items() if isinstance(text, str) and len(text) > 8 and text in shown] == []
