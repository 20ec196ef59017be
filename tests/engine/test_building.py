"""Building tunnels: where a path card may go and what it connects."""
from __future__ import annotations

import pytest

import engine
from tests.support.refusals import refused, told
from tests.support.tables import TO_THE_GOALS, build


def test_a_path_card_next_to_the_start_with_matching_tunnel_is_legal(table, hand_card):
    g = table(hands={0: ["straight_ew"]})
    card = hand_card(g, 0, "straight_ew")

    g2, events = engine.apply_move(g, 0, build(card, 1, 0))

    assert g2.board[(1, 0)] == (card, False)
    assert events[0]["type"] == "path_placed" and events[0]["audience"] == "public"
    assert build(card, 1, 0) in engine.legal_moves(g, 0)


def test_a_path_card_must_touch_a_card_on_the_table(table, hand_card):
    g = table(hands={0: ["cross"]})
    card = hand_card(g, 0, "cross")

    with refused("next to a card"):
        engine.apply_move(g, 0, build(card, 3, 3))


def test_every_touching_edge_must_match_wall_to_wall_and_tunnel_to_tunnel(table, hand_card):
    g = table(hands={0: ["straight_ns"]})
    card = hand_card(g, 0, "straight_ns")

    with pytest.raises(engine.IllegalMove) as err:
        engine.apply_move(g, 0, build(card, 1, 0))

    assert told(err.value) == ("That card does not fit: its left side is a wall "
                              "but the card to its left has a tunnel there")
    assert build(card, 1, 0) not in engine.legal_moves(g, 0)


def test_a_tunnel_may_not_open_onto_a_wall(table, hand_card):
    g = table(board={(1, 0): "curve_nw"}, hands={0: ["straight_ew"]})  # the curve has a wall on its right
    card = hand_card(g, 0, "straight_ew")

    with refused("its left side is a tunnel but the card to its left has a wall"):
        engine.apply_move(g, 0, build(card, 2, 0))


def test_every_neighbour_must_match_not_just_one(table, hand_card):
    # (1, 1) touches the start? no; it touches (1, 0) below and (0, 1) to its left
    g = table(board={(1, 0): "cross", (0, 1): "straight_ns"}, hands={0: ["curve_ne~"[:-1]]})
    card = hand_card(g, 0, "curve_ne")

    # upright curve N-E at (1, 1): bottom is a wall but (1, 0) has a tunnel up
    with refused("bottom side is a wall"):
        engine.apply_move(g, 0, build(card, 1, 1))
    # turned, it is S-W: bottom joins (1, 0), but left opens onto the straight's wall
    with refused("left side is a tunnel"):
        engine.apply_move(g, 0, build(card, 1, 1, rotated=True))


def test_a_new_card_must_join_a_tunnel_that_leads_back_to_the_start(table, hand_card):
    # a dead end at (1, 0) touches the start but carries no tunnel on to (2, 0)
    g = table(board={(1, 0): "dead_straight_ew"}, hands={0: ["straight_ew"]})
    card = hand_card(g, 0, "straight_ew")

    with refused("leads back to the start"):
        engine.apply_move(g, 0, build(card, 2, 0))


def test_a_dead_end_stub_counts_as_an_opening_when_matching(table, hand_card):
    g = table(board={(1, 0): "dead_straight_ew"}, hands={0: ["dead_e"]})
    card = hand_card(g, 0, "dead_e")

    # the single dead end opens only to the east: it must not sit left of a stub facing it
    # at (1, 1) it has a wall below and the stub card below has a wall on top: fits, but joins nothing
    with refused("leads back to the start"):
        engine.apply_move(g, 0, build(card, 1, 1))
    # turned (opening west) at (2, 0) it meets the stub of (1, 0): a match, but a stub leads nowhere
    with refused("leads back to the start"):
        engine.apply_move(g, 0, build(card, 2, 0, rotated=True))


def test_a_dead_end_may_be_placed_against_a_live_tunnel(table, hand_card):
    g = table(hands={0: ["dead_cross"]})
    card = hand_card(g, 0, "dead_cross")

    g2, _ = engine.apply_move(g, 0, build(card, 1, 0))

    assert (1, 0) in g2.board
    assert not any(m["type"] == "play" and (m.get("x"), m.get("y")) == (2, 0)
                   for m in engine.legal_moves(g2, 1) if "rotated" in m)


def test_a_card_may_be_turned_180_degrees(table, hand_card):
    g = table(hands={0: ["curve_ne"]})
    card = hand_card(g, 0, "curve_ne")

    # turned, the N-E curve becomes S-W: at (1, 0) its west side joins the start
    g2, _ = engine.apply_move(g, 0, build(card, 1, 0, rotated=True))

    assert g2.board[(1, 0)] == (card, True)
    with pytest.raises(engine.IllegalMove):
        engine.apply_move(g, 0, build(card, 1, 0, rotated=False))


def test_cards_that_look_the_same_turned_around_are_never_turned(table, hand_card):
    g = table(hands={0: ["cross", "straight_ew"]})
    cross = hand_card(g, 0, "cross")

    with refused("same either way round"):
        engine.apply_move(g, 0, build(cross, 1, 0, rotated=True))
    assert not any(m.get("rotated") for m in engine.legal_moves(g, 0) if m.get("card") == cross)


def test_a_cell_that_holds_a_card_or_a_goal_cannot_be_built_on(table, hand_card):
    g = table(board={(1, 0): "straight_ew"}, hands={0: ["cross"]})
    card = hand_card(g, 0, "cross")

    with refused("already a card"):
        engine.apply_move(g, 0, build(card, 1, 0))
    with refused("already a card"):
        engine.apply_move(g, 0, build(card, 8, 0))


def test_a_face_down_goal_imposes_no_constraint_on_its_neighbours(table, hand_card):
    g = table(board=TO_THE_GOALS, hands={0: ["tee_nse", "straight_ew"]}, gold=(8, 2))
    tee = hand_card(g, 0, "tee_nse")
    straight = hand_card(g, 0, "straight_ew")

    # turned, the tee opens N, S and W: a wall faces the middle goal; the straight opens onto it
    wall_side, _ = engine.apply_move(g, 0, build(tee, 7, 0, rotated=True))
    open_side, _ = engine.apply_move(g, 0, build(straight, 7, 0))

    assert (7, 0) in wall_side.board and (8, 0) in wall_side.hidden_goals
    assert (7, 0) in open_side.board


def test_legal_moves_lists_every_fitting_connected_placement(table, hand_card):
    g = table(hands={0: ["cross", "curve_ne", "straight_ns", "map", "rockfall", "break_pick"]})
    cross = hand_card(g, 0, "cross")
    curve = hand_card(g, 0, "curve_ne")
    straight = hand_card(g, 0, "straight_ns")

    builds = {(m["card"], m["x"], m["y"], m["rotated"]) for m in engine.legal_moves(g, 0) if "rotated" in m}

    assert builds == {
        (cross, 1, 0, False), (cross, -1, 0, False), (cross, 0, 1, False), (cross, 0, -1, False),
        (curve, -1, 0, False), (curve, 0, -1, False),   # N-E: joins east (start at right) or north
        (curve, 1, 0, True), (curve, 0, 1, True),       # S-W: joins west or south
        (straight, 0, 1, False), (straight, 0, -1, False),
    }


def test_a_seat_with_a_broken_tool_cannot_build(table, hand_card):
    g = table(hands={0: ["cross"]}, broken={0: ["lantern"]})
    card = hand_card(g, 0, "cross")

    with refused("broken tool"):
        engine.apply_move(g, 0, build(card, 1, 0))
    assert all("rotated" not in m for m in engine.legal_moves(g, 0))


def test_the_last_card_placed_is_remembered_for_highlighting(table, hand_card):
    g = table(hands={0: ["cross"]})

    g2, _ = engine.apply_move(g, 0, build(hand_card(g, 0, "cross"), 0, 1))

    assert engine.view(g2, None)["last_placed"] == [0, 1]
