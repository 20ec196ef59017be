"""Table talk on the turn page: the chat panel, posting, the JSON the page's script polls, and chat settings.

The panel is a partial of the turn page (`templates/play/_chat.html`), filled by the template global
`chat_panel(access)` (pbem/web/chat_panel.py). Routes live under both forms of a seat's address, like the player's own
(`/play/<token>/chat...` and `/table/<game_id>/chat...`). Posting is a plain form (POST, CSRF, then a
redirect back to the chat: POST-redirect-GET); the page's script (`static/chat.js`) posts the same form
without a reload and asks `chat.json?after=<id>` for new messages, a GET that changes nothing. Reporting
what the page has shown (for the emails' "since you last looked") is a POST of its own.

Text is never marked safe: templates escape it and the script sets `textContent`; links stay text.
"""

from __future__ import annotations

from typing import Any

from flask import Blueprint, Response, flash, jsonify, redirect, render_template, request

from pbem.errors import PbemError
from pbem.i18n import gettext, lazy_gettext
from pbem.web import csrf, player
from pbem.web.app_context import runtime
from pbem.web.chat_panel import chat_entries, chat_panel
from pbem.web.errors import wants_json
from pbem.web.params import Message, optional_int
from pbem.web.seat_access import SeatAccess, seat_routes
from pbem.web.security import no_store

blueprint = Blueprint("chat", __name__)
csrf.protect(blueprint)
blueprint.add_app_template_global(chat_panel, "chat_panel")
seat_route = seat_routes(blueprint)

HISTORY_SIZE = 100
JSON_SIZE = 100


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
    after = optional_int(request.args.get("after"), _message_number("after")) or 0
    chat = runtime().chat.seat_view(access.link.game_id, access.link.seat, after=after, limit=JSON_SIZE)
    entries = chat_entries(chat.page.lines, chat.timezone, access.link.seat)
    return jsonify(messages=[entry.to_json() for entry in entries], last_id=entries[-1].id if entries else after)


@seat_route("/chat/read", ["POST"])
def chat_read(access: SeatAccess) -> tuple[str, int]:
    """The page's script reports the newest message it has shown, so emails skip what was read."""
    upto = optional_int(request.form.get("upto"), _message_number("upto")) or 0
    runtime().chat.mark_read(access.link.game_id, access.link.seat, upto)
    return "", 204


@seat_route("/chat/settings", ["POST"])
def chat_settings(access: SeatAccess) -> Any:
    wanted = request.form.get("chat_emails") == "yes"
    runtime().chat.set_chat_emails(access.link.game_id, access.link.seat, wanted)
    flash(
        gettext("Saved: an email when people write at the table (at most one every 15 minutes).")
        if wanted
        else gettext("Saved: no emails for table talk (turn emails and digests still show it)."),
        "notice",
    )
    return redirect(access.url("player.table") + "#chat", 303)


@seat_route("/chat/history", ["GET"])
def chat_history(access: SeatAccess) -> str:
    """Earlier messages, a page at a time, for anyone (scripts or not) who wants to read back."""
    before = optional_int(request.args.get("before"), _message_number("before")) or None
    chat = runtime().chat.seat_view(access.link.game_id, access.link.seat, before=before, limit=HISTORY_SIZE)
    entries = chat_entries(chat.page.lines, chat.timezone, access.link.seat)
    title = runtime().games.current_state(access.link.game_id, access.link.seat).title
    return render_template(
        "play/chat_history.html", access=access, entries=entries, has_earlier=chat.page.has_earlier, title=title
    )


def _message_number(field: str) -> Message:
    return lazy_gettext("'%(field)s' must be a message number.", field=field)


blueprint.after_request(no_store)


@blueprint.errorhandler(PbemError)
def on_error(error: PbemError) -> Any:
    """As on the rest of the turn page: JSON for the script, else the table again with the reason."""
    return player.on_error(error)
