"""In Chromium at a phone's and a desktop's size: a player on the server's default quiet hours sees them as such on
the turn page and in My games, changes only the time zone, and the deadline stays where it was promised; when the
player's own hours move it later, the page and My games say it moved."""

from __future__ import annotations

import re
from datetime import UTC, datetime

import pytest
from playwright.sync_api import Page, expect

from pbem.clock import SettableClock
from pbem.mail.deliver import Deliverer
from pbem.runtime import Runtime
from tests.support.browser import (
    ARTIFACTS,
    SCREENSHOTS_WANTED,
    LiveServer,
    accessible,
    delivered_to,
    save_screenshot,
    settle,
)
from tests.support.games import PEOPLE
from tests.support.mail import SmtpServer

pytestmark = pytest.mark.browser

TURN_BEGINS = datetime(2026, 12, 2, 2, 39, tzinfo=UTC)  # 72 hours on falls in 22:00-08:00 UTC
SIGN_IN = re.compile(r"https?://\S+/sign-in/\S+")


def shoot(page: Page, name: str, part: str | None = None) -> None:
    """The whole page, or (`part`) one section of it at the size it shows, when screenshots are wanted."""
    width = page.viewport_size["width"] if page.viewport_size else 0
    label = f"{name}-{'phone' if width <= 390 else 'desktop'}"
    if part is None:
        save_screenshot(page, "deadline-settings", label)
    elif SCREENSHOTS_WANTED:
        path = ARTIFACTS / "screenshots" / "deadline-settings" / f"{label}.png"
        path.parent.mkdir(parents=True, exist_ok=True)
        page.locator(part).first.screenshot(path=str(path))


def first_turn_at_night(live_server: LiveServer, clock: SettableClock) -> tuple[str, int]:
    runtime: Runtime = live_server.runtime
    clock.set(TURN_BEGINS)
    game_id = runtime.games.create_game(title="Night mine", players=list(PEOPLE), host_email="host@example.org")
    runtime.games.start_game(game_id)
    seat = runtime.games.current_state(game_id).to_act
    assert seat is not None
    return game_id, seat


def test_the_turn_page_shows_the_quiet_hours_in_force_and_a_time_zone_change_keeps_the_deadline(
    page: Page, live_server: LiveServer, clock: SettableClock,
) -> None:
    game_id, seat = first_turn_at_night(live_server, clock)

    page.goto(live_server.link(game_id, seat))
    settle(page)
    expect(page.locator(".deadline")).to_contain_text("Sat 5 Dec, 08:00 UTC")
    page.locator("summary", has_text="Settings").click()
    page.locator("#timezone-select").scroll_into_view_if_needed()
    expect(page.get_by_label("The game's: 22:00-08:00")).to_be_checked()
    accessible(page)
    shoot(page, "turn-page-settings")
    shoot(page, "turn-page-settings-section", "form:has(#timezone-select)")
    page.locator("#timezone-select").select_option("Asia/Tokyo")
    page.get_by_role("button", name="Save quiet hours").click()
    settle(page)

    expect(page.get_by_text("Saved: time zone Asia/Tokyo.", exact=False)).to_be_visible()
    expect(page.locator(".deadline")).to_contain_text("Sat 5 Dec, 17:00 JST")  # 08:00 UTC, as promised
    page.locator("summary", has_text="Settings").click()
    expect(page.get_by_label("The game's: 22:00-08:00")).to_be_checked()


def test_a_deadline_moved_by_the_player_s_own_hours_says_so_on_the_page_and_in_my_games(
    page: Page, live_server: LiveServer, smtp_server: SmtpServer, smtp_deliverer: Deliverer, clock: SettableClock,
) -> None:
    game_id, seat = first_turn_at_night(live_server, clock)
    live_server.runtime.presence.set_timing(game_id, seat, timezone_name=None, quiet_hours="01:00-09:30")

    page.goto(live_server.link(game_id, seat))
    settle(page)
    expect(page.locator(".deadline")).to_contain_text("Moved from Sat 5 Dec, 08:00 UTC")
    accessible(page)
    shoot(page, "turn-page-moved")
    page.goto(live_server.url)
    page.get_by_label("Your email address").first.fill(PEOPLE[seat].email)
    page.get_by_role("button", name="Email me a sign-in link").click()
    link = SIGN_IN.search(delivered_to(smtp_server, smtp_deliverer, PEOPLE[seat].email, "My games")[-1])
    assert link
    page.goto(link.group(0))
    page.get_by_role("button", name="Sign in").click()

    expect(page.locator(".turn-line")).to_contain_text("Moved from Sat 5 Dec, 08:00 UTC")
    accessible(page)
    shoot(page, "my-games-moved")
    page.get_by_role("link", name="Change for all games").click()
    expect(page.get_by_label("My own:", exact=False)).to_be_checked()
    accessible(page)
    shoot(page, "preferences")
