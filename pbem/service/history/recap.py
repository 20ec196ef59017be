"""A round declassified: once it is over, the private moves of that round told to everyone.

Who looked at which goal with a map and what they saw, who discarded which cards, who broke and repaired
whom, and in Saboteur 2 who inspected, swapped hats or swapped hands with whom: each line names the players
with the role they held at that moment, so the table can see who bluffed. Built from the round's stored
events, every audience included, which is only right once the round has ended: `round_recap` refuses before.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass

from sqlalchemy import select
from sqlalchemy.orm import Session

import engine
from pbem.errors import RoundNotOver
from pbem.i18n import gettext, pgettext
from pbem.models import Game, Snapshot
from pbem.service.history.disclosure import Disclosure
from pbem.service.history.holders import handover_lines, names_at
from pbem.service.history.timeline import round_span, round_starts
from pbem.service.snapshots import state_at
from pbem.words.events import describe_openly
from pbem.words.roles import role_name


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
    private_moves: bool = True  # whether map results and face-down cards are retold (option `recap_private_moves`)

    def roles_of(self, seat: int) -> str:
        """'saboteur' or, after Swap Your Hats, 'saboteur, then Boss'."""
        held = self.seats[seat].roles
        told = held[0] if held else ""
        for later in held[1:]:
            told = gettext("%(before)s, then %(after)s", before=told, after=later)
        return told


def round_recap(session: Session, game: Game, round_number: int, disclosure: Disclosure) -> Recap | None:
    """The declassified story of a round that is over; None when the game holds no such round."""
    if not disclosure.round_is_over(round_number):
        raise RoundNotOver()
    starts = round_starts(session, game)
    if round_number not in starts or game.current_seq is None:
        return None
    first, last = round_span(starts, round_number, game.current_seq)
    dealt = state_at(session, game, first)
    names = names_at(game, last)  # who held each seat when the round ended
    roles = list(dealt.roles)
    rows = session.execute(
        select(Snapshot.seq, Snapshot.events)
        .where(Snapshot.game_id == game.id, Snapshot.seq > first, Snapshot.seq <= last)
        .order_by(Snapshot.seq)
    )
    moves = _round_moves(rows.tuples(), round_number)
    told = [event for _, events in moves for event in events]
    secret = iter(engine.roles_given_up(told))
    swapped = {event["seat"] for event in told if event.get("type") == "role_changed"}
    kinds = engine.recap_kinds(dealt.options)
    held = [[secret_role() if seat in swapped else role_name(role)] for seat, role in enumerate(roles)]
    entries: list[RecapEntry] = []
    for seq, events in moves:
        lines = _declassified(events, kinds, names_at(game, seq), roles, held, secret) + handover_lines(game, seq)
        if lines:
            entries.append(RecapEntry(seq=seq, lines=lines))
    return Recap(
        round=round_number,
        seats=[SeatRoles(name=name, roles=roles_held) for name, roles_held in zip(names, held, strict=False)],
        # the leftovers would tell, by elimination, which dwarf card went face down
        spare_roles=[] if swapped else [role_name(role) for role in dealt.spare_roles],
        entries=entries,
        private_moves=engine.private_moves_open(dealt.options),
    )


def secret_role() -> str:
    """In place of a role: "Cy (dwarf card given up)", never which card."""
    return gettext("dwarf card given up")


def _round_moves(rows: Iterable[tuple[int, list[dict]]], round_number: int) -> list[tuple[int, list[dict]]]:
    """The round's moves, each with its events up to the one that ends the round."""
    moves: list[tuple[int, list[dict]]] = []
    for seq, events in rows:
        kept: list[dict] = []
        for event in events:
            if event.get("type") == "round_ended" and event.get("round") == round_number:
                moves.append((seq, kept))
                return moves
            kept.append(event)
        moves.append((seq, kept))
    return moves


def _declassified(
    events: list[dict],
    kinds: frozenset[str],
    names: list[str],
    roles: list[str],
    held: list[list[str]],
    secret: Iterator[frozenset[int]],
) -> list[str]:
    """The recap lines of one move; follows role changes as they happen and keeps given-up dwarf cards unsaid."""
    lines = []
    for event in events:
        hidden = next(secret)
        kind = event.get("type")
        if kind not in kinds:
            continue
        giving_up = hidden | {event["seat"]} if kind == "role_changed" else hidden  # the card it gives up now
        labelled = [
            pgettext("recap", "%(name)s (%(role)s)", name=name,
                     role=secret_role() if seat in giving_up else role_name(role))
            for seat, (name, role) in enumerate(zip(names, roles, strict=False))
        ]
        lines.append(describe_openly(event, labelled, hidden))
        if kind == "role_changed":
            roles[event["seat"]] = event["role"]
            held[event["seat"]].append(secret_role() if event["seat"] in hidden else role_name(event["role"]))
    return lines
