"""Sealed deals on the player's pages: the panel on the turn page, and one page per round that is over.

The panel shows the fingerprint of the round being played (with what it means) and, for rounds that are
over, a link to their page. A round's page tells what really happened (the declassified recap), opens its
sealed deal and checks it in the browser (static/verify.js, Web Crypto), and offers the exact bytes as a
download for `sha256sum`. Before the round ends the page refuses (RoundNotOver): nothing of it shows early.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from flask import Response, render_template, request
from werkzeug.exceptions import NotFound

from pbem.i18n import current_language, gettext
from pbem.service.history.chronicle import RoundStory
from pbem.service.history.fairness import SealedRound
from pbem.service.turns.values import GameState
from pbem.web.app_context import runtime
from pbem.web.player import seat_pages
from pbem.web.seat_access import SeatAccess, off_the_address_bar, seat_routes

blueprint = seat_pages("deals", __name__)
seat_route = seat_routes(blueprint)


@dataclass(frozen=True)
class TrustPanel:
    """What the turn page's "fair deal" panel shows one seat."""

    current: SealedRound | None  # the round being played, sealed
    rounds: list[tuple[int, str]]  # rounds that are over, with the address of their page
    over: bool
    replay: str
    replay_file: str | None
    archive: str | None


@blueprint.app_template_global("trust_panel")
def trust_panel(access: SeatAccess, state: GameState) -> TrustPanel:
    """Seals change only with a new snapshot (a deal, a round's end) or when the game closes: the panel is made
    once per snapshot, status and address in this process."""

    def make() -> TrustPanel:
        seals = runtime().chronicle.seals(access.link.game_id)
        ended = [result["round"] for result in (state.view["results"] if state.view else [])]
        return TrustPanel(
            current=seals.current,
            rounds=[(number, access.url("deals.round_page", round_number=number)) for number in ended],
            over=seals.closed,
            replay=access.url("replay.replay"),
            replay_file=access.url("replay.replay_file") if seals.closed else None,
            archive=access.url("replay.archive") if seals.closed else None,
        )

    key = ("trust", state.game_id, state.seq, state.status, access.url("player.table"), current_language())
    return runtime().db.memo.get_or_make("fragment", key, make)


@seat_route("/rounds/<int:round_number>", ["GET"])
def round_page(access: SeatAccess) -> Any:
    number = _round_number()
    moved = off_the_address_bar(access, "deals.round_page", round_number=number)
    if moved is not None:
        return moved
    story = _story(access, number)
    return render_template(
        "play/round.html",
        story=story,
        names=runtime().seats.profile(access.link.game_id, access.link.seat).names,
        table=access.url("player.table"),
        deal_file=access.url("deals.round_deal", round_number=number) if story.seal else None,
        file_name=_deal_file_name(number),
    )


@seat_route("/rounds/<int:round_number>/deal.json", ["GET"])
def round_deal(access: SeatAccess) -> Response:
    """Exactly the bytes the round's fingerprint was computed over, for `sha256sum`."""
    number = _round_number()
    story = _story(access, number)
    if story.seal is None or story.seal.opening is None:
        raise NotFound(gettext("This round was dealt before deals were sealed."))
    response = Response(story.seal.opening.sealed_bytes, content_type="application/json; charset=utf-8")
    response.headers["Content-Disposition"] = f'attachment; filename="{_deal_file_name(number)}"'
    return response


def _round_number() -> int:
    return int((request.view_args or {})["round_number"])


def _story(access: SeatAccess, number: int) -> RoundStory:
    story = runtime().chronicle.round_story(access.link.game_id, number)
    if story is None:
        raise NotFound(gettext("This game has no such round."))
    return story


def _deal_file_name(number: int) -> str:
    return f"round-{number}-deal.json"
