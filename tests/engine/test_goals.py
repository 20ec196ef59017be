"""Reaching the goals: turning them over, gold ends the round, stone becomes tunnel."""
from __future__ import annotations

import engine
from engine.variants import get_variant
from tests.support.refusals import refused
from tests.support.tables import TO_THE_GOALS, build


def revealed(events):
    return [(e["x"], e["y"], e["gold"]) for e in events if e["type"] == "goal_revealed"]


def test_reaching_a_stone_goal_turns_it_over_and_the_round_goes_on(table, hand_card):
    g = table(board=TO_THE_GOALS, hands={0: ["straight_ew"]}, gold=(8, 2))

    g2, events = engine.apply_move(g, 0, build(hand_card(g, 0, "straight_ew"), 7, 0))

    assert revealed(events) == [(8, 0, False)]
    assert (8, 0) in g2.board and (8, 0) not in g2.hidden_goals
    assert g2.round == 1 and engine.to_act(g2) == 1
    assert engine.view(g2, None)["goals"][1] == {"x": 8, "y": 0, "revealed": True, "gold": False}


def test_a_stone_goal_is_turned_around_when_that_makes_it_fit(table, hand_card):
    # the stones are curves S-E and S-W; reached from the west, the S-E curve must turn to N-W
    g = table(board=TO_THE_GOALS, hands={0: ["straight_ew"]}, gold=(8, 2))
    v = get_variant("base")
    g.hidden_goals[(8, 0)] = next(i for i in v.goal_ids if v.cards[i].name == "stone_se")
    g.hidden_goals[(8, -2)] = next(i for i in v.goal_ids if v.cards[i].name == "stone_sw")

    g2, events = engine.apply_move(g, 0, build(hand_card(g, 0, "straight_ew"), 7, 0))

    card, rotated = g2.board[(8, 0)]
    assert rotated is True and v.openings[card][rotated] & 8  # opens west, toward the card that reached it
    # now part of the tunnel: its north side is a live opening to build on
    assert (8, 0, 1) in engine.rules.reach_of(g2)


def test_a_stone_goal_that_cannot_fit_every_neighbour_is_turned_over_anyway(table, hand_card):
    # a stray dead end below the middle goal opens up into it; the goal is S-E
    g = table(board=TO_THE_GOALS | {(8, -1): "dead_straight_ns"}, hands={0: ["straight_ew"]}, gold=(8, 2))
    v = get_variant("base")
    stone_se = next(i for i in v.goal_ids if v.cards[i].name == "stone_se")
    g.hidden_goals[next(c for c, i in g.hidden_goals.items() if i == stone_se)] = g.hidden_goals[(8, 0)]
    g.hidden_goals[(8, 0)] = stone_se

    g2, events = engine.apply_move(g, 0, build(hand_card(g, 0, "straight_ew"), 7, 0))

    # upright it would fit the dead end below but not the card that reached it; turned (N-W) it
    # joins the tunnel and shows a wall to the dead end: a mismatch only a goal may have
    assert revealed(events) == [(8, 0, False)]
    assert g2.board[(8, 0)] == (stone_se, True)
    assert (8, 0, 8) in engine.rules.reach_of(g2)


def test_reaching_the_gold_ends_the_round_and_the_gold_diggers_win(table, hand_card):
    g = table(board=TO_THE_GOALS, hands={0: ["straight_ew"]}, gold=(8, 0),
              roles=["digger", "digger", "saboteur", "digger"])

    g2, events = engine.apply_move(g, 0, build(hand_card(g, 0, "straight_ew"), 7, 0))

    assert revealed(events) == [(8, 0, True)]
    ended = next(e for e in events if e["type"] == "round_ended")
    assert ended["winner"] == "diggers" and ended["reached_by"] == 0
    assert ended["roles"] == ["digger", "digger", "saboteur", "digger"] and ended["audience"] == "public"
    assert g2.phase == "gold" and engine.to_act(g2) == 0


def test_one_card_that_reaches_two_goals_turns_both_over(table, hand_card):
    board = TO_THE_GOALS | {(7, 0): "tee_nse~", (7, 1): "cross"}
    g = table(board=board, hands={0: ["cross"]}, gold=(8, -2))

    g2, events = engine.apply_move(g, 0, build(hand_card(g, 0, "cross"), 8, 1))

    assert sorted(revealed(events)) == [(8, 0, False), (8, 2, False)]
    assert g2.round == 1


def test_a_dead_end_facing_a_goal_does_not_turn_it_over(table, hand_card):
    g = table(board=TO_THE_GOALS, hands={0: ["dead_straight_ew"]}, gold=(8, 0))

    g2, events = engine.apply_move(g, 0, build(hand_card(g, 0, "dead_straight_ew"), 7, 0))

    assert revealed(events) == []
    assert (8, 0) in g2.hidden_goals


def test_a_tunnel_joined_to_a_goal_only_after_a_rockfall_gap_is_filled_reveals_it(table, hand_card):
    # (6, 0) was removed by a rockfall; (7, 0) already faces the goal but is cut off from the start
    board = {k: v for k, v in TO_THE_GOALS.items() if k != (6, 0)} | {(7, 0): "straight_ew"}
    g = table(board=board, hands={0: ["cross"]}, gold=(8, 0))

    g2, events = engine.apply_move(g, 0, build(hand_card(g, 0, "cross"), 6, 0))

    assert revealed(events) == [(8, 0, True)]


def test_a_map_shows_one_face_down_goal_to_its_player_only(table, hand_card):
    g = table(hands={1: ["map"]}, gold=(8, -2), turn=1)

    g2, events = engine.apply_move(g, 1, {"type": "play", "card": hand_card(g, 1, "map"), "x": 8, "y": -2})

    peek = next(e for e in events if e["type"] == "map_peek")
    used = next(e for e in events if e["type"] == "map_used")
    assert peek["audience"] == [1] and peek["gold"] is True
    assert used["audience"] == "public" and "gold" not in used
    assert engine.view(g2, 1)["goals"][2]["gold"] is True
    assert engine.view(g2, 0)["goals"][2]["gold"] is None
    assert engine.view(g2, None)["goals"][2]["gold"] is None


def test_a_map_can_only_look_at_a_goal_still_face_down(table, hand_card):
    g = table(board={(8, 0): "stone_se"}, hands={0: ["map"]}, gold=(8, 2))
    card = hand_card(g, 0, "map")

    with refused("still face down"):
        engine.apply_move(g, 0, {"type": "play", "card": card, "x": 8, "y": 0})
    with refused("still face down"):
        engine.apply_move(g, 0, {"type": "play", "card": card, "x": 3, "y": 0})
    targets = {(m["x"], m["y"]) for m in engine.legal_moves(g, 0) if m.get("card") == card}
    assert targets == {(8, 2), (8, -2)}
