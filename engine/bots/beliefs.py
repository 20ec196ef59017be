"""What a seat believes: where the gold lies, and whom to suspect.

Both are derived afresh from the seat's view and the events it may see, every turn: nothing is
remembered between turns, so a bot can run in a new process each time and still play the same.
Suspicion is a score per seat (higher: more likely a saboteur), raised by moves that hurt the
tunnel or hit trusted players and lowered by moves that help; each move is judged on the table as
it stood when it was made, rebuilt from the round's public events.
"""
from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from ..shapes import CardInfo
from ..variants import VARIANTS
from ..views import card_info
from .tunnel import Layout, is_dead_end, layout_from_view, segment_masks, survey

Cell = tuple[int, int]
Event = Mapping[str, Any]

SUSPECT = 2.0
"""From this score on a seat is treated as a saboteur: its tools are fair game."""

TRUSTED = 1.0
"""Below this score a seat is treated as a fellow digger: worth repairing."""

HARM_WEIGHT = 1.5
HELP_WEIGHT = 0.6
DEAD_END = 1.0
BREAK_ON_FRIEND = 1.2
BREAK_ON_ME = 2.5
MAP_USED = -0.2


def goal_belief(view: Mapping[str, Any]) -> dict[Cell, float]:
    """Chance that each face-down goal holds the gold, from own map peeks and stones turned over."""
    hidden = [g for g in view.get("goals") or () if not g.get("revealed")]
    known = {(g["x"], g["y"]): g.get("gold") for g in hidden if g.get("gold") is not None}
    for peek in (view.get("you") or {}).get("peeks") or ():
        cell = (peek.get("x"), peek.get("y"))
        if cell in {(g["x"], g["y"]) for g in hidden} and peek.get("gold") is not None:
            known[cell] = bool(peek["gold"])
    cells = [(g["x"], g["y"]) for g in hidden]
    if any(known.get(c) for c in cells):
        return {c: (1.0 if known.get(c) else 0.0) for c in cells}
    open_cells = [c for c in cells if c not in known]
    if not open_cells:
        return {c: 1.0 / len(cells) for c in cells} if cells else {}
    return {c: (1.0 / len(open_cells) if c in open_cells else 0.0) for c in cells}


def gold_known(belief: Mapping[Cell, float]) -> bool:
    return any(p >= 1.0 for p in belief.values())


def uniform_belief(layout: Layout) -> dict[Cell, float]:
    """What anyone may assume: every face-down goal equally likely (used to judge other seats)."""
    return {c: 1.0 / len(layout.hidden) for c in layout.hidden} if layout.hidden else {}


def this_round(history: Sequence[Event]) -> list[Event]:
    """The events since the current round was dealt (round 1 has no `round_started` event)."""
    start = 0
    for index, event in enumerate(history):
        if isinstance(event, dict) and event.get("type") == "round_started":
            start = index + 1
    return [e for e in history[start:] if isinstance(e, dict)]


@dataclass
class Replay:
    """The round's table rebuilt event by event, to judge each move where it was made."""

    layout: Layout
    variant: str

    def card(self, card_id: Any, rotated: bool) -> CardInfo | None:
        return _printed_card(self.variant, card_id, rotated) if type(card_id) is int else None


@lru_cache(maxsize=1024)
def _printed_card(variant_name: str, card_id: int, rotated: bool) -> CardInfo | None:
    """A card as printed (public: an id names a physical card, never a hidden fact)."""
    variant = VARIANTS.get(variant_name)
    if variant is None or not 0 <= card_id < len(variant.cards):
        return None
    return card_info(variant, card_id, rotated)


@lru_cache(maxsize=8192)
def placement_change(layout: Layout, cell: Cell, masks: tuple[int, ...]) -> float:
    """How many cards a placement added to the way to the goals, as anyone could judge it."""
    belief = uniform_belief(layout)
    table = survey(layout)
    return table.after_placing(cell, masks).expected(belief) - table.now.expected(belief)


@lru_cache(maxsize=2048)
def removal_change(layout: Layout, cell: Cell) -> float:
    """How many cards a rockfall added to the way to the goals, as anyone could judge it."""
    belief = uniform_belief(layout)
    table = survey(layout)
    return table.after_removing(cell).expected(belief) - table.now.expected(belief)


def starting_layout(view: Mapping[str, Any]) -> Layout:
    """The table as dealt: only the start cards, every goal face down."""
    full = layout_from_view(view)
    starts = {(c["x"], c["y"]) for c in view.get("board") or () if c.get("kind") == "start"}
    goals = frozenset((g["x"], g["y"]) for g in view.get("goals") or ())
    cells = {cell: masks for cell, masks in full.cells.items() if cell in starts}
    seeds = frozenset(s for s in full.seeds if s[0] in starts)
    return Layout(cells, seeds, goals)


def seat_count(view: Mapping[str, Any]) -> int:
    return max(len(view.get("players") or ()), len(view.get("seats") or ()))


def suspicion(view: Mapping[str, Any], history: Sequence[Event]) -> dict[int, float]:
    """A score per seat from this round's public moves; the seat itself is judged by its own role."""
    me = (view.get("you") or {}).get("seat")
    seats = seat_count(view)
    score = {s: 0.0 for s in range(seats)}
    replay = Replay(starting_layout(view), str(view.get("variant")))
    mine_is_digger = (view.get("you") or {}).get("role") != "saboteur"
    for event in this_round(history):
        judge = JUDGES.get(str(event.get("type")))
        if judge is not None and _seat_ok(event.get("seat"), seats):
            judge(event, replay, score, me, mine_is_digger)
    if me in score:
        score[me] = -10.0 if mine_is_digger else 10.0
    return score


def _seat_ok(seat: Any, seats: int) -> bool:
    return type(seat) is int and 0 <= seat < seats


def _cell(event: Event) -> Cell | None:
    x, y = event.get("x"), event.get("y")
    return (x, y) if type(x) is int and type(y) is int else None


def _judge_path(event: Event, replay: Replay, score: dict[int, float], me: Any, digger: bool) -> None:
    """Building toward the goals earns trust; building away, or a dead end, earns suspicion."""
    card = replay.card(event.get("card"), bool(event.get("rotated")))
    cell = _cell(event)
    if card is None or cell is None or not replay.layout.is_free(cell):
        return
    masks = segment_masks(card)
    change = placement_change(replay.layout, cell, masks)
    seat = event["seat"]
    if change > 0:
        score[seat] += HARM_WEIGHT * min(change, 3.0)
    elif change < 0:
        score[seat] -= HELP_WEIGHT * min(-change, 2.0)
    if is_dead_end(card):
        score[seat] += DEAD_END
    replay.layout = replay.layout.with_card(cell, masks)


def _judge_rockfall(event: Event, replay: Replay, score: dict[int, float], me: Any, digger: bool) -> None:
    """Cutting the tunnel is suspicious; clearing a blocking dead end is helpful."""
    cell = _cell(event)
    if cell is None or cell not in replay.layout.cells:
        return
    change = removal_change(replay.layout, cell)
    seat = event["seat"]
    if change > 0:
        score[seat] += 1.5 + HARM_WEIGHT * min(change, 3.0)
    elif change < 0:
        score[seat] -= 1.0
    else:
        score[seat] += 0.5
    replay.layout = replay.layout.without_card(cell)


def _judge_goal(event: Event, replay: Replay, score: dict[int, float], me: Any, digger: bool) -> None:
    card = replay.card(event.get("card"), bool(event.get("rotated")))
    cell = _cell(event)
    if card is not None and cell is not None and cell in replay.layout.hidden:
        replay.layout = replay.layout.with_card(cell, segment_masks(card))


def _judge_break(event: Event, replay: Replay, score: dict[int, float], me: Any, digger: bool) -> None:
    """Breaking a trusted player's tools is what saboteurs do; breaking a suspect's is what diggers do."""
    seat, target = event["seat"], event.get("target")
    if target == seat or target not in score:
        return
    if target == me:
        score[seat] += BREAK_ON_ME if digger else -BREAK_ON_FRIEND
    elif score[target] >= SUSPECT:
        score[seat] -= BREAK_ON_FRIEND
    else:
        score[seat] += BREAK_ON_FRIEND


def _judge_repair(event: Event, replay: Replay, score: dict[int, float], me: Any, digger: bool) -> None:
    """Repairing a suspect is suspicious; repairing a trusted player (or me, a digger) earns trust."""
    seat, target = event["seat"], event.get("target")
    if target == seat or target not in score:
        return
    if target == me:
        score[seat] += -1.0 if digger else 1.0
    elif score[target] >= SUSPECT:
        score[seat] += 1.0
    else:
        score[seat] -= 0.5


def _judge_map(event: Event, replay: Replay, score: dict[int, float], me: Any, digger: bool) -> None:
    score[event["seat"]] += MAP_USED


Judge = Callable[[Event, Replay, dict[int, float], Any, bool], None]

JUDGES: dict[str, Judge] = {
    "path_placed": _judge_path,
    "rockfall": _judge_rockfall,
    "goal_revealed": _judge_goal,
    "tool_broken": _judge_break,
    "tool_repaired": _judge_repair,
    "map_used": _judge_map,
}
