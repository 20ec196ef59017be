"""Saboteur 2 action cards and turn options: Theft, Hands Off, Swap Your Hand, Inspection,
Swap Your Hats, Trapped!, Free at last!, discarding two to clear, passing with one to three cards."""
from __future__ import annotations

import json

import pytest

import engine
from engine.piles import card_in_front
from pbem.words.events import describe_openly
from tests.support.refusals import refused
from tests.support.tables import build


def play(card: int, **fields) -> dict:
    return {"type": "play", "card": card, **fields}


def s2_table(table, players=4, **kw):
    return table(players, variant="saboteur2", **kw)


def moves_with(g, seat, card) -> list[dict]:
    return [m for m in engine.legal_moves(g, seat) if m.get("card") == card]


def for_seat(events, seat) -> list[dict]:
    return [e for e in events if e["audience"] == "public" or seat in e["audience"]]


# ---------------------------------------------------------------- Theft and Hands Off


def test_theft_is_played_face_up_in_front_of_yourself(table, hand_card):
    g = s2_table(table, hands={0: ["theft"]})
    theft = hand_card(g, 0, "theft")

    g2, events = engine.apply_move(g, 0, play(theft))

    assert g2.front[0] == [theft] and g2.theft_order == [0]
    assert events[0] == {"type": "theft_played", "audience": "public", "seat": 0, "card": theft}
    assert moves_with(g, 0, theft) == [play(theft)]
    assert engine.view(g2, None)["seats"][0]["theft"] is True


def test_no_player_may_have_two_action_cards_of_the_same_type_in_front_of_them(table, hand_card):
    g = s2_table(table, hands={0: ["theft", "trapped"]}, front={0: ["theft"], 2: ["trapped"]})
    theft = hand_card(g, 0, "theft")
    trapped = hand_card(g, 0, "trapped")

    with refused("already have a Theft"):
        engine.apply_move(g, 0, play(theft))
    with refused("Cy is already trapped"):
        engine.apply_move(g, 0, play(trapped, target=2))
    assert moves_with(g, 0, theft) == []
    assert {m["target"] for m in moves_with(g, 0, trapped)} == {1, 3}


def test_hands_off_removes_a_theft_from_in_front_of_any_player(table, hand_card):
    g = s2_table(table, hands={0: ["hands_off"]}, front={2: ["theft"]})
    card = hand_card(g, 0, "hands_off")
    theft = g.front[2][0]

    g2, events = engine.apply_move(g, 0, play(card, target=2))

    assert g2.front[2] == [] and {card, theft} <= set(g2.discard) and g2.theft_order == []
    assert events[0]["type"] == "theft_removed" and events[0]["target"] == 2
    assert [m["target"] for m in moves_with(g, 0, card)] == [2]
    with refused("Bo has no Theft"):
        engine.apply_move(g, 0, play(card, target=1))


# ---------------------------------------------------------------- Swap Your Hand


def test_swap_your_hand_exchanges_hands_and_only_the_other_player_draws(table, hand_card):
    g = s2_table(table, hands={0: ["swap_hand", "cross", "map"], 2: ["bridge", "theft", "rockfall", "ladder_n"]},
                 draw=["free"])
    card = hand_card(g, 0, "swap_hand")
    mine_left = [c for c in g.hands[0] if c != card]
    theirs = list(g.hands[2])

    g2, events = engine.apply_move(g, 0, play(card, target=2))

    assert g2.hands[0] == theirs
    assert g2.hands[2][:2] == mine_left and len(g2.hands[2]) == 3 and g2.draw_pile == []
    assert card in g2.discard
    assert [m["target"] for m in moves_with(g, 0, card)] == [1, 2, 3]
    with refused("another player"):
        engine.apply_move(g, 0, play(card, target=0))


def test_a_swapped_hand_is_shown_only_to_its_new_owner(table, hand_card):
    g = s2_table(table, hands={0: ["swap_hand"]})
    card = hand_card(g, 0, "swap_hand")
    given = [c for c in g.hands[0] if c != card]

    g2, events = engine.apply_move(g, 0, play(card, target=1))

    received = {e["audience"][0]: e["cards"] for e in events if e["type"] == "hand_received"}
    assert received == {0: g.hands[1], 1: given}
    assert not any("cards" in e for e in for_seat(events, 2))
    assert [c["id"] for c in engine.view(g2, 0)["you"]["hand"]] == g.hands[1]


# ---------------------------------------------------------------- Inspection and Swap Your Hats


def test_inspection_shows_another_players_dwarf_card_to_you_alone(table, hand_card):
    g = s2_table(table, hands={0: ["inspection"]}, roles=["blue_digger", "saboteur", "boss", "geologist"])
    card = hand_card(g, 0, "inspection")

    g2, events = engine.apply_move(g, 0, play(card, target=1))

    seen = [e for e in events if e["type"] == "role_seen"]
    assert seen == [{"type": "role_seen", "audience": [0], "seat": 0, "target": 1, "role": "saboteur"}]
    assert engine.view(g2, 0)["you"]["inspections"] == [{"seat": 1, "role": "saboteur"}]
    assert all(engine.view(g2, s)["you"]["inspections"] == [] for s in (1, 2, 3))
    assert [e["type"] for e in for_seat(events, 1) if "role" in e] == []
    with refused("another player"):
        engine.apply_move(g, 0, play(card, target=0))


def test_an_inspection_remembers_the_card_seen_even_after_that_player_swaps_hats(table, hand_card):
    g = s2_table(table, hands={0: ["inspection"], 1: ["swap_hats"]},
                 roles=["blue_digger", "saboteur", "boss", "geologist"])
    g2, _ = engine.apply_move(g, 0, play(hand_card(g, 0, "inspection"), target=1))

    g3, _ = engine.apply_move(g2, 1, play(hand_card(g2, 1, "swap_hats"), target=1))

    assert engine.view(g3, 0)["you"]["inspections"] == [{"seat": 1, "role": "saboteur"}]


@pytest.mark.parametrize("target", [0, 2])
def test_swap_your_hats_gives_the_chosen_player_a_leftover_dwarf_card_only_they_learn(table, hand_card, target):
    g = s2_table(table, hands={0: ["swap_hats"]}, roles=["blue_digger", "saboteur", "boss", "geologist"])
    card = hand_card(g, 0, "swap_hats")
    leftover_before = list(g.spare_roles)

    g2, events = engine.apply_move(g, 0, play(card, target=target))

    assert g2.roles[target] == leftover_before[-1] and g2.discarded_roles == [g.roles[target]]
    assert g2.spare_roles == leftover_before[:-1]
    changed = [e for e in events if e["type"] == "role_changed"]
    assert changed == [{"type": "role_changed", "audience": [target], "seat": target, "role": g2.roles[target]}]
    assert engine.view(g2, target)["you"]["role"] == g2.roles[target]
    public = [e for e in events if e["audience"] == "public"]
    assert public[0] == {"type": "hats_swapped", "audience": "public", "seat": 0, "target": target, "card": card}
    assert all("role" not in e for e in public)
    assert [m["target"] for m in moves_with(g, 0, card)] == [0, 1, 2, 3]


def swap_then_end_round(table, hand_card):
    """Ann makes Cy swap hats, then the round ends with everyone's cards played out; every event returned."""
    g = s2_table(table, hands={0: ["swap_hats"]}, roles=["blue_digger", "saboteur", "boss", "geologist"], draw=0)
    g.spare_roles = ["green_digger", "profiteer"]  # Cy gives up the Boss and takes the Profiteer
    events: list[dict] = []
    g, more = engine.apply_move(g, 0, play(hand_card(g, 0, "swap_hats"), target=2))
    events += more
    while g.round == 1 and g.phase == "play":
        seat = engine.to_act(g)
        g, more = engine.apply_move(g, seat, {"type": "pass", "cards": [g.hands[seat][0]]})
        events += more
    return g, events


def test_the_dwarf_card_given_up_to_swap_your_hats_is_not_shown_when_the_round_ends(table, hand_card):
    """Rulebook, Swap Your Hats: the old dwarf card is discarded "without showing it to anyone"."""
    g, events = swap_then_end_round(table, hand_card)

    ended = next(e for e in events if e["type"] == "round_ended")
    assert ended["roles"][2] == "profiteer" and ended["hats_swapped"] == 1
    assert ended["spare_roles"] == []  # with the roles at the end they would name the given-up card
    assert "boss" not in json.dumps([e for e in events if e["audience"] == "public"])
    assert "boss" not in json.dumps(engine.view(g, None)["results"])
    assert "boss" not in json.dumps(engine.view(g, 2)["results"])


def test_a_round_recorded_with_its_given_up_dwarf_cards_shows_only_how_many(table):
    g = s2_table(table)
    g.results = [{"round": 1, "roles": ["saboteur"] * 4, "discarded_roles": ["boss"]}]

    assert engine.view(g, None)["results"] == [{"round": 1, "roles": ["saboteur"] * 4, "hats_swapped": 1}]
    g.results = [{"round": 1, "roles": ["saboteur"] * 4, "spare_roles": ["boss"], "discarded_roles": ["geologist"]}]
    assert engine.view(g, None)["results"][0]["spare_roles"] == []


def test_the_open_view_does_not_name_a_given_up_dwarf_card(table, hand_card):
    g = s2_table(table, hands={0: ["swap_hats"]}, roles=["blue_digger", "saboteur", "boss", "geologist"])
    g, _ = engine.apply_move(g, 0, play(hand_card(g, 0, "swap_hats"), target=2))

    opened = engine.open_view(g)

    assert "discarded_roles" not in opened and opened["hats_swapped"] == len(g.discarded_roles) == 1
    assert opened["spare_roles"] == []


def test_every_line_told_openly_before_a_swap_keeps_the_given_up_card_secret(table, hand_card):
    """The seat that swaps hats is dealt a card nobody else may learn: the deal, an inspection of it and the
    leftover card taken (when that one is given up in turn) are told without naming it."""
    names = ["Ann", "Bo", "Cy", "Di"]
    events = [
        {"type": "role_dealt", "audience": [2], "seat": 2, "role": "boss"},
        {"type": "role_seen", "audience": [1], "seat": 1, "target": 2, "role": "boss"},
        {"type": "hats_swapped", "audience": "public", "seat": 0, "target": 2, "card": 90},
        {"type": "role_changed", "audience": [2], "seat": 2, "role": "geologist"},
        {"type": "hats_swapped", "audience": "public", "seat": 0, "target": 2, "card": 91},
        {"type": "role_changed", "audience": [2], "seat": 2, "role": "profiteer"},
        {"type": "role_seen", "audience": [1], "seat": 1, "target": 2, "role": "profiteer"},
    ]

    secret = engine.roles_given_up(events)
    lines = [describe_openly(e, names, s) for e, s in zip(events, secret, strict=True)]

    assert secret[0] == secret[1] == secret[3] == frozenset({2}) and secret[5] == secret[6] == frozenset()
    told = " ".join(lines)
    assert "Boss" not in told and "Geologist" not in told
    assert lines[-2:] == ["Cy took a leftover dwarf card: Profiteer.", "Bo inspected Cy's dwarf card: Profiteer."]


def test_swap_your_hats_cannot_be_played_when_no_dwarf_card_is_left(table, hand_card):
    g = s2_table(table, hands={0: ["swap_hats"]})
    g.discarded_roles, g.spare_roles = g.spare_roles, []
    card = hand_card(g, 0, "swap_hats")

    with refused("No dwarf cards are left"):
        engine.apply_move(g, 0, play(card, target=1))
    assert moves_with(g, 0, card) == []


# ---------------------------------------------------------------- Trapped! and Free at last!


def test_a_trapped_player_cannot_play_path_cards(table, hand_card):
    g = s2_table(table, hands={0: ["trapped"], 1: ["cross", "map"]})
    trapped = hand_card(g, 0, "trapped")

    g2, events = engine.apply_move(g, 0, play(trapped, target=1))

    cross = hand_card(g2, 1, "cross")
    assert g2.front[1] == [trapped] and events[0]["type"] == "trapped"
    with refused("trapped"):
        engine.apply_move(g2, 1, build(cross, 1, 0))
    assert moves_with(g2, 1, cross) == [] and moves_with(g2, 1, hand_card(g2, 1, "map"))
    assert engine.view(g2, None)["seats"][1]["trapped"] is True


def test_trapped_is_played_on_another_player_only(table, hand_card):
    g = s2_table(table, hands={0: ["trapped"]})

    with refused("another player"):
        engine.apply_move(g, 0, play(hand_card(g, 0, "trapped"), target=0))


def test_free_at_last_removes_a_trapped_from_any_player(table, hand_card):
    g = s2_table(table, hands={0: ["free", "free"]}, front={0: ["trapped"], 3: ["trapped"]})
    free = hand_card(g, 0, "free")

    on_self, _ = engine.apply_move(g, 0, play(free, target=0))
    on_other, events = engine.apply_move(g, 0, play(free, target=3))

    assert card_in_front(on_self, 0, "trapped") is None and card_in_front(on_other, 3, "trapped") is None
    assert events[0]["type"] == "freed"
    assert [m["target"] for m in moves_with(g, 0, free)] == [0, 3]
    with refused("Bo is not trapped"):
        engine.apply_move(g, 0, play(free, target=1))


# ---------------------------------------------------------------- turn options


def test_discarding_two_cards_removes_a_card_in_front_of_you_and_draws_only_one(table, hand_card):
    g = s2_table(table, hands={0: ["cross", "map", "bridge"]}, broken={0: ["pick"]}, front={0: ["trapped"]})
    two = sorted([hand_card(g, 0, "cross"), hand_card(g, 0, "map")])
    trapped = card_in_front(g, 0, "trapped")

    g2, events = engine.apply_move(g, 0, {"type": "clear", "cards": two, "remove": trapped})

    assert g2.front[0] == [g.front[0][0]] and {trapped, *two} <= set(g2.discard)
    assert len(g2.hands[0]) == len(g.hands[0]) - 1
    cleared = events[0]
    assert cleared == {"type": "cleared", "audience": "public", "seat": 0, "count": 2, "removed": trapped,
                       "name": "trapped"}
    assert {"type": "discarded", "audience": [0], "seat": 0, "cards": two, "names": ["cross", "map"]} in events
    clears = [m for m in engine.legal_moves(g, 0) if m["type"] == "clear"]
    assert len(clears) == 3 * 2 and {"type": "clear", "cards": two, "remove": trapped} in clears


@pytest.mark.parametrize("move, message", [
    ({"type": "clear", "cards": [], "remove": 0}, "must list"),
    ("one card", "exactly 2 cards"),
    ("three cards", "exactly 2 cards"),
    ("not in front", "not lying in front of you"),
    ("unsorted", "increasing order"),
])
def test_clearing_needs_exactly_two_cards_from_your_hand_and_a_card_in_front_of_you(table, move, message):
    g = s2_table(table, front={0: ["theft"]})
    hand = sorted(g.hands[0])
    theft = g.front[0][0]
    moves = {
        "one card": {"type": "clear", "cards": hand[:1], "remove": theft},
        "three cards": {"type": "clear", "cards": hand[:3], "remove": theft},
        "not in front": {"type": "clear", "cards": hand[:2], "remove": hand[2]},
        "unsorted": {"type": "clear", "cards": hand[:2][::-1], "remove": theft},
    }

    with refused(message):
        engine.apply_move(g, 0, moves.get(move, move) if isinstance(move, str) else move)


def test_clearing_your_own_theft_takes_you_out_of_the_stealing_order(table):
    g = s2_table(table, front={0: ["theft"], 1: ["theft"]})
    hand = sorted(g.hands[0])

    g2, _ = engine.apply_move(g, 0, {"type": "clear", "cards": hand[:2], "remove": g.front[0][0]})

    assert g2.theft_order == [1]


def test_with_nothing_in_front_of_you_there_is_nothing_to_clear(table):
    g = s2_table(table)

    assert not [m for m in engine.legal_moves(g, 0) if m["type"] == "clear"]


@pytest.mark.parametrize("count", [1, 2, 3])
def test_passing_discards_one_to_three_cards_and_draws_as_many(table, count):
    g = s2_table(table)
    cards = sorted(g.hands[0])[:count]

    g2, events = engine.apply_move(g, 0, {"type": "pass", "cards": cards})

    assert len(g2.hands[0]) == 6 and set(cards) <= set(g2.discard)
    assert events[0] == {"type": "passed", "audience": "public", "seat": 0, "count": count}
    assert next(e for e in events if e["type"] == "drew")["count"] == count


def test_passing_four_cards_is_refused_and_every_pass_of_one_to_three_is_listed(table):
    g = s2_table(table)

    with refused("at most 3"):
        engine.apply_move(g, 0, {"type": "pass", "cards": sorted(g.hands[0])[:4]})
    assert len([m for m in engine.legal_moves(g, 0) if m["type"] == "pass"]) == 6 + 15 + 20


def test_the_base_game_has_no_clear_move(table):
    g = table(4, broken={0: ["pick"]})

    with refused("Unknown move type 'clear'"):
        engine.apply_move(g, 0, {"type": "clear", "cards": sorted(g.hands[0])[:2], "remove": g.front[0][0]})
