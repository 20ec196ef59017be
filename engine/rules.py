"""Which moves a seat may make, and what a move does to the game.

`legal_moves` and `apply_move` share the same checks, so a move is listed exactly when it is accepted.
Moves are plain dicts (`Move`, engine/shapes.py); every kind is listed in docs/engine.md, "Moves".
"""
from __future__ import annotations

from collections.abc import Iterator, Mapping
from itertools import combinations
from typing import Any

from .board import (
    building_sites,
    extend_reach,
    goal_orientation,
    ladder_sites,
    mismatch,
    neighbourhood,
    next_to_goal,
    reach_from_start,
    reach_sides,
    reached_goals,
)
from .cards import CardType
from .errors import IllegalMove, NotYourTurn
from .events import private, public
from .geometry import DIRECTIONS, neighbour
from .piles import discard_from_front, draw_cards, is_trapped
from .player_actions import EFFECTS, UNTARGETED, refusal, resolve, targets
from .rounds import (
    GOLD_REACHED,
    HANDS_EMPTY,
    NO_PLAYABLE_CARDS,
    end_round,
    gold_totals,
    next_seat_with_cards,
    pick_gold,
)
from .setup import option
from .shapes import Event, Move
from .state import GOLD_PICK, OVER, STEAL, Game
from .treasure import end_round_with_teams, steal, steal_targets
from .variants import Variant, variant_of

Given = Mapping[str, object]  # a move as it came, before apply_move has checked it


PLAY_FIELDS = {
    "path": ("card", "x", "y", "rotated"),
    "break": ("card", "target"),
    "repair": ("card", "target", "tool"),
    "rockfall": ("card", "x", "y"),
    "map": ("card", "x", "y"),
    **{effect: ("card",) if effect in UNTARGETED else ("card", "target") for effect in EFFECTS},
}
ANY_SIDE = 15  # a ladder is joined to the start wherever it lies: any side "joins"


def to_act(g: Game) -> int | None:
    return None if g.phase == OVER else g.turn


def is_over(g: Game) -> bool:
    return g.phase == OVER


def scores(g: Game) -> list[int]:
    return gold_totals(g)


def reach_of(g: Game) -> frozenset[tuple[int, int, int]]:
    """The cached reach of the board (computed on first use after loading a snapshot)."""
    if g.reach is None:
        g.reach = reach_from_start(variant_of(g), g.board)
    return g.reach


def broken_tools(g: Game, seat: int) -> list[str]:
    cards = variant_of(g).cards
    return [cards[c].tools[0] for c in g.front[seat] if cards[c].effect == "break"]


def kind_of_play(card: CardType) -> str:
    return "path" if card.kind == "path" else card.effect or ""


def building_ban(g: Game, seat: int) -> IllegalMove | None:
    """Why this seat may not play path cards now; None when it may."""
    if broken_tools(g, seat):
        return IllegalMove("broken_tool_ban")
    if is_trapped(g, seat):
        return IllegalMove("trapped_ban")
    return None


# ---------------------------------------------------------------- legal moves


def legal_moves(g: Game, seat: int) -> list[Move]:
    if not _is_seat(g, seat) or to_act(g) != seat:
        return []
    if g.phase == GOLD_PICK:
        return [{"type": "pick_gold", "value": value} for value in sorted(set(g.offer), reverse=True)]
    if g.phase == STEAL:
        thefts: list[Move] = [{"type": "steal", "target": t} for t in steal_targets(g, seat)]
        return thefts + [{"type": "steal", "target": None}]
    v = variant_of(g)
    hand = g.hands[seat]
    moves = list(_card_plays(g, v, seat))
    ordered = sorted(hand)
    for count in range(1, min(v.max_pass_cards, len(hand)) + 1):
        for chosen in combinations(ordered, count):
            moves.append({"type": "pass", "cards": list(chosen)})
    moves.extend(_clears(g, v, seat))
    return moves


def can_play(g: Game, seat: int) -> bool:
    """Whether the seat holds a card it could play now, its turn or not: a path card with a legal place, an
    action card with a legal target, or (Saboteur 2) two cards to discard to clear a card in front of it.
    Passing does not count."""
    v = variant_of(g)
    return next(_card_plays(g, v, seat), None) is not None or next(_clears(g, v, seat), None) is not None


def _card_plays(g: Game, v: Variant, seat: int) -> Iterator[Move]:
    """Every legal play of a card from the seat's hand, in the order `legal_moves` lists them."""
    sites = ladders = None
    may_build = building_ban(g, seat) is None
    for card_id in g.hands[seat]:
        card = v.cards[card_id]
        kind = kind_of_play(card)
        if kind == "path":
            if not may_build:
                continue
            if card.has_ladder:
                if ladders is None:
                    ladders = _ladder_sites(g, v)
                places = ladders
            else:
                if sites is None:
                    sites = _sites(g, v)
                places = sites
            for rotated in (False,) if card.symmetric else (False, True):
                openings = v.openings[card_id][rotated]
                for (x, y), occupied, required, joins in places:
                    if openings & occupied == required and openings & joins:
                        yield {"type": "play", "card": card_id, "x": x, "y": y, "rotated": rotated}
        elif kind == "break":
            tool = card.tools[0]
            for target in range(g.seats):
                if tool not in broken_tools(g, target):
                    yield {"type": "play", "card": card_id, "target": target}
        elif kind == "repair":
            for target in range(g.seats):
                broken = broken_tools(g, target)
                for tool in card.tools:
                    if tool in broken:
                        yield {"type": "play", "card": card_id, "target": target, "tool": tool}
        elif kind == "rockfall":
            for x, y in sorted(g.board):
                if v.cards[g.board[(x, y)][0]].kind == "path":
                    yield {"type": "play", "card": card_id, "x": x, "y": y}
        elif kind == "map":
            for x, y in sorted(g.hidden_goals):
                yield {"type": "play", "card": card_id, "x": x, "y": y}
        elif kind in EFFECTS:
            for target in targets(g, seat, kind):
                yield ({"type": "play", "card": card_id} if kind in UNTARGETED
                       else {"type": "play", "card": card_id, "target": target})


def _clears(g: Game, v: Variant, seat: int) -> Iterator[Move]:
    """Saboteur 2: discard `clear_cost` cards to remove one lying in front of the seat."""
    if not v.clear_cost or not g.front[seat]:
        return
    for chosen in combinations(sorted(g.hands[seat]), v.clear_cost):
        for removed in sorted(g.front[seat]):
            yield {"type": "clear", "cards": list(chosen), "remove": removed}


def _sites(g: Game, v: Variant) -> list[tuple[tuple[int, int], int, int, int]]:
    out = []
    for cell, joins in sorted(building_sites(g.board, g.hidden_goals, reach_of(g)).items()):
        occupied, required = neighbourhood(v, g.board, cell)
        out.append((cell, occupied, required, joins))
    return out


def _ladder_sites(g: Game, v: Variant) -> list[tuple[tuple[int, int], int, int, int]]:
    out = []
    for cell in ladder_sites(g.board, g.hidden_goals, v.goal_cells):
        occupied, required = neighbourhood(v, g.board, cell)
        out.append((cell, occupied, required, ANY_SIDE))
    return out


# ---------------------------------------------------------------- applying a move


def apply_move(game: Game, seat: int, move: Mapping[str, object]) -> tuple[Game, list[Event]]:
    """The game after `seat` makes `move`, and what happened. `move` may come from anywhere (a posted form): it is
    checked here, and refused with an IllegalMove unless it is one of `legal_moves`."""
    if not _is_seat(game, seat):
        raise IllegalMove("no_such_seat", seat=seat)
    if game.phase == OVER:
        raise IllegalMove("game_over")
    if game.turn != seat:
        raise NotYourTurn("not_your_turn", seat=game.turn, player=game.players[game.turn])  # type: ignore[index]
    if not isinstance(move, dict):
        raise IllegalMove("not_a_move")
    kind = move.get("type")
    reach_of(game)
    g = game.clone()
    events: list[Event] = []
    turns = ("play", "clear", "pass") if variant_of(g).clear_cost else ("play", "pass")
    if game.phase == GOLD_PICK:
        if kind != "pick_gold":
            raise IllegalMove("pick_gold_first")
        _exact_fields(move, ("value",))
        value = _int(move, "value")
        if value not in g.offer:
            raise IllegalMove("no_gold_card_worth", value=value)
        pick_gold(g, events, seat, value)
    elif game.phase == STEAL:
        if kind != "steal":
            raise IllegalMove("decide_theft_first")
        _exact_fields(move, ("target",))
        steal(g, events, seat, None if move["target"] is None else _target(g, move))
    elif kind == "play":
        _play(g, seat, move, events)
    elif kind == "pass":
        _pass(g, seat, move, events)
    elif kind == "clear" and kind in turns:
        _clear(g, seat, move, events)
    elif kind == "pick_gold":
        raise IllegalMove("no_gold_to_pick")
    elif kind == "steal":
        raise IllegalMove("nothing_to_steal")
    else:
        raise IllegalMove("unknown_move_type", kind=kind, turns=list(turns))
    return g, events


def _play(g: Game, seat: int, move: Given, events: list[Event]) -> None:
    v = variant_of(g)
    card_id = _int(move, "card")
    if card_id not in g.hands[seat]:
        raise IllegalMove("card_not_held")
    card = v.cards[card_id]
    kind = kind_of_play(card)
    _exact_fields(move, PLAY_FIELDS[kind])
    if kind == "path":
        gold_reached = _build(g, v, seat, card_id, move, events)
        _finish_turn(g, seat, events, gold_reached=gold_reached)
        return
    if kind in EFFECTS:
        chosen = _target(g, move) if "target" in PLAY_FIELDS[kind] else seat
        problem = refusal(g, seat, kind, chosen)
        if problem:
            raise problem
        draws = resolve(g, seat, card_id, kind, chosen, events)
        _finish_turn(g, seat, events, draws=draws)
        return
    if kind == "break":
        target = _target(g, move)
        tool = card.tools[0]
        if tool in broken_tools(g, target):
            raise IllegalMove("tool_already_broken", seat=target, player=g.players[target], tool=tool)
        g.hands[seat].remove(card_id)
        g.front[target].append(card_id)
        events.append(public("tool_broken", seat=seat, target=target, card=card_id, tool=tool))
    elif kind == "repair":
        target = _target(g, move)
        repaired = move["tool"]
        if repaired not in card.tools:
            raise IllegalMove("tool_not_repaired", tools=list(card.tools), tool=repaired)
        broken = [c for c in g.front[target] if v.cards[c].effect == "break" and v.cards[c].tools[0] == repaired]
        if not broken:
            raise IllegalMove("no_broken_tool", seat=target, player=g.players[target], tool=repaired)
        g.hands[seat].remove(card_id)
        g.front[target].remove(broken[0])
        g.discard += [broken[0], card_id]
        events.append(public("tool_repaired", seat=seat, target=target, card=card_id, tool=repaired))
    elif kind == "rockfall":
        cell = (_int(move, "x"), _int(move, "y"))
        placed = g.board.get(cell)
        if placed is None:
            raise IllegalMove("nothing_to_remove")
        if v.cards[placed[0]].kind != "path":
            raise IllegalMove("fixed_card")
        g.hands[seat].remove(card_id)
        del g.board[cell]
        g.discard += [placed[0], card_id]
        g.reach = reach_from_start(v, g.board)
        if g.last_placed == cell:
            g.last_placed = None
        events.append(public("rockfall", seat=seat, card=card_id, x=cell[0], y=cell[1],
                             removed=placed[0], name=v.cards[placed[0]].name))
    elif kind == "map":
        cell = (_int(move, "x"), _int(move, "y"))
        if cell not in g.hidden_goals:
            raise IllegalMove("map_needs_hidden_goal")
        g.hands[seat].remove(card_id)
        g.discard.append(card_id)
        if cell not in g.peeks[seat]:
            g.peeks[seat].append(cell)
        events.append(public("map_used", seat=seat, card=card_id, x=cell[0], y=cell[1]))
        events.append(private(seat, "map_peek", seat=seat, x=cell[0], y=cell[1],
                              gold=v.cards[g.hidden_goals[cell]].gold))
    else:  # pragma: no cover - every card kind of a variant is handled above
        raise IllegalMove("card_not_playable", card=card.name, label=card.label)
    _finish_turn(g, seat, events)


def _build(g: Game, v: Variant, seat: int, card_id: int, move: Given, events: list[Event]) -> bool:
    """Place a path card; returns whether the gold was reached."""
    cell = (_int(move, "x"), _int(move, "y"))
    rotated = move["rotated"]
    if type(rotated) is not bool:
        raise IllegalMove("not_true_or_false", field="rotated")
    card = v.cards[card_id]
    ban = building_ban(g, seat)
    if ban:
        raise ban
    if rotated and card.symmetric:
        raise IllegalMove("symmetric_card")
    if cell in g.board or cell in g.hidden_goals:
        raise IllegalMove("place_taken")
    openings = v.openings[card_id][rotated]
    occupied, required = neighbourhood(v, g.board, cell)
    if card.has_ladder and next_to_goal(cell, v.goal_cells):
        raise IllegalMove("ladder_next_to_goal")
    if not occupied and (card.has_ladder or not any(neighbour(cell, d) in g.hidden_goals for d in DIRECTIONS)):
        raise IllegalMove("not_next_to_card")
    problem = mismatch(openings, occupied, required)
    if problem:
        raise problem
    if not card.has_ladder and not openings & reach_sides(g.reach, cell):  # type: ignore[arg-type]
        raise IllegalMove("not_joined_to_start")

    g.hands[seat].remove(card_id)
    g.board[cell] = (card_id, rotated)
    g.last_placed = cell
    g.last_builder = seat
    g.reach = extend_reach(v, g.board, reach_of(g), cell)
    events.append(public("path_placed", seat=seat, card=card_id, name=card.name, x=cell[0], y=cell[1],
                         rotated=rotated))
    gold_reached = False
    while True:
        reached = reached_goals(g.hidden_goals, reach_of(g))
        if not reached:
            return gold_reached
        for goal_cell, sides in reached:
            goal_id = g.hidden_goals.pop(goal_cell)
            goal_rotated = goal_orientation(v, g.board, goal_id, goal_cell, sides)
            g.board[goal_cell] = (goal_id, goal_rotated)
            g.reach = extend_reach(v, g.board, reach_of(g), goal_cell)
            gold = v.cards[goal_id].gold
            gold_reached = gold_reached or gold
            events.append(public("goal_revealed", seat=seat, x=goal_cell[0], y=goal_cell[1], card=goal_id,
                                 gold=gold, rotated=goal_rotated))


def _pass(g: Game, seat: int, move: Given, events: list[Event]) -> None:
    v = variant_of(g)
    _exact_fields(move, ("cards",))
    cards = _listed_cards(move)
    if len(cards) > v.max_pass_cards:
        raise IllegalMove("too_many_discards", most=v.max_pass_cards)
    _discard_from_hand(g, seat, cards)
    events.append(public("passed", seat=seat, count=len(cards)))
    events.append(_discarded(g, seat, cards))
    _finish_turn(g, seat, events, draws=len(cards))


def _clear(g: Game, seat: int, move: Given, events: list[Event]) -> None:
    """Discard cards from the hand to take one card away from in front of yourself; draw only one."""
    v = variant_of(g)
    _exact_fields(move, ("cards", "remove"))
    cards = _listed_cards(move)
    if len(cards) != v.clear_cost:
        raise IllegalMove("clear_cost", count=v.clear_cost)
    removed = _int(move, "remove")
    if removed not in g.front[seat]:
        raise IllegalMove("not_in_front")
    _discard_from_hand(g, seat, cards)
    discard_from_front(g, seat, removed)
    events.append(public("cleared", seat=seat, count=len(cards), removed=removed, name=v.cards[removed].name))
    events.append(_discarded(g, seat, cards))
    _finish_turn(g, seat, events, draws=1)


def _listed_cards(move: Given) -> list[Any]:
    cards = move["cards"]
    if type(cards) is not list or not cards:
        raise IllegalMove("no_cards_listed")
    return cards


def _discard_from_hand(g: Game, seat: int, cards: list[Any]) -> None:
    """After checking them, the listed cards go from the hand face down onto the discard pile."""
    for c in cards:
        if type(c) is not int:
            raise IllegalMove("card_ids")
    if any(a >= b for a, b in zip(cards, cards[1:], strict=False)):
        raise IllegalMove("discard_order")
    if any(c not in g.hands[seat] for c in cards):
        raise IllegalMove("card_not_held")
    for c in cards:
        g.hands[seat].remove(c)
    g.discard += cards


def _discarded(g: Game, seat: int, cards: list[int]) -> Event:
    """Which cards went face down: for the seat alone."""
    names = variant_of(g).cards
    return private(seat, "discarded", seat=seat, cards=list(cards), names=[names[c].name for c in cards])


def _finish_turn(
    g: Game, seat: int, events: list[Event], *, draws: int = 1, gold_reached: bool = False
) -> None:
    g.last_actor = seat
    if gold_reached:
        _end_round(g, events, seat, GOLD_REACHED)
        return
    draw_cards(g, seat, draws, events)
    if not g.hands[seat] and not g.draw_pile:
        events.append(public("out_of_cards", seat=seat))
    following = next_seat_with_cards(g, seat)
    if following is None:
        _end_round(g, events, None, HANDS_EMPTY)
    elif not g.draw_pile and not option(g.options, "play_out_hands") and not _anyone_can_play(g, following):
        events.append(public("no_playable_cards"))
        _end_round(g, events, None, NO_PLAYABLE_CARDS)
    else:
        g.turn = following


def _anyone_can_play(g: Game, first: int) -> bool:
    """Whether any seat holds a card it could play, asking from `first` on (the next to play is likeliest)."""
    return any(can_play(g, (first + k) % g.seats) for k in range(g.seats))


def _end_round(g: Game, events: list[Event], gold_reached_by: int | None, reason: str) -> None:
    if variant_of(g).pays_gold_pieces:
        end_round_with_teams(g, events, gold_reached_by, reason)
    else:
        end_round(g, events, gold_reached_by, reason)


# ---------------------------------------------------------------- checking input


def _is_seat(g: Game, seat: Any) -> bool:
    return type(seat) is int and 0 <= seat < g.seats


def _int(move: Given, key: str) -> int:
    value = move.get(key)
    if type(value) is not int:
        raise IllegalMove("not_whole_number", field=key)
    return value


def _target(g: Game, move: Given) -> int:
    target = _int(move, "target")
    if not 0 <= target < g.seats:
        raise IllegalMove("no_seat_to_target", seat=target)
    return target


def _exact_fields(move: Given, fields: tuple[str, ...]) -> None:
    expected = {"type", *fields}
    missing = [f for f in fields if f not in move]
    if missing:
        raise IllegalMove("missing_field", field=missing[0])
    extra = sorted(str(k) for k in move if k not in expected)
    if extra:
        raise IllegalMove("unexpected_field", field=extra[0])
