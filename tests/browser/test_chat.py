"""Table talk in real headless Chromium (Debian's package, through Playwright), at a phone's and a desktop's size.

Ben (seat 1) is not to play: anyone may talk at any time. His messages go through the page's form without a
reload; the others' messages and the server's lines arrive through the page's JSON poll (set off here by a
focus event, as when he comes back to the tab, instead of waiting for the timer). Screenshots land in
artifacts/screenshots/.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Page, expect
from sqlalchemy import select

import engine
from pbem.models import Game, Seat
from tests.support.browser import LiveServer
from tests.support.games import store_game

pytestmark = pytest.mark.browser

Shoot = Callable[[Any, str], Path]


@pytest.fixture
def game(live_server: LiveServer) -> str:
    return store_game(live_server.runtime, engine.new_game(["Ann", "Ben", "Cat"], seed=1), title="Friday mine")


def open_chat(page: Page, live_server: LiveServer, game_id: str, seat: int) -> None:
    page.goto(live_server.link(game_id, seat))
    expect(page.locator("#chat-form")).to_be_visible()


def send(page: Page, text: str) -> None:
    page.locator("#chat-text").fill(text)
    page.get_by_role("button", name="Send").click()


def read_upto(live_server: LiveServer, game_id: str, seat: int) -> int | None:
    with live_server.runtime.db.read() as session:
        return session.scalar(
            select(Seat.chat_read_upto).join(Game).where(Game.public_id == game_id, Seat.seat_index == seat)
        )


def test_a_message_sent_from_the_page_appears_at_once_without_a_reload(
    page: Page, live_server: LiveServer, game: str, screenshots: Shoot
) -> None:
    open_chat(page, live_server, game, 1)
    expect(page.locator(".chat-empty")).to_be_visible()
    page.evaluate("window.pbemMarker = 'still the same page'")

    with page.expect_response(lambda response: response.url.endswith("/chat/read")):  # sent, shown, reported
        send(page, "Ann went straight for the lamp.\nSuspicious, no? <img src=x> https://example.org/pic.png")

    mine = page.locator(".chat-line.chat-you")
    expect(mine.locator(".chat-name")).to_have_text("Ben (you)")
    expect(mine.locator(".chat-text")).to_have_text(
        "Ann went straight for the lamp.\nSuspicious, no? <img src=x> https://example.org/pic.png"
    )
    expect(page.locator("#chat-text")).to_have_value("")
    expect(page.locator(".chat-empty")).to_be_hidden()
    assert page.evaluate("window.pbemMarker") == "still the same page"
    assert page.locator("#chat img, #chat a[href*='example.org']").count() == 0  # text, not markup or links
    [line] = live_server.runtime.chat.messages(game).lines
    assert (line.name, line.source) == ("Ben", "page")
    screenshots(page, "sent")


def test_others_messages_and_server_lines_arrive_when_the_page_comes_back_into_view(
    page: Page, live_server: LiveServer, game: str, screenshots: Shoot
) -> None:
    runtime = live_server.runtime
    runtime.chat.post(game, 0, "Good morning, miners.")
    open_chat(page, live_server, game, 1)
    expect(page.locator(".chat-line")).to_have_count(1)

    runtime.chat.post(game, 2, "Who broke my pickaxe?")
    with runtime.db.write() as session:
        row = session.scalars(select(Game).where(Game.public_id == game)).one()
        runtime.chat.post_system_line(session, row, "The host paused the game.", "pause")
    newest = runtime.chat.messages(game).lines[-1].id
    with page.expect_response(
        lambda response: response.url.endswith("/chat/read") and f"upto={newest}" in (response.request.post_data or "")
    ):
        page.evaluate("window.dispatchEvent(new Event('focus'))")

    expect(page.locator(".chat-line")).to_have_count(3)
    expect(page.locator(".chat-line").nth(1).locator(".chat-name")).to_have_text("Cat")
    system = page.locator(".chat-line.chat-system")
    expect(system.locator(".chat-text")).to_have_text("The host paused the game.")
    expect(system.locator(".chat-name")).to_have_count(0)
    expect(page.locator("#chat-messages li").last).to_have_attribute("data-id", str(newest))
    assert read_upto(live_server, game, 1) == newest
    screenshots(page, "conversation")


def test_the_page_reports_what_it_showed_so_emails_skip_it(page: Page, live_server: LiveServer, game: str) -> None:
    runtime = live_server.runtime
    for text in ("One.", "Two."):
        runtime.chat.post(game, 0, text)
    newest = runtime.chat.messages(game).lines[-1].id

    with page.expect_response(lambda response: response.url.endswith("/chat/read")) as reported:
        open_chat(page, live_server, game, 2)

    expect(page.locator(".chat-line")).to_have_count(2)
    assert reported.value.status == 204
    assert read_upto(live_server, game, 2) == newest


def test_a_refused_message_is_explained_and_kept_in_the_box(page: Page, live_server: LiveServer, game: str) -> None:
    with page.expect_response(lambda response: response.url.endswith("/seen")):  # the turn page's own report
        open_chat(page, live_server, game, 1)
    page.evaluate("document.getElementById('chat-text').removeAttribute('required')")

    send(page, "   ")

    expect(page.locator("#chat-problem")).to_have_text("Write something first.")
    assert live_server.runtime.chat.messages(game).lines == []


def test_earlier_messages_are_a_link_away(page: Page, live_server: LiveServer, game: str, screenshots: Shoot) -> None:
    runtime = live_server.runtime
    with runtime.db.write() as session:
        row = session.scalars(select(Game).where(Game.public_id == game)).one()
        for n in range(45):
            runtime.chat.post_system_line(session, row, f"Line {n} of a long night.", "test")
    open_chat(page, live_server, game, 1)
    expect(page.locator(".chat-line")).to_have_count(40)

    page.get_by_role("link", name="Earlier messages").click()

    expect(page.locator("h1")).to_have_text("Table talk, earlier")
    expect(page.locator(".chat-line")).to_have_count(5)
    expect(page.locator(".chat-line").first.locator(".chat-text")).to_have_text("Line 0 of a long night.")
    screenshots(page, "earlier")
    with page.expect_response(lambda response: response.url.endswith("/chat/read")) as reported:
        page.get_by_role("link", name="Back to the table").click()
    expect(page.locator("#chat-form")).to_be_visible()
    assert reported.value.status == 204  # back at the table, the page reports what it shows
