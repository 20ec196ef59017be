"""The heuristic bot knows only what its seat may know, keeps nothing between turns, and is repeatable.

Its decision takes a view, the seat's legal moves and the events the seat may see; these tests
check that nothing else can sway it: not the hidden state, not other seats' private events, not
the fields of a view it has no use for, not earlier calls, not the process it runs in.
"""
from __future__ import annotations

import copy
import functools
import json
import random
import subprocess
import sys
from pathlib import Path

import pytest

import engine
from engine.bots import HeuristicBot
from engine.bots.match import Decision
from tests.support.tables import bot_game, scramble_hidden

ROOT = Path(__file__).resolve().parents[2]


def sample(players: int, seed: int, every: int = 7) -> list[Decision]:
    """Every few decisions of a game of heuristic bots, turns and gold picks alike."""
    return [d for i, d in enumerate(bot_game(players, seed)) if i % every == 0 or d.move["type"] == "pick_gold"]


@functools.cache
def samples() -> list[Decision]:
    """Decisions from games of 3, 5, 7 and 10 bots, played on first use (not when the tests are collected)."""
    return [d for players, seed in [(3, 1), (5, 2), (7, 3), (10, 4)] for d in sample(players, seed)]


def decide(decision: Decision, seed: int = 5, **changes) -> dict:
    inputs = {"view": decision.view, "moves": decision.moves, "history": decision.seen, **changes}
    return HeuristicBot(seed).decide(inputs["view"], inputs["moves"], inputs["history"])


def test_games_that_differ_only_in_what_is_hidden_from_the_seat_get_the_same_move():
    rnd = random.Random(7)
    for d in samples():
        other = scramble_hidden(d.game, d.seat, rnd)

        assert HeuristicBot(5).choose(other, d.seat, d.seen) == HeuristicBot(5).choose(d.game, d.seat, d.seen)


def test_events_addressed_to_other_seats_change_nothing_even_if_the_server_passed_them_on():
    changed = 0
    for d in samples():
        others = [s for s in range(len(d.view["players"])) if s != d.seat]
        leaks = [{"type": "role_dealt", "seat": s, "role": "saboteur"} for s in others]
        leaks += [{"type": "map_peek", "seat": s, "x": 8, "y": y, "gold": True} for s in others for y in (2, 0, -2)]
        leaks += [{"type": "tool_broken", "seat": s, "target": d.seat, "tool": "pick", "card": 44} for s in others]
        private = [{**e, "audience": [e["seat"]]} for e in leaks]
        public = [{**e, "audience": "public"} for e in leaks]

        assert decide(d, history=private + d.seen + private) == decide(d)
        changed += decide(d, history=d.seen + public) != decide(d)
    assert changed, "the same events made public do sway the bot, so ignoring them is what kept it steady"


def strip(view: dict) -> dict:
    """A view cut down to the table, the seats' tools and counts, and the seat's own hand and role."""
    you = view["you"]
    return {
        "variant": view["variant"], "seat": view["seat"], "round": view["round"], "phase": view["phase"],
        "players": [""] * len(view["players"]), "draw_pile": view["draw_pile"],
        "board": [{k: c[k] for k in ("x", "y", "kind", "segments", "openings")} for c in view["board"]],
        "goals": [{k: g[k] for k in ("x", "y", "revealed", "gold")} for g in view["goals"]],
        "seats": [{k: s[k] for k in ("seat", "hand_count", "broken")} for s in view["seats"]],
        "you": {"seat": you["seat"], "role": you["role"], "hand": you["hand"], "peeks": you["peeks"]},
    }


def test_a_view_stripped_of_names_results_gold_and_everything_else_it_does_not_need_gives_the_same_move():
    for d in samples():
        assert decide(d, view=strip(d.view)) == decide(d)


def test_a_view_cut_to_almost_nothing_still_gives_a_legal_move():
    for d in samples():
        you = d.view["you"]
        bare = {"you": {"seat": d.seat}, "seat": d.seat}
        hand_only = {"you": {"seat": d.seat, "role": you["role"], "hand": you["hand"]}, "seat": d.seat}

        assert decide(d, view=bare, history=[]) in d.moves
        assert decide(d, view=hand_only) in d.moves


def test_unknown_roles_cards_fields_and_move_kinds_never_make_it_crash():
    """What a later variant may bring: new roles, new action cards, two-segment paths, doors, ladders."""
    rnd = random.Random(3)
    for d in samples()[::3]:
        view = copy.deepcopy(d.view)
        view["variant"] = "saboteur2"
        view["novelty"] = {"anything": [1, 2]}
        view["you"]["role"] = rnd.choice(["geologist", "boss", "profiteer", "blue_digger", "green_digger"])
        view["you"]["hand"].append({"id": 900, "name": "theft", "kind": "action", "effect": "theft"})
        view["you"]["hand"].append({"id": 901, "name": "bridge", "kind": "path", "openings": "NESW",
                                    "segments": [{"edges": "NS", "door": "blue"}, {"edges": "EW", "ladder": True}]})
        view["board"].append({"id": 902, "kind": "path", "x": -5, "y": 5, "rotated": False, "crystals": 2,
                              "segments": [{"edges": "NE", "ladder": True}, {"edges": "W", "dead": True},
                                           {"edges": "?"}, "garbage"]})
        for seat in view["seats"]:
            seat["hats"] = ["green"]
        extra = [{"type": "play", "card": 900, "target": t} for t in range(len(view["players"]))]
        extra += [{"type": "play", "card": 901, "x": -5, "y": 6, "rotated": False}]
        extra += [{"type": "swap_hand", "with": 1}]
        history = d.seen + [{"type": "hands_off", "audience": "public", "seat": 0},
                            {"type": "path_placed", "audience": "public", "seat": 1, "card": 902, "x": "a", "y": 0}]

        for moves in (d.moves + extra, extra, extra[:1]):
            assert decide(d, view=view, moves=moves, history=history) in moves


def test_the_same_seed_and_inputs_give_the_same_move_whatever_was_decided_before():
    forward = [decide(d) for d in samples()]
    backward = [decide(d) for d in reversed(samples())][::-1]

    assert forward == backward


def test_the_seed_only_breaks_ties_but_does_break_them():
    differing = sum(decide(d, seed=1) != decide(d, seed=2) for d in samples())

    assert 0 < differing < len(samples())


def test_another_process_with_other_hash_seeds_makes_the_same_moves():
    inputs = [(d.view, d.moves, d.seen) for d in samples()[:40]]
    script = (
        "import json, sys\n"
        "from engine.bots import HeuristicBot\n"
        "inputs = json.load(sys.stdin)\n"
        "print(json.dumps([HeuristicBot(5).decide(v, m, h) for v, m, h in inputs]))\n"
    )
    done = subprocess.run([sys.executable, "-c", script], input=json.dumps(inputs), capture_output=True, text=True,
                          cwd=ROOT, env={"PYTHONHASHSEED": "12345", "PYTHONPATH": str(ROOT)}, check=True)

    assert json.loads(done.stdout) == [HeuristicBot(5).decide(v, m, h) for v, m, h in inputs]


def test_a_spectator_view_is_refused():
    d = samples()[0]  # the first decision of a game: a turn

    with pytest.raises(ValueError, match="seat"):
        decide(d, view=engine.view(d.game, None))
