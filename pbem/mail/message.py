"""Turning an outbox row into the email that goes over the wire: one place, for every backend.

A multipart/alternative message (plain text first, HTML second, as RFC 2046 orders them: clients show
the last part they can), one address in `To`, never Cc or Bcc. Pictures the HTML part shows (a turn email's
board) go with it as a multipart/related, each named by its Content-ID (`<img src="cid:...">`). The Date is when the
email was composed and the MIME boundaries are named after the Message-ID, so every build of a row gives the same
bytes: a retry resends the very same message, and the mail catcher shows what SMTP carried.

The sender is the configured address under a name that says what the email wants ("Your turn - Saboteur"): a game's
emails share one subject, so that every client keeps the game in one conversation, and the name is what tells its
rows apart in an inbox list (docs/email.md). An email with a subject of its own keeps the configured name.

Headers are written by `WIRE_POLICY`: a header of plain ASCII is folded only at its own spaces, never into RFC 2047
encoded-words, which are for words a person reads: a `List-Unsubscribe` link or a Message-ID so written is none.
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass
from datetime import datetime
from email.message import EmailMessage
from email.policy import EmailPolicy
from email.utils import format_datetime, formataddr, parseaddr
from typing import Any

from pbem.i18n import gettext, in_language
from pbem.models import OutboxMessage
from pbem.words.table import N_

# RFC 5322's limit for any line; 78 is what a line should keep to where it can.
LINE_LIMIT = 998
# A header value cut before each run of spaces or tabs: where it may be folded.
WORDS = re.compile(r"[ \t]*[^ \t]+")
# What a game's email wants, before the configured name in its sender's: a list shows the sender first, and
# often only its first fifteen characters (neomutt), so each label is short and differs from the others at once.
# Static words about the recipient's own game: never a name, an address or anything the game hides. In the language the
# email is written in (its Content-Language); English ones are plain ASCII joined by " - ", so the From stays a header
# of plain words (no encoded-words) when the configured name is one; a German or Korean label is encoded as any word.
SENDER_LABELS = {
    "game_started": N_("Game started"),
    "your_turn": N_("Your turn"),
    "turn_reminder": N_("Reminder"),
    "nudge": N_("Host's nudge"),
    "deadline_warning": N_("Time nearly up"),
    "deadline_passed": N_("Turn skipped"),
    "round_digest": N_("Round over"),
    "game_over": N_("Game over"),
    "game_closed": N_("Game ended"),
    "rolled_back": N_("Turns undone"),
    "daily_digest": N_("Daily digest"),
    "chat_messages": N_("Table talk"),
    "handover": N_("Your new seat"),
    "seat_link": N_("Your link"),
    "fresh_link": N_("Your fresh link"),
    "address_change": N_("Confirm address"),
    "host_player_stalling": N_("Table waiting"),
    "host_seat_absent": N_("Seat absent"),
    "host_move_refused": N_("Move refused"),
    "host_mail_failing": N_("Mail failing"),
    "host_channel_off": N_("Channel off"),
}
# The name a label goes with when the configured address has none.
GAME_NAME = "Saboteur"


class WirePolicy(EmailPolicy):
    """The email library's default policy, except that a header of plain ASCII is folded only at its spaces.

    The library writes a word too long for one line (a long link, a Message-ID) as encoded-words; here it stays
    whole on a line of its own, within RFC 5322's 998 characters. Anything else (words not in ASCII, a value that
    reads like an encoded-word, a word longer than that) is folded by the library as before.
    """

    def fold(self, name: str, value: Any) -> str:
        return self._folded_at_spaces(name, value) or super().fold(name, value)

    def fold_binary(self, name: str, value: Any) -> bytes:
        folded = self._folded_at_spaces(name, value)
        return folded.encode("ascii") if folded is not None else super().fold_binary(name, value)

    def _folded_at_spaces(self, name: str, value: Any) -> str | None:
        text = str(value)
        words = WORDS.findall(" " + text)
        if not text.isascii() or "=?" in text or "".join(words) != " " + text or "\r" in text or "\n" in text:
            return None
        width = self.max_line_length or LINE_LIMIT
        lines = [name + ":" + words[0]]
        for word in words[1:]:
            if len(lines[-1]) + len(word) > width:
                lines.append(word)
            else:
                lines[-1] += word
        if any(len(line) > LINE_LIMIT for line in lines):
            return None
        return self.linesep.join(lines) + self.linesep


WIRE_POLICY = WirePolicy()


@dataclass(frozen=True)
class InlineImage:
    """A PNG the HTML part shows by `cid:<content_id>`."""

    content_id: str  # without angle brackets
    data: bytes
    filename: str


@dataclass(frozen=True)
class OutgoingMail:
    """An outbox row as plain data: what a deliverer holds while it talks to the relay (no session open)."""

    id: int
    game_id: int | None
    seat_id: int | None
    kind: str
    to_address: str
    message_id: str
    subject: str
    body_text: str
    body_html: str
    headers: dict[str, Any]
    attempts: int
    created_at: datetime
    inline: tuple[InlineImage, ...] = ()


def build_message(mail: OutgoingMail, from_address: str) -> EmailMessage:
    message = EmailMessage(policy=WIRE_POLICY)
    message["From"] = sender(from_address, mail.kind, mail.headers.get("Content-Language"))
    message["To"] = mail.to_address
    message["Subject"] = mail.subject
    message["Date"] = format_datetime(mail.created_at)
    message["Message-ID"] = mail.message_id
    for name, value in mail.headers.items():
        if not name.lower().startswith("content-"):
            message[name] = value
    message.set_content(mail.body_text)
    message.add_alternative(mail.body_html, subtype="html")
    # Set after the parts: making a message multipart moves its Content-* headers into the first part.
    for name, value in mail.headers.items():
        if name.lower().startswith("content-"):
            message[name] = value
    html = message.get_body(("html",))
    assert html is not None
    for image in mail.inline:
        html.add_related(image.data, "image", "png", cid=f"<{image.content_id}>", filename=image.filename,
                         disposition="inline")
    _name_boundaries(message, mail.message_id)
    return message


def sender(from_address: str, kind: str, language: str | None = None) -> str:
    """The From of an email of `kind`: the configured address, its name led by what the email wants, in `language`
    (the email's own: its Content-Language)."""
    label = SENDER_LABELS.get(kind)
    if label is None:
        return from_address
    with in_language(language):
        words = gettext(label)
    name, address = parseaddr(from_address)
    return formataddr((f"{words} - {name or GAME_NAME}", address))


def _name_boundaries(message: EmailMessage, message_id: str) -> None:
    """Each multipart's boundary from the Message-ID (random, and unknown to whoever wrote the text) and its place."""
    stem = hashlib.sha256(message_id.encode()).hexdigest()[:32]
    multiparts = [part for part in message.walk() if part.is_multipart()]
    for place, part in enumerate(multiparts):
        part.set_boundary(f"=_{stem}.{place}")


def wire_bytes(message: EmailMessage) -> bytes:
    """The message as SMTP carries it: every header and part as `WIRE_POLICY` writes them, lines ended by CRLF."""
    return message.as_bytes(policy=message.policy.clone(linesep="\r\n"))


def outgoing_mail(row: OutboxMessage, inline: tuple[InlineImage, ...] = ()) -> OutgoingMail:
    if row.subject is None or row.body_text is None or row.body_html is None:
        raise ValueError(f"outbox row {row.id} has not been written yet (pbem/mail/deliver.py writes it on claim)")
    return OutgoingMail(
        id=row.id,
        game_id=row.game_id,
        seat_id=row.seat_id,
        kind=row.kind,
        to_address=row.to_address,
        message_id=row.message_id,
        subject=row.subject,
        body_text=row.body_text,
        body_html=row.body_html,
        headers=dict(row.headers),
        attempts=row.attempts,
        created_at=row.created_at,
        inline=inline,
    )
