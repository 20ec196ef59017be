"""In Chromium at a phone's size, a German and a Korean browser: a player signs in to My games through the emailed
link, reads My games and its preferences in their language with nothing wider than the phone, picks another
language for all games with the ordinary form and opens a game, which is then in the language picked."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Browser, Page, expect

from pbem.mail.deliver import Deliverer
from tests.support.browser import LiveServer, accessible, delivered_to, open_context, save_screenshot
from tests.support.games import PEOPLE, play_until_turn_of
from tests.support.mail import SmtpServer

pytestmark = [pytest.mark.browser, pytest.mark.usefixtures("compiled_catalogues")]

SIGN_IN = re.compile(r"https?://\S+/sign-in/\S+")
WORDS = {
    "de": {"my_games": "Meine Spiele", "change": "Für alle Spiele ändern",
           "language": "Sprache der Seiten und E-Mails deiner Spiele", "save": "Für alle Spiele speichern"},
    "ko": {"my_games": "내 게임", "change": "모든 게임 설정 바꾸기",
           "language": "내 게임의 페이지와 이메일 언어", "save": "모든 게임에 저장"},
}
# The other language each picks for all games, and the turn page's settings heading in it.
PICKED = {"de": ("한국어", "ko", "언어"), "ko": ("Deutsch", "de", "Sprache")}


def started(live_server: LiveServer, title: str) -> str:
    runtime = live_server.runtime
    game_id = runtime.games.create_game(title=title, players=list(PEOPLE), host_email="host@example.org")
    runtime.games.start_game(game_id)
    return game_id


def fits_the_phone(page: Page) -> None:
    """Nothing on the page is wider than the phone's screen (no sideways scrolling)."""
    assert page.evaluate("document.documentElement.scrollWidth") <= 390


@pytest.mark.parametrize("size", ["phone"], indirect=True)
@pytest.mark.parametrize(("locale", "language"), [("de-DE", "de"), ("ko-KR", "ko")])
def test_my_games_reads_in_the_browsers_language_and_a_language_picked_for_all_games_reaches_a_game(
    browser: Browser, live_server: LiveServer, smtp_server: SmtpServer, smtp_deliverer: Deliverer, size: str,
    locale: str, language: str,
) -> None:
    waiting = started(live_server, "Waiting on Ben")
    mine = started(live_server, "Ann to play")
    play_until_turn_of(live_server.runtime, waiting, 1)
    play_until_turn_of(live_server.runtime, mine, 0)
    words = WORDS[language]
    context = open_context(browser, size, locale=locale)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    try:
        page.goto(live_server.url)
        page.locator("#player-email").fill("ann@example.org")
        page.locator("form.stacked-form button[type=submit]").first.click()
        expect(page.locator("#link-sent")).to_be_visible()
        link = SIGN_IN.search(delivered_to(smtp_server, smtp_deliverer, "ann@example.org")[-1])
        assert link
        page.goto(link.group(0))
        page.locator("#continue").click()

        expect(page.locator("h1")).to_have_text(words["my_games"])
        expect(page.locator(".open-game")).to_have_text(["Ann to play", "Waiting on Ben"])
        assert page.locator("html").get_attribute("lang") == language
        fits_the_phone(page)
        accessible(page)
        save_screenshot(page, "people", f"my-games-{language}-phone")

        page.get_by_role("link", name=words["change"]).click()
        fits_the_phone(page)
        accessible(page)
        save_screenshot(page, "people", f"preferences-{language}-phone")
        name, code, heading = PICKED[language]
        page.get_by_label(words["language"]).select_option(label=name)
        page.get_by_role("button", name=words["save"]).click()
        expect(page.locator("#language-summary")).to_contain_text(name)
        save_screenshot(page, "people", f"my-games-saved-{language}-phone")

        page.get_by_role("link", name="Ann to play").click()
        expect(page.locator("#language-heading")).to_have_text(heading)
        assert page.locator("html").get_attribute("lang") == code
    finally:
        context.close()
    assert errors == []
