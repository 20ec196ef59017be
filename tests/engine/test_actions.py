"""Action cards: broken tools, repairs, rockfall; and passing."""
from __future__ import annotations

import pytest

import engine
from engine.rules import broken_tools
from pbem.words.events import describe_event
from tests.support.refusals import refused


def play(card: int, **fields) -> dict:
    return {"type": "play", "card": card, **fields}


def test_a_broken_tool_may_be_played_on_any_player_including_yourself(table, hand_card):
    g = table(hands={0: ["break_pick", "break_cart"]})

    on_other, events = engine.apply_move(g, 0, play(hand_card(g, 0, "break_pick"), target=2))
    on_self, _ = engine.apply_move(g, 0, play(hand_card(g, 0, "break_cart"), target=0))

    assert broken_tools(on_other, 2) == ["pick"]
    assert broken_tools(on_self, 0) == ["cart"]
    assert events[0] == {"type": "tool_broken", "audience": "public", "seat": 0, "target": 2,
                         "card": hand_card(g, 0, "break_pick"), "tool": "pick"}


def test_a_player_has_at_most_one_broken_tool_of_each_kind(table, hand_card):
    g = table(hands={0: ["break_pick", "break_lantern"]}, broken={2: ["pick"]})
    card = hand_card(g, 0, "break_pick")

    with refused("already has a broken pick"):
        engine.apply_move(g, 0, play(card, target=2))
    g2, _ = engine.apply_move(g, 0, play(hand_card(g, 0, "break_lantern"), target=2))

    assert sorted(broken_tools(g2, 2)) == ["lantern", "pick"]
    assert {m["target"] for m in engine.legal_moves(g, 0) if m.get("card") == card} == {0, 1, 3}


def test_a_repair_must_match_a_broken_tool_in_front_of_the_target(table, hand_card):
    g = table(hands={0: ["repair_pick", "repair_cart"]}, broken={1: ["pick"]})
    pick = hand_card(g, 0, "repair_pick")
    cart = hand_card(g, 0, "repair_cart")

    g2, _ = engine.apply_move(g, 0, play(pick, target=1, tool="pick"))

    assert broken_tools(g2, 1) == []
    assert pick in g2.discard and len(g2.discard) == len(g.discard) + 2
    with refused("has no broken cart"):
        engine.apply_move(g, 0, play(cart, target=1, tool="cart"))
    with refused("repairs cart, not 'pick'"):
        engine.apply_move(g, 0, play(cart, target=1, tool="pick"))
    assert not [m for m in engine.legal_moves(g, 0) if m.get("card") == cart]


def test_a_repair_may_be_played_on_yourself(table, hand_card):
    g = table(hands={0: ["repair_lantern"]}, broken={0: ["lantern"]})

    g2, events = engine.apply_move(g, 0, play(hand_card(g, 0, "repair_lantern"), target=0, tool="lantern"))

    assert broken_tools(g2, 0) == []
    assert describe_event(events[0], ["Ann", "Bo", "Cy", "Di"]) == "Ann repaired their own lantern."


def test_a_double_repair_fixes_one_of_its_two_tools_chosen_by_the_player(table, hand_card):
    g = table(hands={0: ["repair_pick_cart"]}, broken={3: ["pick", "cart"]})
    card = hand_card(g, 0, "repair_pick_cart")

    g2, _ = engine.apply_move(g, 0, play(card, target=3, tool="cart"))

    assert broken_tools(g2, 3) == ["pick"]
    assert {m["tool"] for m in engine.legal_moves(g, 0) if m.get("card") == card} == {"pick", "cart"}
    with pytest.raises(engine.IllegalMove):
        engine.apply_move(g, 0, play(card, target=3, tool="lantern"))


def test_rockfall_removes_a_path_card_and_both_go_to_the_discard_pile(table, hand_card):
    g = table(board={(1, 0): "cross", (2, 0): "straight_ew"}, hands={0: ["rockfall"]})
    rockfall = hand_card(g, 0, "rockfall")
    removed = g.board[(1, 0)][0]

    g2, events = engine.apply_move(g, 0, play(rockfall, x=1, y=0))

    assert (1, 0) not in g2.board
    assert {removed, rockfall} <= set(g2.discard)
    assert events[0]["type"] == "rockfall" and events[0]["removed"] == removed


def test_rockfall_cannot_remove_the_start_or_a_goal(table, hand_card):
    g = table(board={(8, 0): "stone_sw"}, hands={0: ["rockfall"]}, gold=(8, 2))
    card = hand_card(g, 0, "rockfall")

    for x, y in [(0, 0), (8, 0), (8, 2)]:
        with pytest.raises(engine.IllegalMove):
            engine.apply_move(g, 0, play(card, x=x, y=y))
    assert not [m for m in engine.legal_moves(g, 0) if m.get("card") == card]


def test_cards_cut_off_by_a_rockfall_no_longer_carry_the_tunnel(table, hand_card):
    g = table(board={(1, 0): "straight_ew", (2, 0): "straight_ew"}, hands={0: ["rockfall"], 1: ["cross"]})

    g2, _ = engine.apply_move(g, 0, play(hand_card(g, 0, "rockfall"), x=1, y=0))

    cross = hand_card(g2, 1, "cross")
    with refused("leads back to the start"):
        engine.apply_move(g2, 1, {"type": "play", "card": cross, "x": 3, "y": 0, "rotated": False})
    g3, _ = engine.apply_move(g2, 1, {"type": "play", "card": cross, "x": 1, "y": 0, "rotated": False})
    assert (2, 0, 2) in engine.rules.reach_of(g3)  # the far straight joins again


def test_passing_discards_one_card_face_down(table, hand_card):
    g = table(hands={0: ["cross"]})
    card = hand_card(g, 0, "cross")

    g2, events = engine.apply_move(g, 0, {"type": "pass", "cards": [card]})

    assert card in g2.discard and card not in g2.hands[0]
    public = [e for e in events if e["audience"] == "public"]
    assert all(card not in e.get("cards", []) and e.get("card") != card for e in public)
    assert {"type": "discarded", "audience": [0], "seat": 0, "cards": [card], "names": ["cross"]} in events


def test_passing_in_the_base_game_discards_exactly_one_card(table):
    g = table()
    two = sorted(g.hands[0][:2])

    with refused("at most 1"):
        engine.apply_move(g, 0, {"type": "pass", "cards": two})
    with pytest.raises(engine.IllegalMove):
        engine.apply_move(g, 0, {"type": "pass", "cards": []})


def test_after_playing_a_card_the_player_draws_one_while_the_pile_lasts(table, hand_card):
    g = table(hands={0: ["cross"]}, draw=["map"])
    card = hand_card(g, 0, "cross")

    g2, events = engine.apply_move(g, 0, {"type": "pass", "cards": [card]})
    g3, _ = engine.apply_move(g2, 1, {"type": "pass", "cards": [g2.hands[1][0]]})

    assert len(g2.hands[0]) == len(g.hands[0]) and g2.draw_pile == []
    assert [e["type"] for e in events if e["audience"] == "public"] == ["passed", "drew", "draw_pile_empty"]
    assert len(g3.hands[1]) == len(g.hands[1]) - 1
