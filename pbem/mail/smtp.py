"""The SMTP backend: stdlib `smtplib`, plain, STARTTLS or implicit TLS, optional login, bounded waits.

TLS is verified against the system's certificate authorities; STARTTLS that the relay does not offer is
an error, never a silent fall back to plain text. Every network wait is bounded by `timeout_seconds`,
so a relay that hangs is a temporary failure, not a stuck scheduler.
"""

from __future__ import annotations

import smtplib
import ssl
from collections.abc import Iterator
from contextlib import contextmanager
from email.message import EmailMessage
from email.utils import parseaddr

from pbem.config import MailConfig
from pbem.mail.backends import RelayUnavailable, failure_for


class SmtpConnection:
    def __init__(self, client: smtplib.SMTP, envelope_from: str) -> None:
        self._client = client
        self._envelope_from = envelope_from

    def send(self, message: EmailMessage, recipient: str) -> None:
        try:
            self._client.send_message(message, from_addr=self._envelope_from, to_addrs=[recipient])
        except smtplib.SMTPRecipientsRefused as exc:
            code, reply = exc.recipients.get(recipient, (-1, b"recipient refused"))
            raise failure_for(code, _text(reply)) from None
        except smtplib.SMTPResponseException as exc:  # sender refused, data refused, ...
            raise failure_for(exc.smtp_code, _text(exc.smtp_error)) from None
        except (smtplib.SMTPException, OSError) as exc:  # disconnected, timed out, reset
            raise RelayUnavailable(_describe(exc)) from None


class SmtpBackend:
    name = "smtp"

    def __init__(self, settings: MailConfig, *, ssl_context: ssl.SSLContext | None = None) -> None:
        self._settings = settings
        self._ssl_context = ssl_context

    @contextmanager
    def open(self) -> Iterator[SmtpConnection]:
        client = self._connect()
        try:
            yield SmtpConnection(client, parseaddr(self._settings.from_address)[1])
        finally:
            try:
                client.quit()
            except (smtplib.SMTPException, OSError):
                client.close()

    def _connect(self) -> smtplib.SMTP:
        settings = self._settings
        context = self._ssl_context or ssl.create_default_context()
        client: smtplib.SMTP | None = None
        try:
            if settings.tls == "tls":
                client = smtplib.SMTP_SSL(
                    settings.host, settings.port, timeout=settings.timeout_seconds, context=context
                )
            else:
                client = smtplib.SMTP(settings.host, settings.port, timeout=settings.timeout_seconds)
            if settings.tls == "starttls":
                client.starttls(context=context)
            if settings.user:
                client.login(settings.user, settings.password)
        except (smtplib.SMTPException, OSError) as exc:
            if client is not None:
                client.close()
            raise RelayUnavailable(f"{settings.host}:{settings.port}: {_describe(exc)}") from None
        return client


def _text(reply: bytes | str) -> str:
    return reply.decode("utf-8", "replace") if isinstance(reply, bytes) else str(reply)


def _describe(exc: BaseException) -> str:
    if isinstance(exc, smtplib.SMTPResponseException):
        return f"{exc.smtp_code} {_text(exc.smtp_error)}"
    return f"{type(exc).__name__}: {exc}" if str(exc) else type(exc).__name__
