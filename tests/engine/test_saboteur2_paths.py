"""Saboteur 2 path cards: bridges, double curves, ladders, doors and crystals."""
from __future__ import annotations

import pytest

import engine
from engine.board import mismatch, neighbourhood
from engine.geometry import E, N, S, W
from engine.rules import reach_of
from engine.treasure import team_claims
from engine.variants import variant_of
from tests.support.refusals import refused
from tests.support.tables import TO_THE_GOALS, build


def s2_table(table, **kw):
    return table(4, variant="saboteur2", **kw)


def builds_at(g, seat, card) -> set[tuple[int, int, bool]]:
    return {(m["x"], m["y"], m["rotated"]) for m in engine.legal_moves(g, seat) if m.get("card") == card}


# ---------------------------------------------------------------- bridges and double curves


def test_a_bridge_is_placed_when_one_of_its_two_tunnels_joins_the_start(table, hand_card):
    g = s2_table(table, hands={0: ["bridge"]})
    bridge = hand_card(g, 0, "bridge")

    g2, _ = engine.apply_move(g, 0, build(bridge, 1, 0))

    reach = reach_of(g2)
    assert (1, 0, E) in reach and (1, 0, W) in reach        # the E-W tunnel is joined
    assert (1, 0, N) not in reach and (1, 0, S) not in reach  # the N-S tunnel is not


def test_the_two_tunnels_of_a_bridge_do_not_join_each_other(table, hand_card):
    g = s2_table(table, board={(1, 0): "bridge"}, hands={0: ["cross"]})
    cross = hand_card(g, 0, "cross")

    with refused("leads back to the start"):
        engine.apply_move(g, 0, build(cross, 1, 1))
    assert (2, 0, False) in builds_at(g, 0, cross) and (1, 1, False) not in builds_at(g, 0, cross)


def test_the_two_curves_of_a_double_curve_are_followed_separately(table, hand_card):
    # at (1, 0) the N-W curve meets the start; the S-E curve leads nowhere
    g = s2_table(table, board={(1, 0): "double_curve"}, hands={0: ["cross"]})
    cross = hand_card(g, 0, "cross")

    reach = reach_of(g)

    assert (1, 0, N) in reach and (1, 0, E) not in reach and (1, 0, S) not in reach
    assert (1, 1, False) in builds_at(g, 0, cross)
    with refused("leads back to the start"):
        engine.apply_move(g, 0, build(cross, 2, 0))


def test_a_card_joining_the_other_tunnel_of_a_double_curve_joins_it_too(table, hand_card):
    # a tunnel reaching the double curve from the south carries on east through its S-E curve
    g = s2_table(table, board={(1, 0): "double_curve", (0, -1): "curve_ne", (1, -1): "curve_nw"},
                 hands={0: ["cross"]})

    assert (1, 0, E) in reach_of(g)
    assert (2, 0, False) in builds_at(g, 0, hand_card(g, 0, "cross"))


# ---------------------------------------------------------------- ladders


def cut_off_straight(table, **kw):
    """A straight at (3, 0) that no tunnel joins: a dead end stands at (1, 0)."""
    return s2_table(table, board={(1, 0): "dead_straight_ew", (3, 0): "straight_ew"}, **kw)


def test_a_ladder_is_joined_to_the_start_wherever_it_lies(table, hand_card):
    g = cut_off_straight(table, hands={0: ["ladder_e"], 1: ["cross"]})
    ladder = hand_card(g, 0, "ladder_e")
    cross = hand_card(g, 1, "cross")
    assert (3, 0, E) not in reach_of(g)
    g.turn = 1
    assert (2, 0, False) not in builds_at(g, 1, cross)
    g.turn = 0

    # turned, the ladder opens west, onto the cut-off straight: no tunnel leads to it, yet it may go there
    g2, _ = engine.apply_move(g, 0, build(ladder, 4, 0, rotated=True))

    assert (4, 0, True) in builds_at(g, 0, ladder)
    assert (3, 0, W) in reach_of(g2) and (4, 0, W) in reach_of(g2)
    assert (2, 0, False) in builds_at(g2, 1, cross)


def test_ladders_are_joined_to_each_other(table, hand_card):
    # two ladders far apart, neither joined to the start by a tunnel: both networks become one
    g = s2_table(table, board={(1, 0): "dead_straight_ew", (3, 0): "straight_ew", (3, -3): "straight_ns"},
                 hands={0: ["ladder_e", "ladder_n", "cross"]})
    east = hand_card(g, 0, "ladder_e")
    north = hand_card(g, 0, "ladder_n")

    g2, _ = engine.apply_move(g, 0, build(east, 4, 0, rotated=True))
    g2.turn = 0
    g3, _ = engine.apply_move(g2, 0, build(north, 3, -2, rotated=True))

    reach = reach_of(g3)
    assert (3, 0, W) in reach and (3, -3, S) in reach


def test_a_ladder_must_touch_a_card_on_the_table(table, hand_card):
    g = s2_table(table, hands={0: ["ladder_n"]})
    ladder = hand_card(g, 0, "ladder_n")

    with refused("next to a card"):
        engine.apply_move(g, 0, build(ladder, 4, 4))
    places = builds_at(g, 0, ladder)
    assert places and all(abs(x) + abs(y) == 1 for x, y, _ in places)  # only the start is there to touch


def test_a_ladder_may_not_be_placed_next_to_a_goal(table, hand_card):
    # the middle goal is a turned-over stone with a wall to the west; the others are still face down
    g = s2_table(table, board=TO_THE_GOALS | {(8, 0): "stone_se"}, hands={0: ["ladder_e"]}, gold=(8, 2))
    ladder = hand_card(g, 0, "ladder_e")
    v = variant_of(g)

    with refused("next to a goal"):
        engine.apply_move(g, 0, build(ladder, 7, 0, rotated=True))
    assert mismatch(v.openings[ladder][True], *neighbourhood(v, g.board, (7, 0))) is None  # it would fit
    places = builds_at(g, 0, ladder)
    goals = [(8, 2), (8, 0), (8, -2)]
    assert places and all(abs(x - gx) + abs(y - gy) != 1 for x, y, _ in places for gx, gy in goals)


def test_a_ladder_must_still_match_its_neighbours(table, hand_card):
    g = s2_table(table, hands={0: ["ladder_n"]})
    ladder = hand_card(g, 0, "ladder_n")

    with refused("left side is a wall but the card to its left has a tunnel"):
        engine.apply_move(g, 0, build(ladder, 1, 0))
    assert (1, 0, False) not in builds_at(g, 0, ladder)


def test_a_trapped_player_cannot_build_ladders_either(table, hand_card):
    g = s2_table(table, hands={0: ["ladder_n"]}, front={0: ["trapped"]})

    assert not builds_at(g, 0, hand_card(g, 0, "ladder_n"))


# ---------------------------------------------------------------- doors


def test_anyone_may_build_past_a_door_of_any_colour(table, hand_card):
    g = s2_table(table, board={(1, 0): "door_blue_ew"}, hands={0: ["straight_ew"]},
                 roles=["green_digger", "blue_digger", "saboteur", "boss"])

    g2, _ = engine.apply_move(g, 0, build(hand_card(g, 0, "straight_ew"), 2, 0))

    assert (2, 0) in g2.board and (2, 0, E) in reach_of(g2)


def route_with(table, doors: dict) -> engine.Game:
    board = TO_THE_GOALS | {(7, 0): "straight_ew", (8, 0): "gold"} | doors
    return s2_table(table, board=board)


@pytest.mark.parametrize("doors, claims", [
    ({}, {"blue": True, "green": True}),
    ({(3, 0): "door_blue_ew"}, {"blue": True, "green": False}),
    ({(3, 0): "door_green_ew"}, {"blue": False, "green": True}),
    ({(2, 0): "door_green_ew", (3, 0): "door_blue_ew"}, {"blue": False, "green": False}),
])
def test_a_team_may_claim_the_gold_only_along_a_way_without_a_door_of_the_other_colour(table, doors, claims):
    g = route_with(table, doors)

    assert team_claims(variant_of(g), g.board) == claims


def test_a_second_way_round_a_door_lets_the_other_team_claim_too(table):
    # a blue door on the straight way; a detour through (3, 1) and (4, 1) avoids it
    g = route_with(table, {(3, 0): "door_blue_ew", (2, 0): "cross", (2, 1): "curve_nw~",
                           (3, 1): "straight_ew", (4, 1): "curve_ne~"})

    claims = team_claims(variant_of(g), g.board)

    assert claims == {"blue": True, "green": True}


# ---------------------------------------------------------------- crystals and views


def test_crystals_change_nothing_about_connections(table, hand_card):
    plain = s2_table(table, board={(1, 0): "tee_nse"}, hands={0: ["cross"]})
    shiny = s2_table(table, board={(1, 0): "crystal_tee_nse"}, hands={0: ["cross"]})

    assert reach_of(plain) == reach_of(shiny)
    assert builds_at(plain, 0, hand_card(plain, 0, "cross")) == builds_at(shiny, 0, hand_card(shiny, 0, "cross"))


def test_the_view_shows_doors_ladders_both_tunnels_of_bridges_and_double_curves_and_crystals(table):
    g = s2_table(table, board={(1, 0): "door_green_ew", (-1, 0): "bridge", (0, 1): "double_curve",
                               (0, -1): "crystal_tee_nse", (2, 1): "ladder_nw"})

    cells = {(c["x"], c["y"]): c for c in engine.view(g, None)["board"]}

    assert cells[(1, 0)]["segments"] == [{"edges": "EW", "door": "green"}, {"edges": "N", "dead": True}]
    assert cells[(-1, 0)]["segments"] == [{"edges": "NS"}, {"edges": "EW"}]
    assert cells[(0, 1)]["segments"] == [{"edges": "NW"}, {"edges": "ES"}]
    assert cells[(0, -1)]["crystals"] == 1 and "crystals" not in cells[(1, 0)]
    assert cells[(2, 1)]["segments"] == [{"edges": "NW", "ladder": True}]
