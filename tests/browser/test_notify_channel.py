"""The table's channel on the host's game page in headless Chromium, at a phone's and a desktop's size: a refused
address is said beside its field; a receiver's address is set, shown masked, and the first turn arrives there."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from pbem.config import Config
from pbem.mail.deliver import Deliverer
from tests.support.browser import ARTIFACTS, SCREENSHOTS_WANTED, LiveServer, sign_in_page
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


def section(page: Page, name: str) -> None:
    """The channel's section alone, beside the whole page's picture, when screenshots are wanted."""
    if SCREENSHOTS_WANTED:
        folder = ARTIFACTS / "screenshots" / f"channel-{page.viewport_size['width'] if page.viewport_size else 0}"
        folder.mkdir(parents=True, exist_ok=True)
        page.locator("#channel").screenshot(path=str(folder / f"{name}.png"))


def test_the_host_gives_the_table_a_channel(
    page: Page, live_server: LiveServer, smtp_server: SmtpServer, smtp_deliverer: Deliverer,
    new_game: Callable[..., str], screenshots: Shoot,
) -> None:
    new_game()
    sign_in_page(page, live_server, smtp_server, smtp_deliverer, HOST)
    page.get_by_role("link", name="Test mine", exact=True).click()
    page.get_by_label("The channel's address").fill("ftp://files.example/x")
    page.get_by_role("button", name="Set the channel").click()
    expect(page.locator("#channel-problem")).to_contain_text("ftp:// is not a kind this server sends to")
    page.locator("#channel").scroll_into_view_if_needed()
    screenshots(page, "channel-refused")
    section(page, "channel-refused-section")
    with receiver() as hook:
        page.get_by_label("The channel's address").fill(hook.url("json", "table-hook-k3"))
        page.get_by_role("button", name="Set the channel").click()
        expect(page.locator("#channel")).to_contain_text("Notifications go to json://127.0.0.1/…k3")
        expect(page.locator("#channel")).not_to_contain_text("table-hook")
        screenshots(page, "channel-set")
        section(page, "channel-set-section")
