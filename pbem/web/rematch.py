"""A player starts the rematch of a finished game from its game-over page, when the host allowed it: a POST with
the seat's own link (`/rematch/<token>`) and the page's CSRF token. The new game is dealt and everyone is emailed
their new link; the player who asked goes straight to their new seat."""

from __future__ import annotations

from typing import Any

from flask import Blueprint, redirect

from pbem.web.app_context import runtime
from pbem.web.csrf import protect
from pbem.web.security import no_store

blueprint = Blueprint("rematch", __name__)
protect(blueprint)
blueprint.after_request(no_store)


@blueprint.post("/rematch/<token>")
def start(token: str) -> Any:
    games = runtime().games
    link = games.resolve_link(token)
    asker = next(invite for invite in games.invites(link.game_id) if invite.seat == link.seat)
    new_id = runtime().rematches.start(link.game_id, requested_by=asker.email or asker.name, by_player=True)
    mine = next(invite for invite in games.invites(new_id) if invite.email == asker.email and not invite.is_bot)
    return redirect(mine.link, 303)
