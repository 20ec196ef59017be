"""A player's home across games: sign in from the home page by an emailed link, then "My games", the record and
the preferences for all games. The browser's cookie (key `player`) holds only the token of a server-side session
(`player_sessions`, see `pbem/service/players/access.py` and `pbem/web/signed_in.py`); a GET never signs in (mail
scanners follow links)."""

from __future__ import annotations

import dataclasses
from typing import Any

from flask import Blueprint, flash, get_flashed_messages, redirect, render_template, request

from pbem.errors import NotSignedIn, ValidationError
from pbem.i18n import gettext, ngettext
from pbem.service.host.invite_views import variant_title
from pbem.service.players.access import Player
from pbem.service.players.preferences import Preferences
from pbem.service.sign_in import LinkRequest
from pbem.times import local_time, until
from pbem.web import csrf, signed_in
from pbem.web.app_context import runtime
from pbem.web.moves import join_words
from pbem.web.timing_form import changed, quiet_hours_from, shown_quiet_hours
from pbem.web.urls import url_for

blueprint = Blueprint("my_games", __name__)
csrf.protect(blueprint)

SESSION_KEY = "player"
COMMON_ZONES = (
    "UTC", "Europe/London", "Europe/Dublin", "Europe/Lisbon", "Europe/Paris", "Europe/Berlin", "Europe/Madrid",
    "Europe/Rome", "Europe/Amsterdam", "Europe/Stockholm", "Europe/Warsaw", "Europe/Athens", "Europe/Helsinki",
    "Europe/Moscow", "America/New_York", "America/Chicago", "America/Denver", "America/Los_Angeles",
    "America/Toronto", "America/Sao_Paulo", "America/Mexico_City", "Asia/Kolkata", "Asia/Singapore", "Asia/Tokyo",
    "Asia/Shanghai", "Australia/Sydney", "Pacific/Auckland", "Africa/Johannesburg",
)


def current_player() -> Player | None:
    """The player this request's cookie signs in, looked up once per request."""
    return signed_in.current(SESSION_KEY, runtime().player_access.player_for)


def require_player() -> Player:
    player = current_player()
    if player is None:
        raise NotSignedIn(gettext(
            "Please sign in from the home page: enter your email address and we email you a link."
        ))
    return player


@blueprint.post("/sign-in")
def request_link() -> Any:
    answer = runtime().player_access.request_link(request.form.get("email", ""), request.remote_addr or "unknown")
    return render_template("my_games/link_sent.html", asked_often=answer is LinkRequest.ASKED_OFTEN)


@blueprint.get("/sign-in/<token>")
def continue_page(token: str) -> Any:
    """A GET never signs in: it shows the button that does."""
    link = runtime().player_access.check_link(token)
    return render_template("my_games/continue.html", token=token, email=link.email)


@blueprint.post("/sign-in/<token>")
def continue_sign_in(token: str) -> Any:
    signed_in.keep(SESSION_KEY, runtime().player_access.sign_in(token).token)
    return redirect(url_for("my_games.index"), 303)


@blueprint.post("/my-games/sign-out")
def sign_out() -> Any:
    token = signed_in.forget(SESSION_KEY)
    if token is not None:
        runtime().player_access.sign_out(token)
    return redirect(url_for("home.index"), 303)


@blueprint.get("/my-games")
def index() -> Any:
    player = require_player()
    home = runtime().player_home
    preferences = home.preferences(player)
    now = runtime().clock.now()
    return render_template(
        "my_games/index.html", player=player, games=home.my_games(player), record=home.record(player),
        preferences=preferences, notices=get_flashed_messages(category_filter=["my_games"]),
        deadline_text=lambda moment: gettext(
            "%(time)s (%(left)s)", time=local_time(moment, preferences.timezone), left=until(moment, now)
        ),
        local_time=lambda moment: local_time(moment, preferences.timezone), variant_title=variant_title,
    )


@blueprint.get("/my-games/preferences")
def preferences_page() -> Any:
    player = require_player()
    return render_template("my_games/preferences.html", player=player,
                           preferences=runtime().player_home.preferences(player), zones=COMMON_ZONES,
                           addresses=runtime().notices.addresses(player.email),
                           notices=get_flashed_messages(category_filter=["my_games"]))


@blueprint.post("/my-games/notifications")
def add_notification() -> Any:
    """Add one of the player's own notification addresses; a refused one is said beside its field, nothing stored."""
    player = require_player()
    try:
        shown = runtime().notices.add_address(player.email, request.form.get("url", ""),
                                              turns=request.form.get("turns") == "yes",
                                              results=request.form.get("results") == "yes")
    except ValidationError as problem:
        return render_template("my_games/preferences.html", player=player,
                               preferences=runtime().player_home.preferences(player), zones=COMMON_ZONES,
                               addresses=runtime().notices.addresses(player.email),
                               notification_problem=problem.message), problem.status
    flash(gettext("Notifications will also go to %(address)s.", address=shown), "my_games")
    return redirect(url_for("my_games.preferences_page") + "#notifications", 303)


@blueprint.post("/my-games/notifications/<int:address_id>/test")
def test_notification(address_id: int) -> Any:
    """Send a test now (at most five an hour) and say how it went."""
    player = require_player()
    flash(runtime().notices.send_test(player.email, address_id), "my_games")
    return redirect(url_for("my_games.preferences_page") + "#notifications", 303)


@blueprint.post("/my-games/notifications/<int:address_id>/remove")
def remove_notification(address_id: int) -> Any:
    player = require_player()
    flash(removed_words(runtime().notices.remove_address(player.email, address_id)), "my_games")
    return redirect(url_for("my_games.preferences_page") + "#notifications", 303)


def removed_words(back_to_email: list[str]) -> str:
    """What removing an address did: with it went the last that got the player's turns, turn emails come back."""
    if not back_to_email:
        return gettext("That notification address is removed.")
    return gettext(
        "That notification address is removed. It was your last one for turns, so you get turn emails again in "
        "%(games)s (a turn waiting for you there now is emailed at once).", games=join_words(back_to_email),
    )


@blueprint.post("/my-games/preferences")
def save_preferences() -> Any:
    player = require_player()
    form = request.form
    shown = Preferences(timezone=form.get("was_timezone", ""), quiet_hours=shown_quiet_hours(form),
                        notify_mode=form.get("was_notify_mode", ""), language=form.get("was_language") or None)
    wanted = Preferences(timezone=form.get("timezone", ""), quiet_hours=form.get("quiet_hours", "").strip() or None,
                         notify_mode=form.get("notify_mode", ""), language=form.get("language") or None)
    try:
        wanted = dataclasses.replace(wanted, quiet_hours=quiet_hours_from(form))
        changes = [name for name in ("timezone", "notify_mode")
                   if changed(form, f"was_{name}", getattr(wanted, name), getattr(shown, name))]
        if wanted.language is not None and changed(form, "was_language", wanted.language, shown.language):
            changes.append("language")
        if changed(form, "was_quiet", wanted.quiet_hours, shown.quiet_hours):
            changes.append("quiet_hours")
        count = runtime().player_home.set_preferences(player, wanted, changes)
    except ValidationError as problem:
        return render_template("my_games/preferences.html", player=player, preferences=wanted, zones=COMMON_ZONES,
                               shown=shown if "was_timezone" in form else None,
                               addresses=runtime().notices.addresses(player.email),
                               problem=problem.message), problem.status
    if changes:
        flash(ngettext(
            "Saved for all your games (%(num)d game now running or about to start). A game's own page can still set "
            "it differently; a running deadline never moves earlier for it.",
            "Saved for all your games (%(num)d games now running or about to start). A game's own page can still set "
            "it differently; a running deadline never moves earlier for it.", count,
        ), "my_games")
    else:
        flash(gettext("Nothing changed: your preferences are as they were."), "my_games")
    return redirect(url_for("my_games.index"), 303)
