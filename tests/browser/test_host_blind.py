"""In real headless Chromium, at a phone's and a desktop's size: a host's correction of a seat's address reaches
the old address at a real SMTP server (aiosmtpd), whose owner confirms it on the page the link opens; signing
out everywhere ends the host's session in another browser too."""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, expect

from pbem.mail.deliver import Deliverer
from tests.support.browser import VIEWPORTS, LiveServer, delivered_to, sign_in_page
from tests.support.mail import SmtpServer
from tests.support.web import HOST

pytestmark = pytest.mark.browser

Shoot = Callable[[Any, str], Path]
CONFIRM = re.compile(r"https?://\S+/seat-address/\S+")


def test_a_correction_reaches_the_old_address_and_changes_the_seat_once_confirmed_there(
    page: Page, browser: Browser, live_server: LiveServer, smtp_server: SmtpServer, smtp_deliverer: Deliverer,
    new_game: Callable[..., str], screenshots: Shoot,
) -> None:
    game_id = new_game()
    sign_in_page(page, live_server, smtp_server, smtp_deliverer, HOST)
    page.goto(f"{live_server.url}/host/games/{game_id}")
    seat = page.locator("#seat-1")
    seat.get_by_text("Links and address").click()
    seat.get_by_label("Correct email").fill("ben@new.example")
    seat.get_by_role("button", name="Correct email").click()
    page.get_by_role("button", name="Yes, ask them to confirm").click()
    expect(page.get_by_text("the address changes only once they confirm")).to_be_visible()
    expect(page.locator("#seat-1")).to_contain_text("ben@example.org")
    screenshots(page, "correction-asked")

    [asked] = delivered_to(smtp_server, smtp_deliverer, "ben@example.org", "Test mine")[-1:]
    assert "ben@new.example" in asked
    link = CONFIRM.search(asked)
    assert link, asked
    owner = browser.new_context(viewport=page.viewport_size, device_scale_factor=1).new_page()
    owner.goto(link.group(0))
    expect(owner.get_by_role("heading")).to_have_text("Move your seat to a new address?")
    screenshots(owner, "confirm-page")
    owner.get_by_role("button", name="Yes, move my seat to ben@new.example").click()
    expect(owner.get_by_role("heading")).to_have_text("Your seat now goes to ben@new.example")
    screenshots(owner, "confirmed")
    owner.context.close()

    assert any("old address confirmed it" in body
               for body in delivered_to(smtp_server, smtp_deliverer, "ben@new.example"))
    page.reload()
    expect(page.locator("#seat-1")).to_contain_text("ben@new.example")
    expect(page.locator("#chat")).to_contain_text("confirmed from the old address")


def test_signing_out_everywhere_ends_the_session_in_another_browser(
    page: Page, browser: Browser, live_server: LiveServer, smtp_server: SmtpServer, smtp_deliverer: Deliverer,
    screenshots: Shoot,
) -> None:
    sign_in_page(page, live_server, smtp_server, smtp_deliverer, HOST)
    other = browser.new_context(viewport=VIEWPORTS["desktop"], device_scale_factor=1)
    other.add_cookies(page.context.cookies())
    copy = other.new_page()
    copy.goto(f"{live_server.url}/host")
    expect(copy.get_by_text(f"Signed in as {HOST}")).to_be_visible()
    screenshots(page, "dashboard")

    page.get_by_role("button", name="Sign out everywhere").click()
    expect(page.get_by_text("You are signed out in every browser.")).to_be_visible()
    screenshots(page, "signed-out-everywhere")

    copy.goto(f"{live_server.url}/host")
    expect(copy.get_by_role("button", name="Email me a host link")).to_be_visible()
    other.close()
