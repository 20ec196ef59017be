"""The link in the email that asks a seat's current address to confirm the host's correction of it:
`/seat-address/<token>`. GET shows the change and a button (mail scanners open links and must change nothing);
the button POSTs with the page's CSRF token and moves the seat to the new address."""

from __future__ import annotations

from flask import Blueprint, render_template

from pbem.web.app_context import runtime
from pbem.web.csrf import protect
from pbem.web.security import no_store

blueprint = Blueprint("address_changes", __name__)
protect(blueprint)
blueprint.after_request(no_store)


@blueprint.get("/seat-address/<token>")
def confirm_page(token: str) -> str:
    return render_template("play/address_change.html", change=runtime().moderation.address_change(token), done=False)


@blueprint.post("/seat-address/<token>")
def confirm(token: str) -> str:
    change = runtime().moderation.confirm_address_change(token)
    return render_template("play/address_change.html", change=change, done=True)
