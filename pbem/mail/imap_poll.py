"""Polling the reply mailbox over IMAP (stdlib `imaplib`, no IDLE): `pbem mail receive` and a scheduler job.

Each run logs in, reads every message not yet marked deleted, hands it to the receiver
(`pbem/service/talk/replies.py`), then marks it deleted and expunges. A message larger than `mail.inbound_max_kb` is
never downloaded: its size is asked first and only its header is fetched (enough to refuse it). Exactly once does not
depend on the mailbox: a run that dies after `receive` committed but before the message was deleted finds it again
next time, and `receive` knows its Message-ID and does nothing.
"""

from __future__ import annotations

import imaplib
import logging
import re
import ssl
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from pbem.config import ImapConfig
from pbem.mail.inbound import Receiver

log = logging.getLogger(__name__)

# Messages handled per run; the next run takes the rest.
RUN_LIMIT = 200
SIZE = re.compile(rb"RFC822\.SIZE (\d+)")


class MailboxUnavailable(Exception):
    """The IMAP server could not be reached, refused the login, or has no such mailbox."""


@dataclass
class PollReport:
    posted: int = 0
    rejected: int = 0
    ignored: int = 0
    duplicates: int = 0

    @property
    def handled(self) -> int:
        return self.posted + self.rejected + self.ignored + self.duplicates

    def count(self, outcome: str) -> None:
        field = "duplicates" if outcome == "duplicate" else outcome
        setattr(self, field, getattr(self, field) + 1)


class ImapPoller:
    def __init__(self, settings: ImapConfig, inbound: Receiver) -> None:
        self._settings = settings
        self._inbound = inbound

    def poll(self, limit: int | None = RUN_LIMIT) -> PollReport:
        """Handle what waits in the mailbox now (at most `limit` messages; None: all)."""
        report = PollReport()
        try:
            with self._connect() as imap:
                _ok(imap.login(self._settings.user, self._settings.password), "login")
                _ok(imap.select(_quoted(self._settings.mailbox)), f"select {self._settings.mailbox}")
                uids = _ok(imap.uid("SEARCH", "UNDELETED"), "search")[0].split()
                for uid in uids[:limit]:
                    self._handle(imap, uid.decode(), report)
                if uids:
                    _ok(imap.expunge(), "expunge")
        except (imaplib.IMAP4.error, OSError) as exc:
            raise MailboxUnavailable(
                f"IMAP {self._settings.host}:{self._settings.port}: {exc or type(exc).__name__}"
            ) from exc
        return report

    def _handle(self, imap: imaplib.IMAP4, uid: str, report: PollReport) -> None:
        size_reply = _ok(imap.uid("FETCH", uid, "(RFC822.SIZE)"), "fetch size")
        found = SIZE.search(b" ".join(part for part in size_reply if isinstance(part, bytes)))
        if found is None:
            return  # gone meanwhile (another client expunged it)
        size = int(found.group(1))
        part = "BODY.PEEK[HEADER]" if size > self._inbound.max_bytes else "BODY.PEEK[]"
        raw = _literal(_ok(imap.uid("FETCH", uid, f"({part})"), "fetch"))
        if raw is None:
            return
        report.count(self._inbound.receive(raw, size=size).outcome)
        _ok(imap.uid("STORE", uid, "+FLAGS.SILENT", r"(\Deleted)"), "store")

    def _connect(self) -> imaplib.IMAP4:
        settings = self._settings
        timeout = settings.timeout_seconds
        if settings.tls == "tls":
            return imaplib.IMAP4_SSL(
                settings.host, settings.port, ssl_context=ssl.create_default_context(), timeout=timeout
            )
        imap = imaplib.IMAP4(settings.host, settings.port, timeout=timeout)
        if settings.tls == "starttls":
            imap.starttls(ssl.create_default_context())
        return imap


def _ok(answer: tuple[str, Sequence[Any]], what: str) -> list[Any]:
    status, data = answer
    if status != "OK":
        raise imaplib.IMAP4.error(f"{what} failed: {data!r}")
    return list(data)


def _literal(data: list[Any]) -> bytes | None:
    """The message bytes of a FETCH answer: the literal that follows `BODY[...] {n}`."""
    for item in data:
        if isinstance(item, tuple) and len(item) == 2 and isinstance(item[1], bytes):
            return item[1]
    return None


def _quoted(mailbox: str) -> str:
    return '"' + mailbox.replace("\\", "\\\\").replace('"', '\\"') + '"'
