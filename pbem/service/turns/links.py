"""The seats' magic links: made fresh for the command line and the demo page, and checked when opened."""

from __future__ import annotations

from sqlalchemy import select
from sqlalchemy.orm import selectinload

from pbem.errors import (
    GameNotFound,
    RevokedLink,
)
from pbem.models import Game, Seat
from pbem.models.games import RUNNING_STATUSES
from pbem.seat_link import SeatLink
from pbem.service.rows import find_game
from pbem.service.turns.recording import GameCore
from pbem.service.turns.values import DemoGame, SeatInvite


class Links(GameCore):
    """The seats' magic links: made for the command line and the demo, and resolved when opened."""

    def invites(self, game_id: str) -> list[SeatInvite]:
        """Each seat with a fresh link (for the command line)."""
        with self._db.read() as session:
            return self._invites(find_game(session, game_id))

    def demo_invites(self) -> list[DemoGame]:
        """Unfinished demo games with their players' links, for the development home page."""
        with self._db.read() as session:
            games = session.scalars(
                select(Game)
                .where(Game.is_demo.is_(True), Game.status.in_(RUNNING_STATUSES))
                .options(selectinload(Game.seats))
                .order_by(Game.created_at.desc())
            )
            return [
                DemoGame(game_id=game.public_id, title=game.title, invites=self._invites(game), variant=game.variant)
                for game in games
            ]

    def _invites(self, game: Game) -> list[SeatInvite]:
        return [
            SeatInvite(
                seat=seat.seat_index,
                name=seat.display_name,
                email=seat.email,
                is_bot=seat.is_bot,
                link=self._links.url(_seat_link(game, seat)),
            )
            for seat in game.seats
        ]

    def resolve_link(self, token: str, *, check_revocation: bool = True) -> SeatLink:
        """The seat a magic link opens; BadLink, ExpiredLink or RevokedLink otherwise.

        `check_revocation=False`: signature and age only, for a caller that has the link's version checked under
        the game's lock instead (`submit_move(link_version=...)`).
        """
        claimed = self._links.verify(token)
        if not check_revocation:
            return claimed
        with self._db.read() as session:
            # The same lookup the request's next read makes: within one request it is made once.
            try:
                seats = find_game(session, claimed.game_id).seats
            except GameNotFound:
                raise RevokedLink() from None
            seat = seats[claimed.seat] if 0 <= claimed.seat < len(seats) else None
            if seat is None or seat.token_version != claimed.version:
                raise RevokedLink()
            return claimed


def _seat_link(game: Game, seat: Seat) -> SeatLink:
    return SeatLink(game_id=game.public_id, seat=seat.seat_index, version=seat.token_version)
