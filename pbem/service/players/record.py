"""A player's record: read only from rounds that are over (their results are public to the whole table once the
round has ended) and from games that are over, so it reveals nothing still hidden."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

import engine
from pbem.words.roles import role_name

SABOTEURS = ("saboteur",)


@dataclass(frozen=True)
class GameRecord:
    """One game, for one seat: what its finished rounds and, once over, its final score say."""

    title: str
    finished: bool
    won: bool
    roles_won: Counter[str]  # by the role held at the round's end, the engine's key ("digger", "saboteur", "boss")
    rounds_played: int
    gold: int

    @property
    def rounds_won(self) -> Counter[str]:
        """The rounds won by the name of the role held, in the reader's language ("gold-digger", "Boss")."""
        return by_name(self.roles_won)

    @property
    def rounds_won_total(self) -> int:
        return sum(self.roles_won.values())


@dataclass(frozen=True)
class Record:
    games: list[GameRecord] = field(default_factory=list)

    @property
    def games_played(self) -> int:
        return sum(1 for game in self.games if game.finished)

    @property
    def games_won(self) -> int:
        return sum(1 for game in self.games if game.won)

    @property
    def roles_won(self) -> Counter[str]:
        total: Counter[str] = Counter()
        for game in self.games:
            total.update(game.roles_won)
        return total

    @property
    def rounds_won(self) -> Counter[str]:
        """The rounds won by the name of the role held, in the reader's language."""
        return by_name(self.roles_won)

    @property
    def rounds_as_digger(self) -> int:
        return sum(count for role, count in self.roles_won.items() if role not in SABOTEURS)

    @property
    def rounds_as_saboteur(self) -> int:
        return sum(count for role, count in self.roles_won.items() if role in SABOTEURS)

    @property
    def gold(self) -> int:
        return sum(game.gold for game in self.games)


def by_name(roles: Counter[str]) -> Counter[str]:
    """Counts by role key as counts by the role's name, in the reader's language (read, not kept)."""
    named: Counter[str] = Counter()
    for role, count in roles.items():
        named[role_name(role)] += count
    return named


def game_record(title: str, seat: int, view: Mapping[str, Any], finished: bool) -> GameRecord:
    """One seat's record in one game, from that seat's own view (its finished rounds' public results, its gold);
    who won a round is the engine's rule (`engine.round_winners`)."""
    won: Counter[str] = Counter()
    options = view.get("options", {})
    results: Iterable[Mapping[str, Any]] = view.get("results", [])
    played = 0
    for result in results:
        played += 1
        if seat in engine.round_winners(result, options):
            won[result["roles"][seat]] += 1
    final = view.get("final")
    gold = final["scores"][seat] if final else int(view.get("you", {}).get("gold_total", 0))
    return GameRecord(
        title=title, finished=finished, won=seat in final["winners"] if final else False, roles_won=won,
        rounds_played=played, gold=gold,
    )
