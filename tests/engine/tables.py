"""Fixtures for rules tests: lay out a table in a few words.

    table(4, board={(1, 0): "straight_ew", (2, 0): "curve_nw~"}, hands={0: ["cross"]}, gold=(8, 2))

Board cells name a card type; a trailing "~" means turned 180 degrees. Every physical card of
the deck stays in exactly one place: cards not named go to the draw pile (as many as `draw`
asks for, top last) and the rest to the discard pile.
"""
from __future__ import annotations

import random
from collections import Counter

import engine
from engine.state import Game
from engine.variants import get_variant

NAMES = ["Ann", "Bo", "Cy", "Di", "Ed", "Flo", "Gus", "Hal", "Ida", "Jo"]


def arrange(
    players: int = 4,
    *,
    seed: int = 0,
    board: dict[tuple[int, int], str] | None = None,
    hands: dict[int, list[str]] | None = None,
    roles: list[str] | None = None,
    gold: tuple[int, int] | None = None,
    turn: int = 0,
    draw: int | list[str] | None = None,
    broken: dict[int, list[str]] | None = None,
    options: dict | None = None,
    gold_cards: dict[int, list[int]] | None = None,
) -> Game:
    g = engine.new_game(NAMES[:players], seed=seed, options=options)
    v = get_variant(g.variant)
    pool = sorted(v.playable_ids)
    used: set[int] = set()

    def take(name: str) -> int:
        for card_id in pool:
            if card_id not in used and v.cards[card_id].name == name:
                used.add(card_id)
                return card_id
        raise AssertionError(f"no {name} card left in the deck")

    stones = [i for i in v.goal_ids if not v.cards[i].gold]
    gold_id = next(i for i in v.goal_ids if v.cards[i].gold)
    if gold is not None:
        others = [c for c in v.goal_cells if c != gold]
        g.hidden_goals = {gold: gold_id, others[0]: stones[0], others[1]: stones[1]}
    g.board = {v.start_cell: (v.start_id, False)}
    for cell, spec in (board or {}).items():
        rotated = spec.endswith("~")
        name = spec.rstrip("~")
        if name in ("gold", "stone_se", "stone_sw"):
            card_id = next(i for i in v.goal_ids if v.cards[i].name == name)
            holder = next(c for c, i in g.hidden_goals.items() if i == card_id)
            if holder != cell:
                g.hidden_goals[holder] = g.hidden_goals[cell]
            del g.hidden_goals[cell]
        else:
            card_id = take(name)
        g.board[cell] = (card_id, rotated)
    g.front = [[] for _ in range(players)]
    for seat, tools in (broken or {}).items():
        g.front[seat] = [take(f"break_{tool}") for tool in tools]
    def take_any() -> int:
        for card_id in pool:
            if card_id not in used:
                used.add(card_id)
                return card_id
        raise AssertionError("the deck ran out while laying out the table")

    hands = hands or {}
    for seat in range(players):
        if seat in hands:
            g.hands[seat] = [take(name) for name in hands[seat]]
    for seat in range(players):
        if seat not in hands:
            g.hands[seat] = [take_any() for _ in range(len(g.hands[seat]))]
    if isinstance(draw, list):
        g.draw_pile = [take(name) for name in draw]
    else:
        count = len(g.draw_pile) if draw is None else draw
        g.draw_pile = [take_any() for _ in range(min(count, len(pool) - len(used)))]
    g.discard = [c for c in pool if c not in used]
    if roles is not None:
        deck = Counter(v.role_deck(players))
        spare = deck - Counter(roles)
        assert sum(spare.values()) + len(roles) == sum(deck.values()), "roles do not fit this player count"
        g.roles, g.spare_roles = list(roles), list(spare.elements())
    if gold_cards:
        for seat, values in gold_cards.items():
            g.gold[seat] = list(values)
            for value in values:
                g.gold_pile.remove(value)
    g.turn = turn
    g.reach = None
    return g



def card_in_hand(g: Game, seat: int, name: str) -> int:
    v = get_variant(g.variant)
    return next(c for c in g.hands[seat] if v.cards[c].name == name)


def random_game_states(players: int, seed: int, limit: int | None = None):
    """Every state of one random game, with the seat to act and the move it made."""
    g = engine.new_game(NAMES[:players], seed=seed)
    rng = random.Random(seed)
    steps = 0
    while not engine.is_over(g) and (limit is None or steps < limit):
        seat = engine.to_act(g)
        move = engine.bots.choose(g, seat, rng)
        yield g, seat, move
        g, _ = engine.apply_move(g, seat, move)
        steps += 1
    yield g, None, None
