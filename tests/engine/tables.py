"""Fixtures for rules tests: lay out a table in a few words.

    table(4, board={(1, 0): "straight_ew", (2, 0): "curve_nw~"}, hands={0: ["cross"]}, gold=(8, 2))
    table(5, variant="saboteur2", roles=["boss", ...], front={2: ["theft", "trapped"]}, pieces={1: 3})

Board cells name a card type; a trailing "~" means turned 180 degrees. Every physical card of
the deck stays in exactly one place: cards not named go to the draw pile (as many as `draw`
asks for, top last), to the cards set aside (as many as the variant sets aside) and the rest to
the discard pile. `front` lays named cards in front of seats; `broken` is short for broken tools.
"""
from __future__ import annotations

import random
from collections import Counter

import engine
from engine.state import Game
from engine.variants import variant_of

NAMES = ["Ann", "Bo", "Cy", "Di", "Ed", "Flo", "Gus", "Hal", "Ida", "Jo"]
SEATS = NAMES + ["Kim", "Lou"]  # Saboteur 2 seats up to twelve


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
    variant: str = "base",
    front: dict[int, list[str]] | None = None,
    pieces: dict[int, int] | None = None,
) -> Game:
    g = engine.new_game(SEATS[:players], seed=seed, variant=variant, options=options)
    v = variant_of(g)
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
    for seat, names in (front or {}).items():
        g.front[seat] += [take(name) for name in names]
    g.theft_order = [seat for seat in range(players) if any(v.cards[c].effect == "theft" for c in g.front[seat])]
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
    g.removed = [take_any() for _ in range(len(g.removed))]
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
    for seat, amount in (pieces or {}).items():
        g.gold_pieces[seat] = amount
    if gold_cards:
        for seat, values in gold_cards.items():
            g.gold[seat] = list(values)
            for value in values:
                g.gold_pile.remove(value)
    g.turn = turn
    g.reach = None
    return g



def card_in_hand(g: Game, seat: int, name: str) -> int:
    v = variant_of(g)
    return next(c for c in g.hands[seat] if v.cards[c].name == name)


def builder_bot(g: Game, seat: int, rng: random.Random) -> dict:
    """Mostly builds when it can, so that random games reach the goals and end rounds every way."""
    moves = engine.legal_moves(g, seat)
    builds = [m for m in moves if "rotated" in m]
    return rng.choice(builds if builds and rng.random() < 0.7 else moves)


def random_game_states(players: int, seed: int, limit: int | None = None, variant: str = "base", bot=None):
    """Every state of one random game, with the seat to act and the move it made."""
    g = engine.new_game(SEATS[:players], seed=seed, variant=variant)
    rng = random.Random(seed)
    choose = bot or engine.bots.choose
    steps = 0
    while not engine.is_over(g) and (limit is None or steps < limit):
        seat = engine.to_act(g)
        move = choose(g, seat, rng)
        yield g, seat, move
        g, _ = engine.apply_move(g, seat, move)
        steps += 1
    yield g, None, None
