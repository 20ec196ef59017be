"""Reading an inbound email: its sender, its key, its reply token's candidates, and whether a machine sent it.

`pbem/service/talk/replies.py` decides what becomes of the message; the IMAP poller and the SMTP listener hand it
over through the `Receiver` protocol below.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Sequence
from dataclasses import dataclass
from email.message import Message
from email.parser import BytesHeaderParser, BytesParser
from email.policy import default as default_policy
from email.utils import getaddresses
from typing import Protocol

from pbem.addresses import address_key

MAX_HEADER_BYTES = 64 * 1024
MAX_MESSAGE_ID = 255
RECIPIENT_HEADERS = ("Delivered-To", "X-Original-To", "Envelope-To", "X-Envelope-To", "To", "Cc")
AUTO_REPLY_HEADERS = ("X-Autoreply", "X-Autorespond", "X-Autoresponder", "X-Auto-Reply")
BULK_PRECEDENCE = frozenset({"bulk", "auto_reply", "list", "junk"})
VACATION_SUBJECT = re.compile(
    r"^\s*(auto(matic)?[\s_-]*(reply|response|antwort|answer)|auto:|autoreply|out of (the )?office|"
    r"abwesenheit|réponse automatique|respuesta automática|risposta automatica|on vacation|vacation|"
    r"away from (the )?office|i am (currently )?(away|out of))",
    re.IGNORECASE,
)
ROBOT_SENDERS = re.compile(r"^(mailer-daemon|postmaster|no-?reply|bounces?)([+@]|$)", re.IGNORECASE)


@dataclass(frozen=True)
class InboundResult:
    outcome: str  # "posted", "rejected", "ignored" or "duplicate" (handled before: nothing done now)
    reason: str
    chat_message_id: int | None = None


class Receiver(Protocol):
    """What takes an inbound message: the poller and the listener hand each message to one."""

    max_bytes: int

    def receive(
        self,
        raw: bytes,
        *,
        envelope_recipients: Sequence[str] = (),
        envelope_sender: str | None = None,
        size: int | None = None,
    ) -> InboundResult: ...


@dataclass(frozen=True)
class ParsedMail:
    message: Message
    key: str  # the Message-ID, or a digest of the message when it has none or an absurd one
    sender: str  # the one From address, or "" when there is none (or several)
    message_id: str | None
    subject: str


def recipients(message: Message, envelope_recipients: Sequence[str]) -> list[str]:
    """Every address the message was sent to: the envelope's first, then the headers'."""
    candidates = list(envelope_recipients)
    for name in RECIPIENT_HEADERS:
        candidates.extend(address for _, address in getaddresses(_headers(message, name)))
    return candidates


def auto_reply_reason(message: Message, sender: str, envelope_sender: str | None = None) -> str | None:
    """Why this message is automatic (and must be neither posted nor answered), or None for a person's mail."""
    auto_submitted = _header(message, "Auto-Submitted").split(";")[0].strip().lower()
    if auto_submitted and auto_submitted != "no":
        return f"Auto-Submitted: {auto_submitted}"
    for name in AUTO_REPLY_HEADERS:
        if _header(message, name).strip().lower() not in ("", "no"):
            return f"{name} header"
    for name in ("Precedence", "X-Precedence"):
        if _header(message, name).strip().lower() in BULK_PRECEDENCE:
            return f"{name}: {_header(message, name).strip().lower()}"
    if _header(message, "List-Id"):
        return "mailing list"
    if message.get_content_type() == "multipart/report":
        return "delivery report"
    if envelope_sender == "" or _header(message, "Return-Path").strip() == "<>":
        return "empty envelope sender"
    if not sender or ROBOT_SENDERS.match(sender):
        return "no sender" if not sender else "sent by a mail system"
    if VACATION_SUBJECT.match(_header(message, "Subject")):
        return "vacation subject"
    return None


def message_key(message: Message, raw: bytes) -> str:
    """What identifies a message across polls and deliveries: its Message-ID, else a digest of its bytes."""
    message_id = _header(message, "Message-ID").strip()
    if message_id and len(message_id) <= MAX_MESSAGE_ID and not any(char.isspace() for char in message_id):
        return message_id
    basis = message_id.encode() if message_id else raw
    return "sha256:" + hashlib.sha256(basis).hexdigest()


def receipt_key(message_key: str, token: str | None, sender: str) -> str:
    """What is handled once: this Message-ID, to this reply token, from this sender (a digest: fixed length)."""
    basis = "\x00".join([message_key, token or "", address_key(sender)])
    return "receipt:" + hashlib.sha256(basis.encode()).hexdigest()


def parse(raw: bytes, *, headers_only: bool) -> ParsedMail:
    if headers_only:
        head = re.split(rb"\r?\n\r?\n", raw[:MAX_HEADER_BYTES], maxsplit=1)[0]
        message: Message = BytesHeaderParser(policy=default_policy).parsebytes(head)
    else:
        message = BytesParser(policy=default_policy).parsebytes(raw)
    senders = [address for _, address in getaddresses(_headers(message, "From")) if "@" in address]
    message_id = _header(message, "Message-ID").strip() or None
    return ParsedMail(
        message=message,
        key=message_key(message, raw),
        sender=senders[0].strip() if len(senders) == 1 else "",
        message_id=message_id if message_id and len(message_id) <= MAX_MESSAGE_ID else None,
        subject=" ".join(_header(message, "Subject").split()),
    )


def _headers(message: Message, name: str) -> list[str]:
    """Every value of a header as text; a header the email package cannot parse counts as absent."""
    try:
        return [str(value) for value in message.get_all(name, [])]
    except Exception:  # the email package raises assorted errors on hostile headers
        return []


def _header(message: Message, name: str) -> str:
    values = _headers(message, name)
    return values[0] if values else ""
