"""A round declassified: once it is over, the private moves of that round told to everyone.

Who looked at which goal with a map and what they saw, who discarded which cards, who broke and repaired
whom, and in Saboteur 2 who inspected, swapped hats or swapped hands with whom: each line names the players
with the role they held at that moment, so the table can see who bluffed. Built from the round's stored
events, every audience included, which is only right once the round has ended: `round_recap` refuses before.
"""

from __future__ import annotations

from dataclasses import dataclass

from sqlalchemy import select
from sqlalchemy.orm import Session

import engine
from pbem.errors import RoundNotOver
from pbem.models import Game, Snapshot
from pbem.service.disclosure import Disclosure
from pbem.service.timeline import round_span, round_starts


@dataclass(frozen=True)
class SeatRoles:
    name: str
    roles: list[str]  # the role dealt, then any taken by Swap Your Hats, in order


@dataclass(frozen=True)
class RecapEntry:
    seq: int
    lines: list[str]


@dataclass(frozen=True)
class Recap:
    round: int
    seats: list[SeatRoles]
    spare_roles: list[str]
    entries: list[RecapEntry]

    def roles_of(self, seat: int) -> str:
        """'saboteur' or, after Swap Your Hats, 'saboteur, then Boss'."""
        return ", then ".join(self.seats[seat].roles)


def round_recap(session: Session, game: Game, round_number: int, disclosure: Disclosure) -> Recap | None:
    """The declassified story of a round that is over; None when the game holds no such round."""
    if not disclosure.round_is_over(round_number):
        raise RoundNotOver()
    starts = round_starts(session, game)
    if round_number not in starts or game.current_seq is None:
        return None
    first, last = round_span(starts, round_number, game.current_seq)
    dealt = engine.Game.from_dict(
        session.scalar(select(Snapshot.state).where(Snapshot.game_id == game.id, Snapshot.seq == first))
    )
    names = game.names
    roles = list(dealt.roles)
    held = [[engine.role_name(role)] for role in roles]
    entries: list[RecapEntry] = []
    rows = session.execute(
        select(Snapshot.seq, Snapshot.events)
        .where(Snapshot.game_id == game.id, Snapshot.seq > first, Snapshot.seq <= last)
        .order_by(Snapshot.seq)
    )
    for seq, events in rows:
        lines, ended = _declassified(events, round_number, names, roles, held)
        if lines:
            entries.append(RecapEntry(seq=seq, lines=lines))
        if ended:
            break
    return Recap(
        round=round_number,
        seats=[SeatRoles(name=name, roles=roles_held) for name, roles_held in zip(names, held)],
        spare_roles=[engine.role_name(role) for role in dealt.spare_roles],
        entries=entries,
    )


def _declassified(
    events: list[dict], round_number: int, names: list[str], roles: list[str], held: list[list[str]]
) -> tuple[list[str], bool]:
    """The recap lines of one move, and whether the round ended in it; follows role changes as they happen."""
    lines = []
    for event in events:
        kind = event.get("type")
        if kind == "round_ended" and event.get("round") == round_number:
            return lines, True
        if kind not in engine.RECAP_KINDS:
            continue
        labelled = [f"{name} ({engine.role_name(role)})" for name, role in zip(names, roles)]
        lines.append(engine.describe_openly(event, labelled))
        if kind == "role_changed":
            roles[event["seat"]] = event["role"]
            held[event["seat"]].append(engine.role_name(event["role"]))
    return lines, False
