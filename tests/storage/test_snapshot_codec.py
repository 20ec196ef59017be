"""The stored form of a snapshot (pbem/snapshot_codec/): every state, move and event list reads back exactly as
it was written, a payload written by an earlier release still reads, and what no format knows is refused."""

from __future__ import annotations

import copy
import random
from functools import cache
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import engine
from pbem import snapshot_codec
from pbem.snapshot_codec import CorruptPayload, decode, encode

Turn = tuple[dict[str, Any], Any, list[Any]]


@cache
def bot_game(players: int, variant: str, seed: int) -> tuple[Turn, ...]:
    """(state, move, events) of each snapshot of a game the engine's random bot plays to the end."""
    state = engine.new_game([f"Player {seat}" for seat in range(players)], seed=seed, variant=variant)
    rng = random.Random(seed)
    turns: list[Turn] = [(state.to_dict(), None, [])]
    while (seat := engine.to_act(state)) is not None:
        move = engine.bots.choose(state, seat, rng)
        state, events = engine.apply_move(state, seat, move)
        turns.append((state.to_dict(), move, events))
    return tuple(turns)


games = st.tuples(st.integers(3, 10), st.sampled_from(sorted(engine.VARIANTS)), st.integers(0, 5))


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(game=games, where=st.floats(0, 1))
def test_every_turn_of_a_real_game_reads_back_exactly_and_its_state_is_packed(game: tuple[int, str, int],
                                                                                  where: float) -> None:
    turns = bot_game(*game)
    state, move, events = turns[min(len(turns) - 1, int(where * len(turns)))]

    stored = encode("state", state)

    assert stored[0] == snapshot_codec.WHOLE_STATE
    assert decode("state", stored) == state
    assert list(decode("state", stored)) == list(state)  # the keys in the engine's order, too
    assert [list(result) for result in decode("state", stored)["results"]] == [list(r) for r in state["results"]]
    earlier = (snapshot_codec.PACKED_STATE_V1, snapshot_codec.PACKED_STATE, *snapshot_codec.WHOLE_STATES[1:])
    for form in earlier:  # what earlier releases wrote still reads
        assert decode("state", bytes((form,)) + snapshot_codec.pack_state(state, form)) == state
    assert encode("events", events)[0] == snapshot_codec.TYPED_JSON
    assert decode("events", encode("events", events)) == events
    for form in snapshot_codec.TYPED_JSONS[1:]:
        assert decode("events", bytes((form,)) + snapshot_codec.pack_value(events, form)) == events
    if move is not None:
        assert decode("move", encode("move", move)) == move


@pytest.mark.parametrize("names", [["Zoë", "李雷", "🎲 Ann"], ["x", "a" * 300, "Ben\u0000"]], ids=["letters", "odd"])
def test_names_of_any_letters_read_back_exactly_in_a_whole_state(names: list[str]) -> None:
    state = engine.new_game(names, seed=2**64 - 1, variant="saboteur2").to_dict()
    state["players"][0] = ""  # not a name a game starts with, still one a state may hold

    stored = encode("state", state)

    assert stored[0] == snapshot_codec.WHOLE_STATE
    assert decode("state", stored) == state


json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-(2**70), 2**70) | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(),
    lambda inner: st.lists(inner, max_size=5) | st.dictionaries(st.text(max_size=8), inner, max_size=5),
    max_leaves=20,
)


@settings(max_examples=200, deadline=None)
@given(value=json_values, kind=st.sampled_from(snapshot_codec.KINDS))
def test_any_json_value_reads_back_exactly_in_any_column(value: Any, kind: str) -> None:
    assert decode(kind, encode(kind, value)) == value


def oddities() -> list[tuple[str, Any]]:
    """Changes that take a state out of the packed format's shape (it must then be kept as JSON)."""
    return [
        ("a card in two places", lambda s: s["discard"].append(s["hands"][0][0])),
        ("an unknown role", lambda s: s["roles"].__setitem__(0, "troll")),
        ("a key the engine may add one day", lambda s: s.__setitem__("weather", "rain")),
        ("a key gone", lambda s: s.pop("stealers")),
        ("a board out of order", lambda s: s["board"].reverse()),
        ("a rotation that is not 0 or 1", lambda s: s["board"][0].__setitem__(3, 2)),
        ("an older schema", lambda s: s.__setitem__("schema", 1)),
        ("a generator in capitals", lambda s: s.__setitem__("rng", s["rng"].upper())),
        ("a negative card", lambda s: s["discard"].append(-1)),
        ("a true that would read back as 1", lambda s: s["gold_pieces"].__setitem__(0, True)),
    ]


@pytest.mark.parametrize(("name", "change"), oddities(), ids=[name for name, _ in oddities()])
def test_a_state_of_another_shape_is_kept_as_json_and_reads_back_exactly(name: str, change: Any) -> None:
    state, _, _ = bot_game(6, "base", 1)[40]
    odd = copy.deepcopy(state)
    change(odd)
    if name == "a board out of order":
        assert len(odd["board"]) > 1

    stored = encode("state", odd)

    assert stored[0] == snapshot_codec.JSON_V1
    assert decode("state", stored) == odd


# Written by the first release of the format (tag 1, dictionary 1): the state after three moves of
# engine.new_game(["Ann", "Ben", "Cat"], seed=5) played by random.Random(1)'s bot, its last move and events.
FIRST_RELEASE = {
    "state": (
        "013443beff280f7c862d88744e2cc135b048425d4d5c48013b05a63a8618e7d6e159ed0fbf7d2e16b6a7139c26a311bd"
        "35083f361600470084d8322f0ee85c3d2e000af2861af23c69a6ee0b865edcbdd5102e3b1958e1a7fe7b8a3380d5c57f"
        "1256074db80c443340a643ec558015c451c8534f73dedb7f32e6bf37db075953117d9e5777699bffecd917ec90ab2bff"
        "d4511c"
    ),
    "move": "02c3250e5aab0a00",
    "events": "02c3e54e5ce536ae70c6557fa1afe331c2718318aef60d2177c0d61999e05af04fd0492626984e829d160a00",
}


def test_a_payload_of_the_first_release_still_reads() -> None:
    state = engine.new_game(["Ann", "Ben", "Cat"], seed=5)
    rng = random.Random(1)
    for _ in range(3):
        seat = engine.to_act(state)
        assert seat is not None
        move = engine.bots.choose(state, seat, rng)
        state, events = engine.apply_move(state, seat, move)

    assert decode("state", bytes.fromhex(FIRST_RELEASE["state"])) == state.to_dict()
    assert decode("move", bytes.fromhex(FIRST_RELEASE["move"])) == move
    assert decode("events", bytes.fromhex(FIRST_RELEASE["events"])) == events


@pytest.mark.parametrize("payload", [b"", b"\x09anything", b"\x01\x05cut", b"\x03\x05cut", b"\x08\xff\xff\xff\xff",
                                     b"\x02not deflate at all"],
                         ids=["empty", "unknown tag", "cut short", "packed cut short", "whole nonsense", "not deflate"])
def test_a_payload_no_format_reads_is_refused(payload: bytes) -> None:
    with pytest.raises(CorruptPayload):
        decode("state", payload)


@settings(max_examples=300, deadline=None)
@given(tag=st.sampled_from([*snapshot_codec.WHOLE_STATES, snapshot_codec.PACKED_STATE, *snapshot_codec.TYPED_JSONS]),
       body=st.binary(max_size=80))
def test_any_bytes_read_as_a_value_or_are_refused_as_corrupt(tag: int, body: bytes) -> None:
    kind = "events" if tag in snapshot_codec.TYPED_JSONS else "state"
    try:
        decode(kind, bytes((tag,)) + body)
    except CorruptPayload:
        pass


def test_a_packed_state_is_refused_in_another_column() -> None:
    state, _, _ = bot_game(3, "base", 0)[0]

    with pytest.raises(CorruptPayload):
        decode("events", encode("state", state))


def late_turns() -> list[dict[str, Any]]:
    """States of the third round of a game of ten, each with the two finished rounds' results."""
    return [state for state, _, _ in bot_game(10, "base", 2) if state["round"] == 3 and len(state["results"]) == 2]


def test_finished_rounds_written_for_one_turn_are_written_alike_for_every_later_turn() -> None:
    first, *later = late_turns()
    assert later

    encode("state", first)
    stored = [encode("state", state) for state in later]

    assert [decode("state", payload) for payload in stored] == later
    assert all(payload[0] == snapshot_codec.WHOLE_STATE for payload in stored)


def test_a_round_result_changed_after_it_was_written_is_written_as_it_is_now() -> None:
    state = copy.deepcopy(late_turns()[0])
    encode("state", state)

    state["results"][0]["gold_cards"][0] += 1
    state["results"][1]["roles"].reverse()
    stored = encode("state", state)

    assert decode("state", stored) == state


class Pay(list[Any]):
    """A list of another type: JSON writes it, the whole format does not (and marshal cannot)."""


@pytest.mark.parametrize(("name", "change"), [
    ("a fraction of a nugget", lambda result: result["saboteur_pay"].append({"seat": 0, "due": 1.5})),
    ("a list of another type", lambda result: result.__setitem__("saboteur_pay", Pay(result["saboteur_pay"]))),
], ids=["fraction", "list type"])
def test_a_round_result_the_whole_format_cannot_hold_keeps_the_state_in_the_packed_format(name: str,
                                                                                          change: Any) -> None:
    state = copy.deepcopy(late_turns()[0])
    change(state["results"][1])

    stored = encode("state", state)

    assert stored[0] == snapshot_codec.PACKED_STATE
    assert decode("state", stored) == state
