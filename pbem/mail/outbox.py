"""Composing email into the outbox, inside the caller's transaction.

Nothing is sent here: a row is rendered from `templates/email/<kind>.txt` and `.html` and added to the
session of the change that caused it, so an email exists if and only if that change commits. The
deliverer (`pbem/mail/deliver.py`) sends due rows later. One row, one recipient. A row may also be
`reserve`d with its content left for `compose`, which the deliverer calls when it takes the row: a turn
email, which is usually dropped unsent because the turn was played first, costs a move no rendering.

Every kind gets the same treatment without asking for it: the shared layout, the conversation
headers (`pbem/mail/threads.py`), `Auto-Submitted` so vacation responders stay quiet, for the
notifications a daily digest can replace, RFC 8058 one-click unsubscribe headers, and, when replies are
configured, a `Reply-To` signed for the recipient's seat (`pbem/mail/reply_address.py`), so answering
any game email talks to the table. Bounces to replies we could not take (`enqueue_bounce`) stand apart:
no game conversation, no Reply-To, `Auto-Submitted: auto-replied`.
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from babel.support import LazyProxy
from jinja2 import Environment, FileSystemLoader, StrictUndefined, select_autoescape
from sqlalchemy import select
from sqlalchemy.orm import Session

from pbem.clock import Clock
from pbem.i18n import DEFAULT_LANGUAGE, gettext, in_language, install_translations, language_in_effect, reading_language
from pbem.mail.plain_text import wrapped
from pbem.mail.reply_address import ReplyAddresses
from pbem.mail.threads import conversation_root, threading_headers
from pbem.mail.unsubscribe import UnsubscribeLinks
from pbem.models import Game, OutboxMessage, Seat
from pbem.models.row_writes import insert_row, insert_row_if
from pbem.paths import TEMPLATES_DIR

EMAIL_TEMPLATE_DIR = "email"
HOST_RECIPIENT = "host"
# Notifications that the daily digest replaces, so "unsubscribe" (switch to the digest) means something
# for them. Digests, game-over mail and host notices are always sent and carry no unsubscribe header.
ONE_CLICK_UNSUBSCRIBE_KINDS = frozenset({"game_started", "your_turn", "turn_reminder"})
# A subject as its email's writer gets it: words, or words still to be written in the recipient's language
# (pbem/service/emails.py makes every subject of its own so), written when the email is.
Subject = str | LazyProxy


@lru_cache(maxsize=1)
def email_templates() -> Environment:
    """Jinja2 for emails: HTML parts autoescaped, text parts not; a missing variable is an error, not a blank; words
    in the recipient's language (`_`, `{% trans %}`: pbem/i18n/)."""
    environment = Environment(
        loader=FileSystemLoader(TEMPLATES_DIR),
        autoescape=select_autoescape(enabled_extensions=("html",), default_for_string=False),
        undefined=StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=True,
    )
    install_translations(environment)
    return environment


def game_subject(game: Game) -> str:
    """One stable subject per game, so a player's mail client keeps the game in one conversation."""
    return f"{game.title} - Saboteur"


def host_subject(game: Game) -> str:
    """The host's notices form a conversation of their own, apart from the host's mail as a player."""
    return gettext("Host: %(title)s - Saboteur", title=game.title)


@dataclass(frozen=True)
class Recipient:
    address: str
    name: str
    key: str  # "seat:<index>" or "host": whose conversation this is
    seat: Seat | None


class Outbox:
    def __init__(
        self, message_domain: str, clock: Clock, unsubscribe: UnsubscribeLinks, replies: ReplyAddresses | None = None,
        language: str = DEFAULT_LANGUAGE,
    ) -> None:
        self._domain = message_domain
        self._clock = clock
        self._unsubscribe = unsubscribe
        self.replies = replies
        self._language = language  # the server's: for whoever has no language of their own (pbem/i18n/)

    def enqueue(
        self,
        session: Session,
        *,
        game: Game,
        seat: Seat,
        kind: str,
        dedupe_key: str,
        context: dict[str, Any],
        drop_when_stale: bool = False,
    ) -> OutboxMessage | None:
        """Queue one email to one seat; None if an email with this dedupe key was queued before.

        `drop_when_stale`: the email is about the decision pending now (the game's current snapshot);
        if that decision is taken before the email goes out, the deliverer drops it instead.
        """
        if seat.email is None:
            raise ValueError(f"seat {seat.seat_index} ({seat.display_name}) has no email address")
        recipient = Recipient(seat.email, seat.display_name, f"seat:{seat.seat_index}", seat)
        return self._queue(session, game, recipient, kind, dedupe_key, context, drop_when_stale)

    def enqueue_to_host(
        self, session: Session, *, game: Game, kind: str, dedupe_key: str, context: dict[str, Any]
    ) -> OutboxMessage | None:
        """Queue one notice to the game's host (who may or may not hold a seat)."""
        recipient = Recipient(game.host_email, "", HOST_RECIPIENT, None)
        return self._queue(session, game, recipient, kind, dedupe_key, context, drop_when_stale=False)

    def reserve(
        self, session: Session, *, game: Game, seat: Seat, kind: str, dedupe_key: str, drop_when_stale: bool = False
    ) -> str:
        """Queue one email to one seat whose content is composed later (`compose`), when the deliverer takes it.

        The row is in the caller's transaction like any other, so the email exists if and only if the change
        commits; only the rendering waits, and is skipped if the email is dropped first. For an email about a
        snapshot the caller's transaction has just created: no row can hold its dedupe key yet, so none is
        looked for (the unique constraint stays the guard). Inserted as a statement, like the rest of a move's
        writes (pbem/models/row_writes.py); returns the email's Message-ID.
        """
        if seat.email is None:
            raise ValueError(f"seat {seat.seat_index} ({seat.display_name}) has no email address")
        values = self._queued(
            game_id=game.id, seat_id=seat.id, to_address=seat.email, kind=kind, dedupe_key=dedupe_key,
            message_id=self._message_id(), game_seq=game.current_seq, drop_when_stale=drop_when_stale,
        )
        insert_row(session, OutboxMessage, values)
        return values["message_id"]

    def compose(
        self, session: Session, message: OutboxMessage, *, game: Game, seat: Seat, context: dict[str, Any]
    ) -> None:
        """Write the content of a row queued by `reserve`, to the seat's current address."""
        if seat.email is None:
            raise ValueError(f"seat {seat.seat_index} ({seat.display_name}) has no email address")
        recipient = Recipient(seat.email, seat.display_name, f"seat:{seat.seat_index}", seat)
        message.to_address = seat.email
        self._write_content(session, message, game, recipient, context)

    def _queue(
        self,
        session: Session,
        game: Game,
        recipient: Recipient,
        kind: str,
        dedupe_key: str,
        context: dict[str, Any],
        drop_when_stale: bool,
    ) -> OutboxMessage | None:
        if self._queued_before(session, dedupe_key):
            return None
        message = OutboxMessage(**self._queued(
            game_id=game.id, seat_id=recipient.seat.id if recipient.seat is not None else None,
            to_address=recipient.address, kind=kind, dedupe_key=dedupe_key, message_id=self._message_id(),
            game_seq=game.current_seq, drop_when_stale=drop_when_stale,
        ))
        self._write_content(session, message, game, recipient, context)
        session.add(message)
        return message

    def _write_content(
        self, session: Session, message: OutboxMessage, game: Game, recipient: Recipient, context: dict[str, Any]
    ) -> None:
        """Subject, conversation and list headers, and both parts, for an email about `game`, in the recipient's
        language: a seat's (pbem/service/seats/languages.py), the host's game's."""
        with in_language(self.language_of(game, recipient.seat)) as language:
            self._write_content_in(session, message, game, recipient, context, language)

    def language_of(self, game: Game, seat: Seat | None) -> str:
        """The language a seat's email is written in (its choice, its browser's, its game's, the server's); the
        host's notices are in the game's."""
        if seat is None:
            return reading_language(game.language, self._language)
        return reading_language(seat.language, seat.browser_language, game.language, self._language)

    def _write_content_in(
        self, session: Session, message: OutboxMessage, game: Game, recipient: Recipient, context: dict[str, Any],
        language: str,
    ) -> None:
        root = conversation_root(
            session, game=game, recipient=recipient.key, address=recipient.address, message_id=message.message_id,
            now=self._clock.now(),
        )
        base_subject = game_subject(game) if recipient.seat is not None else host_subject(game)
        subject, headers = threading_headers(base_subject, root)
        headers["Auto-Submitted"] = "auto-generated"
        headers["Content-Language"] = language
        variables = {"game_title": game.title, "recipient_name": recipient.name, **context}
        if recipient.seat is not None and message.kind in ONE_CLICK_UNSUBSCRIBE_KINDS:
            unsubscribe_url = self._unsubscribe.url(game.public_id, recipient.seat.seat_index, recipient.address)
            headers["List-Unsubscribe"] = f"<{unsubscribe_url}>"
            headers["List-Unsubscribe-Post"] = "List-Unsubscribe=One-Click"
            variables["unsubscribe_url"] = unsubscribe_url
        if recipient.seat is not None and self.replies is not None:
            headers["Reply-To"] = self.replies.header(recipient.seat.id, recipient.seat.token_version, game.title)
            variables["chat_reply"] = True
        _fill(message, subject, headers, variables)

    def enqueue_bounce(
        self,
        session: Session,
        *,
        seat: Seat,
        kind: str,
        dedupe_key: str,
        subject: Subject,
        in_reply_to: str | None,
        context: dict[str, Any],
    ) -> OutboxMessage | None:
        """A short answer to a reply that reached a seat's reply address and was not taken (`reply_bounce`).

        Only ever to that seat's own address, whoever the reply claimed to come from, and in words of our own (never
        the reply's subject). Outside the game's conversation; `Auto-Submitted: auto-replied` so that no well-behaved
        program answers it (and if one does, the inbound side ignores the answer: no loops).
        """
        if seat.email is None or self._queued_before(session, dedupe_key):
            return None
        game = seat.game
        language = self.language_of(game, seat)
        headers = {"Auto-Submitted": "auto-replied", "Content-Language": language}
        if in_reply_to:
            headers["In-Reply-To"] = in_reply_to
            headers["References"] = in_reply_to
        message = OutboxMessage(**self._queued(
            game_id=game.id, seat_id=seat.id, to_address=seat.email, kind=kind,
            dedupe_key=dedupe_key, message_id=self._message_id(), game_seq=None, drop_when_stale=False,
        ))
        with in_language(language):
            _fill(message, str(subject), headers,
                  {"game_title": game.title, "recipient_name": seat.display_name, **context})
        session.add(message)
        return message

    def enqueue_standalone(
        self, session: Session, *, to_address: str, kind: str, dedupe_key: str, subject: Subject,
        context: dict[str, Any], language: str | None = None,
    ) -> OutboxMessage | None:
        """One email about no game (a host's sign-in link): no conversation, no Reply-To, no unsubscribe. In
        `language`, else the language of the page that asked for it, else the server's."""
        if self._queued_before(session, dedupe_key):
            return None
        message = OutboxMessage(**self._standalone(to_address, kind, dedupe_key, subject, context, language))
        session.add(message)
        return message

    def enqueue_standalone_if(
        self, session: Session, wanted: bool, *, to_address: str, kind: str, dedupe_key: str, subject: Subject,
        context: dict[str, Any],
    ) -> None:
        """`enqueue_standalone` for a caller whose cost must not tell whether it sent (a sign-in form): the email is
        rendered and one INSERT run either way, and the row is written only when `wanted`. The dedupe key must be
        new (random), as none is looked for: the unique constraint stays the guard."""
        insert_row_if(session, OutboxMessage, self._standalone(to_address, kind, dedupe_key, subject, context), wanted)

    def _standalone(
        self, to_address: str, kind: str, dedupe_key: str, subject: Subject, context: dict[str, Any],
        language: str | None = None,
    ) -> dict[str, Any]:
        """The columns of one email about no game, its content rendered."""
        values = self._queued(
            game_id=None, seat_id=None, to_address=to_address, kind=kind, dedupe_key=dedupe_key,
            message_id=self._message_id(), game_seq=None, drop_when_stale=False,
        )
        message = OutboxMessage(**values)
        with in_language(language or language_in_effect() or self._language) as written_in:
            words = str(subject)  # in the language the email is written in
            _fill(
                message, words, {"Auto-Submitted": "auto-generated", "Content-Language": written_in},
                {"game_title": words, "masthead": "Saboteur", "recipient_name": "", **context},
            )
        return {**values, "subject": message.subject, "headers": message.headers, "body_text": message.body_text,
                "body_html": message.body_html}

    def _queued_before(self, session: Session, dedupe_key: str) -> bool:
        return session.scalar(select(OutboxMessage.id).where(OutboxMessage.dedupe_key == dedupe_key)) is not None

    def _message_id(self) -> str:
        """Made once when the row is queued, so a retry resends the very same message."""
        return f"<{secrets.token_hex(16)}@{self._domain}>"

    def _queued(
        self,
        *,
        game_id: int | None,
        seat_id: int | None,
        to_address: str,
        kind: str,
        dedupe_key: str,
        message_id: str,
        game_seq: int | None,
        drop_when_stale: bool,
    ) -> dict[str, Any]:
        """The columns of one email queued and due now, without content: an ORM row's (its content then comes from
        `_fill`), or a statement's (`reserve`)."""
        now = self._clock.now()
        return {
            "game_id": game_id, "seat_id": seat_id, "to_address": to_address, "kind": kind, "dedupe_key": dedupe_key,
            "message_id": message_id, "headers": {}, "status": "queued", "attempts": 0, "next_attempt_at": now,
            "game_seq": game_seq, "drop_when_stale": drop_when_stale, "created_at": now,
        }


def _fill(message: OutboxMessage, subject: str, headers: dict[str, Any], variables: dict[str, Any]) -> None:
    """The content of one email: its two parts rendered from `templates/email/<kind>.txt` and `.html`."""
    templates = email_templates()
    message.subject = subject
    message.headers = headers
    message.body_text = wrapped(templates.get_template(f"{EMAIL_TEMPLATE_DIR}/{message.kind}.txt").render(variables))
    html = templates.get_template(f"{EMAIL_TEMPLATE_DIR}/{message.kind}.html")
    message.body_html = html.render({**variables, "preheader": inbox_line(message.body_text)})


def inbox_line(body_text: str) -> str:
    """What an email wants, in the words a list of emails shows under its subject: the text part's first paragraph
    (each kind's `preheader` block, on one line unless wrapped), which the HTML part repeats, hidden, before anything
    else."""
    return " ".join(body_text.split("\n\n", 1)[0].split())
