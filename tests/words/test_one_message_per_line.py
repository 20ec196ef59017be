"""Every line of the game is one message of the catalogue, whole: a translation says it in its own order, never
glued from English pieces. Read with a catalogue that brackets every message it gives: each line, outcome, payout
and refusal is bracketed from its first character to its last (names and numbers only ever inside)."""

from __future__ import annotations

import random
from gettext import NullTranslations

import pytest

import engine
from pbem.i18n import messages
from pbem.results_text import outcome, payout_line, share_line, theft_line
from pbem.service.events import describe
from pbem.words.events import describe_openly
from pbem.words.lines import describe_events
from pbem.words.refusals import refusal
from tests.support.games import dig_for_gold

NAMES = ["Ann", "Bo", "Cy", "Di", "Ed"]


class Bracketing(NullTranslations):
    """A catalogue that translates every message into itself in brackets: "[You drew a card.]"."""

    def gettext(self, message: str) -> str:
        return f"[{message}]"

    def ngettext(self, singular: str, plural: str, n: int) -> str:
        return f"[{singular if n == 1 else plural}]"

    def pgettext(self, context: str, message: str) -> str:
        return f"[{message}]"

    def npgettext(self, context: str, singular: str, plural: str, n: int) -> str:
        return f"[{singular if n == 1 else plural}]"


@pytest.fixture
def bracketed(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(messages, "translations", lambda _language: Bracketing())


def whole(line: str) -> bool:
    return line.startswith("[") and line.endswith("]")


def playouts():
    """(names, events of one move, the game after it) over random games and tunnellers who reach the gold."""
    for variant, seed, players, choose in [("base", 3, 4, engine.bots.choose), ("base", 1, 3, dig_for_gold),
                                           ("saboteur2", 2, 5, engine.bots.choose), ("saboteur2", 1, 3, dig_for_gold)]:
        state = engine.new_game(NAMES[:players], seed=seed, variant=variant)
        rng = random.Random(seed)
        while not engine.is_over(state):
            seat = engine.to_act(state)
            assert seat is not None
            state, events = engine.apply_move(state, seat, choose(state, seat, rng))
            yield NAMES[:players], events, state


@pytest.mark.usefixtures("bracketed")
def test_every_line_of_a_move_is_one_message_for_every_reader() -> None:
    for names, events, _ in playouts():
        for reader in [None, *range(len(names))]:
            seen = [e for e in events if e["audience"] == "public" or reader in e["audience"]]
            lines = describe_events(seen, names, reader)

            assert all(whole(line) for line in lines), lines


@pytest.mark.usefixtures("bracketed")
def test_every_line_told_openly_is_one_message() -> None:
    for names, events, _ in playouts():
        lines = [describe_openly(e, names, frozenset({0})) for e in events]

        assert all(whole(line) for line in lines), lines


@pytest.mark.usefixtures("bracketed")
def test_every_round_result_payout_and_theft_is_one_message() -> None:
    finals = {id(state): (names, state) for names, _, state in playouts() if engine.is_over(state)}
    for names, state in finals.values():
        for result in engine.view(state, None)["results"]:
            lines = [outcome(result, names)]
            if "payouts" in result:
                lines += [share_line(result)] if share_line(result) else []
                lines += [payout_line(pay, result, names) for pay in result["payouts"]]
                lines += [theft_line(theft, names) for theft in result["thefts"]]

            assert all(whole(line) for line in lines), lines


@pytest.mark.usefixtures("bracketed")
def test_every_refusal_is_one_message() -> None:
    state = engine.new_game(NAMES[:3], seed=1)
    tries = [(0, {"type": "teleport"}), (1, {"type": "pass", "cards": [0]}), (0, {"type": "pass", "cards": []}),
             (0, {"type": "play", "card": 999, "x": 1, "y": 0, "rotated": False}), (7, {"type": "pass"})]
    said = []
    for seat, move in tries:
        with pytest.raises(engine.IllegalMove) as refused:
            engine.apply_move(state, seat, move)
        said.append(refusal(refused.value))
    with pytest.raises(engine.InvalidSetup) as bad_setup:
        engine.new_game(["Ann"], seed=1)
    said.append(refusal(bad_setup.value))

    assert all(whole(line) for line in said), said


@pytest.mark.usefixtures("bracketed")
@pytest.mark.parametrize("how", ["auto-pass", "bot", "gold", "steal", "something new"])
def test_a_turn_that_ran_out_of_time_is_one_message_for_every_reader(how: str) -> None:
    event = {"type": "timed_out", "seat": 1, "how": how, "audience": "public"}

    lines = [describe(event_list, NAMES, reader) for event_list in [[event]] for reader in (None, 0, 1)]

    assert all(len(told) == 1 and whole(told[0]) for told in lines), lines


@pytest.mark.usefixtures("bracketed")
def test_a_rollback_is_one_message() -> None:
    told = describe([{"type": "rolled_back", "to_seq": 7, "audience": "public"}], NAMES, 0)

    assert told == ["[The host took the game back to how it stood at turn 7; play goes on from there.]"]
