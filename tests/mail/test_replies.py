"""Replying to a game email lands in that game's chat as that seat: through the SMTP listener (aiosmtpd, our own)
and through a real IMAP server on loopback (Dovecot) polled with imaplib. Forged, stale and foreign replies,
auto-replies and oversized mail are refused and change nothing; the same message twice posts once. Nobody but a
seat's own address is ever answered, so a forged sender cannot turn the reply address into a mailer.

Players reply to the address their email carried: tests take it from the Reply-To of the queued emails.
"""

from __future__ import annotations

import dataclasses
import smtplib
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from datetime import timedelta
from email.message import EmailMessage
from email.policy import SMTP
from email.utils import format_datetime, make_msgid
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from sqlalchemy import select, update

from pbem.cli import main
from pbem.clock import SettableClock
from pbem.config import ImapConfig
from pbem.mail.imap_poll import ImapPoller, MailboxUnavailable
from pbem.models import ChatMessage, Game, InboundMail, OutboxMessage, Seat
from pbem.runtime import Runtime
from pbem.scheduler.jobs import jobs
from pbem.service.letters.chat_mail import queue_due_chat_emails
from pbem.service.talk.chat import MAX_LENGTH, PER_MINUTE
from pbem.service.talk.replies import BOUNCES_PER_ADDRESS
from tests.support.database import START, TEST_SECRET, dump
from tests.support.games import PEOPLE
from tests.support.imap import REPLY_ADDRESS, ImapServer
from tests.support.mail import flat, free_port, mailbox

SAID = "I saw Cat take the lamp. Just saying."
QUOTE = "\n\nOn Mon, Jan 5, 2026 at 9:00 AM Saboteur <{to}> wrote:\n> Hello Ben,\n> It is your turn.\n"
# What a refusal may change: the record of the message, a bounce in the outbox, the bounce rate limit.
BOOKKEEPING = {"inbound_mail", "outbox", "rate_limit_hits"}


@pytest.fixture
def games(reply_runtime: Runtime) -> tuple[str, str]:
    """Two running games with the same three people; replies must find the right one."""
    made = []
    for title in ("Monday mine", "Friday mine"):
        game_id = reply_runtime.games.create_game(title=title, players=PEOPLE, host_email="host@example.org")
        reply_runtime.games.start_game(game_id)
        made.append(game_id)
    return made[0], made[1]


def reply_address(runtime: Runtime, game_id: str, seat: int) -> str:
    """The Reply-To of the newest email that seat got about that game."""
    with runtime.db.read() as session:
        row = session.scalars(
            select(OutboxMessage)
            .join(Game, Game.id == OutboxMessage.game_id)
            .join(Seat, Seat.id == OutboxMessage.seat_id)
            .where(Game.public_id == game_id, Seat.seat_index == seat)
            .order_by(OutboxMessage.id.desc())
        ).first()
    assert row is not None
    return row.headers["Reply-To"].rsplit("<", 1)[1].rstrip(">")


def reply(
    to: str,
    sender: str = "ben@example.org",
    text: str = SAID,
    *,
    message_id: str | None = None,
    headers: dict[str, str] | None = None,
    attachment: bytes | None = None,
    subject: str = "Re: Friday mine - Saboteur",
) -> bytes:
    message = EmailMessage()
    if sender:
        message["From"] = f"Ben <{sender}>"
    message["To"] = to
    message["Subject"] = subject
    message["Date"] = format_datetime(START)
    message["Message-ID"] = message_id or make_msgid(domain="example.org")
    for name, value in (headers or {}).items():
        message[name] = value
    message.set_content(text + QUOTE.format(to=to))
    if attachment is not None:
        message.add_attachment(attachment, maintype="image", subtype="png", filename="lamp.png")
    return message.as_bytes(policy=SMTP)  # CRLF line ends, as mail travels


def chat(runtime: Runtime, game_id: str) -> list[tuple[str | None, str, str]]:
    return [(line.name, line.text, line.source) for line in runtime.chat.messages(game_id).lines]


def bounces(runtime: Runtime) -> list[OutboxMessage]:
    return mailbox(runtime, "reply_bounce")


def changed_tables(before: dict[str, Any], after: dict[str, Any]) -> set[str]:
    return {table for table in after if before[table] != after[table]}


# -- the two ways in ---------------------------------------------------------------------------------------------


@dataclass
class Listener:
    host: str
    port: int

    def send(self, raw: bytes, mail_from: str, to: str) -> None:
        with smtplib.SMTP(self.host, self.port, timeout=10) as client:
            client.sendmail(mail_from, [to], raw)


@pytest.fixture
def listener(reply_runtime: Runtime) -> Iterator[Listener]:
    """`pbem mail listen`'s server on a free loopback port."""
    port = free_port()
    controller = reply_runtime.listener("127.0.0.1", port)
    controller.start()
    try:
        yield Listener("127.0.0.1", port)
    finally:
        controller.stop()


def imap_poller(runtime: Runtime, server: ImapServer) -> ImapPoller:
    settings = ImapConfig(host=server.host, port=server.port, tls="none", user=server.user, password=server.password)
    return ImapPoller(settings, runtime.inbound())


Deliver = Callable[[bytes, str, str], None]


@pytest.fixture(params=["smtp", "imap"])
def deliver(request: pytest.FixtureRequest, reply_runtime: Runtime) -> Deliver:
    """Either way in: sent to our SMTP listener, or put in the IMAP mailbox and polled."""
    if request.param == "smtp":
        server: Listener = request.getfixturevalue("listener")
        return server.send
    imap: ImapServer = request.getfixturevalue("imap_server")

    def through_imap(raw: bytes, mail_from: str, to: str) -> None:
        imap.deliver(raw)
        imap_poller(reply_runtime, imap).poll()
        assert imap.count() == 0  # every handled message leaves the mailbox

    return through_imap


def test_a_reply_through_the_smtp_listener_lands_in_the_right_game_as_the_right_seat(
    reply_runtime: Runtime, games: tuple[str, str], listener: Listener
) -> None:
    monday, friday = games
    to = reply_address(reply_runtime, friday, 1)

    listener.send(reply(to), "ben@example.org", to)

    assert chat(reply_runtime, friday) == [("Ben", SAID, "email")]
    assert chat(reply_runtime, monday) == []
    assert bounces(reply_runtime) == []


def test_a_reply_through_a_real_imap_mailbox_lands_in_the_right_game_as_the_right_seat(
    reply_runtime: Runtime, games: tuple[str, str], imap_server: ImapServer
) -> None:
    monday, friday = games
    imap_server.deliver(reply(reply_address(reply_runtime, monday, 2), sender="cat@example.org", text="Cat here."))
    imap_server.deliver(reply(reply_address(reply_runtime, friday, 1)))

    report = imap_poller(reply_runtime, imap_server).poll()

    assert (report.posted, report.rejected, report.ignored, report.duplicates) == (2, 0, 0, 0)
    assert chat(reply_runtime, monday) == [("Cat", "Cat here.", "email")]
    assert chat(reply_runtime, friday) == [("Ben", SAID, "email")]
    assert imap_server.count() == 0


def test_pbem_mail_receive_polls_the_configured_mailbox(
    reply_runtime: Runtime, games: tuple[str, str], imap_server: ImapServer, database_url: str, tmp_path: Path,
) -> None:
    _, friday = games
    imap_server.deliver(reply(reply_address(reply_runtime, friday, 1)))
    config_file = tmp_path / "pbem.toml"
    # The command runs on the real clock; the test's emails were written on the test clock's day.
    config_file.write_text(
        f'base_url = "https://pbem.test"\nsecret_keys = ["{TEST_SECRET}"]\ndatabase_url = "{database_url}"\n'
        f'instance_path = "{tmp_path / "instance"}"\n[mail]\nreply_address = "{REPLY_ADDRESS}"\n'
        "reply_max_age_days = 36500\n"
        f'[mail.imap]\nhost = "{imap_server.host}"\nport = {imap_server.port}\ntls = "none"\n'
        f'user = "{imap_server.user}"\n'
    )

    result = CliRunner().invoke(
        main, ["--config", str(config_file), "mail", "receive"], env={"PBEM_IMAP_PASSWORD": imap_server.password}
    )

    assert result.exit_code == 0, result.output
    assert "posted 1, refused 0, ignored 0, seen before 0" in result.output
    assert chat(reply_runtime, friday) == [("Ben", SAID, "email")]


def test_an_unreachable_mailbox_is_reported_not_crashed_on(reply_runtime: Runtime) -> None:
    settings = ImapConfig(host="127.0.0.1", port=free_port(), tls="none", user="x", password="y", timeout_seconds=2)

    with pytest.raises(MailboxUnavailable, match="IMAP 127.0.0.1"):
        ImapPoller(settings, reply_runtime.inbound()).poll()


def test_a_wrong_imap_password_is_reported(reply_runtime: Runtime, imap_server: ImapServer) -> None:
    settings = ImapConfig(host=imap_server.host, port=imap_server.port, tls="none", user=imap_server.user,
                          password="not the password")

    with pytest.raises(MailboxUnavailable):
        ImapPoller(settings, reply_runtime.inbound()).poll()


# -- what gets in: the new text only -----------------------------------------------------------------------------


def test_only_the_new_text_is_posted_and_attachments_are_dropped(
    reply_runtime: Runtime, games: tuple[str, str], deliver: Deliver
) -> None:
    _, friday = games
    to = reply_address(reply_runtime, friday, 1)
    text = "Cat did it.\n\n-- \nBen, in the mines since 1999"

    deliver(reply(to, text=text, attachment=b"\x89PNG" + b"0" * 1000), "ben@example.org", to)

    assert chat(reply_runtime, friday) == [("Ben", "Cat did it.", "email")]


def test_a_reply_address_written_in_capitals_still_works(
    reply_runtime: Runtime, games: tuple[str, str], listener: Listener
) -> None:
    _, friday = games
    to = reply_address(reply_runtime, friday, 1).upper()

    listener.send(reply(to, sender="BEN@Example.org"), "BEN@Example.org", to)

    assert chat(reply_runtime, friday) == [("Ben", SAID, "email")]


# -- refused, with a short bounce, and nothing posted -------------------------------------------------------------


def forged(address: str) -> str:
    local, domain = address.split("@")
    base, token = local.split("+")
    changed = token[:-1] + ("a" if token[-1] != "a" else "b")
    return f"{base}+{changed}@{domain}"


SPAM_SUBJECT = "Cheap pills at http://spam.example"


@pytest.mark.parametrize(
    ("case", "reason_words"),
    [
        ("expired", "older than 30 days"),
        ("revoked", "withdrawn"),
        ("wrong sender", "different address"),
        ("only quoted", "no new text"),
        ("too long", f"at most {MAX_LENGTH:,} characters"),
    ],
)
def test_a_reply_to_a_seats_address_that_cannot_be_taken_gets_a_short_bounce_to_that_seat_only(
    reply_runtime: Runtime, games: tuple[str, str], deliver: Deliver, clock: SettableClock, case: str,
    reason_words: str,
) -> None:
    _, friday = games
    to, sender, text = reply_address(reply_runtime, friday, 1), "ben@example.org", SAID
    if case == "expired":
        clock.advance(timedelta(days=31))
    elif case == "revoked":
        with reply_runtime.db.write() as session:
            session.execute(update(Seat).where(Seat.email == "ben@example.org").values(token_version=2))
    elif case == "wrong sender":
        sender = "mallory@example.net"
    elif case == "only quoted":
        text = ""
    elif case == "too long":
        text = "blah " * 250
    message_id = make_msgid(domain="example.org")
    before = dump(reply_runtime.db)

    deliver(reply(to, sender=sender, text=text, message_id=message_id, subject=SPAM_SUBJECT), sender, to)

    assert chat(reply_runtime, friday) == []
    assert changed_tables(before, dump(reply_runtime.db)) <= BOOKKEEPING
    [bounce] = bounces(reply_runtime)
    assert bounce.to_address == "ben@example.org"
    assert reason_words in bounce.body_text
    assert 'A reply to your email from the game was not posted at the table of "Friday mine"' in flat(bounce.body_text)
    assert bounce.headers["Auto-Submitted"] == "auto-replied"
    assert bounce.headers["In-Reply-To"] == message_id
    assert "Reply-To" not in bounce.headers
    assert bounce.subject == "Not posted: your reply - Friday mine - Saboteur"
    assert "spam" not in (bounce.subject + bounce.body_text + bounce.body_html).lower()
    with reply_runtime.db.read() as session:
        [record] = session.scalars(select(InboundMail)).all()
        assert (record.message_id, record.outcome) == (message_id, "rejected")


@pytest.mark.parametrize("case", ["bare address", "forged token", "forged token from a player", "foreign token"])
def test_mail_without_an_authentic_reply_token_is_never_answered(
    reply_runtime: Runtime, games: tuple[str, str], deliver: Deliver, case: str
) -> None:
    _, friday = games
    to, sender = REPLY_ADDRESS, "victim@example.net"
    if case.startswith("forged token"):
        to = forged(reply_address(reply_runtime, friday, 1))
    if case == "forged token from a player":
        sender = "ben@example.org"
    if case == "foreign token":
        to = REPLY_ADDRESS.replace("@", "+" + "a" * 29 + "@")
    before = dump(reply_runtime.db)

    deliver(reply(to, sender=sender, subject=SPAM_SUBJECT), sender, to)

    assert chat(reply_runtime, friday) == []
    assert bounces(reply_runtime) == []
    assert changed_tables(before, dump(reply_runtime.db)) <= {"inbound_mail"}
    with reply_runtime.db.read() as session:
        assert session.scalars(select(InboundMail.outcome)).one() == "rejected"


@pytest.mark.parametrize("case", ["expired, from a stranger", "withdrawn, the seat changed hands"])
def test_a_stale_reply_address_is_answered_only_when_the_seats_own_address_used_it(
    reply_runtime: Runtime, games: tuple[str, str], listener: Listener, clock: SettableClock, case: str
) -> None:
    _, friday = games
    to, sender = reply_address(reply_runtime, friday, 1), "ben@example.org"
    if case.startswith("expired"):
        clock.advance(timedelta(days=31))
        sender = "mallory@example.net"
    else:  # the seat's new player must not hear of mail the old player sent
        with reply_runtime.db.write() as session:
            session.execute(
                update(Seat).where(Seat.email == "ben@example.org").values(token_version=2, email="dan@example.org")
            )

    listener.send(reply(to, sender=sender), sender, to)

    assert chat(reply_runtime, friday) == []
    assert bounces(reply_runtime) == []


@pytest.mark.parametrize(
    "headers",
    [
        {"Auto-Submitted": "auto-replied"},
        {"Auto-Submitted": "auto-generated"},
        {"X-Autoreply": "yes"},
        {"X-Autorespond": "Out of office"},
        {"Precedence": "bulk"},
        {"Precedence": "auto_reply"},
        {"Precedence": "list"},
        {"List-Id": "<miners.lists.example.org>"},
        {"Subject": "Out of Office: Re: Friday mine - Saboteur"},
        {"Subject": "Automatic reply: Friday mine - Saboteur"},
        {"Subject": "Abwesenheitsnotiz: Friday mine"},
        {"From": ""},
    ],
    ids=lambda headers: "-".join(f"{name}={value}" for name, value in headers.items())[:40],
)
def test_auto_replies_are_ignored_never_posted_nor_answered(
    reply_runtime: Runtime, games: tuple[str, str], deliver: Deliver, headers: dict[str, str]
) -> None:
    _, friday = games
    to = reply_address(reply_runtime, friday, 1)
    raw = reply(to, sender="" if "From" in headers else "ben@example.org",
                headers={name: value for name, value in headers.items() if name not in ("Subject", "From")})
    if "Subject" in headers:
        raw = raw.replace(b"Subject: Re: Friday mine - Saboteur", f"Subject: {headers['Subject']}".encode())
        assert headers["Subject"].encode() in raw
    before = dump(reply_runtime.db)

    deliver(raw, "ben@example.org", to)

    assert chat(reply_runtime, friday) == []
    assert bounces(reply_runtime) == []
    assert changed_tables(before, dump(reply_runtime.db)) <= {"inbound_mail"}
    with reply_runtime.db.read() as session:
        assert session.scalars(select(InboundMail.outcome)).one() == "ignored"


def test_a_delivery_report_with_an_empty_envelope_sender_is_ignored(
    reply_runtime: Runtime, games: tuple[str, str], listener: Listener
) -> None:
    _, friday = games
    to = reply_address(reply_runtime, friday, 1)

    listener.send(reply(to), "", to)

    assert chat(reply_runtime, friday) == [] and bounces(reply_runtime) == []


def test_auto_submitted_no_is_a_person_writing(
    reply_runtime: Runtime, games: tuple[str, str], listener: Listener
) -> None:
    _, friday = games
    to = reply_address(reply_runtime, friday, 1)

    listener.send(reply(to, headers={"Auto-Submitted": "no"}), "ben@example.org", to)

    assert chat(reply_runtime, friday) == [("Ben", SAID, "email")]


def test_oversized_mail_is_refused_by_the_listener_before_it_is_read(
    reply_runtime: Runtime, games: tuple[str, str], listener: Listener
) -> None:
    _, friday = games
    to = reply_address(reply_runtime, friday, 1)
    before = dump(reply_runtime.db)

    with pytest.raises((smtplib.SMTPSenderRefused, smtplib.SMTPDataError)) as refused:
        listener.send(reply(to, attachment=b"\x89PNG" + b"0" * 100_000), "ben@example.org", to)

    assert refused.value.smtp_code == 552
    assert dump(reply_runtime.db) == before


def test_oversized_mail_in_the_mailbox_is_refused_from_its_header_alone(
    reply_runtime: Runtime, games: tuple[str, str], imap_server: ImapServer
) -> None:
    _, friday = games
    to = reply_address(reply_runtime, friday, 1)
    imap_server.deliver(reply(to, attachment=b"\x89PNG" + b"0" * 100_000))
    before = dump(reply_runtime.db)

    report = imap_poller(reply_runtime, imap_server).poll()

    assert report.rejected == 1
    assert chat(reply_runtime, friday) == []
    assert changed_tables(before, dump(reply_runtime.db)) <= BOOKKEEPING
    [bounce] = bounces(reply_runtime)
    assert "larger than 64 KB" in bounce.body_text
    assert imap_server.count() == 0


def test_a_listener_takes_mail_only_for_the_reply_mailbox(reply_runtime: Runtime, listener: Listener) -> None:
    with smtplib.SMTP(listener.host, listener.port, timeout=10) as client:
        client.ehlo()
        client.mail("ben@example.org")
        code, _ = client.rcpt("postmaster@elsewhere.example")
        ours, _ = client.rcpt(REPLY_ADDRESS.replace("@", "+anything@"))

    assert (code, ours) == (550, 250)


# -- exactly once ------------------------------------------------------------------------------------------------


def test_the_same_message_polled_twice_posts_once(
    reply_runtime: Runtime, games: tuple[str, str], imap_server: ImapServer
) -> None:
    _, friday = games
    raw = reply(reply_address(reply_runtime, friday, 1))
    imap_server.deliver(raw)
    imap_server.deliver(raw)  # delivered twice, as a retrying mail server may

    first = imap_poller(reply_runtime, imap_server).poll()
    imap_server.deliver(raw)  # and once more after it was handled (a poll that died before deleting it)
    second = imap_poller(reply_runtime, imap_server).poll()

    assert (first.posted, first.duplicates, second.posted, second.duplicates) == (1, 1, 0, 1)
    assert chat(reply_runtime, friday) == [("Ben", SAID, "email")]
    assert imap_server.count() == 0


def test_the_same_message_sent_twice_over_smtp_posts_once(
    reply_runtime: Runtime, games: tuple[str, str], listener: Listener
) -> None:
    _, friday = games
    to = reply_address(reply_runtime, friday, 1)
    raw = reply(to)

    listener.send(raw, "ben@example.org", to)
    listener.send(raw, "ben@example.org", to)

    assert chat(reply_runtime, friday) == [("Ben", SAID, "email")]


def test_a_refused_message_seen_again_is_not_bounced_again(
    reply_runtime: Runtime, games: tuple[str, str], listener: Listener
) -> None:
    _, friday = games
    to = reply_address(reply_runtime, friday, 1)
    raw = reply(to, text="")

    listener.send(raw, "ben@example.org", to)
    listener.send(raw, "ben@example.org", to)

    assert len(bounces(reply_runtime)) == 1


@pytest.mark.parametrize("first", ["to the bare address", "with a forged token", "from another sender"])
def test_a_strangers_mail_reusing_a_replys_message_id_does_not_stop_that_reply(
    reply_runtime: Runtime, games: tuple[str, str], listener: Listener, first: str
) -> None:
    _, friday = games
    to = reply_address(reply_runtime, friday, 1)
    message_id = make_msgid(domain="example.org")
    squat_to, squat_from = to, "ben@example.org"
    if first == "to the bare address":
        squat_to = REPLY_ADDRESS
    elif first == "with a forged token":
        squat_to = forged(to)
    else:
        squat_from = "mallory@example.net"
    listener.send(reply(squat_to, sender=squat_from, text="squatted", message_id=message_id), squat_from, squat_to)

    listener.send(reply(to, message_id=message_id), "ben@example.org", to)

    assert chat(reply_runtime, friday) == [("Ben", SAID, "email")]
    with reply_runtime.db.read() as session:
        assert sorted(session.scalars(select(InboundMail.outcome))) == ["posted", "rejected"]


# -- limits --------------------------------------------------------------------------------------------------------


def test_bounces_to_one_mailbox_are_limited(
    reply_runtime: Runtime, games: tuple[str, str], listener: Listener
) -> None:
    monday, friday = games
    addresses = [reply_address(reply_runtime, monday, 1), reply_address(reply_runtime, friday, 1)]

    for n in range(BOUNCES_PER_ADDRESS.count + 3):
        to = addresses[n % 2]  # one mailbox, two seats: one limit
        listener.send(reply(to, sender="mallory@example.net"), "mallory@example.net", to)

    assert [bounce.to_address for bounce in bounces(reply_runtime)] == ["ben@example.org"] * BOUNCES_PER_ADDRESS.count
    with reply_runtime.db.read() as session:
        assert session.scalars(select(InboundMail.outcome)).all() == ["rejected"] * (BOUNCES_PER_ADDRESS.count + 3)


def test_bounces_of_the_whole_server_are_capped_each_day(
    reply_runtime: Runtime, games: tuple[str, str], listener: Listener, clock: SettableClock
) -> None:
    _, friday = games
    mail = dataclasses.replace(reply_runtime.config.mail, bounces_per_day=2)
    inbound = dataclasses.replace(reply_runtime, config=dataclasses.replace(reply_runtime.config, mail=mail)).inbound()
    seats = [reply_address(reply_runtime, friday, seat) for seat in range(3)]
    senders = [str(person.email) for person in PEOPLE]

    for to, sender in zip(seats, senders, strict=True):
        assert inbound.receive(reply(to, sender=sender, text="")).outcome == "rejected"
    clock.advance(timedelta(days=1))
    inbound.receive(reply(seats[2], sender=senders[2], text=""))

    assert [bounce.to_address for bounce in bounces(reply_runtime)] == [
        "ann@example.org", "ben@example.org", "cat@example.org",
    ]


def test_replies_count_against_the_seats_chat_rate_limit(
    reply_runtime: Runtime, games: tuple[str, str], listener: Listener
) -> None:
    _, friday = games
    to = reply_address(reply_runtime, friday, 1)
    for n in range(PER_MINUTE.count):
        reply_runtime.chat.post(friday, 1, f"page message {n}")

    listener.send(reply(to), "ben@example.org", to)

    assert (None, SAID) not in [(None, text) for _, text, _ in chat(reply_runtime, friday)]
    [bounce] = bounces(reply_runtime)
    assert "faster than the table can read" in bounce.body_text


def test_a_posted_reply_reaches_the_others_emails(
    reply_runtime: Runtime, games: tuple[str, str], listener: Listener
) -> None:
    _, friday = games
    to = reply_address(reply_runtime, friday, 1)
    reply_runtime.chat.set_chat_emails(friday, 2, True)
    listener.send(reply(to), "ben@example.org", to)

    assert queue_due_chat_emails(reply_runtime.db, reply_runtime.clock, reply_runtime.games.mail) == 1
    [email] = mailbox(reply_runtime, "chat_messages", "cat@example.org")
    assert f"Ben: {SAID}" in email.body_text


def test_inbound_records_every_message_once(reply_runtime: Runtime, games: tuple[str, str], listener: Listener) -> None:
    _, friday = games
    to = reply_address(reply_runtime, friday, 1)
    message_id = make_msgid(domain="example.org")

    listener.send(reply(to, message_id=message_id), "ben@example.org", to)

    with reply_runtime.db.read() as session:
        record = session.scalars(select(InboundMail)).one()
        posted = session.get_one(ChatMessage, record.chat_message_id)
        assert (record.message_id, record.outcome, record.sender, posted.text) == (
            message_id, "posted", "ben@example.org", SAID,
        )


def test_the_same_message_taken_by_several_workers_at_once_posts_once(
    reply_runtime: Runtime, games: tuple[str, str]
) -> None:
    _, friday = games
    raw = reply(reply_address(reply_runtime, friday, 1))
    inbound = reply_runtime.inbound()

    with ThreadPoolExecutor(max_workers=4) as pool:
        outcomes = sorted(result.outcome for result in pool.map(lambda _: inbound.receive(raw), range(4)))

    assert outcomes == ["duplicate", "duplicate", "duplicate", "posted"]
    assert chat(reply_runtime, friday) == [("Ben", SAID, "email")]


# -- the scheduler and the command line -------------------------------------------------------------------------


def test_the_scheduler_polls_the_mailbox_only_when_one_is_configured(
    reply_runtime: Runtime, games: tuple[str, str], imap_server: ImapServer
) -> None:
    _, friday = games
    imap = ImapConfig(host=imap_server.host, port=imap_server.port, tls="none", user=imap_server.user,
                      password=imap_server.password, poll_interval_seconds=30)
    configured = dataclasses.replace(
        reply_runtime.config, mail=dataclasses.replace(reply_runtime.config.mail, imap=imap)
    )
    imap_server.deliver(reply(reply_address(reply_runtime, friday, 1)))

    [job] = [job for job in jobs(configured) if job.id == "receive_replies"]
    handled = job.run(dataclasses.replace(reply_runtime, config=configured))

    assert "receive_replies" not in [job.id for job in jobs(reply_runtime.config)]
    assert job.interval == timedelta(seconds=30)
    assert handled == 1
    assert chat(reply_runtime, friday) == [("Ben", SAID, "email")]


def test_the_scheduler_shrugs_off_an_unreachable_mailbox(reply_runtime: Runtime) -> None:
    imap = ImapConfig(host="127.0.0.1", port=free_port(), tls="none", timeout_seconds=2)
    configured = dataclasses.replace(
        reply_runtime.config, mail=dataclasses.replace(reply_runtime.config.mail, imap=imap)
    )
    [job] = [job for job in jobs(configured) if job.id == "receive_replies"]

    assert job.run(dataclasses.replace(reply_runtime, config=configured)) == 0


@pytest.mark.parametrize(("command", "missing"), [("receive", "mail.imap.host"), ("listen", "mail.reply_address")])
def test_the_mail_commands_say_what_configuration_they_miss(
    database_url: str, tmp_path: Path, command: str, missing: str
) -> None:
    config_file = tmp_path / "pbem.toml"
    config_file.write_text(
        f'secret_keys = ["{TEST_SECRET}"]\ndatabase_url = "{database_url}"\ninstance_path = "{tmp_path}"\n'
    )

    result = CliRunner().invoke(main, ["--config", str(config_file), "mail", command])

    assert result.exit_code == 1
    assert missing in result.output
