"""Which seat a request speaks for: from the magic-link token in the URL, or from the session cookie.

The first visit comes through `/play/<token>`; the token is then kept in the signed session cookie under
its game, and the page lives at `/table/<game_id>`, so the address bar, history and screenshots no longer
show the credential. Every request still checks the token through `GameService.resolve_link`, so an
expired or revoked link stops working in the cookie too. Both forms of address reach the same views:
each route is registered once with `<token>` and once with `<game_id>`.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from flask import Blueprint, redirect, request, session
from werkzeug.wrappers import Response

from pbem.errors import BadLink, GameNotFound
from pbem.i18n import gettext
from pbem.seat_link import SeatLink
from pbem.web.app_context import runtime
from pbem.web.languages import read_as_seat
from pbem.web.urls import url_for
from pbem.words.table import N_

SESSION_KEY = "seats"
# A cookie holds about 4 kB: remember the most recent games only.
MAX_REMEMBERED = 8


class NoSeatHere(BadLink):
    """A `/table/<game_id>` address opened in a browser that has not opened that game's link."""

    default_message = N_(
        "This browser has not opened your link to this game yet. Please open the link from your latest email."
    )

    def __init__(self, message: str | None = None) -> None:
        super().__init__(message or gettext(self.default_message))  # in the reader's language


@dataclass(frozen=True)
class SeatAccess:
    token: str
    link: SeatLink
    via_token: bool  # the URL carries the token (else the cookie does)

    def url(self, endpoint: str, **values: Any) -> str:
        """The address of another route for this same seat, in the form this request used."""
        if self.via_token:
            return url_for(endpoint, token=self.token, **values)
        return url_for(endpoint, game_id=self.link.game_id, **values)


def requested_token() -> str:
    """The raw token this request names (URL or cookie), without judging it.

    NoSeatHere when this browser holds no link to the game, GameNotFound when there is no such game.
    """
    args = request.view_args or {}
    if "token" in args:
        return str(args["token"])
    game_id = str(args.get("game_id"))
    token = _remembered().get(game_id)
    if token is None:
        if not runtime().seats.game_exists(game_id):
            raise GameNotFound()
        raise NoSeatHere()
    return token


def current_seat(*, check_revocation: bool = True) -> SeatAccess:
    """The seat this request may act for; BadLink, ExpiredLink, RevokedLink or NoSeatHere otherwise.

    `check_revocation=False` leaves the database check of the link to the view (see `seat_routes`)."""
    token = requested_token()
    link = runtime().games.resolve_link(token, check_revocation=check_revocation)
    args = request.view_args or {}
    if "game_id" in args and args["game_id"] != link.game_id:
        raise NoSeatHere()
    read_as_seat(link.game_id, link.seat)
    return SeatAccess(token=token, link=link, via_token="token" in args)


def seat_routes(blueprint: Blueprint) -> Callable[..., Callable[[Callable[..., Any]], Callable[..., Any]]]:
    """A decorator factory registering a view of `blueprint` under both forms of address, as one endpoint
    (`url_for` picks by the argument); the view receives the request's `SeatAccess`.

    `revocation_checked_by_view`: the view checks the link's version itself before it shows or changes
    anything (a move does so under the game's lock, in its own transaction: `GameService.submit_move`)."""

    def seat_route(
        suffix: str, methods: list[str], *, revocation_checked_by_view: bool = False
    ) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
        def register(view: Callable[..., Any]) -> Callable[..., Any]:
            def handler(**_: str) -> Any:
                return view(current_seat(check_revocation=not revocation_checked_by_view))

            handler.__name__ = view.__name__
            blueprint.add_url_rule(f"/play/<token>{suffix}", view.__name__, handler, methods=methods)
            blueprint.add_url_rule(f"/table/<game_id>{suffix}", view.__name__, handler, methods=methods)
            return view

        return register

    return seat_route


def remember(access: SeatAccess) -> None:
    """Keep this seat's token in the session cookie (HttpOnly, SameSite=Lax, Secure behind HTTPS)."""
    seats = _remembered()
    seats.pop(access.link.game_id, None)
    seats[access.link.game_id] = access.token
    # A list of pairs, oldest first: the session serializer sorts the keys of a dict.
    session[SESSION_KEY] = [[game_id, token] for game_id, token in seats.items()][-MAX_REMEMBERED:]
    session.permanent = True


def _remembered() -> dict[str, str]:
    stored = session.get(SESSION_KEY)
    if not isinstance(stored, list):
        return {}
    return {
        pair[0]: pair[1]
        for pair in stored
        if isinstance(pair, list) and len(pair) == 2 and all(isinstance(part, str) for part in pair)
    }


def off_the_address_bar(access: SeatAccess, endpoint: str, **values: Any) -> Response | None:
    """Opened through the link's token: remember the seat and send the browser to the same page under
    `/table/<game_id>` (None when the request came that way already), as the turn page does."""
    if not access.via_token:
        return None
    remember(access)
    return redirect(SeatAccess(access.token, access.link, via_token=False).url(endpoint, **values), 303)
