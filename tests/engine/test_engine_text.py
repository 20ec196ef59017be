"""Event lines for logs and emails."""
from __future__ import annotations

import engine

from .tables import NAMES, random_game_states


def test_every_event_of_random_games_reads_as_a_sentence_naming_real_players():
    seen = set()
    for players, seed in [(3, 1), (5, 2), (10, 3)]:
        for g, seat, move in random_game_states(players, seed):
            if move is None:
                break
            _, events = engine.apply_move(g, seat, move)
            for e in events:
                line = engine.describe_event(e, NAMES[:players])
                seen.add(e["type"])
                assert line and line[0].isupper() and line.endswith((".", "!")) and "someone" not in line, line

    assert {"path_placed", "passed", "drew", "round_ended", "game_over", "round_started"} <= seen


def test_a_build_line_says_who_built_what_and_where():
    event = {"type": "path_placed", "audience": "public", "seat": 1, "card": 9, "name": "curve_ne",
             "x": 3, "y": -1, "rotated": True}

    assert engine.describe_event(event, ["Ann", "Bo", "Cy"]) == "Bo built a curve at (3, -1), turned around."


def test_round_end_lines_reveal_roles_and_the_winner():
    event = {"type": "round_ended", "audience": "public", "round": 2, "winner": "diggers", "reached_by": 0,
             "roles": ["digger", "saboteur", "digger"], "spare_roles": ["digger"]}

    line = engine.describe_event(event, ["Ann", "Bo", "Cy"])

    assert line == ("Round 2 is over: Ann reached the gold and the gold-diggers win. "
                    "Roles: Ann gold-digger, Bo saboteur, Cy gold-digger.")


def test_an_unknown_event_still_gives_a_line():
    assert engine.describe_event({"type": "brand_new_thing", "audience": "public"}, []) == "Brand new thing."
