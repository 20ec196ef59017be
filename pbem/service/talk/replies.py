"""Replies by email: each message that reaches the reply address becomes a chat line, a short bounce, or nothing.

Both ways in (`pbem/mail/imap_poll.py` polling a mailbox, `pbem/mail/listener.py` taking SMTP) hand the raw
message to `Inbound.receive` (built in `pbem/runtime.py`), which decides in one transaction:
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

import logging
from collections.abc import Sequence
from datetime import timedelta
from email.message import EmailMessage, Message

from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from pbem.addresses import address_key, mailbox_key, same_mailbox
from pbem.clock import Clock
from pbem.db import Database
from pbem.errors import RateLimited, ValidationError
from pbem.i18n import gettext, in_language, ngettext
from pbem.mail.inbound import InboundResult, ParsedMail, auto_reply_reason, parse, receipt_key, recipients
from pbem.mail.outbox import Outbox
from pbem.mail.reply_address import ReplyAddresses, ReplyClaim, ReplyTokenError
from pbem.mail.reply_text import reply_text
from pbem.models import InboundMail, Seat
from pbem.service.confirmed_mailboxes import confirm_mailbox
from pbem.service.emails import REPLY_BOUNCE
from pbem.service.rate_limits import Limit, RateLimiter
from pbem.service.talk.chat import ChatService
from pbem.words.table import N_

log = logging.getLogger(__name__)

# Backscatter guards: one mailbox gets at most this many bounces from us a day; the server at most
# `mail.bounces_per_day` in all.
BOUNCES_PER_ADDRESS = Limit("reply_bounce", count=5, window=timedelta(days=1))
BOUNCE_DAY = timedelta(days=1)

REASONS = {
    "no_address": N_(
        "The address you wrote to takes replies to game emails only. To talk to the table, reply to the latest "
        "email from the game, or write on your turn page."
    ),
    "invalid": N_(
        "The address you replied to is not one we gave out (it may have been changed or cut short). Reply to "
        "the latest email from the game, or write on your turn page."
    ),
    "revoked": N_(
        "That reply address was withdrawn when the seat's links were renewed. Reply to a newer email from the "
        "game, or write on your turn page."
    ),
    "wrong_sender": N_(
        "The reply came from a different address than the one the game writes to, so it could not be posted. "
        "If it was yours, please reply from the mailbox that received the game's email."
    ),
    "empty": N_(
        "We found no new text in your reply, only the quoted email. Write your message above the quoted text."
    ),
}


def reason_words(reason: str, *, days: int, kb: int) -> str:
    """Why a reply was not posted, in the language being written (the seat's: `Inbound._reject`)."""
    if reason == "expired":
        return ngettext(
            "You replied to an email older than %(num)d day, and its reply address no longer works. Reply to a "
            "newer email from the game, or write on your turn page.",
            "You replied to an email older than %(num)d days, and its reply address no longer works. Reply to a "
            "newer email from the game, or write on your turn page.",
            days,
        )
    if reason == "too_large":
        return gettext(
            "Your email was larger than %(kb)s KB. Replies are for a few lines of text: please send it again "
            "without attachments or pictures.", kb=kb,
        )
    return gettext(REASONS[reason])


class Inbound:
    """The `pbem.mail.inbound.Receiver` of replies: each one posted to the game's chat, bounced or ignored."""

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
        self._own = {address_key(address) for address in own_addresses}
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
        parsed = parse(raw, headers_only=oversized)
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
        parsed: ParsedMail,
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
        if address_key(parsed.sender) != address_key(seat.email):
            return self._reject(session, record, parsed, "wrong_sender", seat)
        if oversized:
            return self._reject(session, record, parsed, "too_large", seat, size=size)
        assert isinstance(parsed.message, EmailMessage)
        text = reply_text(parsed.message)
        if not text.strip():
            return self._reject(session, record, parsed, "empty", seat)
        try:
            with in_language(self._outbox.language_of(seat.game, seat)):  # a refusal is told in the seat's words
                message = self._chat.post_in(session, seat.game, seat, text, source="email")
        except (ValidationError, RateLimited) as error:
            return self._reject(session, record, parsed, "refused", seat, said=error.message)
        confirm_mailbox(session, seat.email, self._clock.now())
        return InboundResult("posted", f"posted to game {seat.game.public_id} as seat {seat.seat_index}", message.id)

    def _stale_seat(self, session: Session, claim: ReplyClaim | None, parsed: ParsedMail) -> Seat | None:
        """The seat an authentic but expired or withdrawn token named, if this reply came from that seat's address.

        A withdrawn token's seat may have changed hands since: its new player never hears of someone else's reply.
        """
        seat = session.get(Seat, claim.seat_pk) if claim is not None else None
        if seat is None or seat.is_bot or seat.email is None or not same_mailbox(seat.email, parsed.sender):
            return None
        return seat

    def _token(self, message: Message, envelope_recipients: Sequence[str]) -> str | None:
        for address in recipients(message, envelope_recipients):
            token = self._replies.token_in(address)
            if token is not None:
                return token
        return None

    def _reject(
        self,
        session: Session,
        record: InboundMail,
        parsed: ParsedMail,
        reason: str,
        seat: Seat | None = None,
        *,
        size: int = 0,
        said: str = "",
    ) -> InboundResult:
        """Refuse the message; tell `seat` why (a seat an authentic token named), and nobody else."""
        if seat is not None and self._may_bounce(session, seat):
            with in_language(self._outbox.language_of(seat.game, seat)):
                words = said or reason_words(reason, days=self._max_age_days, kb=self.max_bytes // 1024)
            self._outbox.enqueue_bounce(
                session,
                seat=seat,
                kind=REPLY_BOUNCE.kind,
                dedupe_key=REPLY_BOUNCE.key(record.receipt_key)[:200],
                subject=REPLY_BOUNCE.subject(seat.game),
                in_reply_to=parsed.message_id,
                context={"reason": words},
            )
        return InboundResult("rejected", reason if not said else f"{reason}: {said}")

    def _may_bounce(self, session: Session, seat: Seat) -> bool:
        """Never to ourselves (no loops), a few a day to any one mailbox, and a bounded number a day in all."""
        address = seat.email or ""
        if not address or address_key(address) in self._own or self._replies.is_ours(address):
            return False
        return self._limiter.allow(session, BOUNCES_PER_ADDRESS, mailbox_key(address)) and self._limiter.allow(
            session, self._bounces_per_day, "server"
        )
