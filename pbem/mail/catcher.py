"""The development backend: the database is the mailbox.

Delivering a message means checking that it would go over the wire (it serializes) and letting the
deliverer mark the row sent; the row stays in the outbox, where `/dev/mail` shows it. Every other
step of delivery (claims, dropping stale turn mail, threading headers) runs exactly as in production.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from email.message import EmailMessage

from pbem.mail.backends import PermanentFailure
from pbem.mail.message import wire_bytes


class CatcherConnection:
    def send(self, message: EmailMessage, recipient: str) -> None:
        if message["To"] != recipient:
            raise PermanentFailure(f"the message is addressed to {message['To']}, not {recipient}")
        wire_bytes(message)  # what SMTP would transmit: a header that cannot be encoded fails here


class CatcherBackend:
    name = "catcher"

    @contextmanager
    def open(self) -> Iterator[CatcherConnection]:
        yield CatcherConnection()
