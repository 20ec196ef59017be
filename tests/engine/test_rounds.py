"""Turns, the end of a round, the gold, and the end of the game."""
from __future__ import annotations

from collections import Counter

import pytest

import engine
from engine.rounds import take_nuggets
from pbem.words.events import describe_event
from tests.support.refusals import refused
from tests.support.tables import NAMES, random_game_states, reach_gold


def pass_first(g, seat):
    return engine.apply_move(g, seat, {"type": "pass", "cards": [g.hands[seat][0]]})


def play_out(g, moves=pass_first):
    """Everyone passes until the round changes hands; returns the game and all events."""
    events = []
    start_round = g.round
    while g.round == start_round and g.phase == "play" and not engine.is_over(g):
        g, ev = moves(g, engine.to_act(g))
        events += ev
    return g, events


def test_play_passes_clockwise_to_the_next_seat(table):
    g = table(4, turn=2)

    g2, _ = pass_first(g, 2)
    g3, _ = pass_first(g2, 3)

    assert engine.to_act(g2) == 3 and engine.to_act(g3) == 0


def test_only_the_seat_to_act_may_move_and_others_have_no_moves(table):
    g = table(4, turn=1)

    with refused("Bo is to play", engine.NotYourTurn):
        pass_first(g, 0)
    assert engine.legal_moves(g, 0) == [] and engine.legal_moves(g, 1)


def test_a_seat_with_no_cards_and_an_empty_pile_is_passed_over(table):
    g = table(3, draw=0)
    g.discard += g.hands[1]
    g.hands[1] = []

    g2, _ = pass_first(g, 0)

    assert engine.to_act(g2) == 2


def test_the_round_ends_when_the_pile_and_every_hand_are_empty_and_saboteurs_win(table):
    g = table(3, draw=0, roles=["digger", "saboteur", "digger"])
    for seat in range(3):
        g.discard += g.hands[seat][1:]
        g.hands[seat] = g.hands[seat][:1]

    g2, events = play_out(g)

    ended = next(e for e in events if e["type"] == "round_ended")
    assert ended["winner"] == "saboteurs" and ended["reached_by"] is None
    paid = next(e for e in events if e["type"] == "saboteur_paid")
    assert paid["seat"] == 1 and paid["nuggets"] == 4 and sum(g2.gold[1]) == 4
    assert g2.round == 2


def test_with_no_saboteur_in_play_nobody_gets_gold_when_the_gold_is_missed(table):
    g = table(3, draw=0, roles=["digger", "digger", "digger"])
    for seat in range(3):
        g.discard += g.hands[seat][1:]
        g.hands[seat] = g.hands[seat][:1]

    g2, events = play_out(g)

    assert next(e for e in events if e["type"] == "round_ended")["winner"] == "nobody"
    assert g2.gold == [[], [], []]


def test_the_left_neighbour_of_the_player_who_played_the_last_card_starts_the_next_round(table):
    g = table(4, draw=0, turn=1, roles=["digger", "saboteur", "digger", "digger"])
    for seat in range(4):
        g.discard += g.hands[seat][1:]
        g.hands[seat] = g.hands[seat][:1]

    g2, events = play_out(g)  # seats 1, 2, 3, 0 pass: seat 0 plays the last card

    assert g2.round == 2 and engine.to_act(g2) == 1
    assert next(e for e in events if e["type"] == "round_started")["first"] == 1


def test_roles_are_dealt_afresh_each_round_from_the_same_cards():
    rounds = []
    g = engine.new_game(NAMES[:5], seed=11)
    for state, _seat, _move in random_game_states(5, 11):
        if not rounds or rounds[-1][0] != state.round:
            rounds.append((state.round, list(state.roles), Counter(state.roles + state.spare_roles)))

    assert [r for r, _, _ in rounds] == [1, 2, 3]
    assert all(deck == rounds[0][2] for _, _, deck in rounds)
    assert g.roles == rounds[0][1]


@pytest.mark.parametrize("saboteurs, share", [(1, 4), (2, 3), (3, 3), (4, 2)])
def test_saboteurs_share_depends_on_how_many_there_are(table, saboteurs, share):
    players = 10 if saboteurs == 4 else 7 if saboteurs == 3 else 5 if saboteurs == 2 else 4
    roles = ["saboteur"] * saboteurs + ["digger"] * (players - saboteurs)
    g = table(players, draw=0, roles=roles)
    for seat in range(players):
        g.discard += g.hands[seat][1:]
        g.hands[seat] = g.hands[seat][:1]

    g2, events = play_out(g)

    assert [e["nuggets"] for e in events if e["type"] == "saboteur_paid"] == [share] * saboteurs
    assert [sum(v) for v in g2.gold[:saboteurs]] == [share] * saboteurs


def test_saboteurs_are_paid_in_seat_order_from_the_left_of_the_last_player(table):
    g = table(5, draw=0, turn=3, roles=["saboteur", "digger", "digger", "digger", "saboteur"])
    for seat in range(5):
        g.discard += g.hands[seat][1:]
        g.hands[seat] = g.hands[seat][:1]
    g.gold_pile = [1] * 16 + [2] * 8 + [3] * 4  # the top card is the last one: 3s first

    g2, events = play_out(g)  # last card by seat 2 -> seat 3 is left of it; seat 4 is paid first

    paid = [(e["seat"], e["nuggets"]) for e in events if e["type"] == "saboteur_paid"]
    assert paid == [(4, 3), (0, 3)]
    assert g2.gold[4] == [3] and g2.gold[0] == [3]


def test_a_gold_card_that_overshoots_goes_to_the_bottom_and_drawing_goes_on():
    pile = [1, 1, 2, 3]  # top is the end: 3, then 2, then 1s

    taken = take_nuggets(pile, 4)

    assert taken == [3, 1]
    assert pile == [2, 1]  # the 2 went to the bottom


def test_when_the_pile_cannot_make_the_share_the_largest_value_below_is_paid():
    assert take_nuggets([3, 3], 4) == [3]
    pile = [2, 2, 3]  # 3 first, then both 2s overshoot; 2 + 2 makes the 4 exactly
    assert sorted(take_nuggets(pile, 4)) == [2, 2] and pile == [3]
    assert take_nuggets([], 3) == []


def test_a_short_payment_is_announced(table):
    g = table(4, draw=0, roles=["saboteur", "digger", "digger", "digger"])
    for seat in range(4):
        g.discard += g.hands[seat][1:]
        g.hands[seat] = g.hands[seat][:1]
    g.gold = [[], [1] * 16, [2] * 8, []]
    g.gold_pile = [3, 3, 3, 3]

    _, events = play_out(g)

    paid = next(e for e in events if e["type"] == "saboteur_paid")
    assert (paid["due"], paid["nuggets"]) == (4, 3)
    assert "could not make the 4 due" in describe_event(paid, NAMES[:4])


def test_the_gold_diggers_draw_as_many_gold_cards_as_there_are_players(table):
    g, events = reach_gold(table, 5, roles=["digger", "saboteur", "digger", "digger", "saboteur"])

    assert len(g.offer) == 5
    assert next(e for e in events if e["type"] == "gold_drawn")["count"] == 5


def test_with_ten_players_only_nine_gold_cards_are_drawn(table):
    g, _ = reach_gold(table, 10, roles=["digger"] * 6 + ["saboteur"] * 4)

    assert len(g.offer) == 9


def test_option_diggers_draws_one_gold_card_per_gold_digger(table):
    g, _ = reach_gold(table, 5, roles=["digger", "saboteur", "digger", "digger", "saboteur"],
                      options={"digger_gold_cards": "diggers"})

    assert len(g.offer) == 3


def test_the_finder_picks_first_then_the_cards_pass_counter_clockwise_among_diggers_only(table):
    roles = ["digger", "saboteur", "digger", "saboteur", "digger"]
    g, events = reach_gold(table, 5, reacher=2, roles=roles)
    order = []
    while g.phase == "gold":
        seat = engine.to_act(g)
        order.append(seat)
        values = [m["value"] for m in engine.legal_moves(g, seat)]
        assert values == sorted(set(g.offer), reverse=True)
        g, _ = engine.apply_move(g, seat, {"type": "pick_gold", "value": values[-1]})

    assert order == [2, 0, 4, 2, 0]
    assert [len(v) for v in g.gold] == [2, 0, 2, 0, 1]
    assert g.round == 2


def test_a_saboteur_who_reaches_the_gold_does_not_pick_the_nearest_digger_counter_clockwise_does(table):
    roles = ["digger", "digger", "saboteur", "saboteur", "digger"]
    g, events = reach_gold(table, 5, reacher=3, roles=roles)

    assert engine.to_act(g) == 1  # seat 2 is a saboteur too, so seat 1 is the nearest digger
    assert next(e for e in events if e["type"] == "round_ended")["winner"] == "diggers"


def test_a_pick_offers_the_distinct_values_left_and_a_wrong_value_is_refused(table):
    g, events = reach_gold(table, 4)
    g.offer = [1, 1, 3, 2]

    assert engine.legal_moves(g, 0) == [{"type": "pick_gold", "value": v} for v in (3, 2, 1)]
    with refused("worth 5"):
        engine.apply_move(g, 0, {"type": "pick_gold", "value": 5})
    with refused("gold"):
        engine.apply_move(g, 0, {"type": "pass", "cards": [5]})


def test_each_picker_alone_sees_the_cards_offered(table):
    g, events = reach_gold(table, 4)

    offered = [e for e in events if e["type"] == "gold_offered"]
    assert offered and offered[0]["audience"] == [0]
    assert engine.view(g, 0)["you"]["offer"] == sorted(g.offer, reverse=True)
    assert engine.view(g, 1)["you"]["offer"] is None
    assert engine.view(g, None)["gold_offer"] == 4


def test_auto_pick_gold_takes_the_highest_value_for_each_digger(table):
    g, events = reach_gold(table, 4, options={"auto_pick_gold": True})

    assert g.round == 2 and g.phase == "play"
    kept = [e["values"][0] for e in events if e["type"] == "gold_kept"]
    assert kept == sorted(kept, reverse=True) and len(kept) == 4


def test_each_seat_sees_its_own_gold_values_and_only_the_count_of_others(table):
    g = table(4, gold_cards={0: [3, 1], 1: [2]})

    mine = engine.view(g, 0)
    theirs = engine.view(g, 1)

    assert mine["you"]["gold"] == [3, 1] and mine["you"]["gold_total"] == 4
    assert [s["gold_cards"] for s in mine["seats"]] == [2, 1, 0, 0]
    assert theirs["you"]["gold"] == [2]
    assert "final" not in mine


def test_the_game_ends_after_three_rounds_and_the_most_gold_wins_with_ties_sharing():
    states = list(random_game_states(4, 21))
    final = states[-1][0]

    assert engine.is_over(final) and engine.to_act(final) is None and len(final.results) == 3
    totals = engine.scores(final)
    assert engine.view(final, None)["final"]["winners"] == [s for s, t in enumerate(totals) if t == max(totals)]
    assert engine.legal_moves(final, 0) == []
    with refused("over"):
        engine.apply_move(final, 0, {"type": "pass", "cards": []})


def test_ties_share_the_win(table):
    g = table(3, draw=0, roles=["digger", "digger", "saboteur"], gold_cards={0: [3], 1: [2, 1]})
    g.round = 3
    for seat in range(3):
        g.discard += g.hands[seat][1:]
        g.hands[seat] = g.hands[seat][:1]
    g.gold_pile = [3, 3, 3]  # the saboteur can only make 3 of the 4 due

    g2, events = play_out(g)

    over = next(e for e in events if e["type"] == "game_over")
    assert engine.is_over(g2) and over["scores"] == [3, 3, 3] and over["winners"] == [0, 1, 2]
