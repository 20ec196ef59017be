"""Who held each seat when: history names the person who made each move at the time.

When the host replaces a player, the seat's old holder is kept in `Game.former_holders` with the last snapshot
of their time (`upto_seq`); every log, replay, recap, digest and archive reads names through `names_at`, and
the handover is a line of its own after that snapshot ("Dan takes over Ben's seat.").
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TypedDict

import engine
from pbem.i18n import gettext
from pbem.models import Game
from pbem.service.events import describe, visible_events


class FormerHolder(TypedDict):
    seat: int
    name: str
    upto_seq: int  # the last snapshot whose move, if the seat made it, was theirs


def record_handover(game: Game, seat: int, old_name: str) -> None:
    """`old_name` held `seat` up to the current snapshot; the next move from it is the newcomer's."""
    entry: FormerHolder = {"seat": seat, "name": old_name, "upto_seq": game.current_seq or 0}
    game.former_holders = [*(game.former_holders or []), entry]


def _former(game: Game) -> list[FormerHolder]:
    return list(game.former_holders or [])


def names_at(game: Game, seq: int) -> list[str]:
    """Each seat's holder when snapshot `seq` was made."""
    names = list(game.names)
    settled: set[int] = set()
    for entry in _former(game):  # oldest first: the first spell that reaches `seq` is the one
        seat = entry["seat"]
        if seat not in settled and seq <= entry["upto_seq"] and 0 <= seat < len(names):
            names[seat] = entry["name"]
            settled.add(seat)
    return names


def handover_lines(game: Game, seq: int) -> list[str]:
    """The lines told right after snapshot `seq`: each seat that changed hands then."""
    former = _former(game)
    lines = []
    for index, entry in enumerate(former):
        if entry["upto_seq"] != seq:
            continue
        later = next((other for other in former[index + 1:] if other["seat"] == entry["seat"]), None)
        newcomer = later["name"] if later is not None else game.names[entry["seat"]]
        lines.append(gettext("%(newcomer)s takes over %(name)s's seat.", newcomer=newcomer, name=entry["name"]))
    return lines


def lines_at(game: Game, seq: int, events: Iterable[engine.Event], seat: int | None) -> list[str]:
    """One snapshot's lines for `seat` (None: public lines), named as at the time, with any handover after it."""
    return describe(visible_events(events, seat), names_at(game, seq), seat) + handover_lines(game, seq)


def former_holders_of(game: Game, seat: int) -> list[FormerHolder]:
    """The seat's earlier holders, oldest first (for the archive)."""
    return [entry for entry in _former(game) if entry["seat"] == seat]
