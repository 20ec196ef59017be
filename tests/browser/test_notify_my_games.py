"""In Chromium, at a phone's and a desktop's size: a signed-in player adds a phone's ntfy address in My games
preferences (a refused one first, said beside the field), sees it masked, sends a test that a real receiver on
loopback gets. The page has no serious or critical axe-core violation."""

from __future__ import annotations

import dataclasses
import re

import pytest
from playwright.sync_api import Page, expect

from pbem.config import Config
from pbem.mail.deliver import Deliverer
from tests.support.browser import ARTIFACTS, SCREENSHOTS_WANTED, LiveServer, accessible, delivered_to
from tests.support.games import PEOPLE
from tests.support.mail import SmtpServer
from tests.support.receivers import receiver

pytestmark = pytest.mark.browser
SIGN_IN = re.compile(r"https?://\S+/sign-in/\S+")


@pytest.fixture
def config(config: Config) -> Config:
    return dataclasses.replace(
        config, notifications=dataclasses.replace(config.notifications, allow_private_addresses=True)
    )


def section(page: Page, name: str) -> None:
    """The notifications' section alone, when screenshots are wanted."""
    if SCREENSHOTS_WANTED:
        width = page.viewport_size["width"] if page.viewport_size else 0
        folder = ARTIFACTS / "screenshots" / f"my-notifications-{width}"
        folder.mkdir(parents=True, exist_ok=True)
        page.locator("#notifications").screenshot(path=str(folder / f"{name}.png"))


def test_a_player_adds_a_phone_and_sends_it_a_test(
    page: Page, live_server: LiveServer, smtp_server: SmtpServer, smtp_deliverer: Deliverer,
) -> None:
    runtime = live_server.runtime
    game_id = runtime.games.create_game(title="Test mine", players=list(PEOPLE), host_email="host@example.org")
    runtime.games.start_game(game_id)
    page.goto(live_server.url)
    page.get_by_label("Your email address").first.fill("ann@example.org")
    page.get_by_role("button", name="Email me a sign-in link").click()
    link = SIGN_IN.search(delivered_to(smtp_server, smtp_deliverer, "ann@example.org", "My games")[-1])
    assert link
    page.goto(link.group(0))
    page.get_by_role("button", name="Sign in").click()
    page.goto(f"{live_server.url}/my-games/preferences")

    page.get_by_label("A notification address").fill("https://example.org/hook")
    page.get_by_role("button", name="Add the address").click()
    expect(page.locator("#notification-problem")).to_contain_text("https:// is not a kind this server sends to")
    section(page, "refused")
    with receiver() as phone:
        page.get_by_label("A notification address").fill(phone.url("ntfy", "ann-phone-z4"))
        page.get_by_label("Each round's result and game over").check()
        page.get_by_role("button", name="Add the address").click()
        expect(page.locator("#notifications")).to_contain_text("ntfy://127.0.0.1/…z4: my turns, round and game results")
        page.get_by_role("button", name="Send a test").click()
        expect(page.locator("#notifications")).to_contain_text("A test went to ntfy://127.0.0.1/…z4.")
        accessible(page)
        section(page, "added")
    assert [a.json["topic"] for a in phone.arrived] == ["ann-phone-z4"]
    expect(page.locator("#notifications")).not_to_contain_text("ann-phone")
