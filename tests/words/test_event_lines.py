"""Event lines for logs and emails."""
from __future__ import annotations

import pytest

import engine
from pbem.words.events import describe_event
from tests.support.tables import SEATS, builder_bot, random_game_states


def event_types_of_random_games(games, variant="base", bot=None) -> set[str]:
    """Plays the games, checks that every event reads as a sentence naming real players; the types seen."""
    seen = set()
    for players, seed in games:
        for g, seat, move in random_game_states(players, seed, variant=variant, bot=bot):
            if move is None:
                break
            _, events = engine.apply_move(g, seat, move)
            for e in events:
                line = describe_event(e, SEATS[:players])
                seen.add(e["type"])
                assert line and line[0].isupper() and line.endswith((".", "!")) and "someone" not in line, line
    return seen


def test_every_event_of_random_games_reads_as_a_sentence_naming_real_players():
    seen = event_types_of_random_games([(3, 1), (5, 2), (10, 3)])

    assert {"path_placed", "passed", "drew", "round_ended", "game_over", "round_started"} <= seen


def test_a_build_line_says_who_built_what_and_where():
    event = {"type": "path_placed", "audience": "public", "seat": 1, "card": 9, "name": "curve_ne",
             "x": 3, "y": -1, "rotated": True}

    assert describe_event(event, ["Ann", "Bo", "Cy"]) == "Bo built a Curve at (3, -1), turned around."


def test_round_end_lines_reveal_roles_and_the_winner():
    event = {"type": "round_ended", "audience": "public", "round": 2, "winner": "diggers", "reached_by": 0,
             "roles": ["digger", "saboteur", "digger"], "spare_roles": ["digger"]}

    line = describe_event(event, ["Ann", "Bo", "Cy"])

    assert line == ("Round 2 is over: Ann reached the gold, so the gold-diggers win. "
                    "Ann was a gold-digger, Bo was a saboteur and Cy was a gold-digger.")


def test_an_unknown_event_still_gives_a_line():
    assert describe_event({"type": "brand_new_thing", "audience": "public"}, []) == "Brand new thing."


def test_every_saboteur2_event_of_random_games_reads_as_a_sentence_naming_real_players():
    seen = event_types_of_random_games([(2, 1), (5, 2), (12, 3)], "saboteur2", builder_bot)

    assert {"cards_set_aside", "round_ended", "gold_paid", "game_over"} <= seen


S2_LINES = [
    ({"type": "cards_set_aside", "count": 10}, "The top 10 cards are set aside unseen for this round."),
    ({"type": "theft_played", "seat": 0, "card": 1}, "Ann put a Theft in front of themselves."),
    ({"type": "theft_removed", "seat": 1, "target": 0, "card": 1}, "Bo played Hands Off and removed Ann's Theft."),
    ({"type": "trapped", "seat": 0, "target": 2, "card": 1}, "Ann played Trapped! on Cy."),
    ({"type": "freed", "seat": 2, "target": 2, "card": 1}, "Cy played Free at last! and set themselves free."),
    ({"type": "hands_swapped", "seat": 0, "target": 1, "card": 1},
     "Ann played Swap Your Hand with Bo, who draws a card."),
    ({"type": "hand_received", "seat": 0, "cards": [4, 5], "names": ["cross", "ladder_n"]},
     "Your hand is now: Crossing and Ladder."),
    ({"type": "inspected", "seat": 0, "target": 1, "card": 1},
     "Ann played Inspection on Bo and looked at their dwarf card."),
    ({"type": "role_seen", "seat": 0, "target": 1, "role": "profiteer"}, "Bo is a Profiteer."),
    ({"type": "hats_swapped", "seat": 0, "target": 0, "card": 1},
     "Ann played Swap Your Hats on themselves."),
    ({"type": "role_changed", "seat": 1, "role": "green_digger"}, "Your new role this round: green gold-digger."),
    ({"type": "cleared", "seat": 1, "count": 2, "removed": 80, "name": "break_cart"},
     "Bo discarded 2 cards to remove the Broken cart lying in front of them."),
    ({"type": "gold_paid", "seat": 2, "amount": 0, "base": 3, "reason": "trapped"}, "Cy gets nothing, being trapped."),
    ({"type": "gold_paid", "seat": 2, "amount": 4, "base": 4, "reason": "green"},
     "Cy gets 4 gold pieces for the green team."),
    ({"type": "gold_paid", "seat": 0, "amount": 5, "base": 5, "reason": "saboteur"},
     "Ann gets 5 gold pieces as a saboteur."),
    ({"type": "gold_stolen", "seat": 1, "target": 2}, "Bo stole a gold piece from Cy."),
    ({"type": "theft_unused", "seat": 1, "reason": "no_gold_to_steal"}, "Bo found nobody with gold to steal."),
    ({"type": "theft_unused", "seat": 1, "reason": "declined"}, "Bo chose not to steal."),
    ({"type": "round_ended", "round": 1, "winner": "diggers", "reached_by": 0, "teams": ["blue"],
      "claims": {"blue": True, "green": False}, "roles": ["boss", "blue_digger", "geologist"]},
     "Round 1 is over: Ann (Boss) reached the gold, so the blue team wins (a Blue door bars the green team's way "
     "to the gold). "
     "Ann was the Boss, Bo was a blue gold-digger and Cy was a Geologist."),
    ({"type": "round_ended", "round": 2, "winner": "diggers", "reached_by": 2, "teams": ["blue", "green"],
      "claims": {"blue": True, "green": True}, "roles": ["boss", "blue_digger", "geologist"]},
     "Round 2 is over: Cy (Geologist) reached the gold, so the blue and green teams win. "
     "Ann was the Boss, Bo was a blue gold-digger and Cy was a Geologist."),
    ({"type": "round_ended", "round": 3, "winner": "nobody", "reached_by": None, "teams": [],
      "claims": {"blue": False, "green": False}, "roles": ["boss", "blue_digger", "geologist"]},
     "Round 3 is over: the cards ran out before anyone reached the gold, and with nobody on the saboteurs' side in "
     "play nobody wins. "
     "Ann was the Boss, Bo was a blue gold-digger and Cy was a Geologist."),
]


@pytest.mark.parametrize("event, line", S2_LINES, ids=[f"{e['type']}-{i}" for i, (e, _) in enumerate(S2_LINES)])
def test_saboteur2_event_lines(event, line):
    assert describe_event({"audience": "public", **event}, ["Ann", "Bo", "Cy"]) == line


def test_a_card_name_ending_in_an_exclamation_mark_gets_no_full_stop_after_it():
    event = {"type": "drew_cards", "audience": [0], "seat": 0, "cards": [90], "names": ["free"]}

    assert describe_event(event, ["Ann", "Bo"]) == "You drew Free at last!"
