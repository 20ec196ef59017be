"""The chat panel of a seat's turn page (`templates/play/_chat.html`): its newest messages as the reader sees them.

The turn page's side column and the template global `chat_panel(access)` (registered by pbem/web/chat.py, which
holds table talk's routes) both read it from here.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import asdict, dataclass
from datetime import datetime
from typing import Any

from flask import render_template
from markupsafe import Markup

from pbem.i18n import current_language
from pbem.service.talk.chat import MAX_LENGTH
from pbem.service.talk.chat_lines import ChatLine
from pbem.times import local_time, machine_time
from pbem.web.app_context import runtime
from pbem.web.seat_access import SeatAccess

PANEL_SIZE = 40


@dataclass(frozen=True)
class ChatEntry:
    """One message as a reader's page shows it: the time in the reader's zone, "you" for their own."""

    id: int
    kind: str  # "seat", "host" or "system"
    name: str
    is_you: bool
    text: str
    when: str
    at: datetime  # for <time datetime>, through the `machine_time` filter
    by_email: bool

    def to_json(self) -> dict[str, Any]:
        return {**asdict(self), "at": machine_time(self.at)}


@dataclass(frozen=True)
class ChatPanel:
    entries: list[ChatEntry]
    drawn: Markup  # the entries as list items, drawn once per chat count, reader and time zone in this process
    has_earlier: bool
    last_id: int
    chat_emails: bool
    max_length: int


def chat_entries(lines: Sequence[ChatLine], zone_name: str, reader_seat: int | None = None) -> list[ChatEntry]:
    """Messages for a page (the turn page, or the host's page with `reader_seat` None)."""
    return [
        ChatEntry(
            id=line.id,
            kind=line.kind,
            name=line.name or "",
            is_you=line.kind == "seat" and line.seat == reader_seat,
            text=line.said,
            when=local_time(line.created_at, zone_name),
            at=line.created_at,
            by_email=line.source == "email",
        )
        for line in lines
    ]


def chat_panel(access: SeatAccess) -> ChatPanel:
    """The chat panel of a seat's turn page: its newest messages, drawn once per chat version, reader, zone and
    language."""
    seat = access.link.seat
    chat = runtime().chat.seat_view(access.link.game_id, seat, limit=PANEL_SIZE)
    lines = chat.page.lines

    def draw() -> tuple[list[ChatEntry], Markup]:
        entries = chat_entries(lines, chat.timezone, seat)
        return entries, Markup(render_template("play/_chat_entries.html", entries=entries))

    key = ("chat_entries", access.link.game_id, chat.version, seat, chat.timezone, current_language())
    entries, drawn = runtime().db.memo.get_or_make("fragment", key, draw)
    return ChatPanel(
        entries=entries,
        drawn=drawn,
        has_earlier=chat.page.has_earlier,
        last_id=lines[-1].id if lines else 0,
        chat_emails=chat.chat_emails,
        max_length=MAX_LENGTH,
    )
