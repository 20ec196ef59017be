"""The event lines as a reader gets them, over every event type of both variants, from random playouts: one line
per thing that happened (the cards drawn told in the move's own line), "you" for the reader and names for the
others, card names as printed, plurals in words ("1 card", "2 cards", never "card(s)"), sentence spacing."""

from __future__ import annotations

import random
import re
from collections.abc import Iterator

import pytest

import engine
from engine.variants import VARIANTS
from pbem.i18n import in_language
from pbem.words.cards import card_label
from pbem.words.lines import describe_events
from tests.support.games import dig_for_gold

NAMES = ["Ann", "Bo", "Cy", "Di", "Ed"]
# Events a move's line tells inside itself for its own player, never on a line of their own then.
FOLLOW_UPS = {"drew_cards", "map_peek"}
WRONG_PERSON = re.compile(r"\byou (has|takes|gets|chooses|plays|is|draws|swaps)\b", re.IGNORECASE)
BAD_PLURAL = re.compile(r"\b1 (cards|nuggets|gold pieces|crystals)\b"
                        r"|\b(0|[2-9]|\d\d+) (card|nugget|gold piece|crystal)\b(?![s-])")
PRINTED = sorted({card.label for variant in VARIANTS.values() for card in variant.cards if card.kind != "goal"},
                 key=len)


def moves_of(variant: str, seed: int, players: int, choose=engine.bots.choose) -> Iterator[list[dict]]:
    """Each move's events in a game played by `choose` (the engine's random bot unless told)."""
    state = engine.new_game(NAMES[:players], seed=seed, variant=variant)
    rng = random.Random(seed)
    while not engine.is_over(state):
        seat = engine.to_act(state)
        assert seat is not None
        state, events = engine.apply_move(state, seat, choose(state, seat, rng))
        yield events


def seen_by(events: list[dict], seat: int) -> list[dict]:
    return [e for e in events if e["audience"] == "public" or seat in e["audience"]]


# Random games, and tunnellers who reach the gold (the gold shared out, the goals turned over).
GAMES = ([("base", seed, 4, engine.bots.choose) for seed in range(1, 7)]
         + [("base", seed, 3, dig_for_gold) for seed in range(1, 4)]
         + [("saboteur2", seed, 5, engine.bots.choose) for seed in range(1, 9)]
         + [("saboteur2", seed, 3, dig_for_gold) for seed in range(1, 4)])


@pytest.fixture(scope="module")
def read_lines() -> list[tuple[str, int, list[dict], list[str]]]:
    """(variant, reader, the move's events they may see, their lines) for every move and reader."""
    out = []
    for variant, seed, players, choose in GAMES:
        for events in moves_of(variant, seed, players, choose):
            for reader in range(players):
                visible = seen_by(events, reader)
                out.append((variant, reader, visible, describe_events(visible, NAMES[:players], reader)))
    return out


def test_the_playouts_cover_every_event_type_of_both_variants(read_lines) -> None:
    seen = {event["type"] for _, _, events, _ in read_lines for event in events}
    expected = {
        "round_started", "role_dealt", "hand_dealt", "path_placed", "goal_revealed", "tool_broken", "tool_repaired",
        "rockfall", "map_used", "map_peek", "passed", "discarded", "drew", "drew_cards", "out_of_cards",
        "round_ended", "gold_drawn", "gold_offered", "gold_picked", "gold_kept", "saboteur_paid", "game_over",
        "cards_set_aside", "theft_played", "theft_removed", "trapped", "freed", "hands_swapped", "hand_received",
        "inspected", "role_seen", "hats_swapped", "role_changed", "cleared", "gold_paid", "gold_stolen",
        "theft_unused", "no_playable_cards",
    }
    assert expected - seen == set()


def test_the_reader_is_you_and_never_named(read_lines) -> None:
    for _, reader, events, lines in read_lines:
        for line in lines:
            assert not re.search(rf"\b{NAMES[reader]}\b", line), (line, events)
            assert not WRONG_PERSON.search(line), line


def test_a_move_is_one_line_with_the_cards_drawn_inside_it(read_lines) -> None:
    for _, reader, events, lines in read_lines:
        acted = events and events[0].get("seat") == reader and events[0]["type"] not in ("round_started",)
        for line in lines:
            assert not line.startswith("You drew") or not acted, (lines, events)
        kinds = [e["type"] for e in events]
        if "drew" in kinds and kinds[0] in ("path_placed", "tool_broken", "tool_repaired", "passed"):
            assert " drew " in lines[0] and not any(line.startswith(("You drew", f"{NAMES[events[0]['seat']]} drew"))
                                                    for line in lines[1:]), lines
        assert not any(kind in FOLLOW_UPS for kind in kinds[:1])


def test_card_names_are_as_printed_never_lower_cased(read_lines) -> None:
    lowered = [label for label in PRINTED if label != label.lower()]
    for _, _, _, lines in read_lines:
        for line in lines:
            rest = line[1:]
            for label in reversed(PRINTED):  # longest first: "Double curve" before "Curve"
                rest = rest.replace(label, "#")
            for label in lowered:
                assert not re.search(rf"(?<![A-Za-z]){re.escape(label.lower())}(?![a-z])", rest), (label, line)


def test_plurals_and_spacing(read_lines) -> None:
    for _, _, _, lines in read_lines:
        for line in lines:
            assert "(s)" not in line and not BAD_PLURAL.search(line), line
            assert "  " not in line and " ." not in line and " ," not in line and ".." not in line, line
            assert line[:1].isupper() or line[:1].isdigit(), line


def test_a_build_and_its_draw_read_as_one_line() -> None:
    events = [
        {"type": "path_placed", "audience": "public", "seat": 0, "card": 4, "name": "tee_nse", "x": 3, "y": 0},
        {"type": "drew", "audience": "public", "seat": 0, "count": 1},
        {"type": "drew_cards", "audience": [0], "seat": 0, "cards": [9], "names": ["map"]},
    ]

    assert describe_events(events, NAMES[:3], 0) == ["You built a T-junction at (3, 0) and drew Map."]
    assert describe_events(events[:2], NAMES[:3], 1) == ["Ann built a T-junction at (3, 0) and drew a card."]


def test_the_round_end_says_who_was_what_with_you_for_the_reader() -> None:
    ended = {"type": "round_ended", "audience": "public", "round": 1, "winner": "saboteurs", "reached_by": None,
             "roles": ["blue_digger", "boss", "saboteur"], "teams": [], "claims": {"blue": False, "green": False}}

    line = describe_events([ended], NAMES[:3], 1)[0]

    assert line.endswith("Ann was a blue gold-digger, you were the Boss and Cy was a saboteur."), line
    assert "Roles:" not in line and "you," not in line


def test_a_build_that_turns_two_goals_names_the_turning_once() -> None:
    events = [
        {"type": "path_placed", "audience": "public", "seat": 0, "card": 4, "name": "cross", "x": 8, "y": 1},
        {"type": "goal_revealed", "audience": "public", "x": 8, "y": 2, "gold": False},
        {"type": "goal_revealed", "audience": "public", "x": 8, "y": 0, "gold": True},
    ]

    assert describe_events(events, NAMES[:3], 1) == [
        "Ann built a Crossing at (8, 1), turning over the top goal (only stone)"
        " and the middle goal (it holds the gold)."]


def test_a_line_that_ends_on_a_card_name_with_an_exclamation_mark_takes_no_full_stop() -> None:
    events = [
        {"type": "passed", "audience": "public", "seat": 0, "count": 1},
        {"type": "drew", "audience": "public", "seat": 0, "count": 1},
        {"type": "drew_cards", "audience": [0], "seat": 0, "cards": [9], "names": ["free"]},
    ]

    assert describe_events(events, NAMES[:3], 0) == ["You passed, discarding a card face down, and drew Free at last!"]


def test_saboteur2_action_lines_name_the_cards_as_printed() -> None:
    trapped = {"type": "trapped", "audience": "public", "seat": 1, "target": 0, "card": 1}
    freed = {"type": "freed", "audience": "public", "seat": 0, "target": 0, "card": 1}
    swap = {"type": "hands_swapped", "audience": "public", "seat": 2, "target": 0, "card": 1}

    assert describe_events([trapped], NAMES[:3], 0) == ["Bo played Trapped! on you."]
    assert describe_events([freed], NAMES[:3], 0) == ["You played Free at last! and set yourself free."]
    assert describe_events([swap], NAMES[:3], 0) == ["Cy played Swap Your Hand with you, who draw a card."]
    assert card_label("tee_ews") == "T-junction"


# An action told in two steps ("played a Rockfall and removed ...") that is followed by "and drew ...".
TWO_ANDS = re.compile(r"\band (removed|set|looked at)\b[^.]* and drew\b")


def test_no_line_joins_a_move_and_its_draw_with_a_second_and(read_lines) -> None:
    for _, _, _, lines in read_lines:
        for line in lines:
            assert not TWO_ANDS.search(line), line
            assert not re.search(r"Winners: [^.,]* and [^.,]* and ", line), line


@pytest.mark.parametrize("action, line", [
    ({"type": "rockfall", "seat": 0, "card": 3, "name": "cross", "x": 1, "y": -1},
     "Ann played a Rockfall, removed the Crossing at (1, -1) and drew a card."),
    ({"type": "theft_removed", "seat": 0, "target": 1, "card": 3},
     "Ann played Hands Off, removed Bo's Theft and drew a card."),
    ({"type": "freed", "seat": 0, "target": 2, "card": 3},
     "Ann played Free at last!, set Cy free and drew a card."),
    ({"type": "inspected", "seat": 0, "target": 2, "card": 3},
     "Ann played Inspection on Cy, looked at their dwarf card and drew a card."),
])
def test_a_two_step_action_and_its_draw_read_as_a_list(action: dict, line: str) -> None:
    events = [{"audience": "public", **action}, {"type": "drew", "audience": "public", "seat": 0, "count": 1}]

    assert describe_events(events, NAMES[:3], None) == [line]
    assert describe_events(events[:1], NAMES[:3], None)[0].count(" and ") == 1  # without a draw: one "and"


def test_an_inspection_tells_the_card_seen_inside_its_list_of_steps() -> None:
    events = [
        {"type": "inspected", "audience": "public", "seat": 0, "target": 1, "card": 3},
        {"type": "role_seen", "audience": [0], "seat": 0, "target": 1, "role": "geologist"},
        {"type": "drew", "audience": "public", "seat": 0, "count": 1},
        {"type": "drew_cards", "audience": [0], "seat": 0, "cards": [9], "names": ["map"]},
    ]

    assert describe_events(events, NAMES[:3], 0) == [
        "You played Inspection on Bo, looked at their dwarf card (a Geologist) and drew Map."]


def test_three_winners_are_listed_with_one_and() -> None:
    over = {"type": "game_over", "audience": "public", "scores": [5, 5, 5], "winners": [0, 1, 2]}

    assert describe_events([over], NAMES[:3], None) == [
        "The game is over. Gold: Ann 5, Bo 5, Cy 5. Winners: Ann, Bo and Cy."]


@pytest.mark.usefixtures("compiled_catalogues")
@pytest.mark.parametrize(("language", "line"), [
    ("en", "The game is over. Gold: you 7, Bo 1, Cy 3. Winner: you."),
    ("ko", "나 7"),
])
def test_the_readers_own_score_is_said_as_theirs_not_as_a_name(language: str, line: str) -> None:
    over = {"type": "game_over", "audience": "public", "scores": [7, 1, 3], "winners": [0]}

    with in_language(language):
        said = describe_events([over], NAMES[:3], 0)[0]

    assert line in said and "나 님" not in said
