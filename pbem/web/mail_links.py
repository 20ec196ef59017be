"""RFC 8058 one-click unsubscribe: `/mail/unsubscribe/<token>` switches one seat to the daily digest.

GET only shows what the link would do and a button: mail scanners and link previewers open links
before people do, and must change nothing. POST (the button, or the mail provider's one-click POST with
`List-Unsubscribe=One-Click`) makes the switch. The POST needs no CSRF token, and cannot carry one (the
mail provider sends it): the signed token in the address is itself the secret that a forged request
would lack, and all it can do is what its owner asked for, once or many times alike. The page is in the seat's
language, as the email that carried the link was.
"""

from __future__ import annotations

from flask import Blueprint, render_template

from pbem.mail.unsubscribe import UnsubscribeClaim, UnsubscribeLinks, seat_preference, switch_to_digest
from pbem.web.app_context import runtime
from pbem.web.languages import read_as_seat

blueprint = Blueprint("mail_links", __name__)


def _links() -> UnsubscribeLinks:
    config = runtime().config
    return UnsubscribeLinks(config.secret_keys, config.base_url)


@blueprint.get("/mail/unsubscribe/<token>")
def confirm(token: str) -> str:
    preference = seat_preference(runtime().db, _seats(token))
    return render_template("mail/unsubscribe.html", preference=preference, done=False)


@blueprint.post("/mail/unsubscribe/<token>")
def unsubscribe(token: str) -> str:
    preference = switch_to_digest(runtime().db, _seats(token))
    return render_template("mail/unsubscribe.html", preference=preference, done=True)


def _seats(token: str) -> UnsubscribeClaim:
    """The seat the token names, whose language the page is in."""
    claim = _links().verify(token)
    read_as_seat(claim.game_id, claim.seat)
    return claim
