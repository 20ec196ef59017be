"""The player's pages: the magic link, the turn page, its JSON for the page's script, and the forms.

Every route exists twice: under `/play/<token>` (the link from an email, which always keeps working) and
under `/table/<game_id>` (the same seat, carried by the session cookie after the first visit). GET and
HEAD only read; every POST carries the session's CSRF token. A move posts the snapshot sequence the page
showed and a submission id made when the form was drawn, then goes to `GameService.submit_move`, which
alone decides; success redirects back to the page (POST-redirect-GET), failure shows the table again with
the reason and the error's status.
"""

from __future__ import annotations

import dataclasses
import secrets
from datetime import date
from typing import Any

from babel.dates import format_skeleton
from flask import (
    Blueprint,
    Response,
    flash,
    g,
    get_flashed_messages,
    jsonify,
    redirect,
    render_template,
    request,
)
from markupsafe import Markup

from pbem.drawing.card_art import CARD_H, CARD_W, tool_icon
from pbem.errors import BadLink, ExpiredLink, GameNotFound, PbemError, RevokedLink, StaleTurn, ValidationError
from pbem.i18n import current_language, current_locale, gettext, lazy_gettext
from pbem.service.events import describe
from pbem.service.seats.fresh_links import FreshLink
from pbem.service.seats.presence import UNCHANGED
from pbem.service.seats.seats import SeatProfile
from pbem.service.turns.values import GameState
from pbem.web import csrf
from pbem.web.app_context import runtime
from pbem.web.chat_panel import chat_panel
from pbem.web.errors import wants_json
from pbem.web.languages import read_as_seat, this_browser
from pbem.web.moves import choices, compose_move, describe_move, encode_move, parse_move
from pbem.web.my_games import removed_words
from pbem.web.params import optional_int, required_int
from pbem.web.seat_access import (
    NoSeatHere,
    SeatAccess,
    current_seat,
    off_the_address_bar,
    requested_token,
    seat_routes,
)
from pbem.web.security import no_store
from pbem.web.timing_form import changed, quiet_hours_from, shown_quiet_hours, timing_saved
from pbem.web.turn_page import TurnPage, build_turn_page, join_words, log_entries, new_submission_id
from pbem.web.urls import url_for
from pbem.words.board import drawn_words
from pbem.words.cards import card_name, tool_name

blueprint = Blueprint("player", __name__)
csrf.protect(blueprint)

LINK_ERRORS = (BadLink, ExpiredLink, RevokedLink)


@blueprint.app_template_global("broken_tool_icon")
def broken_tool_icon(tool: str) -> Markup:
    return tool_icon(tool, broken=True, words=drawn_words())


# A card's printed name and a tool's name, in the reader's language, for the templates.
blueprint.add_app_template_global(card_name, "card_name")
blueprint.add_app_template_filter(tool_name, "tool_name")


seat_route = seat_routes(blueprint)


@seat_route("", ["GET"])
def table(access: SeatAccess) -> Any:
    """The turn page. Through the link from an email, first remember the seat in the session cookie and
    redirect to the same page without the token in the address."""
    return off_the_address_bar(access, "player.table") or render_table(access)


@seat_route("/state.json", ["GET"])
def state_json(access: SeatAccess) -> Response:
    """What the page's script needs: the seat's view, its legal moves (with their labels) and the sequence."""
    current = runtime()
    state = current.games.current_state(access.link.game_id, access.link.seat)
    # The moves' labels, made once in this process per snapshot, seat, names and language.
    labelled = current.db.memo.get_or_make(
        "choices", (state.game_id, state.seq, access.link.seat, tuple(state.players), current_language()),
        lambda: [choice.as_json() for choice in choices(state.legal_moves, state.view or {})],
    )
    return jsonify(
        game={"id": state.game_id, "title": state.title, "status": state.status, "paused": state.paused},
        seat=access.link.seat,
        seq=state.seq,
        to_act=state.to_act,
        turn_started_at=state.turn_started_at.isoformat() if state.turn_started_at else None,
        view=state.view,
        legal_moves=state.legal_moves,
        choices=labelled,
        submission_id=new_submission_id(),
        card_size={"width": CARD_W, "height": CARD_H},
    )


@seat_route("/move", ["POST"], revocation_checked_by_view=True)
def move(access: SeatAccess) -> Any:
    """A move. Its link's revocation is checked by the move's own transaction, under the game's lock."""
    chosen = compose_move(request.form) or parse_move(request.form.get("move"))
    expected_seq = _expected_seq(request.form.get("seq"))
    submission_id = request.form.get("submission_id", "")
    g.expected_seq = expected_seq
    games = runtime().games
    if request.form.get("confirmed") != "yes" and not wants_json():
        games.resolve_link(access.token)  # the confirmation shows the table: the link must still be good
        state = games.current_state(access.link.game_id, access.link.seat)
        if state.seq != expected_seq:
            raise StaleTurn()
        return render_template(
            "play/confirm.html",
            access=access,
            label=describe_move(chosen, state.view or {}),
            move_value=encode_move(chosen),
            seq=expected_seq,
            submission_id=submission_id,
        )
    result = games.submit_move(
        access.link.game_id, access.link.seat, chosen, expected_seq, submission_id, link_version=access.link.version
    )
    read_as_seat(access.link.game_id, access.link.seat, result.reader)  # the lines' language, without a read
    lines = describe(result.events, result.players, access.link.seat)
    if wants_json():
        return jsonify(seq=result.seq, lines=lines, replayed=result.replayed, game_over=result.game_over)
    for line in lines:
        flash(line, "played")
    return redirect(access.url("player.table"), 303)


@seat_route("/settings", ["POST"])
def settings(access: SeatAccess) -> Any:
    mode = request.form.get("notify_mode", "")
    runtime().seats.set_notify_mode(access.link.game_id, access.link.seat, mode)
    shown = request.form.get("hand_in_email") == "yes"
    runtime().seats.set_hand_in_email(access.link.game_id, access.link.seat, shown)
    flash(_saved_mode(mode, with_hand=shown), "notice")
    return redirect(access.url("player.table"), 303)


def _saved_mode(mode: str, *, with_hand: bool) -> str:
    """The notice after the notification settings are saved, naming the way chosen."""
    if mode == "turn":
        if with_hand:
            return gettext("Saved: an email for each of your turns, with your hand in it.")
        return gettext("Saved: an email for each of your turns.")
    if mode == "digest":
        return gettext("Saved: one email a day.")
    if mode == "notices":
        return gettext("Saved: no turn emails; your turns and their reminders go to your notification addresses.")
    return gettext("Saved.")


# -- the player's own notification addresses (the same as on My games' preferences, for all their games) ----------


@seat_route("/notifications", ["POST"])
def add_notification(access: SeatAccess) -> Any:
    """Add one of the player's addresses; a refused one is said beside its field and nothing is stored."""
    email = runtime().seats.owner_email(access.link.game_id, access.link.seat)
    try:
        shown = runtime().notices.add_address(email, request.form.get("url", ""),
                                              turns=request.form.get("turns") == "yes",
                                              results=request.form.get("results") == "yes")
    except ValidationError as problem:
        return render_table(access, status=problem.status, notification_problem=problem.message)
    flash(gettext("Notifications will also go to %(address)s.", address=shown), "notice")
    return redirect(access.url("player.table") + "#notifications", 303)


@seat_route("/notifications/<int:address_id>/test", ["POST"])
def test_notification(access: SeatAccess) -> Any:
    """Send a test now (the same five an hour as on My games) and say how it went."""
    email = runtime().seats.owner_email(access.link.game_id, access.link.seat)
    flash(runtime().notices.send_test(email, _address_id()), "notice")
    return redirect(access.url("player.table") + "#notifications", 303)


@seat_route("/notifications/<int:address_id>/remove", ["POST"])
def remove_notification(access: SeatAccess) -> Any:
    email = runtime().seats.owner_email(access.link.game_id, access.link.seat)
    flash(removed_words(runtime().notices.remove_address(email, _address_id())), "notice")
    return redirect(access.url("player.table") + "#notifications", 303)


def _address_id() -> int:
    address_id = str((request.view_args or {}).get("address_id", ""))
    return required_int(address_id, lazy_gettext("Choose one of your addresses."))


@seat_route("/presence", ["POST"])
def presence(access: SeatAccess) -> Any:
    """Away time, quiet hours, the card to discard on a timeout, "I'm back" (pbem/service/seats/presence.py)."""
    game_id, seat = access.link.game_id, access.link.seat
    service = runtime().presence
    action = request.form.get("action", "")
    if action == "away":
        raw = request.form.get("away_until", "").strip()
        try:
            day = date.fromisoformat(raw) if raw else None
        except ValueError:
            raise ValidationError(gettext("Choose the date you will be back.")) from None
        service.set_away(game_id, seat, day)
        flash(gettext("Saved: away until %(day)s.", day=away_day(day)) if day else gettext("Saved: you are back."),
              "notice")
    elif action == "back":
        service.come_back(game_id, seat)
        flash(gettext("Welcome back: the game waits for you again."), "notice")
    elif action == "quiet":
        zone_name = request.form.get("timezone", "").strip()
        quiet = quiet_hours_from(request.form)
        zone_changed = bool(zone_name) and changed(request.form, "was_timezone", zone_name,
                                                   request.form.get("was_timezone"))
        quiet_changed = changed(request.form, "was_quiet", quiet, shown_quiet_hours(request.form))
        service.set_timing(
            game_id, seat, timezone_name=zone_name if zone_changed else None,
            quiet_hours=quiet if quiet_changed else UNCHANGED,
        )
        flash(timing_saved(zone_name if zone_changed else None, quiet, quiet_changed), "notice")
    elif action == "timeout_card":
        card = optional_int(request.form.get("timeout_card"), lazy_gettext("Choose a card from your hand."))
        service.mark_timeout_card(game_id, seat, card)
        flash(
            gettext("Saved: a random card if you time out.") if card is None
            else gettext("Saved: the card to discard if you time out."),
            "notice",
        )
    else:
        raise ValidationError(gettext("Unknown setting."))
    return redirect(access.url("player.table"), 303)


def away_day(day: date) -> str:
    """ "Fri 3 Dec", in the reader's language ("Fr., 3. Dez.", "12월 3일 (금)")."""
    if current_language() == "en":
        return f"{day:%a} {day.day} {day:%b}"
    return format_skeleton("MMMEd", day, locale=current_locale())


@seat_route("/seen", ["POST"])
def seen(access: SeatAccess) -> tuple[str, int]:
    """The page's script reports a visit; a GET never records one (mail scanners open links too)."""
    runtime().seats.mark_seen(access.link.game_id, access.link.seat)
    runtime().seat_languages.lend_browser(access.link.game_id, access.link.seat, this_browser())
    return "", 204


def fresh_link(**_: str) -> tuple[str, int]:
    """What became of the request: a fresh link on its way, a few sent today already, or why none can come."""
    answer = runtime().fresh_links.request(_named_token(), request.remote_addr or "unknown")
    if answer in (FreshLink.SENT, FreshLink.ASKED_OFTEN):
        return render_template("play/fresh_link_sent.html", answer=answer.value), 200
    return render_template("play/link_invalid.html", message=BadLink().message, fate=answer.value), 200


def _named_token() -> str:
    """The token this request names, in its URL or this browser's cookie ("" for none)."""
    try:
        return requested_token()
    except (NoSeatHere, GameNotFound):
        return ""


blueprint.add_url_rule("/play/<token>/fresh-link", "fresh_link", fresh_link, methods=["POST"])
blueprint.add_url_rule("/table/<game_id>/fresh-link", "fresh_link", fresh_link, methods=["POST"])


# -- rendering ------------------------------------------------------------------------------------------


def render_table(
    access: SeatAccess, *, status: int = 200, problem: str | None = None, notification_problem: str | None = None,
) -> Any:
    current = runtime()
    game_id, seat = access.link.game_id, access.link.seat
    state = current.games.current_state(game_id, seat)
    if state.view is None:
        return render_template("play/not_started.html", state=state), status
    profile = current.seats.profile(game_id, seat)
    page = build_turn_page(state, _log(state, profile), profile, current.clock.now(), current.db.memo)
    played = get_flashed_messages(category_filter=["played"])
    notices = get_flashed_messages(category_filter=["notice"])
    return render_template(
        "play/table.html",
        page=page,
        page_status=_status(page, access),
        page_main=_main(page, access),
        page_side=_side(page, access, bool(notices) or notification_problem is not None, notification_problem),
        page_ended=_ended(page, access),
        access=access,
        problem=problem,
        played=played,
        notices=notices,
    ), status


# Stand-ins for what differs on each look at the same table (unguessable, so no name or text can contain them).
CSRF_HOLE = f"csrf-{secrets.token_hex(16)}"
SUBMISSION_HOLE = f"submission-{secrets.token_hex(16)}"


def _status(page: TurnPage, access: SeatAccess) -> Markup:
    """The status at the top (whose turn, the role, since when, the deadline, the piles), drawn once in this process
    per snapshot, seat, status, pause, names, language and the words the time puts in it ("in 3 days")."""

    def draw() -> Markup:
        return Markup(render_template("play/_status.html", page=page))

    key = _fragment_key(
        "status", page, access, page.state.title, page.headline, page.role, page.role_hint, page.your_turn,
        page.waiting_since, page.inert_reason, page.notify_mode, page.deadline, page.deadline_close,
        page.deadline_moved_from,
    )
    return runtime().db.memo.get_or_make("fragment", key, draw)


def _main(page: TurnPage, access: SeatAccess) -> Markup:
    """The main column (moves, board, hand), drawn once in this process per snapshot, seat, status, pause, names and
    address form: drawing it was the larger part of a look at the table. Each look fills in its CSRF token and
    submission id."""

    def draw() -> Markup:
        stand_in = dataclasses.replace(page, submission_id=SUBMISSION_HOLE)
        return Markup(render_template("play/_main.html", page=stand_in, access=access, csrf_token=lambda: CSRF_HOLE))

    drawn = runtime().db.memo.get_or_make("fragment", _fragment_key("main", page, access), draw)
    return Markup(str(drawn).replace(CSRF_HOLE, csrf.csrf_token()).replace(SUBMISSION_HOLE, page.submission_id))


def _ended(page: TurnPage, access: SeatAccess) -> Markup:
    """The final standings and the round that just ended, drawn once in this process per snapshot, seat, status,
    pause, names and language (neither holds a form or a time)."""

    def draw() -> Markup:
        return Markup(render_template("play/_ended.html", page=page))

    if not (page.final or page.round_just_ended):
        return Markup()
    return runtime().db.memo.get_or_make("fragment", _fragment_key("ended", page, access), draw)


def _side(page: TurnPage, access: SeatAccess, settings_open: bool, notification_problem: str | None = None) -> Markup:
    """The side column (you, the seats, the table's channel, the chat, the log, the rounds, the fair deal, the
    settings), drawn once in this process per snapshot, seat, status, pause, names, address form, profile, chat and
    channel; each look fills in its CSRF token."""

    chat = chat_panel(access)
    # Set or removed on the host's page at any time; read only for a table that wants notifications at all.
    table_channel = runtime().channels.place(access.link.game_id) if page.state.notices_wanted else None

    def draw() -> Markup:
        notices = ["open"] if settings_open else []  # the settings are open after one was saved
        return Markup(render_template("play/_side.html", page=page, access=access, notices=notices,
                                      table_channel=table_channel, notification_problem=notification_problem,
                                      csrf_token=lambda: CSRF_HOLE))

    key = _fragment_key(
        "side", page, access,
        repr(page.profile),  # every setting shown, and what the time changes in it (away dates, days left)
        chat.drawn,
        chat.last_id,
        chat.has_earlier,
        chat.chat_emails,
        settings_open,
        table_channel,
        notification_problem,
    )
    drawn = runtime().db.memo.get_or_make("fragment", key, draw)
    return Markup(str(drawn).replace(CSRF_HOLE, csrf.csrf_token()))


def _fragment_key(part: str, page: TurnPage, access: SeatAccess, *more: object) -> tuple[object, ...]:
    """What a part of the turn page drawn once depends on: the snapshot, the seat, the game's status and pause, the
    names at the table, the form of address and the language it is read in, then `more`."""
    state = page.state
    return (part, state.game_id, state.seq, page.seat, state.status, state.paused, tuple(state.players),
            access.url("player.table"), current_language(), *more)


def _log(state: GameState, profile: SeatProfile) -> Markup:
    """The log drawn once per snapshot, seat, names and time zone in this process: its history is read then."""
    current = runtime()
    names = tuple(profile.names)

    def draw() -> Markup:
        history = current.games.history(state.game_id, profile.seat)
        entries = log_entries(history, profile.seat, names, profile.timezone)
        return Markup(render_template("play/_log.html", log=entries))

    key = ("log", state.game_id, state.seq, profile.seat, names, profile.timezone, current_language())
    return current.db.memo.get_or_make("fragment", key, draw)


blueprint.after_request(no_store)


@blueprint.errorhandler(PbemError)
def on_error(error: PbemError) -> Any:
    """Link problems get the "no longer valid" page; anything else shows the table again with the reason."""
    message = _stale_message() if isinstance(error, StaleTurn) else error.message
    if wants_json():
        return jsonify(error=error.code, message=message), error.status
    if isinstance(error, LINK_ERRORS):
        return _invalid_link(error)
    try:
        return render_table(current_seat(), status=error.status, problem=message)
    except PbemError:
        return render_template("error.html", status=error.status, message=message), error.status


def seat_pages(name: str, import_name: str) -> Blueprint:
    """A blueprint for more pages of one seat (its rounds, its replay): CSRF-checked, never stored, and a link
    problem answered as the table answers it."""
    pages = Blueprint(name, import_name)
    csrf.protect(pages)
    pages.after_request(no_store)
    pages.register_error_handler(PbemError, on_error)
    return pages


def _invalid_link(error: PbemError) -> tuple[str, int]:
    """What this link may still bring: the fresh-link button only when a fresh link would come (it posts back
    whatever this request named), else why none can."""
    fate = runtime().fresh_links.look(_named_token())
    action = None
    if fate is FreshLink.MAY_ASK:
        args = request.view_args or {}
        if "token" in args:
            action = url_for("player.fresh_link", token=args["token"])
        else:
            action = url_for("player.fresh_link", game_id=args.get("game_id", ""))
    return render_template(
        "play/link_invalid.html", message=error.message, fate=fate.value, action=action
    ), error.status


def _stale_message() -> str:
    """Who moved since the page was drawn, so the player knows why nothing was played."""
    expected = g.get("expected_seq")
    try:
        access = current_seat()
        history = runtime().games.history(access.link.game_id, access.link.seat)
        names = runtime().seats.profile(access.link.game_id, access.link.seat).names
    except PbemError:
        return StaleTurn().message
    actors = []
    for entry in history:
        if expected is not None and entry.seq > expected and entry.actor is not None and entry.actor not in actors:
            actors.append(entry.actor)
    others = [names[actor] for actor in actors if actor != access.link.seat]
    if access.link.seat in actors:
        return gettext(
            "You already played from another window or device; here is the table now. Nothing more was played.")
    if others:
        return gettext("%(names)s played while you were looking; here is the table now. Nothing of yours was played.",
                       names=join_words(others))
    return gettext("The game changed while you were looking; here is the table now. Nothing of yours was played.")


def _expected_seq(raw: str | None) -> int:
    return required_int(
        raw, lazy_gettext("The form is missing the turn it was drawn for; please look at the table again."))
