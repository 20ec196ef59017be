"""Replies by email: each message that reaches the reply address becomes a chat line, a short bounce, or nothing.

Both ways in (`pbem/mail/imap_poll.py` polling a mailbox, `pbem/mail/listener.py` taking SMTP) hand the raw
message to `Inbound.receive`, which decides in one transaction:
- handled before (its receipt key is in `inbound_mail`, unique): nothing, so a retried poll never posts twice.
  The key is a digest of the Message-ID with the reply token and the sender, none of which a stranger can choose
  for someone else's reply: reusing a player's Message-ID from another address or to another token blocks nothing;
- an auto-reply (`Auto-Submitted` other than "no", `X-Autoreply`, `Precedence: bulk/auto_reply/list/junk`,
  a mailing list, a delivery report, a vacation subject, no sender): ignored, never answered;
- otherwise it must be addressed to a reply address signed for a seat (`pbem/mail/reply_address.py`) that
  is neither forged, expired nor revoked, come from that seat's own address, fit in `inbound_max_kb`, and
  hold new text once the quoted email and signature are cut (`pbem/mail/reply_text.py`); then the text is
  posted to the game's chat as that seat (the chat's own length and rate limits apply);
- anything else is rejected and nothing is posted. Unauthenticated mail (no reply token, or a forged one) is never
  answered: its sender may be anyone's address. A reply to an authentic token gets a short bounce through the outbox
  (`reply_bounce`), and only to the address of the seat that token names (for a stale or withdrawn token, only when
  the reply came from that address), in our words, never echoing the reply's subject: at most a few a day per
  mailbox, `mail.bounces_per_day` for the whole server, never to our own addresses.
"""

from __future__ import annotations

import hashlib
import logging
import re
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import timedelta
from email.message import EmailMessage, Message
from email.parser import BytesHeaderParser, BytesParser
from email.policy import default as default_policy
from email.utils import getaddresses
from typing import TYPE_CHECKING

from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from pbem.addresses import mailbox_key, same_mailbox
from pbem.clock import Clock
from pbem.db import Database
from pbem.errors import RateLimited, ValidationError
from pbem.mail.outbox import Outbox
from pbem.mail.reply_address import ReplyAddresses, ReplyClaim, ReplyTokenError
from pbem.mail.reply_text import reply_text
from pbem.models import InboundMail, Seat
from pbem.service.chat import ChatService
from pbem.service.invitations import confirm_mailbox
from pbem.service.rate_limits import Limit, RateLimiter

if TYPE_CHECKING:
    from pbem.runtime import Runtime

log = logging.getLogger(__name__)

MAX_HEADER_BYTES = 64 * 1024
MAX_MESSAGE_ID = 255
# Backscatter guards: one mailbox gets at most this many bounces from us a day; the server at most
# `mail.bounces_per_day` in all.
BOUNCES_PER_ADDRESS = Limit("reply_bounce", count=5, window=timedelta(days=1))
BOUNCE_DAY = timedelta(days=1)
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

REASONS = {
    "no_address": (
        "The address you wrote to takes replies to game emails only. To talk to the table, reply to the latest "
        "email from the game, or write on your turn page."
    ),
    "invalid": (
        "The address you replied to is not one we gave out (it may have been changed or cut short). Reply to "
        "the latest email from the game, or write on your turn page."
    ),
    "expired": (
        "You replied to an email older than {days} days, and its reply address no longer works. Reply to a "
        "newer email from the game, or write on your turn page."
    ),
    "revoked": (
        "That reply address was withdrawn when the seat's links were renewed. Reply to a newer email from the "
        "game, or write on your turn page."
    ),
    "wrong_sender": (
        "The reply came from a different address than the one the game writes to, so it could not be posted. "
        "If it was yours, please reply from the mailbox that received the game's email."
    ),
    "too_large": (
        "Your email was larger than {kb} KB. Replies are for a few lines of text: please send it again without "
        "attachments or pictures."
    ),
    "empty": (
        "We found no new text in your reply, only the quoted email. Write your message above the quoted text."
    ),
}


@dataclass(frozen=True)
class InboundResult:
    outcome: str  # "posted", "rejected", "ignored" or "duplicate" (handled before: nothing done now)
    reason: str
    chat_message_id: int | None = None


@dataclass(frozen=True)
class _Parsed:
    message: Message
    key: str  # the Message-ID, or a digest of the message when it has none or an absurd one
    sender: str  # the one From address, or "" when there is none (or several)
    message_id: str | None
    subject: str


class Inbound:
    def __init__(
        self,
        db: Database,
        clock: Clock,
        replies: ReplyAddresses,
        chat: ChatService,
        outbox: Outbox,
        limiter: RateLimiter,
        *,
        max_bytes: int,
        reply_max_age_days: int,
        own_addresses: Sequence[str] = (),
        bounces_per_day: int,
    ) -> None:
        self._db = db
        self._clock = clock
        self._replies = replies
        self._chat = chat
        self._outbox = outbox
        self._limiter = limiter
        self.max_bytes = max_bytes
        self._max_age_days = reply_max_age_days
        self._own = {address.casefold() for address in own_addresses}
        self._bounces_per_day = Limit("reply_bounce_server", count=bounces_per_day, window=BOUNCE_DAY)

    def receive(
        self,
        raw: bytes,
        *,
        envelope_recipients: Sequence[str] = (),
        envelope_sender: str | None = None,
        size: int | None = None,
    ) -> InboundResult:
        """Handle one message, once. `size`: its full size when `raw` holds only its header (too large to fetch)."""
        size = len(raw) if size is None else size
        oversized = size > self.max_bytes
        parsed = _parse(raw, headers_only=oversized)
        token = self._token(parsed.message, envelope_recipients)
        with self._db.write() as session:
            record = InboundMail(
                message_id=parsed.key, receipt_key=receipt_key(parsed.key, token, parsed.sender),
                sender=parsed.sender[:320], outcome="ignored", reason="", received_at=self._clock.now(),
            )
            try:
                with session.begin_nested():
                    session.add(record)
            except IntegrityError:
                log.info("inbound mail %s was handled before; nothing to do", parsed.key)
                return InboundResult("duplicate", "handled before")
            result = self._decide(session, record, parsed, token, envelope_sender, oversized, size)
            record.outcome, record.reason = result.outcome, result.reason[:200]
            record.chat_message_id = result.chat_message_id
        log.info("inbound mail %s from %s: %s (%s)", parsed.key, parsed.sender or "?", result.outcome, result.reason)
        return result

    def _decide(
        self,
        session: Session,
        record: InboundMail,
        parsed: _Parsed,
        token: str | None,
        envelope_sender: str | None,
        oversized: bool,
        size: int,
    ) -> InboundResult:
        automatic = auto_reply_reason(parsed.message, parsed.sender, envelope_sender)
        if automatic is not None:
            return InboundResult("ignored", automatic)
        if token is None:
            return self._reject(session, record, parsed, "no_address")
        try:
            claim = self._replies.verify(token)
        except ReplyTokenError as error:
            return self._reject(session, record, parsed, error.reason, self._stale_seat(session, error.claim, parsed))
        seat = session.get(Seat, claim.seat_pk)
        if seat is None or seat.is_bot or seat.email is None or not claim.matches_version(seat.token_version):
            return self._reject(session, record, parsed, "revoked", self._stale_seat(session, claim, parsed))
        record.game_id = seat.game.id
        if parsed.sender.casefold() != seat.email.strip().casefold():
            return self._reject(session, record, parsed, "wrong_sender", seat)
        if oversized:
            return self._reject(session, record, parsed, "too_large", seat, size=size)
        assert isinstance(parsed.message, EmailMessage)
        text = reply_text(parsed.message)
        if not text.strip():
            return self._reject(session, record, parsed, "empty", seat)
        try:
            message = self._chat.post_in(session, seat.game, seat, text, source="email")
        except (ValidationError, RateLimited) as error:
            return self._reject(session, record, parsed, "refused", seat, said=error.message)
        confirm_mailbox(session, seat.email, self._clock.now())
        return InboundResult("posted", f"posted to game {seat.game.public_id} as seat {seat.seat_index}", message.id)

    def _stale_seat(self, session: Session, claim: ReplyClaim | None, parsed: _Parsed) -> Seat | None:
        """The seat an authentic but expired or withdrawn token named, if this reply came from that seat's address.

        A withdrawn token's seat may have changed hands since: its new player never hears of someone else's reply.
        """
        seat = session.get(Seat, claim.seat_pk) if claim is not None else None
        if seat is None or seat.is_bot or seat.email is None or not same_mailbox(seat.email, parsed.sender):
            return None
        return seat

    def _token(self, message: Message, envelope_recipients: Sequence[str]) -> str | None:
        candidates = list(envelope_recipients)
        for name in RECIPIENT_HEADERS:
            candidates.extend(address for _, address in getaddresses(_headers(message, name)))
        for address in candidates:
            token = self._replies.token_in(address)
            if token is not None:
                return token
        return None

    def _reject(
        self,
        session: Session,
        record: InboundMail,
        parsed: _Parsed,
        reason: str,
        seat: Seat | None = None,
        *,
        size: int = 0,
        said: str = "",
    ) -> InboundResult:
        """Refuse the message; tell `seat` why (a seat an authentic token named), and nobody else."""
        if seat is not None and self._may_bounce(session, seat):
            words = said or REASONS[reason].format(days=self._max_age_days, kb=self.max_bytes // 1024, size=size)
            self._outbox.enqueue_bounce(
                session,
                seat=seat,
                dedupe_key=f"reply_bounce:{record.receipt_key}"[:200],
                in_reply_to=parsed.message_id,
                context={"reason": words},
            )
        return InboundResult("rejected", reason if not said else f"{reason}: {said}")

    def _may_bounce(self, session: Session, seat: Seat) -> bool:
        """Never to ourselves (no loops), a few a day to any one mailbox, and a bounded number a day in all."""
        address = seat.email or ""
        if not address or address.casefold() in self._own or self._replies.is_ours(address):
            return False
        return self._limiter.allow(session, BOUNCES_PER_ADDRESS, mailbox_key(address)) and self._limiter.allow(
            session, self._bounces_per_day, "server"
        )


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
    basis = "\x00".join([message_key, token or "", sender.strip().casefold()])
    return "receipt:" + hashlib.sha256(basis.encode()).hexdigest()


def _parse(raw: bytes, *, headers_only: bool) -> _Parsed:
    if headers_only:
        head = re.split(rb"\r?\n\r?\n", raw[:MAX_HEADER_BYTES], maxsplit=1)[0]
        message: Message = BytesHeaderParser(policy=default_policy).parsebytes(head)
    else:
        message = BytesParser(policy=default_policy).parsebytes(raw)
    senders = [address for _, address in getaddresses(_headers(message, "From")) if "@" in address]
    message_id = _header(message, "Message-ID").strip() or None
    return _Parsed(
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


def inbound_for(runtime: Runtime) -> Inbound:
    """The inbound side of this configuration (for the scheduler, `pbem mail receive` and `pbem mail listen`)."""
    replies = runtime.outbox.replies
    if replies is None:
        raise ValueError("mail.reply_address is not configured: there is nothing to receive replies for")
    mail = runtime.config.mail
    return Inbound(
        runtime.db, runtime.clock, replies, runtime.chat, runtime.outbox, runtime.limiter,
        max_bytes=mail.inbound_max_kb * 1024,
        reply_max_age_days=mail.reply_max_age_days,
        own_addresses=[address for _, address in getaddresses([mail.from_address, mail.reply_address])],
        bounces_per_day=mail.bounces_per_day,
    )
