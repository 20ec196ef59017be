"""The demo in headless Chromium: the home page's link opens your seat, you play, the computer players
answer through the bot job, and the page comes back to your turn by itself within seconds.

The bot job runs here as the scheduler would run it, with the test's clock moved past its delay.
"""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from pbem.clock import SettableClock
from pbem.service.turns.bots import start_demo
from tests.support.browser import LiveServer
from tests.support.games import BOT_DELAY, play_bots

pytestmark = pytest.mark.browser

def test_a_newcomer_opens_the_demo_from_the_home_page_plays_and_the_computers_answer(
    page: Page, live_server: LiveServer, clock: SettableClock
) -> None:
    runtime = live_server.runtime
    game_id = start_demo(runtime.games, name="Alex", email="you@localhost", bots=3)

    page.goto(live_server.url + "/")
    page.locator("section.demo a").first.click()
    expect(page.locator('#table[data-script="ready"]')).to_be_visible()
    expect(page.locator("#headline")).to_have_text("Your turn: play a card, or pass.")
    assert page.url == f"{live_server.url}/table/{game_id}"

    page.locator("#move-list summary").click()
    page.locator("#move-form button.move-choice[name=move]").first.click()
    page.locator("#confirm-actions button").first.click()
    expect(page.locator("#headline")).to_have_text("Bot 1's turn (computer player).")
    expect(page.locator("#table")).to_have_attribute("data-poll-seconds", "1")

    for _ in range(3):
        clock.advance(BOT_DELAY)
        assert play_bots(runtime) == 1

    expect(page.locator("#headline")).to_have_text("Your turn: play a card, or pass.", timeout=10_000)
    expect(page.locator(".seat .tag", has_text="computer")).to_have_count(3)
    assert len(runtime.games.history(game_id, 0)) == 4
