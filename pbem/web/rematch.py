"""A player starts the rematch of a finished game from its game-over page, when the host allowed it: a POST under
either form of the seat's address (`/play/<token>/rematch`, `/table/<game_id>/rematch`) with the page's CSRF
token. The new game is dealt and everyone is emailed their new link; the player who asked goes straight to their
new seat; one the host has since taken out of the rematch is told it goes on without them. The game-over page
asks `rematch_offer` what to show."""

from __future__ import annotations

from typing import Any

from flask import Blueprint, redirect, render_template

from pbem.addresses import same_mailbox
from pbem.service.host.rematch import Lineage
from pbem.web.app_context import runtime
from pbem.web.csrf import protect
from pbem.web.seat_access import SeatAccess, seat_routes
from pbem.web.security import no_store

blueprint = Blueprint("rematch", __name__)
protect(blueprint)
blueprint.after_request(no_store)
seat_route = seat_routes(blueprint)


@blueprint.app_template_global("rematch_offer")
def rematch_offer(game_id: str) -> Lineage:
    return runtime().rematches.lineage(game_id)


@blueprint.app_template_global("rematch_channel")
def rematch_channel(game_id: str) -> str | None:
    """The kind of place the table's channel posts to, which a rematch keeps ("a webhook"); None without one."""
    return runtime().channels.place(game_id)


@seat_route("/rematch", ["POST"])
def start(access: SeatAccess) -> Any:
    games = runtime().games
    game_id = access.link.game_id
    asker = next(invite for invite in games.invites(game_id) if invite.seat == access.link.seat)
    new_id = runtime().rematches.start(game_id, requested_by=asker.email or asker.name, by_player=True)
    mine = next((invite for invite in games.invites(new_id)
                 if not invite.is_bot and invite.email and asker.email and same_mailbox(invite.email, asker.email)),
                None)
    if mine is None:  # the host gave this player's place in the rematch to someone else
        return render_template("play/rematch_without_you.html", title=games.current_state(game_id).title)
    return redirect(mine.link, 303)
