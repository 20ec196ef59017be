"""When a round ends although nobody reached the gold, and who starts the next one.

Rulebook, base game: "The round also ends if the draw deck runs out of cards and no player has any playable
cards left in hand." and "The player to the left of the one who played the last path card in the previous
round starts the next round." Saboteur 2: the round is over when "no player can play any more cards", and the
next round starts with the player left of whoever played "the last card of the last round".
"""
from __future__ import annotations

import engine
from engine.rules import can_play
from pbem.words.events import describe_event
from tests.support.tables import build, card_in_hand

STUCK = {0: ["pick"], 1: ["pick"], 2: ["pick"]}  # nobody may build


def pass_card(g, seat, name=None):
    card = card_in_hand(g, seat, name) if name else g.hands[seat][0]
    return engine.apply_move(g, seat, {"type": "pass", "cards": [card]})


def ended(events) -> dict:
    return next(e for e in events if e["type"] == "round_ended")


# ---------------------------------------------------------------- a round where nobody can play


def test_the_round_ends_at_once_when_the_pile_is_empty_and_no_seat_holds_a_playable_card(table):
    g = table(3, draw=0, roles=["digger", "saboteur", "digger"], broken=STUCK,
              hands={0: ["straight_ew", "straight_ns"], 1: ["straight_ew"], 2: ["curve_ne"]})

    g2, events = pass_card(g, 0, "straight_ns")

    kinds = [e["type"] for e in events]
    assert kinds.index("no_playable_cards") == kinds.index("round_ended") - 1
    assert ended(events)["reason"] == "no_playable_cards" and ended(events)["winner"] == "saboteurs"
    assert ended(events)["reached_by"] is None
    assert g2.round == 2 and g2.results[0]["reason"] == "no_playable_cards"


def test_the_log_says_why_the_round_ended(table):
    g = table(3, draw=0, roles=["digger", "saboteur", "digger"], broken=STUCK,
              hands={0: ["straight_ew", "straight_ns"], 1: ["straight_ew"], 2: ["curve_ne"]})

    _, events = pass_card(g, 0, "straight_ns")
    lines = [describe_event(e, ["Ann", "Bo", "Cy"]) for e in events if e["audience"] == "public"]

    assert "The draw pile is empty and nobody holds a card they could play." in lines
    assert any(line.startswith("Round 1 is over: the draw pile ran out and nobody could play a card before anyone "
                               "reached the gold, so the saboteurs win.") for line in lines)


def test_one_seat_with_a_playable_card_keeps_the_round_going(table):
    g = table(3, draw=0, broken=STUCK,
              hands={0: ["straight_ew", "straight_ns"], 1: ["straight_ew"], 2: ["repair_pick"]})

    g2, events = pass_card(g, 0, "straight_ns")

    assert g2.round == 1 and engine.to_act(g2) == 1
    assert "round_ended" not in [e["type"] for e in events]


def test_a_path_card_with_a_legal_place_is_playable(table):
    g = table(3, draw=0, broken={0: ["pick"], 1: ["pick"]},
              hands={0: ["straight_ew", "straight_ns"], 1: ["straight_ew"], 2: ["straight_ew"]})

    g2, _ = pass_card(g, 0, "straight_ns")

    assert g2.round == 1 and engine.to_act(g2) == 1


def test_while_cards_remain_to_draw_the_round_goes_on(table):
    g = table(3, draw=2, broken=STUCK,
              hands={0: ["straight_ew", "straight_ns"], 1: ["straight_ew"], 2: ["curve_ne"]})

    g2, _ = pass_card(g, 0, "straight_ns")

    assert g2.round == 1 and len(g2.draw_pile) == 1


def test_option_play_out_hands_keeps_playing_until_every_hand_is_empty(table):
    g = table(3, draw=0, roles=["digger", "saboteur", "digger"], broken=STUCK, options={"play_out_hands": True},
              hands={0: ["straight_ew", "straight_ns"], 1: ["straight_ew"], 2: ["curve_ne"]})

    g, _ = pass_card(g, 0, "straight_ns")
    assert g.round == 1 and engine.to_act(g) == 1
    events: list[dict] = []
    while g.round == 1:
        g, more = pass_card(g, engine.to_act(g))
        events += more

    assert ended(events)["reason"] == "hands_empty"


def test_saboteur2_counts_discarding_two_to_clear_as_a_playable_move(table):
    g = table(3, variant="saboteur2", draw=0, broken=STUCK,
              hands={0: ["straight_ew"], 1: ["straight_ew"], 2: ["straight_ew", "straight_ns"]})

    g2, _ = pass_card(g, 0)

    assert g2.round == 1 and engine.to_act(g2) == 1
    assert can_play(g2, 2) and not can_play(g2, 1) and not can_play(g2, 0)


def test_saboteur2_ends_the_round_when_no_player_can_play_any_more_cards(table):
    g = table(3, variant="saboteur2", draw=0, broken=STUCK,
              roles=["saboteur", "blue_digger", "green_digger"],
              hands={0: ["straight_ew", "straight_ns"], 1: ["straight_ew"], 2: ["straight_ew"]})

    g2, events = pass_card(g, 0, "straight_ns")

    assert ended(events)["reason"] == "no_playable_cards" and ended(events)["teams"] == []
    assert g2.round == 2


# ---------------------------------------------------------------- who starts the next round


def test_base_game_the_left_neighbour_of_the_last_path_builder_starts_the_next_round(table, hand_card):
    g = table(3, draw=0, options={"play_out_hands": True},
              hands={0: ["straight_ew"], 1: ["straight_ns"], 2: ["straight_ns"]})
    g, _ = engine.apply_move(g, 0, build(hand_card(g, 0, "straight_ew"), 1, 0))
    g, _ = pass_card(g, 1)

    g, events = pass_card(g, 2)

    started = next(e for e in events if e["type"] == "round_started")
    assert started["first"] == 1 and started["after"] == 0 and started["because"] == "last_path"
    assert engine.to_act(g) == 1 and g.round == 2
    assert describe_event(started, ["Ann", "Bo", "Cy"]) == (
        "Round 2 begins; Bo plays first, sitting left of Ann, who built the last path card of the round before.")


def test_base_game_with_no_path_card_played_the_left_neighbour_of_the_last_player_starts(table):
    g = table(3, draw=0, hands={0: ["straight_ns"], 1: ["straight_ns"], 2: ["straight_ns"]}, broken=STUCK,
              options={"play_out_hands": True})
    for seat in (0, 1):
        g, _ = pass_card(g, seat)

    g, events = pass_card(g, 2)

    started = next(e for e in events if e["type"] == "round_started")
    assert (started["first"], started["after"], started["because"]) == (0, 2, "last_card")


def test_saboteur2_the_left_neighbour_of_whoever_played_the_last_card_starts(table, hand_card):
    g = table(3, variant="saboteur2", draw=0, options={"play_out_hands": True},
              roles=["saboteur", "blue_digger", "green_digger"],
              hands={0: ["straight_ew"], 1: ["straight_ns"], 2: ["straight_ns"]})
    g, _ = engine.apply_move(g, 0, build(hand_card(g, 0, "straight_ew"), 1, 0))
    g, _ = pass_card(g, 1)

    g, events = pass_card(g, 2)
    while g.phase == "steal":
        g, more = engine.apply_move(g, engine.to_act(g), {"type": "steal", "target": None})
        events += more

    started = next(e for e in events if e["type"] == "round_started")
    assert (started["first"], started["after"], started["because"]) == (0, 2, "last_card")
