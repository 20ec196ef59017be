"""How a deliverer hands a message on, and the three ways that can go wrong.

A backend opens a connection for one delivery run; the connection sends one message to one address.
Failures are sorted by what the deliverer should do next:
- `TemporaryFailure`: this message could not go now (a 4xx answer); try it again later.
- `PermanentFailure`: this message will never go (a 5xx answer); stop and tell the host.
- `RelayUnavailable`: the relay itself is down or refuses us (no connection, timeout, TLS or login
  failed); a temporary failure for this message, and no point trying the next one in this run.
"""

from __future__ import annotations

from contextlib import AbstractContextManager
from email.message import EmailMessage
from typing import Protocol

# "Service not available, closing transmission channel": the relay is going away, not just this message.
SERVICE_CLOSING = 421


class DeliveryError(Exception):
    pass


class TemporaryFailure(DeliveryError):
    pass


class PermanentFailure(DeliveryError):
    pass


class RelayUnavailable(TemporaryFailure):
    pass


class Connection(Protocol):
    def send(self, message: EmailMessage, recipient: str) -> None:
        """Hand one message to one recipient, or raise a DeliveryError."""
        ...


class Backend(Protocol):
    name: str

    def open(self) -> AbstractContextManager[Connection]:
        """A connection for one delivery run; raises RelayUnavailable if there is none to be had."""
        ...


def failure_for(code: int, reply: str) -> DeliveryError:
    """An SMTP reply code as the deliverer's next step: 5xx never improves, anything else might."""
    text = f"{code} {reply}".strip()
    if code == SERVICE_CLOSING:
        return RelayUnavailable(text)
    if 500 <= code <= 599:
        return PermanentFailure(text)
    return TemporaryFailure(text)
