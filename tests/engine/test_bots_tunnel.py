"""The bot's reading of the tunnel from a view: what joins the start, where to build, how far each goal is."""
from __future__ import annotations

import engine
from engine.board import building_sites
from engine.bots.tunnel import layout_from_view, survey
from engine.rules import reach_of
from tests.support.tables import TO_THE_GOALS, random_game_states

TOP, MIDDLE, BOTTOM = (8, 2), (8, 0), (8, -2)


def tunnel_of(game: engine.Game, seat: int | None = 0):
    return survey(layout_from_view(engine.view(game, seat)))


def test_from_a_view_the_bot_finds_the_same_reach_and_building_sites_as_the_rules():
    for players, seed in [(3, 11), (6, 12), (10, 13)]:
        for g, _seat, _move in random_game_states(players, seed):
            if g.phase != "play":
                continue
            tunnel = tunnel_of(g, None)

            assert tunnel.reach == reach_of(g)
            assert tunnel.sites == set(building_sites(g.board, g.hidden_goals, reach_of(g)))


def test_with_only_the_start_the_middle_goal_is_seven_cards_away_and_the_others_nine(table):
    g = table(5)

    assert tunnel_of(g).now.costs == {TOP: 9, MIDDLE: 7, BOTTOM: 9}


def test_a_card_that_faces_a_goal_brings_its_cost_to_nothing(table):
    g = table(5, board=TO_THE_GOALS)
    tunnel = tunnel_of(g)

    straight = tunnel.after_placing((7, 0), (2 | 8,))  # E-W

    assert tunnel.now.costs[MIDDLE] == 1 and straight.costs[MIDDLE] == 0


def test_a_dead_end_in_front_of_the_goals_sends_the_tunnel_round_it(table):
    g = table(5, board={(1, 0): "straight_ew", (2, 0): "straight_ew"})
    tunnel = tunnel_of(g)

    stub = tunnel.after_placing((3, 0), (8,))  # a dead end whose only stub faces back west

    assert tunnel.now.costs[MIDDLE] == 5
    assert stub.costs[MIDDLE] > tunnel.now.costs[MIDDLE] + 2  # only the start's other sides are left


def test_a_rockfall_that_cuts_the_tunnel_costs_the_card_that_fills_the_gap(table):
    g = table(5, board=TO_THE_GOALS)
    tunnel = tunnel_of(g)

    assert tunnel.now.costs[MIDDLE] == 1
    assert tunnel.after_removing((2, 0)).costs[MIDDLE] == 2
    assert tunnel.after_removing((6, 0)).costs[MIDDLE] == 2


def test_a_wider_front_has_more_sites_at_the_best_cost(table):
    g = table(5, board={(1, 0): "straight_ew"})
    tunnel = tunnel_of(g)

    cross = tunnel.after_placing((2, 0), (1 | 2 | 4 | 8,))
    straight = tunnel.after_placing((2, 0), (2 | 8,))

    assert cross.costs == straight.costs
    assert cross.widths[TOP] > straight.widths[TOP]
