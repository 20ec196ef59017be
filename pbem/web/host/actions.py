"""What each host action does once the host has confirmed it, one function an action: it reads its form fields,
asks the service (which checks the game is the host's) and answers with the page to show next, usually the
game's page with a line saying what happened. The questions asked before are in `confirmations.py`."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from flask import flash, redirect, render_template, request

from pbem.i18n import gettext
from pbem.service.host.host_access import HostSession
from pbem.web.app_context import runtime
from pbem.web.params import required_int
from pbem.web.urls import url_for
from pbem.words.board import drawn_board

GameAction = Callable[[str, HostSession], Any]
SeatAction = Callable[[str, int, HostSession], Any]


def back_to_game(game_id: str, message: str) -> Any:
    flash(message, "host")
    return redirect(url_for("host.game", game_id=game_id), 303)


def chosen_int(name: str, message: str) -> int:
    return required_int(request.form.get(name), message)


# -- the game as a whole ---------------------------------------------------------------------------------


def start(game_id: str, host: HostSession) -> Any:
    runtime().host_actions.start(game_id, host)
    return back_to_game(game_id, gettext("The game has started: every player has been emailed their link."))


def pause(game_id: str, host: HostSession) -> Any:
    runtime().host_actions.pause(game_id, host)
    return back_to_game(game_id, gettext("The game is paused: no moves, reminders or deadlines until you resume "
                                         "it."))


def resume(game_id: str, host: HostSession) -> Any:
    runtime().host_actions.resume(game_id, host)
    return back_to_game(game_id, gettext("The game goes on; the turn's reminders and deadline continue where they "
                                         "stopped."))


def skip(game_id: str, host: HostSession) -> Any:
    runtime().host_actions.skip(game_id, host)
    return back_to_game(game_id, gettext("The pending turn was played as a timeout."))


def extend(game_id: str, host: HostSession) -> Any:
    runtime().host_actions.extend_deadline(game_id, chosen_int("hours", gettext("Choose a number of hours.")), host)
    return back_to_game(game_id, gettext("The deadline is extended."))


def end(game_id: str, host: HostSession) -> Any:
    runtime().moderation.end_game(game_id, host=host)
    return back_to_game(game_id, gettext("The game is over, with the standings as they were."))


def abandon(game_id: str, host: HostSession) -> Any:
    runtime().moderation.abandon_game(game_id, host=host)
    return back_to_game(game_id, gettext("The game is abandoned."))


def rollback(game_id: str, host: HostSession) -> Any:
    to_seq = chosen_int("to", gettext("Choose a turn."))
    seq = runtime().moderation.rollback(game_id, to_seq, request.form.get("reason"), host=host)
    return back_to_game(game_id, gettext("The game went back: it now continues from turn %(seq)s (a copy of the "
                                         "earlier one).", seq=seq))


def rematch(game_id: str, host: HostSession) -> Any:
    new_id = runtime().host_actions.rematch(game_id, request.form.get("order", "rotated"), host)
    return back_to_game(new_id, gettext("The rematch has started: every player has been emailed their new link."))


def rematch_permission(game_id: str, host: HostSession) -> Any:
    allowed = request.form.get("allowed") == "yes"
    runtime().host_actions.allow_player_rematch(game_id, allowed, host)
    if allowed:
        return back_to_game(game_id, gettext("Any player may now start the rematch from the game-over page."))
    return back_to_game(game_id, gettext("Only you can start the rematch now."))


def reveal(game_id: str, host: HostSession) -> Any:
    revealed = runtime().moderation.reveal(game_id, request.form.get("reason"), host=host)
    return render_template("host/reveal.html", revealed=revealed, board=drawn_board(revealed.view))


GAME_ACTIONS: dict[str, GameAction] = {
    "start": start, "pause": pause, "resume": resume, "skip": skip, "extend": extend, "end": end,
    "abandon": abandon, "rollback": rollback, "rematch": rematch, "rematch-permission": rematch_permission,
    "reveal": reveal,
}


# -- one seat --------------------------------------------------------------------------------------------


def replace(game_id: str, seat: int, host: HostSession) -> Any:
    runtime().moderation.replace_player(
        game_id, seat, request.form.get("name", ""), request.form.get("email", ""), host=host
    )
    return back_to_game(game_id, gettext("The seat has a new player; they have been emailed what their seat "
                                         "knows and their link, and the table has been told."))


def rotate(game_id: str, seat: int, host: HostSession) -> Any:
    runtime().moderation.rotate_link(game_id, seat, host=host)
    return back_to_game(game_id, gettext("The seat's old links no longer work; a new one has been emailed."))


def resend(game_id: str, seat: int, host: HostSession) -> Any:
    runtime().moderation.resend_link(game_id, seat, host=host)
    return back_to_game(game_id, gettext("The seat's link has been emailed again."))


def correct_email(game_id: str, seat: int, host: HostSession) -> Any:
    runtime().moderation.correct_email(game_id, seat, request.form.get("email", ""), host=host)
    return back_to_game(game_id, gettext("We emailed the seat's current address to confirm the new one: the "
                                         "address changes only once they confirm (within three days). If that "
                                         "address does not work, replace the player instead."))


def nudge(game_id: str, seat: int, host: HostSession) -> Any:
    note = request.form.get("note", "")
    runtime().host_actions.nudge(game_id, seat, note, host)
    return back_to_game(game_id, (gettext("A reminder is on its way, with your note.") if note.strip()
                        else gettext("A reminder is on its way.")))


def auto_pass(game_id: str, seat: int, host: HostSession) -> Any:
    on = request.form.get("on") == "yes"
    runtime().host_actions.let_auto_pass(game_id, seat, on, host)
    if on:
        return back_to_game(game_id, gettext("The game passes for this seat until they come back."))
    return back_to_game(game_id, gettext("The game waits for this seat again."))


SEAT_ACTIONS: dict[str, SeatAction] = {
    "replace": replace, "rotate": rotate, "resend": resend, "email": correct_email, "nudge": nudge,
    "auto-pass": auto_pass,
}
