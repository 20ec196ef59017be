"""The mail catcher's window, development mode only: every email the server queued, as its recipient would see it.

Registered only in development (production answers 404). Mail comes from the outbox table, never from
a mailbox, built by the deliverer exactly as it goes out (`Deliverer.preview`): the source is the bytes SMTP
carries, pictures and all. The HTML part is served on its own with a CSP sandbox (an opaque origin: no script, no
access to this application's cookies or pages) and shown in a sandboxed iframe that may only open
links in a new tab; the pictures it names by `cid:` are shown from the message's own parts, as data: URLs.
The app's own pages keep their Content-Security-Policy.
"""

from __future__ import annotations

import base64
import re
from email.message import EmailMessage

from flask import Blueprint, Response, abort, render_template
from markupsafe import Markup, escape
from sqlalchemy import select

from pbem.mail.message import wire_bytes
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
    built = _built(message_id)
    headers = [(name, str(value)) for name, value in built.items() if name.lower() != "content-type"]
    return render_template("dev/mail_message.html", message=row, headers=headers, text=linkify(row.body_text))


@blueprint.get("/<int:message_id>/html")
def html_part(message_id: int) -> Response:
    body = with_pictures(_built(message_id))
    head = body.find("<head>")
    framed = body[: head + len("<head>")] + NEW_TAB + body[head + len("<head>") :] if head >= 0 else NEW_TAB + body
    response = Response(framed, mimetype="text/html")
    response.headers["Content-Security-Policy"] = SANDBOX_POLICY
    response.headers["X-Frame-Options"] = "SAMEORIGIN"
    return response


@blueprint.get("/<int:message_id>.eml")
def source(message_id: int) -> Response:
    return Response(wire_bytes(_built(message_id)), mimetype="text/plain")


def with_pictures(built: EmailMessage) -> str:
    """The HTML part, each picture it names by `cid:` written in as a data: URL of that part of the message."""
    html = built.get_body(("html",))
    body = html.get_content() if html is not None else ""
    for part in built.walk():
        content_id = part["Content-ID"]
        if content_id is not None and part.get_content_maintype() == "image":
            data = base64.b64encode(part.get_content()).decode("ascii")
            body = body.replace(f"cid:{content_id.strip('<>')}", f"data:{part.get_content_type()};base64,{data}")
    return body


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


def _built(message_id: int) -> EmailMessage:
    """The email as the deliverer sends it; 404 for no such email, or one not written yet."""
    _row(message_id)
    built = runtime().deliverer().preview(message_id)
    if built is None:
        abort(404, "This email has not been written yet: a turn email is written when it goes out.")
    return built
