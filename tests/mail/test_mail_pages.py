"""The mail pages: one-click unsubscribe (RFC 8058) and, in development only, the mail catcher at /dev/mail."""

from __future__ import annotations

import base64
import dataclasses
import random
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from flask.testing import FlaskClient
from playwright.sync_api import Page
from sqlalchemy import select, update

from pbem import create_app
from pbem.chance import SeededChance
from pbem.clock import SettableClock
from pbem.config import Config
from pbem.mail.deliver import Deliverer
from pbem.models import OutboxMessage, Seat
from pbem.runtime import Runtime, board_painter
from pbem.service.turns.values import PlayerSpec
from pbem.web.app_context import EXTENSION_KEY
from pbem.web.security import CONTENT_SECURITY_POLICY
from tests.support.browser import LiveServer
from tests.support.database import dump
from tests.support.games import Arranged, NewGame, link_token, play_moves
from tests.support.mail import SmtpServer, mailbox, unsubscribe_path
from tests.support.tables import TO_THE_GOALS, arrange, card_in_hand


def notify_mode(runtime: Runtime, name: str) -> str:
    with runtime.db.read() as session:
        return session.scalars(select(Seat.notify_mode).where(Seat.display_name == name)).one()


# -- one-click unsubscribe -----------------------------------------------------------------------


def test_opening_the_unsubscribe_link_only_asks_and_changes_nothing(
    client: FlaskClient, runtime: Runtime, new_game: NewGame
) -> None:
    new_game()
    path = unsubscribe_path(mailbox(runtime, "game_started", to="ben@example.org")[0])
    before = dump(runtime.db)

    for method in (client.get, client.head):
        response = method(path)
        assert response.status_code == 200

    page = client.get(path).get_data(as_text=True)
    assert "Ben" in page and "Test mine" in page and "Switch to a daily digest" in page and 'method="post"' in page
    assert dump(runtime.db) == before


def test_the_one_click_post_switches_the_seat_to_the_daily_digest_and_it_stays_in_the_game(
    client: FlaskClient, runtime: Runtime, new_game: NewGame
) -> None:
    game_id = new_game()
    path = unsubscribe_path(mailbox(runtime, "game_started", to="ben@example.org")[0])

    response = client.post(path, data={"List-Unsubscribe": "One-Click"})  # what a mail provider sends

    assert response.status_code == 200 and "one daily digest" in response.get_data(as_text=True)
    assert notify_mode(runtime, "Ben") == "digest" and notify_mode(runtime, "Ann") == "turn"
    play_moves(runtime, game_id, 6, random.Random(2))
    assert "ben@example.org" not in {row.to_address for row in mailbox(runtime, "your_turn")}
    ben_link = link_token(runtime.games.invites(game_id)[1].link)
    assert runtime.games.resolve_link(ben_link).seat == 1  # still seated, still playing
    assert client.post(path).status_code == 200 and notify_mode(runtime, "Ben") == "digest"  # twice: the same


def test_a_tampered_unsubscribe_link_is_refused_and_changes_nothing(
    client: FlaskClient, runtime: Runtime, new_game: NewGame
) -> None:
    new_game()
    path = unsubscribe_path(mailbox(runtime, "game_started", to="ben@example.org")[0])
    before = dump(runtime.db)

    for forged in (path[:-2] + ("AA" if not path.endswith("AA") else "BB"), "/mail/unsubscribe/not-a-token"):
        assert client.post(forged).status_code == 403
        assert client.get(forged).status_code == 403

    assert dump(runtime.db) == before


def test_the_link_stops_working_when_the_seat_gets_a_new_address(
    client: FlaskClient, runtime: Runtime, new_game: NewGame
) -> None:
    new_game()
    path = unsubscribe_path(mailbox(runtime, "game_started", to="ben@example.org")[0])
    with runtime.db.write() as session:
        session.execute(update(Seat).where(Seat.display_name == "Ben").values(email="ben@new.example"))

    assert client.post(path).status_code == 403
    assert notify_mode(runtime, "Ben") == "turn"


def test_an_unsubscribe_link_is_signed_for_its_purpose_only(
    client: FlaskClient, runtime: Runtime, new_game: NewGame
) -> None:
    game_id = new_game()
    seat_link = link_token(runtime.games.invites(game_id)[1].link)

    assert client.post(f"/mail/unsubscribe/{seat_link}").status_code == 403
    assert notify_mode(runtime, "Ben") == "turn"


# -- the mail catcher ----------------------------------------------------------------------------


def test_the_catcher_lists_every_email_and_shows_each_with_its_headers_text_and_clickable_links(
    client: FlaskClient, runtime: Runtime, new_game: NewGame
) -> None:
    new_game()
    runtime.deliverer().run()
    rows = mailbox(runtime)

    listing = client.get("/dev/mail")
    assert listing.status_code == 200
    page = listing.get_data(as_text=True)
    assert all(row.to_address in page and f"/dev/mail/{row.id}" in page for row in rows)
    assert listing.headers["Content-Security-Policy"] == CONTENT_SECURITY_POLICY

    shown = client.get(f"/dev/mail/{rows[1].id}").get_data(as_text=True)
    link = re.search(r"https://pbem\.test/play/[^\s<]+", rows[1].body_text)
    assert link is not None and f'<a href="{link.group(0)}"' in shown
    assert "Message-ID" in shown and rows[1].message_id.replace("<", "&lt;").replace(">", "&gt;") in shown
    assert "List-Unsubscribe-Post" in shown and "ben@example.org" in shown
    assert f'<iframe src="/dev/mail/{rows[1].id}/html" sandbox="allow-popups allow-popups-to-escape-sandbox"' in shown


def test_the_catcher_shows_your_demo_game_link_above_the_mail_and_no_link_for_computer_seats(
    client: FlaskClient, runtime: Runtime, new_game: NewGame
) -> None:
    computers = [PlayerSpec("Bot 1", is_bot=True), PlayerSpec("Bot 2", is_bot=True)]
    demo = new_game([PlayerSpec("Alex", "you@localhost"), *computers], is_demo=True)
    new_game()  # not a demo: its links stay in its players' emails
    you, *bots = runtime.games.invites(demo)

    page = client.get("/dev/mail").get_data(as_text=True)

    banner = page[page.index("Your demo game") : page.index("</p>", page.index("Your demo game"))]
    assert f'<a href="{you.link}">' in banner
    assert all(bot.link not in page for bot in bots) and page.count("Your demo game") == 1


def test_the_html_part_is_served_in_a_sandbox_that_runs_no_script(
    client: FlaskClient, runtime: Runtime, new_game: NewGame
) -> None:
    new_game()
    [row, *_] = mailbox(runtime)

    response = client.get(f"/dev/mail/{row.id}/html")

    policy = response.headers["Content-Security-Policy"]
    assert policy.startswith("sandbox allow-popups allow-popups-to-escape-sandbox;")
    assert "allow-scripts" not in policy and "allow-same-origin" not in policy and "default-src 'none'" in policy
    assert "frame-ancestors 'self'" in policy and response.headers["X-Frame-Options"] == "SAMEORIGIN"
    body = response.get_data(as_text=True)
    assert '<base target="_blank">' in body and row.body_html.split("<head>")[1].split("</head>")[0] in body


def test_the_source_of_an_email_is_what_smtp_would_carry(
    client: FlaskClient, runtime: Runtime, new_game: NewGame
) -> None:
    new_game()
    [row, *_] = mailbox(runtime)

    source = client.get(f"/dev/mail/{row.id}.eml").get_data(as_text=True)

    assert f"Message-ID: {row.message_id}\r\n" in source and "Content-Type: multipart/alternative" in source


def a_turn_email_with_its_board(runtime: Runtime, arranged_game: Arranged) -> tuple[OutboxMessage, bytes]:
    """Ann builds a card; Bo's turn email, written, and the board picture it carries."""
    state = arrange(4, board=TO_THE_GOALS, hands={0: ["straight_ew"]}, turn=0)
    game_id = arranged_game(state)
    move = {"type": "play", "card": card_in_hand(state, 0, "straight_ew"), "x": 7, "y": 0, "rotated": False}
    runtime.games.submit_move(game_id, 0, move, runtime.games.current_state(game_id).seq, "m-0")
    [turn] = mailbox(runtime, "your_turn")
    return turn, board_painter().public_board(runtime.games.engine_state(game_id)[0])


def test_the_catcher_shows_the_turn_emails_board_picture_from_the_message_itself(
    client: FlaskClient, runtime: Runtime, arranged_game: Arranged
) -> None:
    turn, picture = a_turn_email_with_its_board(runtime, arranged_game)
    assert "cid:board." in turn.body_html

    response = client.get(f"/dev/mail/{turn.id}/html")

    body = response.get_data(as_text=True)
    [shown] = re.findall(r'<img src="data:image/png;base64,([^"]+)"', body)
    assert base64.b64decode(shown) == picture and "cid:" not in body
    assert "img-src data:" in response.headers["Content-Security-Policy"]


@pytest.mark.browser
def test_in_chromium_the_catcher_shows_the_turn_email_with_its_board_picture(
    live_server: LiveServer, runtime: Runtime, arranged_game: Arranged, page: Page,
    screenshots: Callable[[Any, str], Path | None], size: str,
) -> None:
    turn, _ = a_turn_email_with_its_board(runtime, arranged_game)

    page.goto(f"{live_server.url}/dev/mail/{turn.id}")

    picture = page.frame_locator("iframe").locator("img[alt^='The board']")
    picture.wait_for()
    assert picture.evaluate("image => image.complete && image.naturalWidth > 0")
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")  # long headers wrap
    screenshots(page, f"catcher-turn-email-{size}")


def test_the_catchers_source_of_a_turn_email_is_the_bytes_smtp_carried(
    client: FlaskClient, smtp_runtime: Runtime, smtp_deliverer: Deliverer, smtp_server: SmtpServer,
    arranged_game: Arranged,
) -> None:
    turn, _ = a_turn_email_with_its_board(smtp_runtime, arranged_game)
    smtp_deliverer.run()
    [carried] = [mail for mail in smtp_server.received if turn.to_address in mail.rcpt_tos]

    source = client.get(f"/dev/mail/{turn.id}.eml").get_data()

    assert source == carried.data
    assert any(part.get_content_type() == "image/png" for part in carried.message.walk())


def test_a_turn_email_not_written_yet_is_listed_and_says_so(
    client: FlaskClient, runtime: Runtime, new_game: NewGame
) -> None:
    play_moves(runtime, new_game(), 1, random.Random(5))
    with runtime.db.read() as session:
        waiting = session.scalars(select(OutboxMessage).where(OutboxMessage.kind == "your_turn")).one()

    listing = client.get("/dev/mail").get_data(as_text=True)
    shown = client.get(f"/dev/mail/{waiting.id}")

    assert not waiting.composed and "(written when it goes out)" in listing
    assert shown.status_code == 200 and "Not written yet" in shown.get_data(as_text=True)
    assert client.get(f"/dev/mail/{waiting.id}.eml").status_code == 404
    assert client.get(f"/dev/mail/{waiting.id}/html").status_code == 404


def test_an_unknown_email_is_404(client: FlaskClient) -> None:
    assert client.get("/dev/mail/999").status_code == 404


def test_the_catcher_does_not_exist_in_production(
    config: Config, clock: SettableClock, chance: SeededChance, new_game: NewGame
) -> None:
    new_game()
    app = create_app(dataclasses.replace(config, mode="production"), clock=clock, chance=chance)
    try:
        client = app.test_client()
        for path in ("/dev/mail", "/dev/mail/1", "/dev/mail/1/html", "/dev/mail/1.eml"):
            assert client.get(path).status_code == 404
    finally:
        app.extensions[EXTENSION_KEY].close()
