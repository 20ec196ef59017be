"""The sealed deal: the record of a round's secret deal, its parts each sealed with its own salt, the opening that
shows what the rules let anyone see and only the digest of the rest, seals of the first format (one piece) still
read as published, and what a finished game shows everyone (the open view, events told in the third person)."""
from __future__ import annotations

import hashlib
import hmac
import json
import random
import subprocess
from pathlib import Path

import pytest

import engine
from engine.variants import variant_of
from pbem.words.deals import readable_deal
from pbem.words.events import describe_openly
from tests.support.tables import SEATS, arrange, card_in_hand

SALT = "00112233445566778899aabbccddeeff00112233445566778899aabbccddeeff"


def whole_record(g: engine.Game) -> dict:
    """A deal as seals of the first format recorded it (one piece): they are stored and published, and stay readable."""
    return {**engine.deal_record(g), "format": "saboteur-deal-1"}


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

    record = whole_record(g)

    assert engine.sealed_bytes(record, SALT) == documented_bytes(g, SALT)
    assert engine.commitment(record, SALT) == hashlib.sha256(documented_bytes(g, SALT)).hexdigest()


def test_a_known_seed_and_salt_give_a_known_commitment() -> None:
    """Pinned: the encoding may never drift, or every published fingerprint would stop matching."""
    g = engine.new_game(["Ann", "Ben", "Cat"], seed=7)

    sealed = engine.sealed_bytes(whole_record(g), "00" * 32)

    assert engine.commitment(whole_record(g), "00" * 32) == hashlib.sha256(sealed).hexdigest()
    assert sealed.startswith(b'{"draw_pile":[33,28,67,49,57,46,66,61,48,16,9,4,26,17,18,13,27,70,58,36,42,52,21,5,')
    assert sealed.endswith(
        b'"hands":[[44,56,29,12,68,53],[51,10,35,39,30,69],[65,31,50,40,14,32]],"players":["Ann","Ben","Cat"],'
        b'"roles":["saboteur","digger","digger"],"round":1,"salt":"' + b"00" * 32 + b'","set_aside":[],'
        b'"spare_roles":["digger"],"variant":"base"}'
    )
    assert hashlib.sha256(sealed).hexdigest() == "39508c1a3d2fcf3991d662cbeea2ee0a20c968d299d78d82794f658929bd9cd2"


def test_names_beyond_ascii_are_written_as_themselves_in_utf8() -> None:
    g = engine.new_game(["Zoë", "Åsa", "李"], seed=1)

    sealed = engine.sealed_bytes(whole_record(g), SALT)
    text = engine.opening_text(engine.opening(engine.deal_record(g), SALT)).encode()

    assert '"players":["Zoë","Åsa","李"]'.encode() in sealed and '"players":["Zoë","Åsa","李"]'.encode() in text
    assert b"\\u" not in text and b" " not in text
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

    words = readable_deal(record)

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
     "Ann looked at the bottom goal with a Map: the gold."),
    ({"type": "discarded", "audience": [1], "seat": 1, "cards": [50], "names": ["map", "dead_n"]},
     "Ben discarded Map and Dead end face down."),
    ({"type": "role_seen", "audience": [2], "seat": 2, "target": 0, "role": "saboteur"},
     "Cat inspected Ann's dwarf card: saboteur."),
    ({"type": "role_changed", "audience": [1], "seat": 1, "role": "boss"},
     "Ben took a leftover dwarf card: Boss."),
    ({"type": "drew_cards", "audience": [0], "seat": 0, "cards": [4], "names": ["cross"]}, "Ann drew Crossing."),
    ({"type": "tool_broken", "audience": "public", "seat": 2, "target": 1, "card": 50, "tool": "pick"},
     "Cat broke Ben's pick."),
])
def test_private_events_are_told_in_the_third_person(event: dict, line: str) -> None:
    assert describe_openly(event, ["Ann", "Ben", "Cat"]) == line


# Seals in parts: each part with its own salt, the commitment over the digests, opened selectively.

def documented_parts(g: engine.Game, salt: str) -> list[bytes]:
    """docs/fairness.md, followed by hand: each part's bytes, in the documented order."""
    snapshot = g.to_dict()
    goals = {(x, y): card for x, y, card in snapshot["hidden_goals"]}
    n = len(snapshot["players"])
    table = {"round": snapshot["round"], "variant": snapshot["variant"], "players": snapshot["players"],
             "first": snapshot["turn"]}
    parts = [("table", table), *((f"role/{s}", snapshot["roles"][s]) for s in range(n)),
             ("spare_roles", snapshot["spare_roles"]),
             *((f"goal/{i}", {"x": 8, "y": y, "card": goals[(8, y)], "gold": goals[(8, y)] == 1})
               for i, y in enumerate((2, 0, -2))),
             *((f"hand/{s}", snapshot["hands"][s]) for s in range(n)),
             ("draw_pile", snapshot["draw_pile"]), ("set_aside", snapshot["removed"])]
    own = {name: hmac.new(bytes.fromhex(salt), name.encode(), hashlib.sha256).hexdigest() for name, _ in parts}
    return [json.dumps({"part": name, "salt": own[name], "value": value}, sort_keys=True, separators=(",", ":"),
                       ensure_ascii=False).encode("utf-8") for name, value in parts]


def digests_line_by_line(parts: list[bytes]) -> bytes:
    return "".join(hashlib.sha256(part).hexdigest() + "\n" for part in parts).encode()


def test_a_deal_is_sealed_in_parts_each_with_its_own_salt() -> None:
    g = engine.new_game(["Ann", "Bø", "Cy", "Di"], seed=2026, variant="saboteur2")
    record = engine.deal_record(g)

    fingerprint = engine.commitment(record, SALT)

    assert record["format"] == "saboteur-deal-2"
    assert fingerprint == hashlib.sha256(digests_line_by_line(documented_parts(g, SALT))).hexdigest()
    salts = [part["salt"] for part in engine.opening(record, SALT)["parts"]]
    assert len(set(salts)) == len(salts) == 1 + 4 + 1 + 3 + 4 + 2 and SALT not in salts


def test_a_known_seed_and_salt_give_a_known_commitment_in_parts() -> None:
    """Pinned: the encoding may never drift, or every published fingerprint would stop matching."""
    record = engine.deal_record(engine.new_game(["Ann", "Ben", "Cat"], seed=7))

    opened = engine.opening(record, "00" * 32)

    assert opened["parts"][0] == {
        "part": "table", "salt": hmac.new(bytes(32), b"table", hashlib.sha256).hexdigest(),
        "value": {"first": 0, "players": ["Ann", "Ben", "Cat"], "round": 1, "variant": "base"}}
    assert [part["part"] for part in opened["parts"]] == [
        "table", "role/0", "role/1", "role/2", "spare_roles", "goal/0", "goal/1", "goal/2", "hand/0", "hand/1",
        "hand/2", "draw_pile", "set_aside"]
    assert engine.commitment(record, "00" * 32) == "54a92588beac215163125723322e799924ebc8c924be1af4775427dd66378386"


def swap_game() -> tuple[engine.Game, dict, list[dict]]:
    """A Saboteur 2 round in which a seat gave its dwarf card up to Swap Your Hats: its deal and its events."""
    for seed in range(200):
        g = engine.new_game(SEATS[:5], seed=seed, variant="saboteur2")
        record, told, rng = engine.deal_record(g), [], random.Random(seed)
        while g.round == 1 and not engine.is_over(g):
            seat = engine.to_act(g)
            g, events = engine.apply_move(g, seat, engine.bots.choose(g, seat, rng))
            told += events
        if any(event["type"] == "role_changed" for event in told):
            return g, record, told
    raise AssertionError("no seed swapped a hat")


def test_the_card_given_up_to_swap_your_hats_and_the_leftovers_are_withheld_for_good() -> None:
    """Rulebook, Swap Your Hats: the old dwarf card is discarded "without showing it to anyone"."""
    _, record, told = swap_game()
    swapped = {event["seat"] for event in told if event["type"] == "role_changed"}

    withheld = engine.withheld_parts(record, told, {})

    assert withheld == {f"role/{seat}" for seat in swapped} | {"spare_roles"}


def test_without_a_swap_every_part_is_shown() -> None:
    g = engine.new_game(SEATS[:5], seed=3, variant="saboteur2")

    assert engine.withheld_parts(engine.deal_record(g), [], g.options) == frozenset()


def test_with_private_moves_kept_the_hands_pile_set_aside_and_unreached_goals_are_withheld() -> None:
    g = engine.new_game(SEATS[:3], seed=3, options={"recap_private_moves": False})
    reached = [{"type": "goal_revealed", "audience": "public", "x": 8, "y": 0, "gold": False}]

    withheld = engine.withheld_parts(engine.deal_record(g), reached, g.options)

    assert withheld == {"hand/0", "hand/1", "hand/2", "draw_pile", "set_aside", "goal/0", "goal/2"}


def test_an_opening_shows_the_parts_that_may_be_shown_and_only_digests_of_the_others() -> None:
    g, record, told = swap_game()
    withheld = engine.withheld_parts(record, told, g.options)
    fingerprint = engine.commitment(record, SALT)

    opened = engine.opening(record, SALT, withheld)
    text = engine.opening_text(opened)

    assert engine.opened_commitment(opened) == fingerprint
    assert json.loads(text) == opened
    hidden = [part for part in opened["parts"] if part["part"] in withheld]
    assert hidden and all(set(part) == {"part", "digest"} for part in hidden)
    assert all(engine.opening(record, SALT)["parts"][i]["salt"] not in text
               for i, part in enumerate(opened["parts"]) if part["part"] in withheld)
    shown = engine.shown_record(opened)
    assert shown["spare_roles"] is None and [shown["roles"][s] is None for s in range(5)] == [
        f"role/{s}" in withheld for s in range(5)]
    assert shown["hands"] == record["hands"] and shown["draw_pile"] == record["draw_pile"]


def test_a_withheld_dwarf_card_cannot_be_guessed_from_its_digest() -> None:
    """Only a handful of dwarf cards exist; without the part's secret salt, trying each one finds nothing."""
    g, record, told = swap_game()
    opened = engine.opening(record, SALT, engine.withheld_parts(record, told, g.options))
    seat = next(event["seat"] for event in told if event["type"] == "role_changed")
    digest = next(part["digest"] for part in opened["parts"] if part["part"] == f"role/{seat}")
    known_salts = [part["salt"] for part in opened["parts"] if "salt" in part]

    tries = {hashlib.sha256(json.dumps({"part": f"role/{seat}", "salt": salt, "value": role}, sort_keys=True,
                                       separators=(",", ":")).encode()).hexdigest()
             for role in set(record["roles"] + record["spare_roles"]) for salt in [*known_salts, "", SALT]}

    assert digest not in tries


def tampered(opened: dict, index: int, change) -> dict:
    parts = [dict(part) for part in opened["parts"]]
    parts[index] = change(parts[index])
    return {**opened, "parts": parts}


def other_value(part: dict) -> dict:
    value = part["value"]
    if isinstance(value, list):
        changed = list(reversed(value)) if len(set(map(str, value))) > 1 else [*value, 4]
    elif isinstance(value, dict):
        changed = {**value, **({"first": value["first"] + 1} if "first" in value else {"card": 0, "gold": True})}
    else:
        changed = "saboteur" if value != "saboteur" else "boss"
    return {**part, "value": changed}


@pytest.mark.parametrize("variant", ["base", "saboteur2"])
def test_tampering_with_any_part_of_an_opening_fails_the_check(variant: str) -> None:
    g = engine.new_game(SEATS[:5], seed=11, variant=variant)
    record = engine.deal_record(g)
    fingerprint = engine.commitment(record, SALT)
    opened = engine.opening(record, SALT, {"role/2", "spare_roles"})

    for index, part in enumerate(opened["parts"]):
        if "digest" in part:
            changed = tampered(opened, index, lambda p: {**p, "digest": hashlib.sha256(b"other").hexdigest()})
        elif part["value"] == []:
            changed = tampered(opened, index, lambda p: {**p, "value": [4]})
        else:
            changed = tampered(opened, index, other_value)
        assert engine.opened_commitment(changed) != fingerprint, part["part"]
    moved = {**opened, "parts": [opened["parts"][1], opened["parts"][0], *opened["parts"][2:]]}
    assert engine.opened_commitment(moved) != fingerprint
    shown_instead = tampered(opened, 3, lambda p: {"part": "role/2", "salt": SALT, "value": "saboteur"})
    assert engine.opened_commitment(shown_instead) != fingerprint


def test_the_documented_shell_check_recomputes_the_fingerprint(tmp_path: Path) -> None:
    """docs/fairness.md and the round page: grep, sed, sha256sum in a shell give the fingerprint."""
    g, record, told = swap_game()
    opened = engine.opening(record, SALT, engine.withheld_parts(record, told, g.options))
    deal = tmp_path / "round-1-deal.json"
    deal.write_text(engine.opening_text(opened), encoding="utf-8")
    script = (Path(__file__).parents[2] / "templates/play/_check_parts.txt").read_text()
    script = script.replace("{{ file_name }}", deal.name)

    printed = subprocess.run(["bash", "-c", script], cwd=tmp_path, capture_output=True, text=True, check=True)

    assert printed.stdout == f"{engine.commitment(record, SALT)}  -\n"


def test_a_seal_of_the_first_format_is_opened_whole() -> None:
    record = whole_record(engine.new_game(["Ann", "Ben", "Cat"], seed=7))

    with pytest.raises(ValueError):
        engine.withheld_parts(record, [], {})
    assert engine.sealed_whole(record) and not engine.sealed_whole(engine.deal_record(engine.new_game(
        ["Ann", "Ben", "Cat"], seed=7)))


def test_the_deal_in_words_names_what_stays_face_down() -> None:
    g, record, told = swap_game()
    withheld = engine.withheld_parts(record, told, g.options)
    seat = next(event["seat"] for event in told if event["type"] == "role_changed")

    words = readable_deal(engine.shown_record(engine.opening(record, SALT, withheld)))

    assert words["seats"][seat]["role"] is None and words["spare_roles"] is None
    assert f"{SEATS[seat]}'s dwarf card" in words["withheld"] and "the leftover dwarf cards" in words["withheld"]


def test_the_open_view_hides_the_leftovers_before_a_hat_is_swapped_too() -> None:
    """Before the swap, the leftovers with every other dwarf card would tell the card later given up."""
    for seed in range(200):
        g = engine.new_game(SEATS[:5], seed=seed, variant="saboteur2")
        dealt, told, rng = g, [], random.Random(seed)
        while g.round == 1 and not engine.is_over(g):
            seat = engine.to_act(g)
            g, events = engine.apply_move(g, seat, engine.bots.choose(g, seat, rng))
            told += events
        if any(event["type"] == "role_changed" for event in told):
            break
    secret = engine.roles_given_up([*told, {"type": "after"}])[0]

    shown = engine.open_view(dealt, secret_roles=secret)

    assert secret and shown["spare_roles"] == [] and all(
        row["role"] is None for row in shown["seats"] if row["seat"] in secret)
