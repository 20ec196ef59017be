"""A host's game joined by link, in real headless Chromium at a phone's (390x844) and a desktop's (1440x900)
size, with every email through the real SMTP test server (aiosmtpd): create a game with open seats, three
people open the invite in their own browsers, join, confirm through the email that reached the server, the host
starts the game and the first player plays; a nudge with a note arrives with the note; the game-over page's
rematch sends everyone a new link. Each page is checked with axe-core (no serious or critical violation) and
saved as a screenshot when screenshots are wanted (`make screenshots`: artifacts/screenshots/host-invites/)."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import Browser, BrowserContext, Page, expect

from pbem.mail.deliver import Deliverer
from pbem.runtime import Runtime
from tests.support.browser import VIEWPORTS, LiveServer, accessible, delivered_to, save_screenshot, sign_in_page
from tests.support.games import link_token
from tests.support.mail import SmtpServer
from tests.support.web import HOST

pytestmark = pytest.mark.browser

CONFIRM = re.compile(r"https?://\S+/join/confirm/\S+")
SEAT_LINK = re.compile(r"https?://\S+/play/\S+")


class People:
    """Separate browser contexts (no shared cookies), one per person, at the test's size; any script error or
    failed sub-request on their pages fails the test."""

    def __init__(self, browser: Browser, size: str) -> None:
        self._browser = browser
        self._size = size
        self._contexts: list[BrowserContext] = []
        self.errors: list[str] = []

    def page(self, timezone_id: str = "Europe/Paris") -> Page:
        context = self._browser.new_context(
            viewport=VIEWPORTS[self._size], device_scale_factor=1, timezone_id=timezone_id
        )
        self._contexts.append(context)
        opened = context.new_page()
        opened.on("pageerror", lambda error: self.errors.append(str(error)))
        opened.on("response", lambda response: self.errors.append(f"{response.status} {response.url}")
                  if response.status >= 400 and response.request.resource_type != "document" else None)
        return opened

    def close(self) -> None:
        for context in self._contexts:
            context.close()


@pytest.fixture
def people(live_server: LiveServer, browser: Browser, size: str) -> Iterator[People]:
    crowd = People(browser, size)
    try:
        yield crowd
    finally:
        crowd.close()
    assert crowd.errors == [], f"the pages reported errors: {crowd.errors}"


@pytest.fixture
def shoot(size: str) -> Any:
    return lambda page, name: save_screenshot(page, "host-invites", f"{name}-{size}")


def create_open_game(page: Page, shoot: Any, title: str, places: int) -> None:
    page.get_by_role("link", name="New game").click()
    expect(page.get_by_label("Title")).to_be_visible()
    accessible(page)
    shoot(page, "new-game")
    page.get_by_label("Title").fill(title)
    expect(page.get_by_label("One link to share", exact=False)).to_be_checked()
    expect(page.get_by_label("Name of player 1", exact=True)).to_be_hidden()  # the list is for typed players only
    page.get_by_label("Seats for people").fill(str(places))
    page.get_by_role("button", name="Create the game").click()
    expect(page.get_by_text("share the link below")).to_be_visible()


def join_and_confirm(people: People, link: str, name: str, email: str, smtp: SmtpServer, deliverer: Deliverer,
                     shoot: Any, first: bool) -> None:
    page = people.page()
    page.goto(link)
    expect(page.get_by_label("Your time zone")).to_have_value("Europe/Paris")  # offered by the browser
    if first:
        accessible(page)
        shoot(page, "join")
    page.get_by_label("Your name at the table").fill(name)
    page.get_by_label("Your email address").fill(email)
    page.get_by_role("button", name="Ask for a seat").click()
    expect(page.locator("#check-inbox")).to_contain_text(email)
    if first:
        accessible(page)
        shoot(page, "check-inbox")
    [body] = delivered_to(smtp, deliverer, email, "Confirm your place")
    page.goto(CONFIRM.search(body).group(0))
    expect(page.get_by_role("button", name="Confirm my place")).to_be_visible()
    if first:
        accessible(page)
        shoot(page, "confirm")
    page.get_by_role("button", name="Confirm my place").click()
    expect(page.locator("#confirmed")).to_contain_text("is confirmed")
    if first:
        shoot(page, "confirmed")


def test_three_people_join_by_the_link_confirm_by_email_and_the_first_plays(
    page_for_host: Page, live_server: LiveServer, smtp_server: SmtpServer, smtp_deliverer: Deliverer,
    people: People, shoot: Any,
) -> None:
    host = page_for_host
    sign_in_page(host, live_server, smtp_server, smtp_deliverer, HOST)
    create_open_game(host, shoot, "Friday mine", 3)
    accessible(host)
    link = host.locator("#invite-link").input_value()
    friends = [("Ann", "ann@example.org"), ("Ben", "ben@example.org"), ("Cat", "cat@example.org")]

    for index, (name, email) in enumerate(friends):
        join_and_confirm(people, link, name, email, smtp_server, smtp_deliverer, shoot, first=index == 0)

    host.reload()
    expect(host.locator("#joiners h2")).to_have_text("Who has joined (3 of 3 confirmed)")
    shoot(host, "invite-full")
    host.get_by_role("button", name="Start the game").click()
    expect(host.locator("#confirm-step")).to_contain_text("The game is dealt to 3 confirmed people")
    accessible(host)
    shoot(host, "start-asked")
    host.get_by_role("button", name="Yes, start the game").click()
    expect(host.locator("#game-status")).to_have_text("active")
    accessible(host)
    shoot(host, "game")

    runtime: Runtime = live_server.runtime
    game_id = link_token(host.url)
    first = runtime.games.current_state(game_id).to_act
    name, email = friends[first]
    [started] = [body for body in delivered_to(smtp_server, smtp_deliverer, email) if SEAT_LINK.search(body)]
    player = people.page()
    player.goto(SEAT_LINK.search(started).group(0))
    player.locator('#table[data-script="ready"]').wait_for()  # the hand answers taps once the page's script runs
    card = runtime.games.current_state(game_id, first).view["you"]["hand"][0]
    player.locator(f'.hand-card[data-card="{card["id"]}"]').click()
    player.get_by_role("button", name="Discard it (pass)").click()
    player.get_by_role("button", name="Play it").click()
    expect(player.locator(".message.played")).to_contain_text("You passed")
    player.locator('#table[data-script="ready"]').wait_for()

    host.goto(f"{live_server.url}/host")
    expect(host.locator("#games")).to_contain_text("Friday mine")
    accessible(host)
    shoot(host, "dashboard")


def test_a_nudge_with_a_note_arrives_with_the_note(
    page_for_host: Page, live_server: LiveServer, smtp_server: SmtpServer, smtp_deliverer: Deliverer,
    new_game: Any, shoot: Any,
) -> None:
    game_id = new_game()
    runtime: Runtime = live_server.runtime
    seat = runtime.games.current_state(game_id).to_act
    name = runtime.games.current_state(game_id).players[seat]
    host = page_for_host
    sign_in_page(host, live_server, smtp_server, smtp_deliverer, HOST)
    host.goto(f"{live_server.url}/host/games/{game_id}")
    row = host.locator(f"#seat-{seat}")
    row.get_by_text("Turn", exact=True).click()
    row.get_by_label("A note from you (optional)").fill("Your move, the mine is getting cold!")
    shoot(host, "nudge")
    row.get_by_role("button", name="Nudge").click()
    host.get_by_role("button", name="Yes, send the reminder").click()
    expect(host.get_by_text("A reminder is on its way, with your note.")).to_be_visible()
    expect(host.locator("#reminders-sent")).to_have_text("1 (1 from you)")

    [body] = delivered_to(smtp_server, smtp_deliverer, f"{name.lower()}@example.org", "Test mine")[-1:]
    assert "sent you a nudge" in body and "Your move, the mine is getting cold!" in body


def test_a_player_starts_the_rematch_from_the_game_over_page_and_everyone_gets_a_new_link(
    page_for_host: Page, live_server: LiveServer, smtp_server: SmtpServer, smtp_deliverer: Deliverer,
    new_game: Any, shoot: Any,
) -> None:
    game_id = new_game()
    host = page_for_host
    sign_in_page(host, live_server, smtp_server, smtp_deliverer, HOST)
    host.goto(f"{live_server.url}/host/games/{game_id}")
    host.get_by_role("button", name="End game").click()
    host.get_by_role("button", name="Yes, end the game").click()
    expect(host.locator("#rematch")).to_be_visible()
    host.get_by_role("button", name="Let players start it").click()
    host.get_by_role("button", name="Yes, let players start it").click()
    expect(host.get_by_role("button", name="Stop players starting it")).to_be_visible()
    accessible(host)
    shoot(host, "game-over-host")
    before = {email: len(delivered_to(smtp_server, smtp_deliverer, email)) for email in
              ("ann@example.org", "ben@example.org", "cat@example.org")}

    player = host.context.browser.new_context(viewport=host.viewport_size).new_page()
    try:
        player.goto(live_server.link(game_id, 1))
        player.get_by_role("button", name="Start a rematch").click()
        expect(player.locator("#table")).to_be_visible()
        assert "Test mine (rematch)" in player.content()
    finally:
        player.context.close()

    for email, count in before.items():
        letters = delivered_to(smtp_server, smtp_deliverer, email)
        assert len(letters) == count + 1 and SEAT_LINK.search(letters[-1]), email


@pytest.fixture
def page_for_host(live_server: LiveServer, people: People) -> Page:
    return people.page(timezone_id="Europe/London")
