"""Tables for rules tests, laid out in a few words, and games played by the engine's bots.

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
from collections.abc import Iterator
from typing import Any

import engine
from engine.bots import match
from engine.bots.match import Decision
from engine.state import GOLD_PICK, PLAY, Game
from engine.variants import SABOTEUR2_ROLES, variant_of

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


# -- positions many tests share -----------------------------------------------------------------------


def build(card: int, x: int, y: int, rotated: bool = False) -> dict:
    return {"type": "play", "card": card, "x": x, "y": y, "rotated": rotated}


TO_THE_GOALS = {(1, 0): "tee_ews", (2, 0): "tee_ews", (3, 0): "tee_ews",
                (4, 0): "cross", (5, 0): "cross", (6, 0): "cross"}


def reach_gold(table, players=4, reacher=0, roles=None, options=None, **kw):
    roles = roles or ["digger"] * players
    g = table(players, board=TO_THE_GOALS, hands={reacher: ["straight_ew"]}, gold=(8, 0), turn=reacher,
              roles=roles, options=options, **kw)
    card = next(c for c in g.hands[reacher] if engine.variants.get_variant("base").cards[c].name == "straight_ew")
    return engine.apply_move(g, reacher, build(card, 7, 0))


# Every kind of Saboteur 2 path card on one table, joined to the start along row 0.
EXPANSION_BOARD = {
    (1, 0): "door_blue_ew",
    (2, 0): "bridge",
    (2, 1): "crystal_tee_nse",
    (3, 0): "double_curve",
    (3, -1): "ladder_n",
    (2, -1): "door_green_ns",
}


ACTIONS = ["theft", "hands_off", "swap_hand", "inspection", "swap_hats", "free"]


def expansion_table(**overrides: Any) -> engine.Game:
    """Four seats of Saboteur 2: Ann (seat 0) to play with every new action card in hand but Trapped!; Bo has
    a Theft in front of him, Ann is trapped (so Free at last! has a target) and holds a gold piece."""
    layout: dict[str, Any] = {
        "variant": "saboteur2",
        "board": EXPANSION_BOARD,
        "hands": {0: ACTIONS},
        "front": {0: ["trapped"], 1: ["theft"]},
        "roles": ["blue_digger", "green_digger", "boss", "saboteur"],
        "pieces": {0: 1, 2: 3},
    }
    layout.update(overrides)
    return arrange(4, **layout)


def card_id(state: engine.Game, seat: int, name: str) -> int:
    variant = variant_of(state)
    return next(c for c in state.hands[seat] if variant.cards[c].name == name)


EXAMPLE_ROLES = ["blue_digger", "green_digger", "green_digger", "boss", "profiteer", "saboteur", "saboteur"]


def rulebook_example(round_number: int = 1) -> engine.Game:
    """1 blue and 2 green gold-diggers, the Boss, the Profiteer and 2 saboteurs; a blue door on the way to the
    gold; both saboteurs have a Theft in front of them and Gus is trapped. Bo (green) is about to reach the gold."""
    state = arrange(
        7, variant="saboteur2", board=TO_THE_GOALS | {(3, 0): "door_blue_ew"}, hands={1: ["straight_ew"]},
        gold=(8, 0), turn=1, roles=EXAMPLE_ROLES, front={5: ["theft"], 6: ["theft", "trapped"]},
    )
    state.round = round_number
    return state


# -- games played by the engine ----------------------------------------------------------------------


def bot_game(players: int, seed: int, diggers: str = "heuristic", saboteurs: str = "heuristic",
             options: dict | None = None, variant: str = "base") -> Iterator[Decision]:
    """Every decision of one seeded game, each seat played by the bot its role of the round asks for."""
    game = engine.new_game(SEATS[:players], seed=seed, variant=variant, options=options)
    return match.bot_game(game, seed, diggers, saboteurs)


def scramble_hidden(g: Game, seat: int | None, rnd: random.Random) -> Game:
    """Another game that differs from `g` only in what `seat` cannot know."""
    s = g.clone()
    over = g.phase == "over"
    others = [t for t in range(g.seats) if t != seat]
    # hands of others, the draw pile, the discard pile and the cards set aside are one pool of unseen cards
    pool = sum((s.hands[t] for t in others), []) + s.draw_pile + s.discard + s.removed
    rnd.shuffle(pool)
    for t in others:
        s.hands[t], pool = pool[: len(s.hands[t])], pool[len(s.hands[t]):]
    s.draw_pile, pool = pool[: len(s.draw_pile)], pool[len(s.draw_pile):]
    s.discard, s.removed = pool[: len(s.discard)], pool[len(s.discard):]
    # roles of others this round (leftover and discarded dwarf cards too), before the round has ended;
    # and what other seats saw with an Inspection
    if g.phase == PLAY:
        roles = [s.roles[t] for t in others] + s.spare_roles + s.discarded_roles
        rnd.shuffle(roles)
        for t in others:
            s.roles[t] = roles.pop()
        s.spare_roles, s.discarded_roles = roles[: len(s.spare_roles)], roles[len(s.spare_roles):]
        for t in others:
            s.inspections[t] = [(seen, rnd.choice(SABOTEUR2_ROLES)) for seen, _role in s.inspections[t]]
    # goals this seat has not looked at
    if not over:
        unseen = [c for c in s.hidden_goals if seat is None or c not in s.peeks[seat]]
        ids = [s.hidden_goals[c] for c in unseen]
        rnd.shuffle(ids)
        s.hidden_goals.update(zip(unseen, ids, strict=True))
        # other seats' gold values (counts stay), and an offer this seat is not choosing from
        picking = g.phase == GOLD_PICK and g.turn == seat
        values = sum((s.gold[t] for t in others), []) + s.gold_pile + ([] if picking else s.offer)
        rnd.shuffle(values)
        for t in others:
            s.gold[t], values = values[: len(s.gold[t])], values[len(s.gold[t]):]
        if not picking:
            s.offer, values = values[: len(s.offer)], values[len(s.offer):]
        s.gold_pile = values
        # other seats' gold pieces: whether a seat has any is public, the amount is not
        for t in others:
            if s.gold_pieces[t]:
                s.gold_pieces[t] = rnd.randint(1, 40)
    s.rng = rnd.getrandbits(64)
    s.seed = rnd.getrandbits(32)
    s.reach = None
    return s
