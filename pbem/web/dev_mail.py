"""The mail catcher's window, development mode only: every email the server queued, as its recipient would see it.

Registered only in development (production answers 404). Mail comes from the outbox table, never from
a mailbox. The HTML part is served on its own with a CSP sandbox (an opaque origin: no script, no
access to this application's cookies or pages) and shown in a sandboxed iframe that may only open
links in a new tab; the app's own pages keep their Content-Security-Policy.
"""

from __future__ import annotations

import re

from flask import Blueprint, Response, abort, render_template
from markupsafe import Markup, escape
from sqlalchemy import select

from pbem.mail.message import build_message, outgoing_mail
from pbem.models import OutboxMessage
from pbem.web.app_context import runtime

blueprint = Blueprint("dev_mail", __name__, url_prefix="/dev/mail")

LIST_LIMIT = 200
URL = re.compile(r"https?://[^\s<>\"']+")
SANDBOX_POLICY = "; ".join(
    [
        "sandbox allow-popups allow-popups-to-escape-sandbox",
        "default-src 'none'",
        "style-src 'unsafe-inline'",
        "img-src data:",
        "frame-ancestors 'self'",
    ]
)
# Links in the framed email open in a new tab (the sandbox and the turn page both refuse to be framed).
NEW_TAB = '<base target="_blank">'


@blueprint.get("")
def inbox() -> str:
    """The mail list, under a banner with the players' links to the unfinished demo games (`pbem demo`)."""
    current = runtime()
    with current.db.read() as session:
        messages = list(
            session.scalars(select(OutboxMessage).order_by(OutboxMessage.id.desc()).limit(LIST_LIMIT))
        )
    return render_template("dev/mail_list.html", messages=messages, demos=current.games.demo_invites())


@blueprint.get("/<int:message_id>")
def message(message_id: int) -> str:
    row = _row(message_id)
    if row.body_text is None:  # not composed yet
        return render_template("dev/mail_message.html", message=row, headers=[], text=None)
    built = build_message(outgoing_mail(row), runtime().config.mail.from_address)
    headers = [(name, str(value)) for name, value in built.items() if name.lower() != "content-type"]
    return render_template("dev/mail_message.html", message=row, headers=headers, text=linkify(row.body_text))


@blueprint.get("/<int:message_id>/html")
def html_part(message_id: int) -> Response:
    body = _composed_row(message_id).body_html or ""
    head = body.find("<head>")
    framed = body[: head + len("<head>")] + NEW_TAB + body[head + len("<head>") :] if head >= 0 else NEW_TAB + body
    response = Response(framed, mimetype="text/html")
    response.headers["Content-Security-Policy"] = SANDBOX_POLICY
    response.headers["X-Frame-Options"] = "SAMEORIGIN"
    return response


@blueprint.get("/<int:message_id>.eml")
def source(message_id: int) -> Response:
    built = build_message(outgoing_mail(_composed_row(message_id)), runtime().config.mail.from_address)
    return Response(built.as_string(), mimetype="text/plain")


def linkify(text: str) -> Markup:
    """Plain text, escaped, with its web addresses as links."""
    parts: list[str] = []
    position = 0
    for match in URL.finditer(text):
        url = match.group(0)
        parts.append(str(escape(text[position : match.start()])))
        parts.append(f'<a href="{escape(url)}" target="_blank" rel="noopener">{escape(url)}</a>')
        position = match.end()
    parts.append(str(escape(text[position:])))
    return Markup("".join(parts))


def _row(message_id: int) -> OutboxMessage:
    with runtime().db.read() as session:
        row = session.get(OutboxMessage, message_id)
    if row is None:
        abort(404)
    return row


def _composed_row(message_id: int) -> OutboxMessage:
    row = _row(message_id)
    if not row.composed:
        abort(404, "This email has not been written yet: a turn email is written when it goes out.")
    return row
