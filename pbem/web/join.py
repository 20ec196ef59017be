"""Joining a game by the host's shared link: `/join/<token>` shows the game and a form (name, address, time zone
offered by the browser, language); its POST puts the person on the list and emails a confirmation link, in the
language they picked, which their seat reads once the game starts. That link,
`/join/confirm/<token>`, shows a button on GET (mail scanners open links and must change nothing); only the POST
behind the button confirms. A link that takes nobody now says why, in words (closed, replaced, expired, full,
started). Nothing here shows more than the game's title, variant and the names of those who confirmed."""

from __future__ import annotations

from contextlib import nullcontext
from typing import Any
from zoneinfo import available_timezones

from flask import Blueprint, render_template, request

from pbem.addresses import address_mistake
from pbem.errors import BadLink, InviteUnavailable, PbemError, RateLimited, ValidationError
from pbem.i18n import gettext, in_language
from pbem.service.seats.languages import chosen_language
from pbem.web.app_context import runtime
from pbem.web.csrf import protect
from pbem.web.security import no_store

blueprint = Blueprint("join", __name__)
protect(blueprint)
blueprint.after_request(no_store)

_ZONES: list[str] = []


def time_zones() -> list[str]:
    """The IANA zones a person may pick (Area/City names), sorted; read once."""
    if not _ZONES:
        _ZONES.extend(sorted(name for name in available_timezones()
                             if "/" in name and not name.startswith(("Etc/", "SystemV/", "US/", "posix", "right"))))
        _ZONES.insert(0, "UTC")
    return _ZONES


@blueprint.get("/join/<token>")
def join_page(token: str) -> Any:
    try:
        page = runtime().invites.opened(token)
    except (InviteUnavailable, BadLink) as exc:
        return render_template("join/unavailable.html", message=exc.message), exc.status
    return render_template("join/join.html", page=page, zones=time_zones(), form={}, problem=None)


@blueprint.post("/join/<token>")
def join(token: str) -> Any:
    """The person's place on the list; the answer, and the confirmation email, in the language they picked."""
    form = {key: request.form.get(key, "") for key in ("name", "email", "timezone", "language")}
    try:
        language = chosen_language(form["language"] or None)
    except ValidationError:
        language, form["language"] = None, ""
    with in_language(language) if language is not None else nullcontext():
        return _join(token, form, language)


def _join(token: str, form: dict[str, str], language: str | None) -> Any:
    invites = runtime().invites
    try:
        joined = invites.join(token, form["name"], form["email"], form["timezone"], request.remote_addr or "unknown")
    except (InviteUnavailable, BadLink) as exc:
        return render_template("join/unavailable.html", message=exc.message), exc.status
    except (ValidationError, RateLimited) as exc:
        page = invites.opened(token)
        return render_template("join/join.html", page=page, zones=time_zones(), form=form, problem=exc.message,
                               problem_field=problem_field(exc, form["email"])), exc.status
    if joined.sent:
        runtime().seat_languages.joiner_chose(invites.links.read_invite(token)[0], form["email"], language)
    return render_template("join/check_inbox.html", joined=joined)


def problem_field(problem: PbemError, email: str) -> str:
    """The field a refusal is about, whatever language it is in: the address (what is wrong with it, or its place
    taken already), else the name (checked first: empty, too long, reserved or taken); a limit is about neither."""
    if isinstance(problem, RateLimited):
        return ""
    taken = gettext("This address already has a place in this game: one place per person.")
    return "email" if problem.message in (address_mistake(email.strip(), gettext), taken) else "name"


@blueprint.get("/join/confirm/<token>")
def confirm_page(token: str) -> Any:
    try:
        confirmation = runtime().invites.confirmation(token)
    except (InviteUnavailable, BadLink) as exc:
        return render_template("join/unavailable.html", message=exc.message), exc.status
    return render_template("join/confirm.html", confirmation=confirmation, token=token, done=confirmation.already)


@blueprint.post("/join/confirm/<token>")
def confirm(token: str) -> Any:
    try:
        confirmation = runtime().invites.confirm(token)
    except (InviteUnavailable, BadLink) as exc:
        return render_template("join/unavailable.html", message=exc.message), exc.status
    return render_template("join/confirm.html", confirmation=confirmation, token=token, done=True)
