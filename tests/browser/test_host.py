"""The host's pages in real headless Chromium, at a phone's and a desktop's size: sign in through the host
link that arrives at a real SMTP server (aiosmtpd), create a 4-player game with the form, replace a player
and find the handover email at the SMTP server, pause and resume a game, rotate a seat's link; each host action asks
once, on a page of its own, before it is done."""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from pbem.mail.deliver import Deliverer
from pbem.words.roles import role_name
from tests.support.browser import LiveServer, accessible, delivered_to, sign_in_page
from tests.support.games import link_token
from tests.support.mail import SmtpServer
from tests.support.web import HOST

pytestmark = pytest.mark.browser

Shoot = Callable[[Any, str], Path]
LINK = re.compile(r"https?://\S+/host/sign-in/\S+")


def test_signing_in_by_the_emailed_link_and_creating_a_four_player_game(
    page: Page, live_server: LiveServer, smtp_server: SmtpServer, smtp_deliverer: Deliverer, screenshots: Shoot
) -> None:
    sign_in_page(page, live_server, smtp_server, smtp_deliverer, HOST)
    page.get_by_role("link", name="New game").click()
    page.get_by_label("Title").fill("Browser mine")
    page.get_by_label("I type every player", exact=False).check()
    for index, name in enumerate(["Ann", "Ben", "Cat", "Dan"]):
        page.get_by_label(f"Name of player {index + 1}", exact=True).fill(name)
        page.get_by_label(f"Email of player {index + 1}", exact=True).fill(f"{name.lower()}@example.org")
    page.get_by_label("Email of player 3", exact=True).fill("cat@example")
    page.get_by_role("button", name="Create the game").click()
    expect(page.locator("#error-email_2")).to_contain_text("The part after the @ needs a dot")  # nothing created
    expect(page.get_by_label("Email of player 3", exact=True)).to_be_focused()  # the first mistake, in view
    screenshots(page, "new-game-mistake")
    page.get_by_label("Email of player 3", exact=True).fill("cat@example.org")
    page.get_by_role("button", name="Create the game").click()
    expect(page.get_by_text("The game has started")).to_be_visible()
    expect(page.locator("#game-status")).to_have_text("active")
    screenshots(page, "game")
    for name in ["ann", "ben", "cat", "dan"]:
        assert delivered_to(smtp_server, smtp_deliverer, f"{name}@example.org"), f"{name} got no link"


def test_replacing_a_player_sends_the_handover_email(
    page: Page, live_server: LiveServer, smtp_server: SmtpServer, smtp_deliverer: Deliverer,
    new_game: Callable[..., str], screenshots: Shoot,
) -> None:
    game_id = new_game()
    sign_in_page(page, live_server, smtp_server, smtp_deliverer, HOST)
    page.get_by_role("link", name="Test mine", exact=True).click()
    seat = page.locator("#seat-1")
    seat.get_by_text("Replace player").click()
    seat.get_by_label("New name").fill("Eve")
    seat.get_by_label("New email").fill("eve@example.org")
    seat.get_by_role("button", name="Replace").click()
    expect(page.locator("#confirm-title")).to_have_text("Hand Ben's seat to Eve?")
    page.get_by_role("button", name="Yes, replace the player").click()
    expect(page.get_by_text("The seat has a new player")).to_be_visible()
    expect(page.locator("#seat-1")).to_contain_text("Eve")
    screenshots(page, "replaced")

    bodies = delivered_to(smtp_server, smtp_deliverer, "eve@example.org")
    assert len(bodies) == 1
    role = role_name(live_server.runtime.games.current_state(game_id, 1).view["you"]["role"])
    assert "handed you the seat that Ben played" in bodies[0] and f"Your role: {role}" in bodies[0]


def test_rotating_a_link_from_the_game_page(
    page: Page, live_server: LiveServer, smtp_server: SmtpServer, smtp_deliverer: Deliverer,
    new_game: Callable[..., str],
) -> None:
    game_id = new_game()
    old = live_server.link(game_id, 0)
    sign_in_page(page, live_server, smtp_server, smtp_deliverer, HOST)
    page.goto(f"{live_server.url}/host/games/{game_id}")
    seat = page.locator("#seat-0")
    seat.get_by_text("Links and address").click()
    seat.get_by_role("button", name="Rotate link").click()
    page.get_by_role("button", name="Yes, send a new link").click()
    expect(page.get_by_text("old links no longer work")).to_be_visible()
    assert any("renewed your link" in body for body in delivered_to(smtp_server, smtp_deliverer, "ann@example.org"))
    token = link_token(old)
    assert page.request.get(f"{live_server.url}/play/{token}").status == 410


def test_pausing_and_resuming_a_game_from_its_page(
    page: Page, live_server: LiveServer, smtp_server: SmtpServer, smtp_deliverer: Deliverer,
    new_game: Callable[..., str], screenshots: Shoot,
) -> None:
    game_id = new_game()
    sign_in_page(page, live_server, smtp_server, smtp_deliverer, HOST)
    page.goto(f"{live_server.url}/host/games/{game_id}")
    page.get_by_role("button", name="Pause", exact=True).click()
    expect(page.locator("#confirm-title")).to_have_text("Pause the game?")
    screenshots(page, "pause-asked")
    page.get_by_role("button", name="Yes, pause the game").click()
    expect(page.locator("#game-status")).to_have_text("active (paused)")
    assert live_server.runtime.turn_controls.status(game_id).paused
    screenshots(page, "paused")
    page.get_by_role("button", name="Resume", exact=True).click()
    page.get_by_role("button", name="Yes, resume the game").click()
    expect(page.locator("#game-status")).to_have_text("active")
    expect(page.locator("#chat")).to_contain_text("The host resumed the game.")


def test_a_first_click_on_a_host_action_asks_once_and_cancel_leaves_the_game_alone(
    page: Page, live_server: LiveServer, smtp_server: SmtpServer, smtp_deliverer: Deliverer,
    new_game: Callable[..., str], screenshots: Shoot,
) -> None:
    game_id = new_game()
    sign_in_page(page, live_server, smtp_server, smtp_deliverer, HOST)
    page.goto(f"{live_server.url}/host/games/{game_id}")
    screenshots(page, "game-page")

    page.get_by_role("button", name="End game").click()
    expect(page.locator("#confirm-title")).to_have_text("End the game now?")
    expect(page.locator("#confirm-step")).to_contain_text("The game ends with the standings as they are")
    accessible(page)
    screenshots(page, "end-asked")
    page.get_by_role("link", name="Cancel").click()

    expect(page.locator("#game-status")).to_have_text("active")
    assert live_server.runtime.games.current_state(game_id).status == "active"
    page.get_by_role("button", name="End game").click()
    page.get_by_role("button", name="Yes, end the game").click()
    expect(page.get_by_text("The game is over, with the standings as they were.")).to_be_visible()
    expect(page.locator("#game-status")).to_have_text("finished")
