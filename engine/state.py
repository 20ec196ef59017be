"""The game as a value: every fact of the table in plain containers, and its JSON form.

The snapshot is the whole truth, hidden parts included (hands, roles, the draw pile order and
the generator state). Only `views.view` decides what a seat may see of it.
"""
from __future__ import annotations

import copy
import marshal
from dataclasses import dataclass, field
from typing import Any

from .errors import InvalidSetup
from .geometry import Cell

SCHEMA = 2
READABLE_SCHEMAS = (1, 2)

PLAY, GOLD_PICK, STEAL, OVER = "play", "gold", "steal", "over"


@dataclass
class Game:
    variant: str
    players: list[str]
    options: dict[str, Any]
    seed: int
    rng: int
    round: int
    phase: str
    turn: int | None
    board: dict[Cell, tuple[int, bool]]  # placed cards, start and turned goals: (card id, rotated)
    hidden_goals: dict[Cell, int]  # goals still face down
    roles: list[str]
    spare_roles: list[str]  # role cards nobody holds; in Saboteur 2 they feed Swap Your Hats
    hands: list[list[int]]
    draw_pile: list[int]  # the top card is the last item
    discard: list[int]
    front: list[list[int]]  # cards lying in front of each seat (broken tools, Theft, Trapped!)
    peeks: list[list[Cell]]  # goals each seat has looked at this round
    gold_pile: list[int]  # nugget values; the top card is the last item
    gold: list[list[int]]  # nugget values each seat has earned
    offer: list[int]  # gold cards being passed round after a diggers' win
    last_actor: int | None  # who played the last card of this round
    last_placed: Cell | None
    results: list[dict[str, Any]] = field(default_factory=list)  # one per finished round
    # Saboteur 2 (schema 2); empty or zero in the base game
    removed: list[int] = field(default_factory=list)  # cards set aside unseen for this round
    gold_pieces: list[int] = field(default_factory=list)  # gold pieces per seat, a number each
    discarded_roles: list[str] = field(default_factory=list)  # dwarf cards given up to Swap Your Hats
    inspections: list[list[tuple[int, str]]] = field(default_factory=list)  # per seat: (seat seen, role seen)
    theft_order: list[int] = field(default_factory=list)  # seats holding a Theft, in the order they played it
    stealers: list[int] = field(default_factory=list)  # seats still to steal after this round's payout
    last_builder: int | None = None  # who placed the last path card this round (None: nobody yet)
    # cache of the open edges (x, y, edge) joined to the start
    reach: frozenset[tuple[int, int, int]] | None = field(default=None, compare=False, repr=False)
    variant_cache: Any = field(default=None, compare=False, repr=False)  # cache, see variants.variant_of

    def clone(self) -> Game:
        """A copy whose containers can be changed without touching this game."""
        g = copy.copy(self)
        g.players = list(self.players)
        g.options = dict(self.options)
        g.board = dict(self.board)
        g.hidden_goals = dict(self.hidden_goals)
        g.roles = list(self.roles)
        g.spare_roles = list(self.spare_roles)
        g.hands = [list(h) for h in self.hands]
        g.draw_pile = list(self.draw_pile)
        g.discard = list(self.discard)
        g.front = [list(f) for f in self.front]
        g.peeks = [list(p) for p in self.peeks]
        g.gold_pile = list(self.gold_pile)
        g.gold = [list(v) for v in self.gold]
        g.offer = list(self.offer)
        g.results = list(self.results)
        g.removed = list(self.removed)
        g.gold_pieces = list(self.gold_pieces)
        g.discarded_roles = list(self.discarded_roles)
        g.inspections = [list(i) for i in self.inspections]
        g.theft_order = list(self.theft_order)
        g.stealers = list(self.stealers)
        return g

    @property
    def seats(self) -> int:
        return len(self.players)

    def to_dict(self) -> dict[str, Any]:
        return {
            "schema": SCHEMA,
            "variant": self.variant,
            "players": list(self.players),
            "options": json_copy(self.options),
            "seed": self.seed,
            "rng": format(self.rng, "016x"),
            "round": self.round,
            "phase": self.phase,
            "turn": self.turn,
            "board": [[x, y, card, int(rot)] for (x, y), (card, rot) in sorted(self.board.items())],
            "hidden_goals": [[x, y, card] for (x, y), card in sorted(self.hidden_goals.items())],
            "roles": list(self.roles),
            "spare_roles": list(self.spare_roles),
            "hands": [list(h) for h in self.hands],
            "draw_pile": list(self.draw_pile),
            "discard": list(self.discard),
            "front": [list(f) for f in self.front],
            "peeks": [[list(c) for c in p] for p in self.peeks],
            "gold_pile": list(self.gold_pile),
            "gold": [list(v) for v in self.gold],
            "offer": list(self.offer),
            "last_actor": self.last_actor,
            "last_placed": list(self.last_placed) if self.last_placed else None,
            "results": json_copy(self.results),
            "removed": list(self.removed),
            "gold_pieces": list(self.gold_pieces),
            "discarded_roles": list(self.discarded_roles),
            "inspections": [[[seen, role] for seen, role in i] for i in self.inspections],
            "theft_order": list(self.theft_order),
            "stealers": list(self.stealers),
            "last_builder": self.last_builder,
        }

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> Game:
        """Read a snapshot of this schema or an older one (schema 1 lacks the Saboteur 2 keys)."""
        if not isinstance(d, dict) or d.get("schema") not in READABLE_SCHEMAS:
            raise InvalidSetup("snapshot_schema", schema=d.get("schema") if isinstance(d, dict) else repr(d))
        seats = len(d["players"])
        last = d["last_placed"]
        return cls(
            variant=d["variant"],
            players=list(d["players"]),
            options=json_copy(d["options"]),
            seed=d["seed"],
            rng=int(d["rng"], 16),
            round=d["round"],
            phase=d["phase"],
            turn=d["turn"],
            board={(x, y): (card, bool(rot)) for x, y, card, rot in d["board"]},
            hidden_goals={(x, y): card for x, y, card in d["hidden_goals"]},
            roles=list(d["roles"]),
            spare_roles=list(d["spare_roles"]),
            hands=[list(h) for h in d["hands"]],
            draw_pile=list(d["draw_pile"]),
            discard=list(d["discard"]),
            front=[list(f) for f in d["front"]],
            peeks=[[(c[0], c[1]) for c in p] for p in d["peeks"]],
            gold_pile=list(d["gold_pile"]),
            gold=[list(v) for v in d["gold"]],
            offer=list(d["offer"]),
            last_actor=d["last_actor"],
            last_placed=(last[0], last[1]) if last else None,
            results=json_copy(d["results"]),
            removed=list(d.get("removed", [])),
            gold_pieces=list(d.get("gold_pieces", [0] * seats)),
            discarded_roles=list(d.get("discarded_roles", [])),
            inspections=[[(seen, role) for seen, role in i] for i in d.get("inspections", [[]] * seats)],
            theft_order=list(d.get("theft_order", [])),
            stealers=list(d.get("stealers", [])),
            last_builder=d.get("last_builder"),
        )


def json_copy(value: Any) -> Any:
    """A copy of a JSON-shaped value (dicts, lists, strings, numbers) sharing nothing mutable with it, made by
    `marshal` in C: `copy.deepcopy` is several times slower on a finished round's result with its final board."""
    try:
        return marshal.loads(marshal.dumps(value))
    except ValueError:  # a value marshal cannot write
        return copy.deepcopy(value)
