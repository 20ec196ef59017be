"""Joining a game by the host's shared link: `/join/<token>` shows the game and a form (name, address, time zone
offered by the browser); its POST puts the person on the list and emails a confirmation link. That link,
`/join/confirm/<token>`, shows a button on GET (mail scanners open links and must change nothing); only the POST
behind the button confirms. A link that takes nobody now says why, in words (closed, replaced, expired, full,
started). Nothing here shows more than the game's title, variant and the names of those who confirmed."""

from __future__ import annotations

from typing import Any
from zoneinfo import available_timezones

from flask import Blueprint, render_template, request

from pbem.errors import BadLink, InviteUnavailable, RateLimited, ValidationError
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
    invites = runtime().invites
    form = {key: request.form.get(key, "") for key in ("name", "email", "timezone")}
    try:
        joined = invites.join(token, form["name"], form["email"], form["timezone"], request.remote_addr or "unknown")
    except (InviteUnavailable, BadLink) as exc:
        return render_template("join/unavailable.html", message=exc.message), exc.status
    except (ValidationError, RateLimited) as exc:
        page = invites.opened(token)
        field = "email" if "address" in exc.message or "@" in exc.message else (
            "name" if "name" in exc.message.casefold() else "")
        return render_template("join/join.html", page=page, zones=time_zones(), form=form, problem=exc.message,
                               problem_field=field), exc.status
    return render_template("join/check_inbox.html", joined=joined)


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
