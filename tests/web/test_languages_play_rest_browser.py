"""The rules page and a round that just ended, in German and in Korean, in headless Chromium at a phone's size:
German words are longer and Korean wraps differently, yet nothing is wider than the phone. Screenshots land in
artifacts/screenshots/ when asked for (PBEM_SCREENSHOTS=1)."""

from __future__ import annotations

import random
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, expect

import engine
from tests.support.browser import ARTIFACTS, SCREENSHOTS_WANTED, VIEWPORTS, LiveServer, open_context
from tests.support.games import dig_for_gold, store_game

pytestmark = [pytest.mark.browser, pytest.mark.usefixtures("compiled_catalogues")]

Shoot = Callable[[Any, str], Path | None]
NAMES = ["Ann", "Ben", "Cat"]
LOCALES = {"de": "de-DE", "ko": "ko-KR"}


def round_one_over(live_server: LiveServer, seed: int = 20) -> str:
    """Three players who dig for the gold, stopped at the first move of round 2."""
    runtime = live_server.runtime
    game_id = store_game(runtime, engine.new_game(NAMES, seed=seed))
    rng = random.Random(seed)
    while True:
        state, seq = runtime.games.engine_state(game_id)
        if state.round > 1 and state.phase == "play":
            return game_id
        seat = engine.to_act(state)
        assert seat is not None
        runtime.games.submit_move(game_id, seat, dig_for_gold(state, seat, rng), seq, f"move-{seq}")


WIDER = """(root) => [root, ...root.querySelectorAll('*')]
  .filter(e => e.getBoundingClientRect().right > document.documentElement.clientWidth + 0.5)
  .map(e => e.tagName + '.' + e.className + ': ' + (e.textContent || '').trim().slice(0, 60))"""


def screens(page: Page, name: str, count: int) -> None:
    """The first `count` screens of the page as a phone shows them, one picture per screen (when asked for)."""
    if not SCREENSHOTS_WANTED:
        return
    folder = ARTIFACTS / "screenshots" / "languages-play-rest"
    folder.mkdir(parents=True, exist_ok=True)
    for screen in range(count):
        page.evaluate(f"window.scrollTo(0, {screen * VIEWPORTS['phone']['height']})")
        page.screenshot(path=str(folder / f"{name}-{screen + 1}.png"))


def wider_than_the_phone(page: Page, selector: str) -> list[str]:
    """What inside `selector` reaches past the phone's right edge."""
    assert page.evaluate("document.documentElement.clientWidth") == VIEWPORTS["phone"]["width"]
    return list(page.locator(selector).evaluate(WIDER))


@pytest.mark.parametrize("language", sorted(LOCALES))
@pytest.mark.parametrize("size", ["phone"])
def test_the_rules_page_fits_a_phone_in_german_and_korean(
    browser: Browser, live_server: LiveServer, screenshots: Shoot, language: str, size: str
) -> None:
    context = open_context(browser, size, locale=LOCALES[language])
    try:
        page = context.new_page()
        page.goto(f"{live_server.url}/rules")

        expect(page.locator("html")).to_have_attribute("lang", language)
        expect(page.locator("h1")).to_have_text({"de": "So spielt man Saboteur", "ko": "사보추어 게임 방법"}[language])
        assert wider_than_the_phone(page, "main") == []
        screenshots(page, f"rules-{language}")
        screens(page, f"rules-{language}", 4)
    finally:
        context.close()


@pytest.mark.parametrize("language", sorted(LOCALES))
@pytest.mark.parametrize("size", ["phone"])
def test_a_round_just_over_fits_a_phone_in_german_and_korean(
    browser: Browser, live_server: LiveServer, screenshots: Shoot, language: str, size: str
) -> None:
    game_id = round_one_over(live_server)
    live_server.runtime.seat_languages.choose(game_id, 0, language)
    context = open_context(browser, size, locale=LOCALES[language], timezone_id="UTC")
    try:
        page = context.new_page()
        page.goto(live_server.link(game_id, 0))

        panel = page.locator("#round-over")
        expect(panel).to_have_attribute("open", "")
        expect(panel.locator(".round-over-title")).to_have_text(
            {"de": "Runde 1 ist vorbei", "ko": "1라운드가 끝났어요"}[language]
        )
        panel.locator(".round-over-more > summary").click()
        expect(panel.locator(".round-over-roles")).to_be_visible()
        assert wider_than_the_phone(page, "#round-over") == []
        screenshots(page, f"round-over-{language}")
        screens(page, f"round-over-{language}", 2)
    finally:
        context.close()
