"""The one-click link of the host's "seat absent" email: `/host-links/auto-pass/<token>`.

GET shows what the link would do and a button (link previewers and mail scanners open links and must change
nothing); the button POSTs with the CSRF token of the page it came from, and lets the game pass for the seat
without waiting until the player comes back. The signed token (its own salt, dated, bound to the seat's token
version) is what makes the requester the host; replacing the player revokes it.
"""

from __future__ import annotations

from flask import Blueprint, render_template

from pbem.service.seats.auto_pass_links import AutoPassClaim
from pbem.service.turns.turn_controls import LinkTarget
from pbem.web.app_context import runtime
from pbem.web.csrf import protect

blueprint = Blueprint("auto_pass_links", __name__)
protect(blueprint)


def _target(token: str) -> tuple[AutoPassClaim, LinkTarget]:
    claim = runtime().auto_pass_links.verify(token)
    return claim, runtime().turn_controls.link_target(claim.game_id, claim.seat, claim.version)


@blueprint.get("/host-links/auto-pass/<token>")
def confirm(token: str) -> str:
    _, target = _target(token)
    return render_template("host_links/auto_pass.html", done=False, target=target)


@blueprint.post("/host-links/auto-pass/<token>")
def let_auto_pass(token: str) -> str:
    claim, target = _target(token)
    runtime().turn_controls.let_auto_pass(claim.game_id, claim.seat, True, actor_email=target.host_email)
    return render_template("host_links/auto_pass.html", done=True, target=target)
