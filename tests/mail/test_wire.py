"""Game email as it goes over the wire: every header as the standards want it, read from the bytes an SMTP server
received (RFC 5322 folding, RFC 2369 and RFC 8058 one-click unsubscribe, Message-IDs as identifiers)."""

from __future__ import annotations

import dataclasses
import email.policy
import random
import re
from collections.abc import Iterator
from email.message import EmailMessage
from email.parser import BytesParser

import pytest

from pbem.chance import SeededChance
from pbem.clock import SettableClock
from pbem.config import Config
from pbem.models import OutboxMessage
from pbem.runtime import Runtime, build_runtime
from tests.support.games import PEOPLE, play_moves
from tests.support.mail import ReceivedMail, SmtpServer, mailbox, smtp_config

# Long enough that every link, Message-ID and reply address is longer than a 78-character line.
LONG_HOST = "the-deepest-mine-under-the-misty-mountains-cold.saboteur-by-email.example.org"
LONG_BASE_URL = f"https://{LONG_HOST}"
LONG_TITLE = "The long and winding tunnel under the misty mountains cold, where the gold may lie"
FOLD = re.compile(r"\r\n(?=[ \t])")
LINE_LIMIT = 998  # RFC 5322, every line
LINE_TARGET = 78  # RFC 5322, every line that can be broken at a space


@pytest.fixture
def wire_runtime(
    config: Config, clock: SettableClock, chance: SeededChance, smtp_server: SmtpServer
) -> Iterator[Runtime]:
    """The application on a long host name, with replies, sending to the test SMTP server."""
    long_named = dataclasses.replace(config, base_url=LONG_BASE_URL)
    built = build_runtime(
        smtp_config(long_named, smtp_server, reply_address=f"table@{LONG_HOST}"), clock=clock, chance=chance
    )
    yield built
    built.close()


def game_mail_sent(runtime: Runtime, smtp_server: SmtpServer) -> list[ReceivedMail]:
    """A game started and one move played (so later emails reply to the first), everything due sent."""
    game_id = runtime.games.create_game(title=LONG_TITLE, players=PEOPLE, host_email="host@example.org")
    runtime.games.start_game(game_id)
    runtime.deliverer().run()
    play_moves(runtime, game_id, 1, random.Random(3))
    runtime.deliverer().run()
    return smtp_server.received


def as_sent(received: ReceivedMail) -> EmailMessage:
    """The message parsed from the bytes the server received; its raw headers keep their folds."""
    message = BytesParser(policy=email.policy.default).parsebytes(received.data)
    assert isinstance(message, EmailMessage)
    return message


def wire_headers(part: EmailMessage) -> dict[str, str]:
    """One part's headers as written on the wire, folds and all (the space after the colon left out)."""
    return {name: raw.rstrip("\r\n") for name, raw in part.raw_items()}


def unfolded(raw: str) -> str:
    return FOLD.sub("", raw)


def intended(row: OutboxMessage) -> dict[str, str]:
    """The headers the outbox wrote for a row, as it meant them."""
    return {"To": row.to_address, "Subject": row.subject or "", "Message-ID": row.message_id, **row.headers}


def test_every_header_unfolds_on_the_wire_to_the_value_the_outbox_wrote(
    wire_runtime: Runtime, smtp_server: SmtpServer
) -> None:
    received = game_mail_sent(wire_runtime, smtp_server)
    rows = {row.message_id: row for row in mailbox(wire_runtime)}

    kinds = set()
    for mail in received:
        headers = wire_headers(as_sent(mail))
        row = rows[unfolded(headers["Message-ID"])]
        kinds.add(row.kind)
        assert {name: unfolded(headers[name]) for name in intended(row)} == intended(row)

    assert {"game_started", "your_turn"} <= kinds
    assert any("In-Reply-To" in rows[mid].headers for mid in rows)


def test_one_click_unsubscribe_goes_out_as_a_bare_link_with_its_one_click_post(
    wire_runtime: Runtime, smtp_server: SmtpServer
) -> None:
    received = game_mail_sent(wire_runtime, smtp_server)

    unsubscribing = [wire_headers(as_sent(mail)) for mail in received if "List-Unsubscribe" in mail.message]
    assert unsubscribing
    bare_link = re.compile(rf"<{re.escape(LONG_BASE_URL)}/mail/unsubscribe/[\w.-]{{40,}}>")
    for headers in unsubscribing:
        assert bare_link.fullmatch(headers["List-Unsubscribe"])
        assert headers["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"


def test_no_header_is_written_as_encoded_words_and_long_ones_fold_only_at_spaces(
    wire_runtime: Runtime, smtp_server: SmtpServer
) -> None:
    received = game_mail_sent(wire_runtime, smtp_server)

    for mail in received:
        for part in as_sent(mail).walk():
            for name, raw in wire_headers(part).items():
                assert "=?" not in raw, f"{name}: {raw}"
                assert all(len(line) <= LINE_LIMIT for line in f"{name}: {raw}".split("\r\n"))
        subject = f"Subject: {wire_headers(as_sent(mail))['Subject']}"
        assert "\r\n " in subject and all(len(line) <= LINE_TARGET for line in subject.split("\r\n"))


def test_the_board_pictures_content_id_on_the_wire_is_the_one_its_html_names(
    wire_runtime: Runtime, smtp_server: SmtpServer
) -> None:
    received = game_mail_sent(wire_runtime, smtp_server)

    [turn, *_] = [as_sent(mail) for mail in received if any(
        part.get_content_type() == "image/png" for part in mail.message.walk())]
    [picture] = [part for part in turn.walk() if part.get_content_type() == "image/png"]
    html = turn.get_body(("html",))
    assert html is not None

    content_id = wire_headers(picture)["Content-ID"]
    message_id = wire_headers(turn)["Message-ID"]
    assert content_id == f"<board.{message_id.strip('<>')}>"
    assert f'src="cid:{content_id.strip("<>")}"' in html.get_content()


def test_a_title_beyond_ascii_still_reads_right_in_the_subject_and_the_reply_name(
    wire_runtime: Runtime, smtp_server: SmtpServer
) -> None:
    game_id = wire_runtime.games.create_game(
        title="Zoë's mine, under the Brocken — the longest title that a host ever gave to a game",
        players=PEOPLE, host_email="host@example.org",
    )
    wire_runtime.games.start_game(game_id)
    wire_runtime.deliverer().run()
    rows = {row.message_id: row for row in mailbox(wire_runtime)}

    for mail in smtp_server.received:
        message = as_sent(mail)
        row = rows[str(message["Message-ID"])]
        assert str(message["Subject"]) == row.subject
        [reply_to] = message["Reply-To"].addresses
        [meant] = email.policy.default.header_factory("Reply-To", row.headers["Reply-To"]).addresses
        assert (reply_to.display_name, reply_to.addr_spec) == (meant.display_name, meant.addr_spec)
        assert "=?utf-8?" in wire_headers(message)["Subject"]  # RFC 2047: words beyond ASCII, encoded
