"""A seat's own language, chosen on the turn page's settings (an ordinary form: no script needed)."""

from __future__ import annotations

from flask import flash, redirect, request
from werkzeug.wrappers import Response

from pbem.i18n import gettext, in_language
from pbem.web.app_context import runtime
from pbem.web.player import seat_pages
from pbem.web.seat_access import SeatAccess, seat_routes

blueprint = seat_pages("seat_language", __name__)
seat_route = seat_routes(blueprint)


@seat_route("/language", ["POST"])
def choose(access: SeatAccess) -> Response:
    """The seat reads `language` from now on: its pages, and the emails composed after this (the words of this
    flash: "in English" is each language's own name in its translation)."""
    language = runtime().seat_languages.choose(access.link.game_id, access.link.seat, request.form.get("language", ""))
    with in_language(language):  # said in the language just chosen
        flash(gettext("Saved: this game's pages and emails are now in English."), "notice")
    return redirect(access.url("player.table"), 303)
