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
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, cast

from ..rules import legal_moves
from ..shapes import Move
from ..state import Game
from ..views import view as seat_view
from .beliefs import SUSPECT, TRUSTED, goal_belief, gold_known, seat_count, suspicion, uniform_belief
from .tunnel import Outcome, Survey, is_dead_end, layout_from_view, segment_masks, survey

# A bot reads its view and the events it saw tolerantly (engine/shapes.py's View and Event, or anything like them):
# a key it does not know, or lacks, never makes it fail.
View = Mapping[str, Any]
Event = Mapping[str, Any]
Cell = tuple[int, int]

STRIKE_CHANCE = 0.4
"""How often a saboteur strikes while the tunnel is still far from every goal: not every turn."""

DANGER = 3.0
"""Expected cards still needed at or below which a saboteur strikes every time it can."""

EPSILON = 1e-9
"""Costs are averages of whole cards; anything smaller than this is no change at all."""


@dataclass(frozen=True)
class Table:
    """What this seat knows this turn, read once from its view and the events it saw."""

    view: View
    me: int
    role: str
    hand: Mapping[int, Mapping[str, Any]]
    belief: Mapping[Cell, float]
    suspicion: Mapping[int, float]
    tunnel: Survey
    rng: random.Random

    @property
    def seats(self) -> int:
        return max(seat_count(self.view), self.me + 1)

    def broken(self, seat: int) -> list[str]:
        for entry in self.view.get("seats") or ():
            if isinstance(entry, dict) and entry.get("seat") == seat:
                return list(entry.get("broken") or ())
        return []

    def suspected(self, seat: int) -> float:
        return self.suspicion.get(seat, 0.0)

    def turns_until(self, seat: int) -> int:
        """How soon a seat plays after me: 1 for the next seat, `seats` for myself."""
        return (seat - self.me) % self.seats or self.seats

    def card(self, move: Move) -> Mapping[str, Any]:
        """The hand card a move plays ({} for a pass or a card this seat does not know)."""
        card_id = move.get("card")
        return self.hand.get(card_id, {}) if type(card_id) is int else {}


def read_table(view: View, history: Sequence[Event], seed: int) -> Table:
    you = view.get("you") or {}
    me = you.get("seat", view.get("seat"))
    if type(me) is not int:
        raise ValueError("a bot needs a seat's view, not the public one")
    hand = {c["id"]: c for c in you.get("hand") or () if isinstance(c, dict) and type(c.get("id")) is int}
    return Table(
        view=view, me=me, role=str(you.get("role") or "digger"), hand=hand, belief=goal_belief(view),
        suspicion=suspicion(view, history), tunnel=survey(layout_from_view(view)), rng=turn_rng(view, seed),
    )


def turn_rng(view: View, seed: int) -> random.Random:
    """Randomness fixed by the seed and the turn: the cards left in hands and pile fall every turn."""
    counts = [view.get("draw_pile")] + [s.get("hand_count") for s in view.get("seats") or () if isinstance(s, dict)]
    cards_left = sum(c for c in counts if type(c) is int)
    you = view.get("you") or {}
    return random.Random(f"heuristic/{seed}/{view.get('round')}/{you.get('seat')}/{cards_left}/"
                         f"{view.get('gold_offer', 0)}/{view.get('phase')}")


# ---------------------------------------------------------------- reading moves


def move_kind(table: Table, move: Move) -> str:
    """What a move does: path, break, repair, rockfall, map, pass, pick_gold, or other (unknown cards)."""
    if move.get("type") in ("pass", "pick_gold"):
        return str(move["type"])
    card = table.card(move)
    placed = type(move.get("x")) is int and type(move.get("y")) is int
    if card.get("kind") == "path" and placed and type(move.get("rotated")) is bool:
        return "path"
    effect = card.get("effect")
    if effect in ("break", "repair") and type(move.get("target")) is int:
        return str(effect)
    if effect in ("rockfall", "map") and placed:
        return str(effect)
    return "other"


def aimed_at(move: Move) -> int:
    """The seat a break or a repair is aimed at (`move_kind` found it is a seat)."""
    return cast(int, move["target"])


Plan = Callable[["Table", Sequence[Move]], "Move | None"]


def of_kind(table: Table, moves: Iterable[Move], kind: str) -> list[Move]:
    return [m for m in moves if move_kind(table, m) == kind]


def after(table: Table, move: Move) -> Outcome:
    """The tunnel after a path or rockfall move."""
    if move_kind(table, move) == "rockfall":
        return table.tunnel.after_removing((move["x"], move["y"]))
    masks = segment_masks(table.card(move), rotated=bool(move.get("rotated")))
    return table.tunnel.after_placing((move["x"], move["y"]), masks)


def best(table: Table, scored: Iterable[tuple[Move, Any]]) -> Move | None:
    """The move with the smallest score; equal ones are told apart by the turn's seeded draw."""
    scored = list(scored)
    if not scored:
        return None
    top = min(score for _move, score in scored)
    tied = [move for move, score in scored if score == top]
    return tied[table.rng.randrange(len(tied))]


def improvement(table: Table, move: Move, belief: Mapping[Cell, float] | None = None) -> float:
    """Cards the move saves the diggers (negative: cards it costs them), by the given belief."""
    belief = table.belief if belief is None else belief
    return table.tunnel.now.expected(belief) - after(table, move).expected(belief)


# ---------------------------------------------------------------- shared habits


def pick_highest_gold(moves: Sequence[Move]) -> Move:
    return max(moves, key=lambda m: m["value"] if type(m.get("value")) is int else -1)


def repair_self(table: Table, moves: Sequence[Move]) -> Move | None:
    """A player with a broken tool cannot build: fixing one's own is worth a turn (single repairs first)."""
    own = [m for m in of_kind(table, moves, "repair") if m["target"] == table.me]
    return best(table, ((m, len(table.card(m).get("tools") or ())) for m in own))


def look_at_a_goal(table: Table, moves: Sequence[Move]) -> Move | None:
    """While the gold is unknown, look at the likeliest goal the tunnel is closest to."""
    if gold_known(table.belief):
        return None
    costs = table.tunnel.now.costs
    maps = [m for m in of_kind(table, moves, "map") if table.belief.get((m["x"], m["y"]), 0) > 0]
    return best(table, ((m, (-table.belief[(m["x"], m["y"])], costs.get((m["x"], m["y"]), 0))) for m in maps))


def pass_least_useful(table: Table, moves: Sequence[Move]) -> Move | None:
    """Discard the card worth least to this role; single-card passes first."""
    worth = keep_value_saboteur if table.role == "saboteur" else keep_value_digger
    passes = [m for m in moves if m.get("type") == "pass" and isinstance(m.get("cards"), list)]
    return best(table, ((m, (len(m["cards"]), sum(worth(table, c) for c in m["cards"]))) for m in passes))


def keep_value_digger(table: Table, card_id: Any) -> float:
    """Dead ends are useless to a digger; repairs and (while the gold is unknown) maps are precious."""
    card = table.hand.get(card_id, {})
    if card.get("kind") == "path":
        return 0.0 if is_dead_end(card) else 3.0 + len(str(card.get("openings", "")))
    return {
        "repair": 6.0,
        "map": 1.0 if gold_known(table.belief) else 5.0,
        "break": 3.0 if any(s >= SUSPECT for s in table.suspicion.values()) else 2.0,
        "rockfall": 2.5,
    }.get(str(card.get("effect")), 2.0)


def keep_value_saboteur(table: Table, card_id: Any) -> float:
    """Blocking cards are precious to a saboteur; open crossings help only the diggers."""
    card = table.hand.get(card_id, {})
    if card.get("kind") == "path":
        return 7.0 if is_dead_end(card) else 6.0 - len(str(card.get("openings", "")))
    return {
        "rockfall": 6.5,
        "break": 6.5,
        "map": 1.0 if gold_known(table.belief) else 4.0,
        "repair": 3.0,
    }.get(str(card.get("effect")), 2.0)


# ---------------------------------------------------------------- the digger


def build_toward_gold(table: Table, moves: Sequence[Move]) -> Move | None:
    """Lay the card that brings the tunnel nearest the likely gold; a wider front is harder to block,
    and of equal moves the one using the least valuable card keeps the better cards for later."""
    scored = []
    for move in of_kind(table, moves, "path"):
        outcome = after(table, move)
        gain = table.tunnel.now.expected(table.belief) - outcome.expected(table.belief)
        if gain > EPSILON:
            width = outcome.width(table.belief)
            scored.append((move, (-round(gain, 6), -width, keep_value_digger(table, move["card"]))))
    return best(table, scored)


def clear_blockage(table: Table, moves: Sequence[Move]) -> Move | None:
    """A rockfall on a dead end that stands in the way brings the gold nearer."""
    scored = [(m, -round(improvement(table, m), 6)) for m in of_kind(table, moves, "rockfall")]
    return best(table, [(m, score) for m, score in scored if score < -EPSILON])


def repair_friend(table: Table, moves: Sequence[Move]) -> Move | None:
    """Repair the most trusted player, first one whom this repair lets build again."""
    friends = [m for m in of_kind(table, moves, "repair")
               if m["target"] != table.me and table.suspected(aimed_at(m)) < TRUSTED]
    return best(table, ((m, (len(table.broken(aimed_at(m))), table.suspected(aimed_at(m)),
                              table.turns_until(aimed_at(m)))) for m in friends))


def break_tools(table: Table, moves: Sequence[Move], *, of_suspects: bool) -> Move | None:
    """Break a tool of a suspect (a digger's aim) or of a trusted-looking player (a saboteur's aim):
    first one who can still build, the most (or least) suspicious, the soonest to play."""
    sign = -1 if of_suspects else 1
    hits = [m for m in of_kind(table, moves, "break")
            if m["target"] != table.me and (table.suspected(aimed_at(m)) >= SUSPECT) == of_suspects]
    return best(table, ((m, (bool(table.broken(aimed_at(m))), sign * table.suspected(aimed_at(m)),
                              table.turns_until(aimed_at(m)))) for m in hits))


def break_suspect(table: Table, moves: Sequence[Move]) -> Move | None:
    """Stop the most suspicious player from building."""
    return break_tools(table, moves, of_suspects=True)


DIGGER_PLAN: tuple[Plan, ...] = (
    repair_self, look_at_a_goal, build_toward_gold, clear_blockage, repair_friend, break_suspect,
)
"""A digger's priorities, first that applies wins; when none does, it passes its least useful card."""


# ---------------------------------------------------------------- the saboteur


def strike(table: Table, moves: Sequence[Move]) -> Move | None:
    """Always when the tunnel nears the goals (block it first); before that only now and then, so as
    not to stand out, and then breaking a digger's tools first."""
    if table.tunnel.now.expected(table.belief) <= DANGER:
        return block_tunnel(table, moves) or break_digger(table, moves)
    if table.rng.random() < STRIKE_CHANCE:
        return break_digger(table, moves) or block_tunnel(table, moves)
    return None


def block_tunnel(table: Table, moves: Sequence[Move]) -> Move | None:
    """The dead end, turn-away card or rockfall that sets the diggers back most (narrowing counts a little)."""
    width = table.tunnel.now.width(table.belief)
    scored = []
    for move in of_kind(table, moves, "path") + of_kind(table, moves, "rockfall"):
        narrowing = width - after(table, move).width(table.belief)
        harm = -improvement(table, move) + 0.25 * narrowing
        if harm > EPSILON:
            scored.append((move, (-round(harm, 6), move_kind(table, move) == "rockfall")))
    return best(table, scored)


def break_digger(table: Table, moves: Sequence[Move]) -> Move | None:
    """Stop the most trusted-looking player from building."""
    return break_tools(table, moves, of_suspects=False)


def blend_in(table: Table, moves: Sequence[Move]) -> Move | None:
    """Look busy without helping: a map, or a card that seems to help to those who do not know the gold."""
    move = look_at_a_goal(table, moves)
    if move is not None:
        return move
    public = uniform_belief(table.tunnel.layout)
    scored = []
    for move in of_kind(table, moves, "path"):
        if is_dead_end(table.card(move)) or improvement(table, move) > EPSILON:
            continue
        seeming = improvement(table, move, public)
        scored.append((move, (-round(seeming, 6), after(table, move).width(table.belief))))
    return best(table, scored)


SABOTEUR_PLAN: tuple[Plan, ...] = (repair_self, strike, blend_in)
"""A saboteur's priorities; when none applies, it passes its least useful card."""


# ---------------------------------------------------------------- the bot


def play_role(table: Table, moves: Sequence[Move]) -> Move:
    """Follow the role's plan; unknown roles play as diggers; unknown cards are only ever passed."""
    plan = SABOTEUR_PLAN if table.role == "saboteur" else DIGGER_PLAN
    for step in plan:
        move = step(table, moves)
        if move is not None:
            return move
    return pass_least_useful(table, moves) or moves[table.rng.randrange(len(moves))]


@dataclass(frozen=True)
class HeuristicBot:
    """A seeded computer player; it holds nothing but its seed."""

    seed: int = 0

    def decide(self, view: View, moves: Sequence[Move], history: Sequence[Event] = ()) -> Move:
        """One of `moves`, chosen from this seat's view and the events it may see.

        `moves` are the seat's legal moves; `history` the events of the game so far, oldest first
        (events addressed to other seats are ignored, so passing the whole log cannot leak).
        """
        if not moves:
            raise ValueError("there is no move to choose from")
        moves = list(moves)
        if all(m.get("type") == "pick_gold" for m in moves):
            return pick_highest_gold(moves)
        seat = (view.get("you") or {}).get("seat")
        return play_role(read_table(view, visible_to(history, seat), self.seed), moves)

    def choose(self, game: Game, seat: int, history: Sequence[Event] = ()) -> Move:
        """Convenience for tests and scripts: builds the seat's view and legal moves, then decides."""
        return self.decide(seat_view(game, seat), legal_moves(game, seat), history)


def visible_to(events: Iterable[Any], seat: Any) -> list[Event]:
    """The events a seat may see: public ones and those addressed to it (anything else is ignored)."""
    return [e for e in events if isinstance(e, dict) and (
        e.get("audience") == "public" or (isinstance(e.get("audience"), list) and seat in e["audience"]))]
