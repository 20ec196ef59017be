"""The sealed deal: the record of a round's secret deal, the exact bytes its commitment covers, and what a
finished game shows everyone (the open view, events told in the third person)."""
from __future__ import annotations

import hashlib
import json
import random

import pytest

import engine
from engine.variants import variant_of
from tests.engine.tables import SEATS, arrange, card_in_hand

SALT = "00112233445566778899aabbccddeeff00112233445566778899aabbccddeeff"


def documented_bytes(g: engine.Game, salt: str) -> bytes:
    """docs/fairness.md, followed by hand from the snapshot: the fields, sorted keys, no spaces, UTF-8."""
    snapshot = g.to_dict()
    goals = {(x, y): card for x, y, card in snapshot["hidden_goals"]}
    document = {
        "format": "saboteur-deal-1",
        "round": snapshot["round"],
        "variant": snapshot["variant"],
        "players": snapshot["players"],
        "first": snapshot["turn"],
        "roles": snapshot["roles"],
        "spare_roles": snapshot["spare_roles"],
        "goals": [{"x": 8, "y": y, "card": goals[(8, y)], "gold": goals[(8, y)] == 1} for y in (2, 0, -2)],
        "hands": snapshot["hands"],
        "draw_pile": snapshot["draw_pile"],
        "set_aside": snapshot["removed"],
        "salt": salt,
    }
    return json.dumps(document, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode("utf-8")


@pytest.mark.parametrize("variant", ["base", "saboteur2"])
def test_the_commitment_is_sha256_of_the_documented_bytes(variant: str) -> None:
    g = engine.new_game(["Ann", "Bø", "Cy", "Di", "Ed"], seed=2026, variant=variant)

    record = engine.deal_record(g)

    assert engine.sealed_bytes(record, SALT) == documented_bytes(g, SALT)
    assert engine.commitment(record, SALT) == hashlib.sha256(documented_bytes(g, SALT)).hexdigest()


def test_a_known_seed_and_salt_give_a_known_commitment() -> None:
    """Pinned: the encoding may never drift, or every published fingerprint would stop matching."""
    g = engine.new_game(["Ann", "Ben", "Cat"], seed=7)

    sealed = engine.sealed_bytes(engine.deal_record(g), "00" * 32)

    assert sealed.startswith(b'{"draw_pile":[33,28,67,49,57,46,66,61,48,16,9,4,26,17,18,13,27,70,58,36,42,52,21,5,')
    assert sealed.endswith(
        b'"hands":[[44,56,29,12,68,53],[51,10,35,39,30,69],[65,31,50,40,14,32]],"players":["Ann","Ben","Cat"],'
        b'"roles":["saboteur","digger","digger"],"round":1,"salt":"' + b"00" * 32 + b'","set_aside":[],'
        b'"spare_roles":["digger"],"variant":"base"}'
    )
    assert hashlib.sha256(sealed).hexdigest() == "39508c1a3d2fcf3991d662cbeea2ee0a20c968d299d78d82794f658929bd9cd2"


def test_names_beyond_ascii_are_written_as_themselves_in_utf8() -> None:
    g = engine.new_game(["Zoë", "Åsa", "李"], seed=1)

    sealed = engine.sealed_bytes(engine.deal_record(g), SALT)

    assert '"players":["Zoë","Åsa","李"]'.encode() in sealed
    assert b"\\u" not in sealed and b" " not in sealed and not sealed.endswith(b"\n")


def swapped_card(g: engine.Game) -> engine.Game:
    """One card of seat 0's hand traded with the top of the draw pile."""
    changed = g.clone()
    changed.hands[0][0], changed.draw_pile[-1] = changed.draw_pile[-1], changed.hands[0][0]
    return changed


def swapped_roles(g: engine.Game) -> engine.Game:
    changed = g.clone()
    saboteur = changed.roles.index("saboteur")
    other = next(seat for seat, role in enumerate(changed.roles) if role != "saboteur")
    changed.roles[saboteur], changed.roles[other] = changed.roles[other], changed.roles[saboteur]
    return changed


def moved_gold(g: engine.Game) -> engine.Game:
    changed = g.clone()
    cells = sorted(changed.hidden_goals)
    changed.hidden_goals[cells[0]], changed.hidden_goals[cells[1]] = (
        changed.hidden_goals[cells[1]], changed.hidden_goals[cells[0]])
    if changed.hidden_goals == g.hidden_goals:
        changed.hidden_goals[cells[0]], changed.hidden_goals[cells[2]] = (
            changed.hidden_goals[cells[2]], changed.hidden_goals[cells[0]])
    return changed


def reordered_pile(g: engine.Game) -> engine.Game:
    changed = g.clone()
    changed.draw_pile[0], changed.draw_pile[1] = changed.draw_pile[1], changed.draw_pile[0]
    return changed


@pytest.mark.parametrize("variant", ["base", "saboteur2"])
@pytest.mark.parametrize("tamper", [swapped_card, swapped_roles, moved_gold, reordered_pile])
def test_a_changed_deal_no_longer_matches_its_commitment(variant: str, tamper) -> None:
    g = engine.new_game(SEATS[:5], seed=11, variant=variant)
    published = engine.commitment(engine.deal_record(g), SALT)

    changed = engine.deal_record(tamper(g))

    assert changed != engine.deal_record(g)
    assert engine.commitment(changed, SALT) != published


def test_another_salt_gives_another_commitment_for_the_same_deal() -> None:
    record = engine.deal_record(engine.new_game(["Ann", "Ben", "Cat"], seed=3))

    assert engine.commitment(record, "a" * 64) != engine.commitment(record, "b" * 64)


def test_saboteur2_records_the_cards_set_aside_and_the_leftover_dwarf_cards() -> None:
    g = engine.new_game(SEATS[:4], seed=5, variant="saboteur2")

    record = engine.deal_record(g)

    assert record["set_aside"] == g.removed and len(record["set_aside"]) == 10
    assert len(record["roles"]) + len(record["spare_roles"]) == 15
    every_card = sum(record["hands"], []) + record["draw_pile"] + record["set_aside"]
    assert sorted(every_card) == sorted(variant_of(g).playable_ids)


def test_a_record_is_taken_right_after_a_deal_of_later_rounds_too() -> None:
    g = engine.new_game(["Ann", "Ben", "Cat"], seed=4)
    rng = random.Random(4)
    while g.round == 1:
        seat = engine.to_act(g)
        g, events = engine.apply_move(g, seat, engine.bots.choose(g, seat, rng))
    record = engine.deal_record(g)

    assert record["round"] == 2 and record["first"] == g.turn
    assert any(event["type"] == "round_started" and event["round"] == 2 for event in events)


def test_no_record_while_gold_is_being_picked() -> None:
    g = arrange(3, board={(1, 0): "tee_ews", (2, 0): "tee_ews", (3, 0): "tee_ews", (4, 0): "cross", (5, 0): "cross",
                          (6, 0): "cross"}, hands={0: ["straight_ew"]}, gold=(8, 0), roles=["digger"] * 3)
    g, _ = engine.apply_move(g, 0, {"type": "play", "card": card_in_hand(g, 0, "straight_ew"), "x": 7, "y": 0,
                                    "rotated": False})
    assert g.phase == "gold"

    with pytest.raises(ValueError):
        engine.deal_record(g)


def test_the_deal_in_words_names_roles_cards_and_the_next_card_first() -> None:
    g = engine.new_game(["Ann", "Ben", "Cat"], seed=7)
    record = engine.deal_record(g)
    labels = variant_of(g).cards

    words = engine.readable_deal(record)

    assert words["seats"][0] == {"name": "Ann", "role": "saboteur", "hand": [labels[c].label for c in g.hands[0]]}
    assert words["draw_pile"][0] == labels[g.draw_pile[-1]].label
    assert [goal["place"] for goal in words["goals"]] == ["top", "middle", "bottom"]
    assert sum(goal["gold"] for goal in words["goals"]) == 1


def test_the_open_view_shows_every_hand_role_and_goal() -> None:
    g = engine.new_game(["Ann", "Ben", "Cat"], seed=7)

    shown = engine.open_view(g)

    assert [row["role"] for row in shown["seats"]] == g.roles
    assert [[card["id"] for card in row["hand"]] for row in shown["seats"]] == g.hands
    gold = variant_of(g).cards
    assert [goal["gold"] for goal in shown["goals"]] == [gold[g.hidden_goals[(8, y)]].gold for y in (2, 0, -2)]
    assert "you" not in shown and shown["spare_roles"] == g.spare_roles


@pytest.mark.parametrize(("event", "line"), [
    ({"type": "map_peek", "audience": [0], "seat": 0, "x": 8, "y": -2, "gold": True},
     "Ann looked at the bottom goal with a map: the gold."),
    ({"type": "discarded", "audience": [1], "seat": 1, "cards": [50], "names": ["map", "dead_n"]},
     "Ben discarded map, dead end face down."),
    ({"type": "role_seen", "audience": [2], "seat": 2, "target": 0, "role": "saboteur"},
     "Cat inspected Ann's dwarf card: saboteur."),
    ({"type": "role_changed", "audience": [1], "seat": 1, "role": "boss"},
     "Ben took a leftover dwarf card: Boss."),
    ({"type": "drew_cards", "audience": [0], "seat": 0, "cards": [4], "names": ["cross"]}, "Ann drew crossing."),
    ({"type": "tool_broken", "audience": "public", "seat": 2, "target": 1, "card": 50, "tool": "pick"},
     "Cat broke Ben's pick."),
])
def test_private_events_are_told_in_the_third_person(event: dict, line: str) -> None:
    assert engine.describe_openly(event, ["Ann", "Ben", "Cat"]) == line
