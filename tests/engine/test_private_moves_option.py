"""Option `recap_private_moves`: whether a round that is over tells everyone what the maps showed and which
cards went face down. The printed rules never reveal either; the recap does by default, and a host may turn
that off."""
from __future__ import annotations

import engine
from tests.support.tables import card_in_hand


def test_by_default_a_round_recap_retells_map_results_and_face_down_discards(table):
    g = table(3)

    assert {"map_peek", "discarded", "hand_received"} <= engine.recap_kinds(g.options)
    assert engine.private_moves_open(g.options)


def test_with_the_option_off_map_results_and_face_down_cards_are_never_retold(table):
    g = table(3, options={"recap_private_moves": False})
    peek = {"type": "map_peek", "audience": [0], "seat": 0, "x": 8, "y": 0, "gold": True}
    swap = {"type": "tool_broken", "audience": "public", "seat": 0, "target": 1, "card": 50, "tool": "pick"}

    kinds = engine.recap_kinds(g.options)

    assert not kinds & {"map_peek", "discarded", "hand_received", "hand_dealt", "drew_cards"}
    assert "tool_broken" in kinds
    assert not engine.tellable(peek, g.options) and engine.tellable(swap, g.options)


def test_with_the_option_off_the_open_view_shows_no_hand_and_no_goal_nobody_turned_over(table):
    g = table(3, options={"recap_private_moves": False}, hands={0: ["map"]}, gold=(8, 2))
    g, _ = engine.apply_move(g, 0, {"type": "play", "card": card_in_hand(g, 0, "map"), "x": 8, "y": 2})

    opened = engine.open_view(g)

    assert all(seat["hand"] is None and seat["role"] for seat in opened["seats"])
    assert all(goal["gold"] is None for goal in opened["goals"])


def test_a_game_stored_before_the_option_existed_keeps_retelling_everything(table):
    g = table(3)
    del g.options["recap_private_moves"]

    assert engine.recap_kinds(g.options) == engine.RECAP_KINDS
    assert all(seat["hand"] is not None for seat in engine.open_view(g)["seats"])
