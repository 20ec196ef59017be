"""How the heuristic bot plays each role: specifications on small tables laid out by hand."""
from __future__ import annotations

import pytest

import engine
from engine.bots import HeuristicBot
from tests.support.tables import reach_gold

DIGGERS_AND_TWO_SABOTEURS = ["digger", "digger", "saboteur", "saboteur", "digger"]


def play(card: int, **fields) -> dict:
    return {"type": "play", "card": card, **fields}


def decide(game: engine.Game, seat: int, history: list[dict] | None = None, seed: int = 0) -> dict:
    """The bot's move from that seat's view, legal moves and visible events only."""
    return HeuristicBot(seed).decide(engine.view(game, seat), engine.legal_moves(game, seat),
                                     engine.bots.visible_to(history or [], seat))


def card_name(game: engine.Game, card_id: int) -> str:
    return engine.variants.get_variant(game.variant).cards[card_id].name


def replay(game: engine.Game, moves: list[tuple[int, str, dict | None]]) -> tuple[engine.Game, list[dict]]:
    """Play (seat, card name, fields) in order, a pass when fields is None; returns the game and every
    event, as a server keeps them."""
    events: list[dict] = []
    for seat, name, fields in moves:
        card = next(c for c in game.hands[seat] if card_name(game, c) == name)
        move = {"type": "pass", "cards": [card]} if fields is None else play(card, **fields)
        game, new = engine.apply_move(game, seat, move)
        events += new
    return game, events


# ---------------------------------------------------------------- diggers build toward the gold


@pytest.mark.parametrize(("gold", "peeked", "direction"), [
    ((8, 2), (8, 2), 1),    # saw the gold at the top: go up
    ((8, -2), (8, -2), -1),  # saw the gold at the bottom: go down
    ((8, 0), (8, 2), -1),   # saw stone at the top: middle and bottom are left, the lower branch serves both
])
def test_a_digger_who_has_looked_at_a_goal_builds_toward_where_the_gold_can_be(table, gold, peeked, direction):
    # the tunnel ends in a T at (4, 0) that opens up and down only
    board = {(1, 0): "straight_ew", (2, 0): "straight_ew", (3, 0): "straight_ew", (4, 0): "tee_nse~"}
    g = table(5, board=board, hands={0: ["straight_ns", "cross", "tee_nse", "dead_n", "break_cart"]}, gold=gold)
    g.peeks[0] = [peeked]

    move = decide(g, 0)

    assert move["type"] == "play" and (move["x"], move["y"]) == (4, direction)


def test_a_digger_who_knows_nothing_heads_east_along_the_middle_row(table):
    g = table(5, hands={0: ["cross", "straight_ew", "curve_ne", "tee_ews", "dead_n"]})

    move = decide(g, 0)

    assert (move.get("x"), move.get("y")) == (1, 0)


def test_a_digger_with_a_map_looks_at_a_goal_before_building(table):
    g = table(5, hands={0: ["cross", "straight_ew", "map", "tee_ews", "dead_n"]})

    move = decide(g, 0)

    assert card_name(g, move["card"]) == "map"
    assert (move["x"], move["y"]) in [(8, 2), (8, 0), (8, -2)]


def test_a_digger_who_knows_the_gold_keeps_its_map(table):
    g = table(5, board={(1, 0): "straight_ew"}, hands={0: ["cross", "map", "dead_n"]}, gold=(8, 0))
    g.peeks[0] = [(8, 0)]

    move = decide(g, 0)

    assert card_name(g, move["card"]) == "cross"


# ---------------------------------------------------------------- diggers help friends, hinder suspects


def blocked_then_rebuilt(table, seat_three_breaks_the_builder: bool):
    """Seat 1 blocks the way east with a dead end, seat 2 builds around it; then tools break.

    Seat 1 plays sooner after seat 0 than seat 2 does, so only suspicion can make seat 0 prefer seat 2.
    """
    hands = {
        0: ["repair_pick", "dead_n", "break_cart"],
        1: ["dead_straight_ew", "cross"], 2: ["cross", "tee_ews"],
        3: ["break_pick", "curve_ne"], 4: ["break_pick", "curve_nw"],
    }
    g = table(5, hands=hands, roles=DIGGERS_AND_TWO_SABOTEURS, turn=1)
    third = (3, "break_pick", {"target": 2}) if seat_three_breaks_the_builder else (3, "curve_ne", None)
    return replay(g, [
        (1, "dead_straight_ew", {"x": 1, "y": 0, "rotated": False}),
        (2, "cross", {"x": 0, "y": 1, "rotated": False}),
        third,
        (4, "break_pick", {"target": 1}),
    ])


def test_a_digger_repairs_the_player_who_built_toward_the_goals_not_the_one_who_blocked_it(table):
    g, history = blocked_then_rebuilt(table, seat_three_breaks_the_builder=True)
    assert engine.view(g, 0)["seats"][1]["broken"] == ["pick"] == engine.view(g, 0)["seats"][2]["broken"]

    move = decide(g, 0, history)

    assert card_name(g, move["card"]) == "repair_pick" and move["target"] == 2


def test_a_digger_breaks_the_tools_of_the_player_whose_dead_end_blocked_the_tunnel(table):
    g, history = blocked_then_rebuilt(table, seat_three_breaks_the_builder=False)

    move = decide(g, 0, history)

    assert card_name(g, move["card"]) == "break_cart" and move["target"] == 1


def test_suspicion_comes_from_the_events_seen_without_them_the_blocker_is_repaired_like_anyone(table):
    g, _history = blocked_then_rebuilt(table, seat_three_breaks_the_builder=False)

    move = decide(g, 0, history=[])

    assert card_name(g, move["card"]) == "repair_pick" and move["target"] == 1


# ---------------------------------------------------------------- saboteurs


CLOSE_TO_THE_GOALS = {(1, 0): "straight_ew", (2, 0): "straight_ew", (3, 0): "straight_ew",
                      (4, 0): "tee_ews", (5, 0): "tee_ews", (6, 0): "tee_ews"}
FAR_FROM_THE_GOALS = {(1, 0): "straight_ew", (2, 0): "straight_ew"}
SABOTEUR_HAND = ["dead_e", "rockfall", "cross", "curve_nw", "tee_nse"]


def blocks_the_main_tunnel(g: engine.Game, move: dict, tunnel: dict) -> bool:
    """A rockfall on a card of the tunnel, or a dead end laid at its end."""
    name = card_name(g, move["card"]) if move["type"] == "play" else ""
    end = (max(x for x, _ in tunnel) + 1, 0)
    return (name == "rockfall" and (move["x"], move["y"]) in tunnel) or (
        name.startswith("dead") and (move["x"], move["y"]) == end)


def test_a_saboteur_always_blocks_a_tunnel_that_is_about_to_reach_the_goals(table):
    g = table(5, board=CLOSE_TO_THE_GOALS, hands={0: SABOTEUR_HAND}, roles=["saboteur"] + ["digger"] * 4)

    moves = [decide(g, 0, seed=seed) for seed in range(20)]

    assert all(blocks_the_main_tunnel(g, m, CLOSE_TO_THE_GOALS) for m in moves)


def test_a_saboteur_far_from_the_goals_blocks_only_now_and_then_so_as_not_to_stand_out(table):
    g = table(5, board=FAR_FROM_THE_GOALS, hands={0: SABOTEUR_HAND}, roles=["saboteur"] + ["digger"] * 4)

    moves = [decide(g, 0, seed=seed) for seed in range(60)]
    blocks = sum(blocks_the_main_tunnel(g, m, FAR_FROM_THE_GOALS) for m in moves)

    assert 6 <= blocks <= 45
    assert not any(m["type"] == "play" and "rotated" in m and m["x"] > 2 and card_name(g, m["card"]) != "dead_e"
                   for m in moves), "a saboteur never extends the tunnel toward the goals"


def test_a_saboteur_breaks_the_tools_of_the_player_who_built_the_tunnel(table):
    hands = {0: ["break_lantern", "cross"], 1: ["straight_ew"], 2: ["dead_n"], 3: ["dead_e"], 4: ["map"]}
    g = table(5, hands=hands, roles=["saboteur"] + ["digger"] * 4, turn=1)
    g, history = replay(g, [(1, "straight_ew", {"x": 1, "y": 0, "rotated": False}),
                            (2, "dead_n", None), (3, "dead_e", None), (4, "map", None)])

    moves = [decide(g, 0, history, seed=seed) for seed in range(30)]
    breaks = [m for m in moves if m["type"] == "play" and card_name(g, m["card"]) == "break_lantern"]

    assert breaks and {m["target"] for m in breaks} == {1}


# ---------------------------------------------------------------- gold and passing


def test_a_digger_picks_the_highest_gold_card_on_offer(table):
    g, _ = reach_gold(table, 4)
    g.offer = [1, 2, 3, 1]

    move = decide(g, 0)

    assert move == {"type": "pick_gold", "value": 3}


def test_a_digger_who_cannot_help_passes_its_least_useful_card(table):
    # a broken pick forbids building, nobody needs the lantern repair, nobody is suspect
    g = table(5, hands={0: ["cross", "dead_n", "repair_lantern", "break_cart"]}, broken={0: ["pick"]})

    move = decide(g, 0)

    assert move["type"] == "pass" and [card_name(g, c) for c in move["cards"]] == ["dead_n"]


def test_a_saboteur_who_cannot_strike_discards_a_crossing_and_keeps_its_dead_end(table):
    g = table(5, hands={0: ["cross", "dead_n", "repair_lantern"]}, broken={0: ["pick"]},
              roles=["saboteur"] + ["digger"] * 4)

    move = decide(g, 0)

    assert move["type"] == "pass" and [card_name(g, c) for c in move["cards"]] == ["cross"]
