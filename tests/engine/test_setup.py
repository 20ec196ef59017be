"""Setting up a round: roles, hands, the deck and the board."""
from __future__ import annotations

from collections import Counter

import pytest

import engine
from engine.variants import get_variant
from tests.support.refusals import refused
from tests.support.tables import NAMES

ROLE_TABLE = {3: (1, 3), 4: (1, 4), 5: (2, 4), 6: (2, 5), 7: (3, 5), 8: (3, 6), 9: (3, 7), 10: (4, 7)}
HAND_SIZE = {3: 6, 4: 6, 5: 6, 6: 5, 7: 5, 8: 4, 9: 4, 10: 4}


@pytest.mark.parametrize("players", range(3, 11))
def test_role_cards_are_one_more_than_players_in_the_official_mix(players):
    g = engine.new_game(NAMES[:players], seed=players)

    roles = Counter(g.roles + g.spare_roles)

    assert len(g.roles) == players and len(g.spare_roles) == 1
    assert (roles["saboteur"], roles["digger"]) == ROLE_TABLE[players]


@pytest.mark.parametrize("players", range(3, 11))
def test_hand_size_depends_on_player_count(players):
    g = engine.new_game(NAMES[:players], seed=1)

    assert [len(h) for h in g.hands] == [HAND_SIZE[players]] * players


def test_draw_pile_is_the_40_path_and_27_action_cards_of_the_card_sheet():
    v = get_variant("base")
    kinds = Counter(v.cards[c].name for c in v.playable_ids)

    assert sum(1 for c in v.playable_ids if v.cards[c].kind == "path") == 40
    assert sum(1 for c in v.playable_ids if v.cards[c].kind == "action") == 27
    assert kinds["cross"] == 5 and kinds["straight_ns"] == 4 and kinds["straight_ew"] == 3
    assert kinds["curve_ne"] == 5 and kinds["curve_nw"] == 4
    assert kinds["map"] == 6 and kinds["rockfall"] == 3 and kinds["break_pick"] == 3
    assert sum(1 for c in v.playable_ids if v.cards[c].dead_end) == 9


def test_every_card_is_dealt_or_in_the_draw_pile_at_the_start():
    g = engine.new_game(NAMES[:5], seed=3)
    v = get_variant("base")

    everything = sorted(sum(g.hands, []) + g.draw_pile)

    assert everything == sorted(v.playable_ids)
    assert g.discard == []


def test_board_starts_with_the_start_card_and_three_face_down_goals_one_of_gold():
    g = engine.new_game(NAMES[:4], seed=5)
    v = get_variant("base")

    assert list(g.board) == [(0, 0)]
    assert sorted(g.hidden_goals) == [(8, -2), (8, 0), (8, 2)]
    assert sorted(v.cards[c].name for c in g.hidden_goals.values()) == ["gold", "stone_se", "stone_sw"]


def test_gold_position_depends_on_the_seed():
    v = get_variant("base")
    places = set()
    for seed in range(30):
        g = engine.new_game(NAMES[:4], seed=seed)
        places.add(next(cell for cell, c in g.hidden_goals.items() if v.cards[c].gold))

    assert places == {(8, -2), (8, 0), (8, 2)}


def test_the_first_seat_starts_the_first_round():
    g = engine.new_game(NAMES[:6], seed=9)

    assert engine.to_act(g) == 0 and g.round == 1


def test_gold_pile_holds_16_ones_8_twos_4_threes():
    g = engine.new_game(NAMES[:3], seed=2)

    assert Counter(g.gold_pile) == {1: 16, 2: 8, 3: 4}


@pytest.mark.parametrize("players", [["Ann", "Bo"], NAMES + ["Kim"], ["Ann", "", "Cy"], "Ann,Bo,Cy", [1, 2, 3]])
def test_a_game_needs_three_to_ten_named_players(players):
    with pytest.raises(engine.InvalidSetup):
        engine.new_game(players, seed=1)


@pytest.mark.parametrize("options", [{"colour": "red"}, {"auto_pick_gold": "yes"}, {"digger_gold_cards": "all"},
                                     {"auto_pick_gold": 1}])
def test_unknown_options_and_bad_values_are_refused(options):
    with pytest.raises(engine.InvalidSetup):
        engine.new_game(NAMES[:3], seed=1, options=options)


def test_unknown_variant_is_refused():
    with refused("Unknown variant", engine.InvalidSetup):
        engine.new_game(NAMES[:3], seed=1, variant="duel")


def test_same_seed_deals_the_same_game_and_another_seed_another():
    a = engine.new_game(NAMES[:5], seed=42)
    b = engine.new_game(NAMES[:5], seed=42)
    c = engine.new_game(NAMES[:5], seed=43)

    assert a.to_dict() == b.to_dict()
    assert a.to_dict()["hands"] != c.to_dict()["hands"]


def test_huge_and_negative_seeds_work():
    big = engine.new_game(NAMES[:3], seed=2**200 + 7)
    neg = engine.new_game(NAMES[:3], seed=-7)

    assert big.to_dict() != neg.to_dict()
