"""Routes of the host's pages. Reads go through `runtime().hosting`; a game's or a seat's action is asked first
(`confirmations.py`) and then carried out by `actions.py`; this module only routes, asks and draws pages."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Any

from flask import Blueprint, Response, flash, get_flashed_messages, jsonify, redirect, render_template, request
from markupsafe import Markup

from pbem.errors import BadLink, GameNotFound, NotAllowed, NotSignedIn, PbemError, RateLimited, ValidationError
from pbem.i18n import gettext
from pbem.models import GameStatus
from pbem.service.host.host_access import HostSession
from pbem.service.host.invite_views import InviteSettings, seat_order_label, variant_title
from pbem.service.sign_in import LinkRequest
from pbem.times import local_time
from pbem.variants import variant_choices
from pbem.web import csrf
from pbem.web.app_context import runtime
from pbem.web.errors import wants_json
from pbem.web.host.actions import GAME_ACTIONS, SEAT_ACTIONS
from pbem.web.host.confirmations import GAME_QUESTIONS, INVITE_QUESTIONS, SEAT_QUESTIONS, Question
from pbem.web.host.filters import action_word, due, local, status_word, when
from pbem.web.host.forms import (
    NewGameForm,
    blank_form,
    copied_form,
    engine_options,
    groups,
    policy_fields,
    read_form,
)
from pbem.web.host.json_shapes import game_detail_json, game_row_json
from pbem.web.host.session import current_host, require_host, sign_in, sign_out, sign_out_everywhere
from pbem.web.params import required_int
from pbem.web.replay import archive_response
from pbem.web.security import no_store
from pbem.web.turn_page import LogEntry
from pbem.web.urls import url_for
from pbem.words.board import drawn_board

blueprint = Blueprint("host", __name__, url_prefix="/host")
csrf.protect(blueprint)
blueprint.add_app_template_filter(when, "when")
blueprint.add_app_template_filter(local, "local")
blueprint.add_app_template_filter(due, "due")
blueprint.add_app_template_filter(status_word, "game_status")
blueprint.add_app_template_filter(action_word, "host_action")


@dataclass(frozen=True)
class PublicBoard:
    """What `play/_board.html` needs: the board drawn from the public view."""

    board: Markup


# -- signing in ---------------------------------------------------------------------------------------


@blueprint.get("")
def index() -> Any:
    host = current_host()
    if host is None:
        return render_template("host/sign_in.html")
    return render_template(
        "host/dashboard.html", host=host, games=runtime().hosting.games(host),
        invites=runtime().invites.for_host(host),
        may_create=runtime().host_access.may_create_games(host.email),
        notices=get_flashed_messages(category_filter=["host"]),
    )


@blueprint.post("")
def request_link() -> Any:
    answer = runtime().host_access.request_link(request.form.get("email", ""), request.remote_addr or "unknown")
    return render_template("host/link_sent.html", asked_often=answer is LinkRequest.ASKED_OFTEN)


@blueprint.get("/sign-in/<token>")
def continue_page(token: str) -> Any:
    """A GET never signs in (mail scanners follow links): it shows the button that does."""
    link = runtime().host_access.check_link(token)
    return render_template("host/continue.html", token=token, email=link.email)


@blueprint.post("/sign-in/<token>")
def continue_sign_in(token: str) -> Any:
    sign_in(runtime().host_access.sign_in(token))
    return redirect(url_for("host.index"), 303)


@blueprint.post("/sign-out")
def sign_out_view() -> Any:
    sign_out()
    return redirect(url_for("host.index"), 303)


@blueprint.post("/sign-out-everywhere")
def sign_out_everywhere_view() -> Any:
    """End every host session of this mailbox: every browser, including ones a copied cookie reached."""
    sign_out_everywhere(require_host())
    return render_template("host/sign_in.html", notice=gettext("You are signed out in every browser."))


@blueprint.get("/games.json")
def games_json() -> Response:
    return jsonify(games=[game_row_json(row) for row in runtime().hosting.games(require_host())])


# -- a new game ---------------------------------------------------------------------------------------


@blueprint.get("/new")
def new_game() -> Any:
    """The form, blank or (`?copy=<game>`) with the settings and players of one of the host's games."""
    host = _creator()
    copy = request.args.get("copy")
    if copy and not copy.isprintable():  # no game id holds a control character (PostgreSQL refuses a NUL)
        raise GameNotFound()
    form = copied_form(runtime().hosting.settings_of(copy, host), host.email, copy) if copy else blank_form()
    return render_template("host/new_game.html", form=form, copied=bool(copy), **_form_context(host))


@blueprint.post("/new")
def create_game() -> Any:
    host = _creator()
    form = read_form(request.form, host.email, request.files)
    _read_channel(form, host)
    if not form.valid:
        return render_template("host/new_game.html", form=form, **_form_context(host)), 422
    try:
        if form.join == "link":
            invite_id = runtime().invites.create(host, InviteSettings(
                title=form.title, variant=form.variant, options=form.engine_options(), policies=form.policies,
                places=form.places, bots=form.bots, seat_order=form.order, auto_start=form.auto_start,
                players_may_rematch=form.players_may_rematch, host_name=form.host_name if form.host_plays else None,
                host_timezone=form.host_timezone, channel=form.channel or None, channel_of=_kept(form),
            ))
            flash(gettext("Your game is ready for players: share the link below."), "host")
            return redirect(url_for("host.invite", invite_id=invite_id), 303)
        game_id = runtime().hosting.create_and_start(
            host=host,
            title=form.title,
            players=form.players(host.email, runtime().games.chance),
            variant=form.variant,
            options=form.engine_options(),
            policies=form.policies,
            client=request.remote_addr or "unknown",
            players_may_rematch=form.players_may_rematch,
            channel=form.channel or None,
            channel_of=_kept(form),
            language=request.form.get("language") or None,  # its players' until each chooses (pbem/i18n/)
        )
    except ValidationError as exc:
        form.errors["form"] = exc.message
        return render_template("host/new_game.html", form=form, **_form_context(host)), 422
    except RateLimited as exc:
        form.errors["form"] = exc.message
        return render_template("host/new_game.html", form=form, **_form_context(host)), 429
    flash(gettext("The game has started: every player has been emailed their link."), "host")
    return redirect(url_for("host.game", game_id=game_id), 303)


def _read_channel(form: NewGameForm, host: HostSession) -> None:
    """The channel's field judged by the host page's rules (a refusal beside it); the kept one named again."""
    if form.channel:
        try:
            runtime().channels.check(form.channel)
        except ValidationError as exc:
            form.errors["channel"] = exc.message
    if form.keep_channel_of:
        form.kept_channel = runtime().hosting.settings_of(form.keep_channel_of, host).channel
        if form.kept_channel is None:
            form.keep_channel_of = ""


def _kept(form: NewGameForm) -> str | None:
    """The game whose channel the new one keeps: ticked, and no new address typed."""
    return form.keep_channel_of if form.keep_channel and form.keep_channel_of and not form.channel else None


def _creator() -> HostSession:
    host = require_host()
    if not runtime().host_access.may_create_games(host.email):
        raise NotAllowed(gettext("This server's configuration does not let your address create games."))
    return host


def _form_context(host: HostSession) -> dict[str, Any]:
    return {
        "host": host,
        "variants": [dataclasses.replace(choice, title=variant_title(choice.name)) for choice in variant_choices()],
        "policy_fields": policy_fields(),
        "engine_options": engine_options(),
        "rows": range(12),
        "groups": groups(),
    }


# -- a game players join by link ------------------------------------------------------------------------


@blueprint.get("/invites/<invite_id>")
def invite(invite_id: str) -> Any:
    return render_invite(invite_id)


@blueprint.post("/invites/<invite_id>/<action>")
def invite_action(invite_id: str, action: str) -> Any:
    host = require_host()
    invites = runtime().invites
    question = INVITE_QUESTIONS.get(action)
    if question is not None and not _confirmed():
        detail = invites.detail(invite_id, host)  # 403 for another host's invite
        back = url_for("host.invite", invite_id=invite_id)
        return _ask(question(detail, request.form), back=back, title=detail.title)
    if action == "start":
        game_id = invites.start(invite_id, host)
        flash(gettext("The game has started: every player has been emailed their link."), "host")
        return redirect(url_for("host.game", game_id=game_id), 303)
    if action == "remove":
        name = invites.remove(invite_id, _int(request.form.get("joiner"), gettext("Choose a person.")), host)
        message = gettext("%(name)s is off the list; their confirmation link no longer works.", name=name)
    elif action == "close":
        invites.close(invite_id, host)
        message = gettext("The link is closed: nobody new can join. Those on the list can still confirm.")
    elif action == "reopen":
        invites.close(invite_id, host, closed=False)
        message = gettext("The link takes players again.")
    elif action == "rotate":
        invites.rotate(invite_id, host)
        message = gettext("Here is a new link; the old one no longer works. Share the new one.")
    else:
        raise ValidationError(gettext("There is no such action."))
    flash(message, "host")
    return redirect(url_for("host.invite", invite_id=invite_id), 303)


def render_invite(invite_id: str, *, status: int = 200, problem: str | None = None) -> Any:
    detail = runtime().invites.detail(invite_id, require_host())
    if detail.started_game:
        return redirect(url_for("host.game", game_id=detail.started_game), 303)
    return render_template(
        "host/invite.html",
        invite=detail,
        problem=problem,
        seat_order=seat_order_label(detail.seat_order),
        notices=get_flashed_messages(category_filter=["host"]),
        now=runtime().clock.now(),
    ), status


# -- one game -----------------------------------------------------------------------------------------


@blueprint.get("/games/<game_id>")
def game(game_id: str) -> Any:
    return render_game(game_id)


@blueprint.get("/games/<game_id>.json")
def game_json(game_id: str) -> Response:
    return jsonify(game_detail_json(runtime().hosting.detail(game_id, require_host())))


@blueprint.get("/games/<game_id>/export.json")
def export(game_id: str) -> Response:
    runtime().hosting.owned(game_id, require_host())  # 403 for another host's game
    return archive_response(game_id, include_emails=True)


@blueprint.get("/games/<game_id>/rollback")
def rollback_page(game_id: str) -> Any:
    host = require_host()
    hosting = runtime().hosting
    to_seq = _int(request.args.get("to"), gettext("Choose a turn."))
    return render_template(
        "host/rollback.html",
        detail=hosting.detail(game_id, host),
        to_seq=to_seq,
        seen=hosting.seen_since(game_id, to_seq, host),
    )


@blueprint.post("/games/<game_id>/say")
def say(game_id: str) -> Any:
    """The host's word to the table (table talk is for every seat and the host alike)."""
    runtime().host_actions.say(game_id, request.form.get("text", ""), require_host())
    flash(gettext("Your message is in the table's chat."), "host")
    return redirect(url_for("host.game", game_id=game_id) + "#chat", 303)


@blueprint.post("/games/<game_id>/seats/<int:seat>/<action>")
def seat_action(game_id: str, seat: int, action: str) -> Any:
    host = require_host()
    question, act = SEAT_QUESTIONS.get(action), SEAT_ACTIONS.get(action)
    if question is None or act is None:
        raise ValidationError(gettext("There is no such action."))
    if not _confirmed():
        detail = runtime().hosting.detail(game_id, host)  # 403 for another host's game
        if not 0 <= seat < len(detail.seats):
            raise ValidationError(gettext("There is no such seat."))
        return _ask(question(detail.seats[seat].name, request.form), back=url_for("host.game", game_id=game_id),
                    title=detail.row.title)
    return act(game_id, seat, host)


@blueprint.post("/games/<game_id>/channel")
def channel(game_id: str) -> Any:
    """Set or remove the game's channel; a refused address is said beside its field and changes nothing."""
    runtime().hosting.detail(game_id, require_host())  # 403 for another host's game
    notices = runtime().notices
    if request.form.get("clear") == "yes":
        notices.clear_channel(game_id)
        flash(gettext("The table's channel is removed."), "host")
    else:
        try:
            shown = notices.set_channel(game_id, request.form.get("url", ""))
        except ValidationError as exc:
            return render_game(game_id, status=422, channel_problem=exc.message)
        flash(gettext("The table's channel is %(shown)s.", shown=shown), "host")
    return redirect(url_for("host.game", game_id=game_id) + "#channel", 303)


@blueprint.post("/games/<game_id>/<action>")
def game_action(game_id: str, action: str) -> Any:
    host = require_host()
    question, act = GAME_QUESTIONS.get(action), GAME_ACTIONS.get(action)
    if question is None or act is None:
        raise ValidationError(gettext("There is no such action."))
    if not _confirmed():
        detail = runtime().hosting.detail(game_id, host)  # 403 for another host's game
        return _ask(question(detail, request.form), back=url_for("host.game", game_id=game_id), title=detail.row.title)
    return act(game_id, host)


def _confirmed() -> bool:
    """Whether the host said yes on the question page (`_ask`); the action's own form does not say it."""
    return request.form.get("confirm") == "yes"


def _ask(question: Question, *, back: str, title: str) -> Any:
    """The action's question, its "yes" posting the same fields again, confirmed; nothing is done yet."""
    fields = [(name, value) for name, value in request.form.items(multi=True) if name not in ("csrf_token", "confirm")]
    return render_template("host/confirm.html", question=question, fields=fields, action=request.path, back=back,
                           title=title)


def _int(raw: str | None, message: str) -> int:
    return required_int(raw, message)


# -- drawing ------------------------------------------------------------------------------------------


def render_game(
    game_id: str, *, status: int = 200, problem: str | None = None, channel_problem: str | None = None
) -> Any:
    host = require_host()
    hosting = runtime().hosting
    detail = hosting.detail(game_id, host)
    log = [
        LogEntry(
            seq=entry.seq,
            when=local_time(entry.created_at, "UTC"),
            actor=entry.actor_name,
            lines=list(entry.lines),
        )
        for entry in reversed(detail.history)
    ]
    turns = hosting.turns(game_id, host) if detail.row.status == GameStatus.ACTIVE else []
    chat = [
        {
            "id": line.id,
            "kind": line.kind,
            "name": line.name,
            "text": line.said,
            "is_you": line.kind == "host",
            "at": line.created_at,
            "when": local_time(line.created_at, "UTC"),
            "by_email": line.source == "email",
        }
        for line in runtime().chat.messages(game_id).lines
    ]
    return render_template(
        "host/game.html",
        detail=detail,
        host=host,
        log=log,
        turns=turns,
        problem=problem,
        chat=chat,
        lineage=runtime().rematches.lineage(game_id),
        page=PublicBoard(drawn_board(detail.public_view)) if detail.public_view else None,
        notices=get_flashed_messages(category_filter=["host"]),
        channel=runtime().notices.channel(game_id),
        channel_problem=channel_problem,
    ), status


blueprint.after_request(no_store)


@blueprint.errorhandler(PbemError)
def on_error(error: PbemError) -> Any:
    message = gettext(error.message)  # a message marked where it is written, in the host's language
    if wants_json():
        return jsonify(error=error.code, message=message), error.status
    if isinstance(error, NotSignedIn):
        return render_template("host/sign_in.html", problem=message), error.status
    if isinstance(error, BadLink):
        return render_template("host/sign_in.html", problem=message), error.status
    invite_id = (request.view_args or {}).get("invite_id")
    if invite_id and request.method == "POST" and error.status not in (401, 403, 404):
        try:
            return render_invite(invite_id, status=error.status, problem=message)
        except PbemError:
            pass
    game_id = (request.view_args or {}).get("game_id")
    if game_id and request.method == "POST" and error.status not in (401, 403, 404):
        try:
            return render_game(game_id, status=error.status, problem=message)
        except PbemError:
            pass
    return render_template("error.html", status=error.status, message=message), error.status
