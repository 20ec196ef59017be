"""Saboteur 2 set-up: the deck, the cards set aside, hands of six, 2-12 players, dwarf cards, own decks."""
from __future__ import annotations

import copy
import json
from collections import Counter
from pathlib import Path

import pytest

import engine
from engine.decks import SABOTEUR2_DECK
from engine.variants import SABOTEUR2_ROLES, get_variant, variant_of
from tests.support.refusals import refused
from tests.support.tables import SEATS, builder_bot, random_game_states

DATA = Path(__file__).parent / "data"


def s2_game(players: int = 5, seed: int = 1, **kw) -> engine.Game:
    return engine.new_game(SEATS[:players], seed=seed, variant="saboteur2", **kw)


def names(variant, ids) -> Counter:
    return Counter(variant.cards[c].name for c in ids)


def test_the_deck_is_every_base_card_plus_the_expansions_30_path_and_21_action_cards():
    base, s2 = get_variant("base"), get_variant("saboteur2")
    kinds = Counter(s2.cards[c].kind for c in s2.playable_ids)

    assert kinds == {"path": 40 + 30, "action": 27 + 21}
    assert not names(base, base.playable_ids) - names(s2, s2.playable_ids)
    assert sum((names(s2, s2.playable_ids) - names(base, base.playable_ids)).values()) == 30 + 21


def test_the_expansion_cards_come_in_the_counts_of_the_card_list():
    s2 = get_variant("saboteur2")
    cards = [s2.cards[c] for c in s2.playable_ids]
    count = Counter(c.name for c in cards)

    assert count["bridge"] == 2 and count["double_curve"] == 2
    assert sum(1 for c in cards if c.has_ladder) == 4
    assert Counter(s.door for c in cards for s in c.segments if s.door) == {"blue": 3, "green": 3}
    assert sum(1 for c in cards if c.crystals) == 16  # 10 identified + 6 stand-ins
    assert {e: sum(1 for c in cards if c.effect == e) for e in
            ("theft", "hands_off", "swap_hand", "inspection", "swap_hats", "trapped", "free")} == {
        "theft": 4, "hands_off": 4, "swap_hand": 2, "inspection": 2, "swap_hats": 2, "trapped": 3, "free": 4}


def test_ten_cards_are_set_aside_unseen_before_each_round():
    g = s2_game(4)

    public, mine = engine.view(g, None), engine.view(g, 0)

    assert len(g.removed) == 10
    assert not set(g.removed) & set(sum(g.hands, []) + g.draw_pile)
    assert public["set_aside"] == 10 and mine["set_aside"] == 10
    assert not set(g.removed) & {card["id"] for card in mine["you"]["hand"]}


def test_the_cards_set_aside_go_back_into_the_deck_for_the_next_round(table):
    g = table(3, variant="saboteur2", draw=0)
    first_round_removed = set(g.removed)
    for seat in range(3):
        g.discard += g.hands[seat][1:]
        g.hands[seat] = g.hands[seat][:1]
    while g.round == 1:
        seat = engine.to_act(g)
        g, events = engine.apply_move(g, seat, engine.legal_moves(g, seat)[-1] if g.phase == "steal"
                                      else {"type": "pass", "cards": [g.hands[seat][0]]})

    v = variant_of(g)
    assert sorted(sum(g.hands, []) + g.draw_pile + g.removed) == sorted(v.playable_ids)
    assert len(g.removed) == 10 and set(g.removed) != first_round_removed
    assert any(c in first_round_removed for c in sum(g.hands, []) + g.draw_pile)
    assert {"type": "cards_set_aside", "audience": "public", "count": 10} in events


@pytest.mark.parametrize("players", range(2, 13))
def test_every_player_gets_six_cards_whatever_the_number_of_players(players):
    g = s2_game(players)

    assert [len(h) for h in g.hands] == [6] * players
    assert len(g.draw_pile) == len(get_variant("saboteur2").playable_ids) - 10 - 6 * players


@pytest.mark.parametrize("players", [1, 13])
def test_saboteur2_needs_two_to_twelve_players(players):
    with refused("2 to 12 players", engine.InvalidSetup):
        engine.new_game((SEATS + ["Max"])[:players], seed=1, variant="saboteur2")


@pytest.mark.parametrize("players", [2, 7, 12])
def test_each_player_gets_one_of_the_fifteen_dwarf_cards_and_the_rest_stay_hidden(players):
    g = s2_game(players, seed=players)

    public, mine = engine.view(g, None), engine.view(g, 0)

    assert Counter(g.roles + g.spare_roles) == Counter(SABOTEUR2_ROLES)
    assert len(g.roles) == players and len(g.spare_roles) == 15 - players
    assert mine["you"]["role"] == g.roles[0] and public["leftover_roles"] == 15 - players
    assert "you" not in public


def test_dwarf_cards_are_shuffled_and_dealt_afresh_each_round():
    deals = {}
    for g, _seat, _move in random_game_states(6, 4, variant="saboteur2", bot=builder_bot):
        if g.phase == "play" and g.round not in deals:
            deals[g.round] = (list(g.roles), Counter(g.roles + g.spare_roles))

    assert sorted(deals) == [1, 2, 3]
    assert all(deck == Counter(SABOTEUR2_ROLES) for _, deck in deals.values())
    assert len({tuple(roles) for roles, _ in deals.values()}) > 1


def test_the_base_game_options_do_not_apply_to_saboteur2():
    with refused("Option 'auto_pick_gold' belongs to the base game", engine.InvalidSetup):
        s2_game(options={"auto_pick_gold": True})


# ---------------------------------------------------------------- a host's own deck


def own_deck() -> dict:
    deck = copy.deepcopy(SABOTEUR2_DECK)
    for entry in deck["paths"]:
        if entry["name"] == "crystal_cross":
            entry["crystals"] = 2
    deck["actions"].append({"name": "spyglass", "label": "Spyglass", "count": 2, "effect": "inspection"})
    return deck


def test_a_host_may_play_with_their_own_deck():
    g = s2_game(options={"deck": own_deck()})
    v = variant_of(g)

    assert len(v.playable_ids) == len(get_variant("saboteur2").playable_ids) + 2
    assert {v.cards[c].crystals for c in v.playable_ids if v.cards[c].name == "crystal_cross"} == {2}
    assert sum(1 for c in v.playable_ids if v.cards[c].effect == "inspection") == 4
    again = engine.Game.from_dict(json.loads(json.dumps(g.to_dict())))
    assert again == g and variant_of(again).cards == v.cards
    assert engine.view(again, 0) == engine.view(g, 0) and engine.view(g, None)["options"]["deck"] == "custom"


def test_the_host_deck_is_copied_so_later_changes_to_it_change_nothing():
    deck = own_deck()
    g = s2_game(options={"deck": deck})
    before = g.to_dict()

    deck["paths"].clear()

    assert g.to_dict() == before


def broken(change) -> dict:
    deck = copy.deepcopy(SABOTEUR2_DECK)
    change(deck)
    return deck


BAD_DECKS = [
    ("a list", [], "exactly two lists"),
    ("no actions", broken(lambda d: d.pop("actions")), "exactly two lists"),
    ("empty paths", broken(lambda d: d.update(paths=[])), "non-empty list"),
    ("unknown field", broken(lambda d: d["paths"][0].update(colour="red")),
     r"paths entry 1 has an unknown field 'colour'"),
    ("bad name", broken(lambda d: d["paths"][0].update(name="Cross!")), "paths entry 1 needs a 'name'"),
    ("same name twice", broken(lambda d: d["actions"][0].update(name="cross")),
     r"actions entry 1 \(cross\): the name is already taken"),
    ("reserved name", broken(lambda d: d["paths"][0].update(name="gold")), "already taken"),
    ("no label", broken(lambda d: d["paths"][0].update(label="")), "needs a 'label'"),
    ("count zero", broken(lambda d: d["paths"][0].update(count=0)), "'count' must be a whole number from 1 to 20"),
    ("count true", broken(lambda d: d["paths"][0].update(count=True)), "'count' must be a whole number"),
    ("bad edges", broken(lambda d: d["paths"][0].update(segments=[{"edges": "NX"}])), "distinct letters"),
    ("shared edge", broken(lambda d: d["paths"][0].update(segments=[{"edges": "NS"}, {"edges": "SE"}])),
     "two segments share an edge"),
    ("long stub", broken(lambda d: d["paths"][0].update(segments=[{"edges": "NS", "dead": True}])),
     "a dead-end stub has one edge"),
    ("door colour", broken(lambda d: d["paths"][0].update(segments=[{"edges": "NS", "door": "red"}])),
     "'door' must be \"blue\" or \"green\""),
    ("ladder door", broken(lambda d: d["paths"][0].update(segments=[{"edges": "N", "door": "blue", "ladder": True}])),
     "both a ladder and a door"),
    ("crystals", broken(lambda d: d["paths"][0].update(crystals=-1)), "'crystals' must be a whole number"),
    ("effect", broken(lambda d: d["actions"][0].update(effect="teleport")), "'effect' must be one of"),
    ("tools", broken(lambda d: d["actions"][0].update(tools=["hammer"])), "names 1 tool from"),
    ("tools on theft", broken(lambda d: d["actions"][-1].update(tools=["pick"])), "names 0 distinct tool"),
    ("segment not a table", broken(lambda d: d["paths"][0].update(segments=["NESW"])), "must be a table"),
]


@pytest.mark.parametrize("what, deck, message", BAD_DECKS, ids=[b[0] for b in BAD_DECKS])
def test_a_bad_deck_is_refused_with_a_message_that_finds_the_mistake(what, deck, message):
    with refused(message, engine.InvalidSetup):
        s2_game(options={"deck": deck})


def test_a_deck_too_small_for_the_players_is_refused():
    small = {"paths": [{"name": "cross", "label": "Crossing", "count": 20, "segments": [{"edges": "NESW"}]}],
             "actions": [{"name": "map", "label": "Map", "count": 20, "effect": "map"}]}

    s2_game(3, options={"deck": small})
    with refused("The deck has 40 cards but 6 players need at least 46", engine.InvalidSetup):
        s2_game(6, options={"deck": small})


def test_only_saboteur2_takes_a_deck():
    with refused("Unknown option 'deck'", engine.InvalidSetup):
        engine.new_game(SEATS[:3], seed=1, options={"deck": SABOTEUR2_DECK})


# ---------------------------------------------------------------- snapshots


def test_snapshots_written_with_schema_1_are_still_read_and_play_on():
    stored = json.loads((DATA / "schema1_base_snapshot.json").read_text())
    replayed = engine.new_game(stored["players"], seed=stored["seed"])
    for seat, move in stored["moves"]:
        replayed, _ = engine.apply_move(replayed, seat, move)

    old = engine.Game.from_dict(stored["snapshot"])

    assert stored["snapshot"]["schema"] == 1 and "gold_pieces" not in stored["snapshot"]
    assert old == as_written_then(replayed, old.options) and old.to_dict()["schema"] == 2
    assert old.gold_pieces == [0] * 5 and old.removed == [] and old.inspections == [[]] * 5
    seat = engine.to_act(old)
    move = engine.legal_moves(old, seat)[0]
    then = as_written_then(replayed, old.options)
    assert engine.apply_move(old, seat, move)[0] == engine.apply_move(then, seat, move)[0]


def as_written_then(g: engine.Game, options: dict) -> engine.Game:
    """The game as a snapshot of its time held it: the options of then, no round-end reasons, no final tables,
    no last builder."""
    then = g.clone()
    then.options = dict(options)
    added_since = ("reason", "board", "last_placed")
    then.results = [{key: value for key, value in result.items() if key not in added_since} for result in g.results]
    then.last_builder = None
    return then


def test_an_unknown_schema_is_refused():
    snapshot = s2_game().to_dict()
    snapshot["schema"] = 3

    with refused("schema", engine.InvalidSetup):
        engine.Game.from_dict(snapshot)
