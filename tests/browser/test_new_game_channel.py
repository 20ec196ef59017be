"""The table's channel on the new-game form in headless Chromium, at a phone's and a desktop's size: a refused
address is said beside its field and nothing is made; a receiver's address makes the game with its channel, a copy
of the game offers to keep it, and a player's turn page says the table posts to a webhook, never where."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from pbem.config import Config
from pbem.mail.deliver import Deliverer
from tests.support.browser import ARTIFACTS, SCREENSHOTS_WANTED, LiveServer, open_turn_page, sign_in_page
from tests.support.games import link_token
from tests.support.mail import SmtpServer
from tests.support.receivers import receiver
from tests.support.web import HOST

pytestmark = pytest.mark.browser
Shoot = Callable[[Any, str], Path]


@pytest.fixture
def config(config: Config) -> Config:
    return dataclasses.replace(
        config, notifications=dataclasses.replace(config.notifications, allow_private_addresses=True)
    )


def part(page: Page, selector: str, name: str) -> None:
    """One part of the page alone, beside the whole page's picture, when screenshots are wanted."""
    if SCREENSHOTS_WANTED:
        width = page.viewport_size["width"] if page.viewport_size else 0
        folder = ARTIFACTS / "screenshots" / f"new-game-channel-{width}"
        folder.mkdir(parents=True, exist_ok=True)
        page.locator(selector).screenshot(path=str(folder / f"{name}.png"))


def fill_the_table(page: Page) -> None:
    page.get_by_label("Title").fill("Friday mine")
    page.locator("#join-list").check()
    for index, name in enumerate(("Ann", "Ben", "Cat")):
        page.locator(f"#name_{index}").fill(name)
        page.locator(f"#email_{index}").fill(f"{name.lower()}@example.org")


def test_the_host_gives_a_new_game_its_channel_and_the_players_see_it_has_one(
    page: Page, live_server: LiveServer, smtp_server: SmtpServer, smtp_deliverer: Deliverer, screenshots: Shoot,
) -> None:
    sign_in_page(page, live_server, smtp_server, smtp_deliverer, HOST)
    page.goto(f"{live_server.url}/host/new")
    fill_the_table(page)
    field = page.get_by_label("A chat or phone channel for the whole table")
    field.fill("ftp://files.example/x")
    page.get_by_role("button", name="Create the game").click()
    expect(page.locator("#error-channel")).to_contain_text("ftp:// is not a kind this server sends to")
    expect(page.locator("#errors-summary")).to_contain_text("Nothing was created yet")
    page.locator("#channel-fields").scroll_into_view_if_needed()
    screenshots(page, "new-game-channel-refused")
    part(page, "#channel-fields", "channel-refused-field")

    with receiver() as hook:
        fill_the_table(page)
        field.fill(hook.url("json", "table-hook-k3"))
        page.get_by_role("button", name="Create the game").click()
        expect(page.locator("#channel")).to_contain_text("Notifications go to json://127.0.0.1/…k3")
        game_id = link_token(page.url.rstrip("/"))
        assert live_server.runtime.notice_sender().run().sent == 1 and len(hook.arrived) == 1

    page.goto(f"{live_server.url}/host/new?copy={game_id}")
    expect(page.get_by_label("Keep the earlier game's channel")).to_be_checked()
    expect(page.locator("#channel-fields")).to_contain_text("json://127.0.0.1/…k3")
    part(page, "#channel-fields", "channel-kept-field")

    open_turn_page(page, live_server, game_id, 1)
    line = page.locator("#table-channel")
    expect(line).to_contain_text("This table also posts to a webhook: whose turn it is")
    expect(page.locator("body")).not_to_contain_text("127.0.0.1")
    line.scroll_into_view_if_needed()
    screenshots(page, "turn-page-channel-line")
    part(page, ".seats", "seats")
