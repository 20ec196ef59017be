"""A real SMTP server (aiosmtpd) on loopback, the runtime wired to it, and the outbox as a test reads it."""

from __future__ import annotations

import base64
import dataclasses
import email.policy
import re
import socket
import ssl
import subprocess
from collections import deque
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from email.message import EmailMessage
from email.parser import BytesParser
from pathlib import Path
from typing import Any

import pytest
from aiosmtpd.controller import Controller
from sqlalchemy import select, update

from pbem.chance import SeededChance
from pbem.clock import SettableClock
from pbem.config import Config
from pbem.mail.deliver import Deliverer
from pbem.models import Game, OutboxMessage, Seat
from pbem.runtime import Runtime, board_painter, build_runtime


@dataclass(frozen=True)
class ReceivedMail:
    """One message as the test SMTP server accepted it: the envelope, the parsed message and its bytes as sent."""

    mail_from: str
    rcpt_tos: list[str]
    message: EmailMessage
    data: bytes


class SmtpHandler:
    """An aiosmtpd handler that keeps what it accepts and answers 4xx/5xx when a test asks it to."""

    def __init__(self) -> None:
        self.received: list[ReceivedMail] = []
        self._data_replies: deque[str] = deque()
        self._refused: dict[str, str] = {}

    def answer_next_data(self, *replies: str) -> None:
        """The next DATA commands get these replies (e.g. "451 4.3.0 Try again later"); a 2xx one takes the message."""
        self._data_replies.extend(replies)

    def refuse_recipient(self, address: str, reply: str) -> None:
        """Every RCPT TO for this address gets this reply (e.g. "550 5.1.1 No such user")."""
        self._refused[address] = reply

    def accept_recipient(self, address: str) -> None:
        self._refused.pop(address, None)

    async def handle_RCPT(self, server: Any, session: Any, envelope: Any, address: str, rcpt_options: list[str]) -> str:
        if address in self._refused:
            return self._refused[address]
        envelope.rcpt_tos.append(address)
        return "250 OK"

    async def handle_DATA(self, server: Any, session: Any, envelope: Any) -> str:
        reply = self._data_replies.popleft() if self._data_replies else "250 2.0.0 Accepted"
        if reply.startswith("2"):  # taken: kept, as a relay would
            message = BytesParser(policy=email.policy.default).parsebytes(envelope.content)
            assert isinstance(message, EmailMessage)
            self.received.append(
                ReceivedMail(envelope.mail_from, list(envelope.rcpt_tos), message, envelope.original_content)
            )
        return reply


@dataclass(frozen=True)
class SmtpServer:
    handler: SmtpHandler
    host: str
    port: int

    @property
    def received(self) -> list[ReceivedMail]:
        return self.handler.received


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


@contextmanager
def smtp_server_running(**options: Any) -> Iterator[SmtpServer]:
    """An aiosmtpd server on a free loopback port; `options` go to aiosmtpd (TLS, authentication)."""
    handler = SmtpHandler()
    port = free_port()
    controller = Controller(handler, hostname="127.0.0.1", port=port, server_hostname="smtp.test", **options)
    controller.start()
    try:
        yield SmtpServer(handler, "127.0.0.1", port)
    finally:
        controller.stop()


@pytest.fixture
def smtp_server() -> Iterator[SmtpServer]:
    """A real SMTP server (aiosmtpd) on loopback, plain SMTP, no login."""
    with smtp_server_running() as server:
        yield server


@dataclass(frozen=True)
class SelfSignedCertificate:
    cert: Path
    key: Path

    def server_context(self) -> ssl.SSLContext:
        context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
        context.load_cert_chain(self.cert, self.key)
        return context

    def client_context(self) -> ssl.SSLContext:
        """Trusts this certificate only, verifying it as a client verifies a relay's."""
        return ssl.create_default_context(cafile=str(self.cert))


@pytest.fixture(scope="session")
def tls_certificate(tmp_path_factory: pytest.TempPathFactory) -> SelfSignedCertificate:
    """A self-signed certificate for 127.0.0.1, made by the openssl command."""
    folder = tmp_path_factory.mktemp("tls")
    cert, key = folder / "cert.pem", folder / "key.pem"
    subprocess.run(
        ["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "2", "-subj", "/CN=127.0.0.1",
         "-addext", "subjectAltName=IP:127.0.0.1", "-keyout", str(key), "-out", str(cert)],
        check=True, capture_output=True,
    )
    return SelfSignedCertificate(cert, key)


def smtp_config(config: Config, server: SmtpServer, **mail: Any) -> Config:
    """`config` with mail going to `server` over SMTP."""
    settings = dataclasses.replace(config.mail, backend="smtp", host=server.host, port=server.port, **mail)
    return dataclasses.replace(config, mail=settings)


@pytest.fixture
def smtp_runtime(
    config: Config, clock: SettableClock, chance: SeededChance, smtp_server: SmtpServer
) -> Iterator[Runtime]:
    """The application wired to the test SMTP server instead of the catcher."""
    built = build_runtime(smtp_config(config, smtp_server), clock=clock, chance=chance)
    yield built
    built.close()


@pytest.fixture
def smtp_deliverer(smtp_runtime: Runtime) -> Deliverer:
    """The deliverer as the scheduler builds it, sending to the test SMTP server."""
    return smtp_runtime.deliverer()


def compose_waiting_mail(runtime: Runtime) -> None:
    """Write the turn emails still waiting for their content, as a deliverer taking them now would.

    Turn emails are composed when they go out; a test that reads every one of them, as a table whose mail goes
    out between moves does, calls this after each move (stale ones are otherwise dropped unwritten)."""
    runtime.deliverer().compose_waiting()


def flat(text: str | None) -> str:
    """The words of an email's text part with its line breaks as spaces: what a sentence says, wherever it wraps."""
    return " ".join((text or "").split())


def listed_items(text: str, mark: str = "  - ") -> list[str]:
    """The items of a text part's lists (lines beginning `mark`), each whole again where the wrapping broke it: its
    continuation lines are indented as far as the item's first word (pbem/mail/plain_text.py)."""
    items: list[str] = []
    hanging = " " * len(mark)
    in_item = False
    for line in text.splitlines():
        if line.startswith(mark):
            items.append(line[len(mark):])
            in_item = True
        elif in_item and line.startswith(hanging) and line.strip():
            items[-1] += " " + line.strip()
        else:
            in_item = False
    return items


def unsubscribe_path(message: OutboxMessage) -> str:
    """The path of an email's one-click unsubscribe link (its List-Unsubscribe header)."""
    url = message.headers["List-Unsubscribe"].strip("<>")
    return url.removeprefix("https://pbem.test")


def mailbox(runtime: Runtime, kind: str | None = None, to: str | None = None) -> list[OutboxMessage]:
    """The outbox, oldest first, optionally of one kind or to one address, with the turn emails still waiting
    composed as the deliverer would compose them now."""
    compose_waiting_mail(runtime)
    with runtime.db.read() as session:
        query = select(OutboxMessage).order_by(OutboxMessage.id)
        if kind is not None:
            query = query.where(OutboxMessage.kind == kind)
        if to is not None:
            query = query.where(OutboxMessage.to_address == to)
        return list(session.scalars(query))


# -- what a game wrote ---------------------------------------------------------------------------------


PERSONAL = re.compile(r"https://pbem\.test/(play|mail/unsubscribe)/[^\s\"<>]+")


# A round's sealed-deal fingerprint is random by construction (its salt), like a personal link.
FINGERPRINT = re.compile(r"\b[0-9a-f]{64}\b")


def bodies(runtime: Runtime, game_id: str, address: str, kind: str | None = None) -> list[tuple[str, str, str]]:
    """(subject, text, html) of every email of one game to one address, personal links masked (the turn email
    still waiting written as it would go now)."""
    compose_waiting_mail(runtime)
    with runtime.db.read() as session:
        game_pk = session.scalars(select(Game.id).where(Game.public_id == game_id)).one()
        query = select(OutboxMessage).where(OutboxMessage.game_id == game_pk, OutboxMessage.to_address == address)
        if kind is not None:
            query = query.where(OutboxMessage.kind == kind)
        rows = session.scalars(query.order_by(OutboxMessage.id)).all()
    return [(row.subject, masked(row.body_text), masked(row.body_html)) for row in rows]


# A picture's Content-ID names its message (whose Message-ID is random), as `cid:` in the HTML part.
CONTENT_ID = re.compile(r"cid:[^\"\s]+")


def masked(body: str) -> str:
    return CONTENT_ID.sub("cid:<picture>", FINGERPRINT.sub("<fingerprint>", PERSONAL.sub("<link>", body)))


def digest_seats(runtime: Runtime, **zones: str) -> None:
    with runtime.db.write() as session:
        for name, zone in zones.items():
            session.execute(update(Seat).where(Seat.display_name == name).values(notify_mode="digest", timezone=zone))


def shown_as_a_client_would(runtime: Runtime, row: OutboxMessage) -> str:
    """The HTML part with its inline pictures in place of their `cid:` references."""
    html = row.body_html or ""
    with runtime.db.read() as session:
        for image in board_painter().pictures(session, row):
            data = base64.b64encode(image.data).decode()
            html = html.replace(f"cid:{image.content_id}", f"data:image/png;base64,{data}")
    return html
