"""Table talk on the turn page: the chat panel, posting, the JSON the page's script polls, and chat settings.

The panel is a partial of the turn page (`templates/play/_chat.html`), filled by the template global
`chat_panel(access)`. Routes live under both forms of a seat's address, like the player's own
(`/play/<token>/chat...` and `/table/<game_id>/chat...`). Posting is a plain form (POST, CSRF, then a
redirect back to the chat: POST-redirect-GET); the page's script (`static/chat.js`) posts the same form
without a reload and asks `chat.json?after=<id>` for new messages, a GET that changes nothing. Reporting
what the page has shown (for the emails' "since you last looked") is a POST of its own.

Text is never marked safe: templates escape it and the script sets `textContent`; links stay text.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import asdict, dataclass
from datetime import datetime
from typing import Any

from flask import Blueprint, Response, flash, jsonify, redirect, render_template, request
from markupsafe import Markup

from pbem.errors import PbemError
from pbem.service.talk.chat import MAX_LENGTH
from pbem.service.talk.chat_lines import ChatLine
from pbem.times import local_time, machine_time
from pbem.web import csrf, player
from pbem.web.app_context import runtime
from pbem.web.errors import wants_json
from pbem.web.params import optional_int
from pbem.web.seat_access import SeatAccess, seat_routes
from pbem.web.security import no_store

blueprint = Blueprint("chat", __name__)
csrf.protect(blueprint)
seat_route = seat_routes(blueprint)

PANEL_SIZE = 40
HISTORY_SIZE = 100
JSON_SIZE = 100
MESSAGE_NUMBER = "'{}' must be a message number."


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
            text=line.text,
            when=local_time(line.created_at, zone_name),
            at=line.created_at,
            by_email=line.source == "email",
        )
        for line in lines
    ]


@blueprint.app_template_global("chat_panel")
def chat_panel(access: SeatAccess) -> ChatPanel:
    seat = access.link.seat
    chat = runtime().chat.seat_view(access.link.game_id, seat, limit=PANEL_SIZE)
    lines = chat.page.lines

    def draw() -> tuple[list[ChatEntry], Markup]:
        entries = chat_entries(lines, chat.timezone, seat)
        return entries, Markup(render_template("play/_chat_entries.html", entries=entries))

    key = ("chat_entries", access.link.game_id, chat.version, seat, chat.timezone)
    entries, drawn = runtime().db.memo.get_or_make("fragment", key, draw)
    return ChatPanel(
        entries=entries,
        drawn=drawn,
        has_earlier=chat.page.has_earlier,
        last_id=lines[-1].id if lines else 0,
        chat_emails=chat.chat_emails,
        max_length=MAX_LENGTH,
    )


@seat_route("/chat", ["POST"])
def post_chat(access: SeatAccess) -> Any:
    line = runtime().chat.post(access.link.game_id, access.link.seat, request.form.get("text", ""))
    if wants_json():
        zone = runtime().seats.profile(access.link.game_id, access.link.seat).timezone
        [entry] = chat_entries([line], zone, access.link.seat)
        return jsonify(message=entry.to_json()), 201
    return redirect(access.url("player.table") + "#chat", 303)


@seat_route("/chat.json", ["GET"])
def chat_json(access: SeatAccess) -> Response:
    """The messages after `after` (oldest first); reads only, so a mail scanner or a prefetch changes nothing."""
    after = optional_int(request.args.get("after"), MESSAGE_NUMBER.format("after")) or 0
    chat = runtime().chat.seat_view(access.link.game_id, access.link.seat, after=after, limit=JSON_SIZE)
    entries = chat_entries(chat.page.lines, chat.timezone, access.link.seat)
    return jsonify(messages=[entry.to_json() for entry in entries], last_id=entries[-1].id if entries else after)


@seat_route("/chat/read", ["POST"])
def chat_read(access: SeatAccess) -> tuple[str, int]:
    """The page's script reports the newest message it has shown, so emails skip what was read."""
    upto = optional_int(request.form.get("upto"), MESSAGE_NUMBER.format("upto")) or 0
    runtime().chat.mark_read(access.link.game_id, access.link.seat, upto)
    return "", 204


@seat_route("/chat/settings", ["POST"])
def chat_settings(access: SeatAccess) -> Any:
    wanted = request.form.get("chat_emails") == "yes"
    runtime().chat.set_chat_emails(access.link.game_id, access.link.seat, wanted)
    flash(
        "Saved: an email when people write at the table (at most one every 15 minutes)."
        if wanted
        else "Saved: no emails for table talk (turn emails and digests still show it).",
        "notice",
    )
    return redirect(access.url("player.table") + "#chat", 303)


@seat_route("/chat/history", ["GET"])
def chat_history(access: SeatAccess) -> str:
    """Earlier messages, a page at a time, for anyone (scripts or not) who wants to read back."""
    before = optional_int(request.args.get("before"), MESSAGE_NUMBER.format("before")) or None
    chat = runtime().chat.seat_view(access.link.game_id, access.link.seat, before=before, limit=HISTORY_SIZE)
    entries = chat_entries(chat.page.lines, chat.timezone, access.link.seat)
    title = runtime().games.current_state(access.link.game_id, access.link.seat).title
    return render_template(
        "play/chat_history.html", access=access, entries=entries, has_earlier=chat.page.has_earlier, title=title
    )


blueprint.after_request(no_store)


@blueprint.errorhandler(PbemError)
def on_error(error: PbemError) -> Any:
    """As on the rest of the turn page: JSON for the script, else the table again with the reason."""
    return player.on_error(error)
