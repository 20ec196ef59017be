"""When secrets stop being secret: the one place that says so for sealed deals, recaps and replays.

A round's deal and its private events (map peeks, discards, inspections, ...) are open to everyone in the
game once the round has ended (the engine has recorded its result). Everything (every hand, role and goal at
every step, the whole archive) is open once the game is over: finished, or abandoned by its host.
Until then a player sees what their seat saw, and a host what an onlooker sees.
"""

from __future__ import annotations

from dataclasses import dataclass

from sqlalchemy.orm import Session

from pbem.models import Game
from pbem.models.games import OVER_STATUSES
from pbem.service.snapshots import latest_state


@dataclass(frozen=True)
class Disclosure:
    closed: bool  # the game is over: everything is open
    ended_rounds: frozenset[int]  # rounds whose result the engine has recorded

    def round_is_over(self, round_number: int) -> bool:
        return self.closed or round_number in self.ended_rounds


def game_is_closed(game: Game) -> bool:
    return game.status in OVER_STATUSES


def disclosure(session: Session, game: Game) -> Disclosure:
    """What is open in `game` now, read from its latest snapshot."""
    if game.current_seq is None:
        return Disclosure(closed=game_is_closed(game), ended_rounds=frozenset())
    results = latest_state(session, game).results
    return Disclosure(closed=game_is_closed(game), ended_rounds=frozenset(result["round"] for result in results))
