"""In Chromium, at a phone's and a desktop's size: on the turn page's settings a seat's player adds a phone's ntfy
address (a refused one first, said beside the field), sees it masked, sends a test that a real receiver on loopback
gets, and chooses notifications instead of turn emails. The page has no serious or critical axe-core violation."""

from __future__ import annotations

import dataclasses

import pytest
from playwright.sync_api import Page, expect

from pbem.config import Config
from tests.support.browser import ARTIFACTS, SCREENSHOTS_WANTED, LiveServer, accessible, open_turn_page
from tests.support.games import PEOPLE
from tests.support.receivers import receiver

pytestmark = pytest.mark.browser


@pytest.fixture
def config(config: Config) -> Config:
    return dataclasses.replace(
        config, notifications=dataclasses.replace(config.notifications, allow_private_addresses=True)
    )


def settings_picture(page: Page, name: str) -> None:
    """The settings alone, when screenshots are wanted."""
    if SCREENSHOTS_WANTED:
        width = page.viewport_size["width"] if page.viewport_size else 0
        folder = ARTIFACTS / "screenshots" / f"turn-page-notifications-{width}"
        folder.mkdir(parents=True, exist_ok=True)
        page.locator("#settings").screenshot(path=str(folder / f"{name}.png"))


def open_settings(page: Page) -> None:
    if page.locator("#settings[open]").count() == 0:
        page.locator("summary", has_text="Settings").click()


def test_a_seat_adds_a_phone_on_its_settings_and_takes_notifications_instead_of_turn_emails(
    page: Page, live_server: LiveServer,
) -> None:
    runtime = live_server.runtime
    game_id = runtime.games.create_game(title="Test mine", players=list(PEOPLE), host_email="host@example.org")
    runtime.games.start_game(game_id)
    open_turn_page(page, live_server, game_id, 1)
    open_settings(page)

    page.get_by_label("A notification address").fill("https://example.org/hook")
    page.get_by_role("button", name="Add the address").click()
    expect(page.locator("#notification-problem")).to_contain_text("https:// is not a kind this server sends to")
    expect(page.locator("#settings")).to_have_attribute("open", "")
    settings_picture(page, "refused")
    with receiver() as phone:
        page.get_by_label("A notification address").fill(phone.url("ntfy", "ben-phone-z4"))
        page.get_by_role("button", name="Add the address").click()
        expect(page.locator("#notifications")).to_contain_text("ntfy://127.0.0.1/…z4: my turns")
        page.get_by_role("button", name="Send a test").click()
        expect(page.get_by_role("status").filter(has_text="A test went to ntfy://127.0.0.1/…z4.")).to_be_visible()
    assert [a.json["topic"] for a in phone.arrived] == ["ben-phone-z4"]

    open_settings(page)
    page.get_by_label("No turn emails: tell me on my notification addresses instead").check()
    page.locator(".settings form", has=page.get_by_label("No turn emails: tell me on my notification addresses "
                                                          "instead")).get_by_role("button", name="Save").click()
    expect(page.get_by_role("status").filter(has_text="Saved: no turn emails")).to_be_visible()
    assert runtime.seats.profile(game_id, 1).notify_mode == "notices"
    open_settings(page)
    accessible(page)
    settings_picture(page, "instead-of-emails")
    expect(page.locator("#settings")).not_to_contain_text("ben-phone")
