"""A computer player that plays its role credibly from what its seat may know.

`HeuristicBot.decide(view, moves, history)` is the whole bot: it reads one seat's view, that seat's
legal moves and the events that seat may see, and returns one of the moves. It never sees the game
itself, so it cannot cheat; it keeps nothing between turns (beliefs are rebuilt from the view and
the events each time) and draws its few random choices from its seed and the turn, so the same
inputs always give the same move.

Diggers repair themselves, look at the goals early, extend the tunnel toward the likeliest gold,
clear blocking dead ends, repair players they trust and break the tools of players they suspect.
Saboteurs strike (dead ends, rockfalls, broken tools) when the tunnel comes close or now and then
before, and otherwise blend in. Both pass their least useful card when nothing helps. Unknown
roles play as diggers; unknown cards are only ever passed, so new variants stay legal.
"""
from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any, Callable, Iterable, Mapping, Sequence

from ..rules import legal_moves
from ..state import Game
from ..views import view as seat_view
from .beliefs import SUSPECT, TRUSTED, goal_belief, gold_known, suspicion
from .tunnel import Outcome, Survey, is_dead_end, layout_from_view, segment_masks, survey

Move = dict[str, Any]
View = Mapping[str, Any]
Event = Mapping[str, Any]

STRIKE_CHANCE = 0.4
"""How often a saboteur strikes while the tunnel is still far from every goal: not every turn."""

DANGER = 3.0
"""Expected cards still needed at or below which a saboteur strikes every time it can."""


@dataclass(frozen=True)
class Table:
    """What this seat knows this turn, read once from its view and the events it saw."""

    view: View
    me: int
    role: str
    hand: Mapping[int, Mapping[str, Any]]
    belief: Mapping[tuple[int, int], float]
    suspicion: Mapping[int, float]
    tunnel: Survey
    rng: random.Random

    @property
    def seats(self) -> int:
        return len(self.view.get("players") or ())

    def broken(self, seat: int) -> list[str]:
        for entry in self.view.get("seats") or ():
            if entry.get("seat") == seat:
                return list(entry.get("broken") or ())
        return []

    def turns_until(self, seat: int) -> int:
        """How soon a seat plays after me: 1 for the next seat, `seats` for myself."""
        return (seat - self.me) % self.seats or self.seats

    def card(self, move: Move) -> Mapping[str, Any]:
        return self.hand.get(move.get("card"), {}) if type(move.get("card")) is int else {}

    def cost_now(self, belief: Mapping[tuple[int, int], float] | None = None) -> float:
        return self.tunnel.now.expected(belief or self.belief)


def read_table(view: View, history: Sequence[Event], seed: int) -> Table:
    you = view.get("you") or {}
    me = you.get("seat", view.get("seat"))
    if type(me) is not int:
        raise ValueError("a bot needs a seat's view, not the public one")
    hand = {c["id"]: c for c in you.get("hand") or () if isinstance(c, Mapping) and type(c.get("id")) is int}
    return Table(
        view=view, me=me, role=str(you.get("role") or "digger"), hand=hand, belief=goal_belief(view),
        suspicion=suspicion(view, history), tunnel=survey(layout_from_view(view)), rng=turn_rng(view, seed),
    )


def turn_rng(view: View, seed: int) -> random.Random:
    """Randomness fixed by the seed and the turn: the cards left in hands and pile fall every turn."""
    cards_left = view.get("draw_pile", 0) + sum(s.get("hand_count", 0) for s in view.get("seats") or ())
    you = view.get("you") or {}
    return random.Random(f"heuristic/{seed}/{view.get('round')}/{you.get('seat')}/{cards_left}/"
                         f"{view.get('gold_offer', 0)}/{view.get('phase')}")


# ---------------------------------------------------------------- reading moves


def move_kind(table: Table, move: Move) -> str:
    """What a move does: path, break, repair, rockfall, map, pass, pick_gold, or other (unknown cards)."""
    if move.get("type") in ("pass", "pick_gold"):
        return str(move["type"])
    card = table.card(move)
    if card.get("kind") == "path" and {"x", "y", "rotated"} <= move.keys():
        return "path"
    effect = card.get("effect")
    if effect in ("break", "repair") and "target" in move:
        return str(effect)
    if effect in ("rockfall", "map") and {"x", "y"} <= move.keys():
        return str(effect)
    return "other"


def of_kind(table: Table, moves: Iterable[Move], kind: str) -> list[Move]:
    return [m for m in moves if move_kind(table, m) == kind]


def after(table: Table, move: Move) -> Outcome:
    """The tunnel after a path or rockfall move."""
    if move_kind(table, move) == "rockfall":
        return table.tunnel.after_removing((move["x"], move["y"]))
    masks = segment_masks(table.card(move), rotated=bool(move.get("rotated")))
    return table.tunnel.after_placing((move["x"], move["y"]), masks)


def best(table: Table, moves: Sequence[Move], key: Callable[[Move], Any]) -> Move | None:
    """The move with the smallest key; equal moves are told apart by the turn's seeded draw."""
    if not moves:
        return None
    ranked = sorted(moves, key=key)
    top = key(ranked[0])
    tied = [m for m in ranked if key(m) == top]
    return tied[table.rng.randrange(len(tied))]


# ---------------------------------------------------------------- shared habits


def pick_highest_gold(moves: Sequence[Move]) -> Move:
    return max(moves, key=lambda m: m.get("value") if type(m.get("value")) is int else -1)


def repair_self(table: Table, moves: Sequence[Move]) -> Move | None:
    """A player with a broken tool cannot build: fixing one's own is worth a turn."""
    own = [m for m in of_kind(table, moves, "repair") if m["target"] == table.me]
    return best(table, own, key=lambda m: len(table.card(m).get("tools") or ()))


def look_at_a_goal(table: Table, moves: Sequence[Move]) -> Move | None:
    """While the gold is unknown, look at the likeliest goal the tunnel is closest to."""
    if gold_known(table.belief):
        return None
    costs = table.tunnel.now.costs
    maps = [m for m in of_kind(table, moves, "map") if table.belief.get((m["x"], m["y"]), 0) > 0]
    return best(table, maps, key=lambda m: (-table.belief[(m["x"], m["y"])], costs.get((m["x"], m["y"]), 99)))


def pass_least_useful(table: Table, moves: Sequence[Move]) -> Move | None:
    """Discard the card worth least to this role; single-card passes first."""
    passes = [m for m in moves if m.get("type") == "pass" and isinstance(m.get("cards"), list)]
    worth = keep_value_saboteur if table.role == "saboteur" else keep_value_digger
    return best(table, passes, key=lambda m: (len(m["cards"]), sum(worth(table, c) for c in m["cards"])))


def keep_value_digger(table: Table, card_id: int) -> float:
    """Dead ends are useless to a digger; repairs and (while the gold is unknown) maps are precious."""
    card = table.hand.get(card_id, {})
    effect = card.get("effect")
    if card.get("kind") == "path":
        return 0.0 if is_dead_end(card) else 3.0 + len(str(card.get("openings", "")))
    if effect == "repair":
        return 6.0
    if effect == "map":
        return 1.0 if gold_known(table.belief) else 5.0
    if effect == "break":
        return 3.0 if any(s >= SUSPECT for s in table.suspicion.values()) else 2.0
    if effect == "rockfall":
        return 2.5
    return 2.0


def keep_value_saboteur(table: Table, card_id: int) -> float:
    """Blocking cards are precious to a saboteur; open crossings help only the diggers."""
    card = table.hand.get(card_id, {})
    effect = card.get("effect")
    if card.get("kind") == "path":
        return 7.0 if is_dead_end(card) else 6.0 - len(str(card.get("openings", "")))
    if effect in ("rockfall", "break"):
        return 6.5
    if effect == "map":
        return 1.0 if gold_known(table.belief) else 4.0
    if effect == "repair":
        return 3.0
    return 2.0


def last_resort(table: Table, moves: Sequence[Move]) -> Move:
    """Any legal move: a pass if there is one, else the seeded draw (unknown cards, new variants)."""
    return pass_least_useful(table, moves) or moves[table.rng.randrange(len(moves))]


# ---------------------------------------------------------------- the digger


def build_toward_gold(table: Table, moves: Sequence[Move]) -> Move | None:
    """Lay the card that brings the tunnel nearest the likely gold; a wider front is harder to block."""
    now = table.cost_now()
    builds = []
    for move in of_kind(table, moves, "path"):
        outcome = after(table, move)
        cost = outcome.expected(table.belief)
        if cost < now - 1e-9:
            builds.append((move, cost, outcome.width(table.belief)))
    ranked = {id(m): (round(c, 6), -w, keep_value_digger(table, m["card"])) for m, c, w in builds}
    return best(table, [m for m, _c, _w in builds], key=lambda m: ranked[id(m)])


def clear_blockage(table: Table, moves: Sequence[Move]) -> Move | None:
    """A rockfall on a dead end that stands in the way brings the gold nearer."""
    now = table.cost_now()
    scored = [(m, after(table, m).expected(table.belief)) for m in of_kind(table, moves, "rockfall")]
    helpful = {id(m): c for m, c in scored if c < now - 1e-9}
    return best(table, [m for m, _c in scored if id(m) in helpful], key=lambda m: helpful[id(m)])


def repair_friend(table: Table, moves: Sequence[Move]) -> Move | None:
    """Repair the most trusted player, first one whom this repair lets build again."""
    friends = [m for m in of_kind(table, moves, "repair")
               if m["target"] != table.me and table.suspicion.get(m["target"], 0) < TRUSTED]
    return best(table, friends, key=lambda m: (len(table.broken(m["target"])), table.suspicion[m["target"]],
                                               table.turns_until(m["target"])))


def break_suspect(table: Table, moves: Sequence[Move]) -> Move | None:
    """Stop the most suspicious player from building, first one who can still build."""
    hits = [m for m in of_kind(table, moves, "break")
            if m["target"] != table.me and table.suspicion.get(m["target"], 0) >= SUSPECT]
    return best(table, hits, key=lambda m: (len(table.broken(m["target"])) > 0, -table.suspicion[m["target"]],
                                            table.turns_until(m["target"])))


def digger_move(table: Table, moves: Sequence[Move]) -> Move:
    for plan in (repair_self, look_at_a_goal, build_toward_gold, clear_blockage, repair_friend, break_suspect):
        move = plan(table, moves)
        if move is not None:
            return move
    return last_resort(table, moves)


# ---------------------------------------------------------------- the saboteur


def strike_now(table: Table) -> bool:
    """Always when the tunnel is close to the gold, otherwise only now and then, so as not to stand out."""
    if table.cost_now() <= DANGER:
        return True
    return table.rng.random() < STRIKE_CHANCE


def block_tunnel(table: Table, moves: Sequence[Move]) -> Move | None:
    """The dead end or rockfall that sets the diggers back most (a narrower front counts a little)."""
    now, width = table.cost_now(), table.tunnel.now.width(table.belief)
    damage: dict[int, float] = {}
    candidates = of_kind(table, moves, "path") + of_kind(table, moves, "rockfall")
    for move in candidates:
        outcome = after(table, move)
        harm = outcome.expected(table.belief) - now + 0.25 * (width - outcome.width(table.belief))
        if harm > 1e-9:
            damage[id(move)] = harm
    return best(table, [m for m in candidates if id(m) in damage],
                key=lambda m: (-round(damage[id(m)], 6), move_kind(table, m) == "rockfall"))


def break_digger(table: Table, moves: Sequence[Move]) -> Move | None:
    """Break the tools of the most trusted-looking player who can still build, soonest to play first."""
    hits = [m for m in of_kind(table, moves, "break")
            if m["target"] != table.me and table.suspicion.get(m["target"], 0) < SUSPECT]
    return best(table, hits, key=lambda m: (len(table.broken(m["target"])) > 0, table.suspicion[m["target"]],
                                            table.turns_until(m["target"])))


def strike(table: Table, moves: Sequence[Move]) -> Move | None:
    if not strike_now(table):
        return None
    return block_tunnel(table, moves) or break_digger(table, moves)


def blend_in(table: Table, moves: Sequence[Move]) -> Move | None:
    """Look busy without helping: maps, or a card laid where it brings the gold no nearer."""
    move = look_at_a_goal(table, moves)
    if move is not None:
        return move
    now = table.cost_now()
    idle = [m for m in of_kind(table, moves, "path")
            if after(table, m).expected(table.belief) >= now - 1e-9 and not is_dead_end(table.card(m))]
    return best(table, idle, key=lambda m: (after(table, m).width(table.belief), m["card"]))


def saboteur_move(table: Table, moves: Sequence[Move]) -> Move:
    for plan in (repair_self, strike, blend_in):
        move = plan(table, moves)
        if move is not None:
            return move
    return last_resort(table, moves)


# ---------------------------------------------------------------- the bot


@dataclass(frozen=True)
class HeuristicBot:
    """A seeded computer player; it holds nothing but its seed."""

    seed: int = 0

    def decide(self, view: View, moves: Sequence[Move], history: Sequence[Event] = ()) -> Move:
        """One of `moves`, chosen from this seat's view and the events it may see."""
        if not moves:
            raise ValueError("there is no move to choose from")
        moves = list(moves)
        if all(m.get("type") == "pick_gold" for m in moves):
            return pick_highest_gold(moves)
        table = read_table(view, history, self.seed)
        if table.role == "saboteur":
            return saboteur_move(table, moves)
        return digger_move(table, moves)

    def choose(self, game: Game, seat: int, history: Sequence[Event] = ()) -> Move:
        """Convenience: the seat's view and legal moves from a game; `history` is filtered to the seat."""
        return self.decide(seat_view(game, seat), legal_moves(game, seat), visible_to(history, seat))


def visible_to(events: Iterable[Event], seat: int) -> list[Event]:
    """The events a seat may see: public ones and those addressed to it."""
    out = []
    for event in events:
        audience = event.get("audience")
        if audience == "public" or (isinstance(audience, list) and seat in audience):
            out.append(event)
    return out
