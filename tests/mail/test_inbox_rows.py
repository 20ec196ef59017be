"""What one row of an inbox list shows for each email of a game: the sender's name says what the email wants, the
subject stays the game's own, so every client keeps the game in one conversation (docs/email.md).

The rule: a game's email is from "<what it wants> - <the configured name>" at the configured address, its subject is
"<title> - Saboteur", with "Re: " before it after the first email; once "Re: " is taken off, every email of a game to
one mailbox has the same subject, as Gmail's threading wants.
"""

from __future__ import annotations

import re
from datetime import UTC, datetime
from email.headerregistry import Address
from email.message import EmailMessage

from pbem.clock import SettableClock
from pbem.mail.deliver import Deliverer
from pbem.mail.message import SENDER_LABELS, OutgoingMail, build_message
from pbem.runtime import Runtime
from pbem.service.emails import LETTERS, OwnLetter
from tests.support.games import Arranged, NewGame
from tests.support.inbox import a_turn_waited_for, ann_reaches_the_gold
from tests.support.mail import ReceivedMail, SmtpServer, mailbox

# Emails about no game, or outside a game's conversation: each has a subject of its own, which says what it is.
OWN_SUBJECT = {kind for kind, letter in LETTERS.items() if isinstance(letter, OwnLetter)}
BASE_SUBJECT = "Test mine - Saboteur"


def base_subject(subject: str) -> str:
    """The subject as Gmail, Outlook and Apple Mail compare it: without the "Re: " of a reply."""
    return re.sub(r"^(re:\s*)+", "", subject, flags=re.IGNORECASE)


def sender(message: EmailMessage) -> Address:
    [address] = message["From"].addresses
    return address


def received_by(server: SmtpServer, address: str) -> list[ReceivedMail]:
    return [mail for mail in server.received if mail.rcpt_tos == [address]]


def first_of_each_kind(runtime: Runtime, server: SmtpServer, address: str) -> dict[str, EmailMessage]:
    """The first message of each kind that reached `address`, as the SMTP server received it."""
    kinds = {row.message_id: row.kind for row in mailbox(runtime, to=address)}
    firsts: dict[str, EmailMessage] = {}
    for mail in received_by(server, address):
        firsts.setdefault(kinds[mail.message["Message-ID"]], mail.message)
    return firsts


def test_each_kind_of_email_to_a_player_has_its_own_sender_name_under_the_games_one_subject(
    runtime: Runtime, new_game: NewGame, arranged_game: Arranged, clock: SettableClock,
    smtp_deliverer: Deliverer, smtp_server: SmtpServer,
) -> None:
    _, address = a_turn_waited_for(runtime, new_game, clock, smtp_deliverer)
    ann_reaches_the_gold(runtime, arranged_game, last_round=False)
    ann_reaches_the_gold(runtime, arranged_game, last_round=True)
    smtp_deliverer.run()
    arrived = first_of_each_kind(runtime, smtp_server, address)
    arrived |= {kind: message for kind, message in first_of_each_kind(runtime, smtp_server, "ann@example.org").items()
                if kind in ("round_digest", "game_over")}

    names = {kind: sender(message).display_name for kind, message in arrived.items()}
    assert names == {
        "game_started": "Game started - Saboteur",
        "your_turn": "Your turn - Saboteur",
        "turn_reminder": "Reminder - Saboteur",
        "nudge": "Host's nudge - Saboteur",
        "deadline_warning": "Time nearly up - Saboteur",
        "round_digest": "Round over - Saboteur",
        "game_over": "Game over - Saboteur",
    }
    rows = {(sender(message).display_name, message["Subject"]) for message in arrived.values()}
    assert len(rows) == len(arrived)
    assert {sender(message).addr_spec for message in arrived.values()} == {"saboteur@localhost"}
    assert {base_subject(message["Subject"]) for message in arrived.values()} == {BASE_SUBJECT}


def test_what_the_sender_name_says_differs_within_the_first_fifteen_characters() -> None:
    # neomutt's index shows fifteen characters of the sender's name (%-15.15L); the label comes first.
    shown = [f"{label} - Saboteur"[:15] for label in SENDER_LABELS.values()]

    assert len(set(shown)) == len(set(SENDER_LABELS.values()))


def test_every_email_of_a_waiting_turn_keeps_the_conversation_of_the_first(
    runtime: Runtime, new_game: NewGame, clock: SettableClock, smtp_deliverer: Deliverer, smtp_server: SmtpServer
) -> None:
    _, address = a_turn_waited_for(runtime, new_game, clock, smtp_deliverer)
    [root, *later] = [mail.message for mail in received_by(smtp_server, address)]

    assert [sender(message).display_name.removesuffix(" - Saboteur") for message in [root, *later]] == [
        "Game started", "Your turn", "Reminder", "Host's nudge", "Reminder", "Time nearly up",
    ]
    assert root["Subject"] == BASE_SUBJECT and root["In-Reply-To"] is None
    for message in later:
        assert message["Subject"] == f"Re: {BASE_SUBJECT}"
        assert message["In-Reply-To"] == message["References"] == root["Message-ID"]
        assert message["Thread-Topic"] == BASE_SUBJECT


def test_every_kind_says_what_it_wants_by_its_sender_name_or_by_a_subject_of_its_own() -> None:
    assert set(LETTERS) == set(SENDER_LABELS) | OWN_SUBJECT
    assert not set(SENDER_LABELS) & OWN_SUBJECT


def test_an_email_with_a_subject_of_its_own_keeps_the_configured_sender() -> None:
    message = build_message(outgoing("player_sign_in"), "Saboteur <play@pbem.test>")

    assert message["From"] == "Saboteur <play@pbem.test>"


def test_a_configured_address_without_a_name_is_labelled_as_the_game() -> None:
    message = build_message(outgoing("your_turn"), "play@pbem.test")

    assert sender(message) == Address("Your turn - Saboteur", addr_spec="play@pbem.test")


def outgoing(kind: str) -> OutgoingMail:
    return OutgoingMail(
        id=1, game_id=None, seat_id=None, kind=kind, to_address="ann@example.org", message_id="<1@pbem.test>",
        subject="Subject", body_text="Text\n", body_html="<p>Text</p>", headers={}, attempts=0,
        created_at=datetime(2026, 1, 5, tzinfo=UTC),
    )
