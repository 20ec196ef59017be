"""Spectators' pages (`/watch/<token>`: the public view of one game, see `pbem/service/spectators.py`) and the
host's control that makes and revokes spectator links (`/host/games/<game_id>/spectators`)."""

from __future__ import annotations

from typing import Any

from flask import Blueprint, flash, make_response, redirect, render_template, request
from markupsafe import Markup

from pbem.i18n import gettext
from pbem.service.spectators import LinkRow
from pbem.times import local_time
from pbem.web import csrf
from pbem.web.app_context import runtime
from pbem.web.host.session import require_host
from pbem.web.params import required_int
from pbem.web.security import no_store
from pbem.web.urls import url_for
from pbem.words.board import drawn_board

blueprint = Blueprint("spectate", __name__)
csrf.protect(blueprint)


class Board:
    """What `play/_board.html` needs: the board drawn from the public view."""

    def __init__(self, board: Markup) -> None:
        self.board = board


@blueprint.app_template_global()
def spectator_links(game_id: str) -> list[LinkRow]:
    """The spectator links of a game, for the host's game page."""
    return runtime().spectators.links(game_id)


# -- the spectator -------------------------------------------------------------------------------------


@blueprint.get("/watch/<token>")
def watch(token: str) -> Any:
    seen = runtime().spectators.view(token)
    view = seen.state.view
    response = no_store(make_response(render_template(
        "spectate/watch.html", token=token, seen=seen, view=view,
        page=Board(drawn_board(view)) if view else None,
        table_channel=runtime().channels.place(seen.game_id) if seen.state.notices_wanted else None,
        when=lambda moment: local_time(moment, "UTC"),
    )))
    response.headers["Referrer-Policy"] = "no-referrer"
    return response


@blueprint.post("/watch/<token>/emails")
def ask_for_emails(token: str) -> Any:
    runtime().spectators.ask_for_round_emails(token, request.form.get("email", ""), request.remote_addr or "unknown")
    return render_template("spectate/asked.html", token=token)


@blueprint.get("/watch/confirm/<confirmation>")
def confirm_page(confirmation: str) -> Any:
    address, title = runtime().spectators.check_confirmation(confirmation)
    return render_template("spectate/confirm.html", confirmation=confirmation, email=address, title=title)


@blueprint.post("/watch/confirm/<confirmation>")
def confirm(confirmation: str) -> Any:
    return redirect(runtime().spectators.confirm_round_emails(confirmation), 303)


@blueprint.get("/watch/stop/<stop>")
def stop_page(stop: str) -> Any:
    """The signed link in each round-end email: a button (a mail scanner following the link stops nothing)."""
    email, title, watch_url = runtime().spectators.check_stop(stop)
    return render_template("spectate/stop.html", stop=stop, email=email, title=title, watch_url=watch_url)


@blueprint.post("/watch/stop/<stop>")
def stop(stop: str) -> Any:
    runtime().spectators.stop_round_emails(stop)
    email, title, watch_url = runtime().spectators.check_stop(stop)
    return render_template("spectate/stop.html", stop=stop, email=email, title=title, watch_url=watch_url,
                           stopped=True)


# -- the host ------------------------------------------------------------------------------------------


@blueprint.post("/host/games/<game_id>/spectators")
def create_link(game_id: str) -> Any:
    host = require_host()
    runtime().hosting.owned(game_id, host)
    url = runtime().spectators.create(game_id, show_chat=request.form.get("show_chat") == "yes",
                                      actor_email=host.email)
    flash(gettext("New spectator link: %(url)s", url=url), "host")
    return redirect(url_for("host.game", game_id=game_id) + "#spectators", 303)


@blueprint.post("/host/games/<game_id>/spectators/revoke")
def revoke_link(game_id: str) -> Any:
    host = require_host()
    runtime().hosting.owned(game_id, host)
    revoked = runtime().spectators.revoke(
        game_id, required_int(request.form.get("link"), gettext("Choose a spectator link.")), actor_email=host.email
    )
    flash(gettext("The spectator link no longer works.") if revoked else gettext("That spectator link was not in use."),
          "host")
    return redirect(url_for("host.game", game_id=game_id) + "#spectators", 303)
