"""A whole engine state (tags 8, 6, 5, 3 and 1) as digits, with its names, options and round results."""

from __future__ import annotations

import json
import marshal
from collections.abc import Callable
from functools import lru_cache
from typing import Any

from pbem.snapshot_codec.boards import (
    board,
    board_entries,
    get_cards,
    get_cells,
    get_roles,
    put_cards,
    put_cells,
    put_roles,
    unzigzag,
    zigzag,
)
from pbem.snapshot_codec.dictionaries import compact, deflate, inflate
from pbem.snapshot_codec.digits import (
    Digits,
    Reader,
    get_lengths,
    get_lists,
    get_small,
    ints,
    put_lengths,
    put_lists,
    put_many,
    put_small,
    read_varint,
    varint,
)
from pbem.snapshot_codec.spelling import get_name, get_spelled, get_word, put_name, put_spelled, put_word
from pbem.snapshot_codec.tags import (
    PACKED_STATE,
    PACKED_STATE_V1,
    RESULT_PACKED,
    ROLE_INDEX,
    ROLES,
    STATE_KEYS,
    STATE_SCHEMA,
    VOCABULARIES,
    WHOLE_STATE,
    WHOLE_STATE_V2,
    WHOLE_STATES,
    WIDE,
    CorruptPayload,
    Unfit,
)
from pbem.snapshot_codec.values import get_value, put_value
from pbem.snapshot_codec.vocabulary import MOST_ITEMS, NO_USUAL, NO_WORDS, Vocabulary, fresh, is_usual, vocabulary

KEPT_ROUNDS = 1024  # finished rounds whose digits this process keeps (a late game has two): a few kB each


def _card_lists(state: dict[str, Any], board_cards: list[int]) -> list[list[int]]:
    """Every list of cards of the round in play, in the order they are packed: hands, draw pile, discard pile,
    cards set aside, cards in front of each seat, the board's cards."""
    hands = state["hands"]
    front = state["front"]
    if type(hands) is not list or type(front) is not list:
        raise Unfit("hands and fronts are lists")
    return [*(ints(hand) for hand in hands), ints(state["draw_pile"]), ints(state["discard"]),
            ints(state["removed"]), *(ints(cards) for cards in front), board_cards]


def pack_state(state: Any, form: int = PACKED_STATE) -> bytes:
    """Format `form` (5, 3 or 1) of an engine state (without its tag byte); Unfit when it is of another shape."""
    text, number = state_parts(state, form)
    if form in WHOLE_STATES:
        return number
    packed = deflate(text, "state")
    return varint(len(packed)) + packed + number


def state_parts(state: Any, form: int = PACKED_STATE) -> tuple[bytes, bytes]:
    """A state's JSON part (before deflating; none in format 5) and its integer part, in format `form`."""
    if type(state) is not dict or set(state) != set(STATE_KEYS) or state["schema"] != STATE_SCHEMA:
        raise Unfit("not an engine state of schema 2")
    players = state["players"]
    if type(players) is not list:
        raise Unfit("players are a list")
    seats = len(players)
    if any(type(state[key]) is not list or len(state[key]) != seats for key in ("hands", "front", "gold")):
        raise Unfit("one entry a seat")
    results = state["results"]
    if type(results) is not list or any(type(result) is not dict for result in results):
        raise Unfit("results are a list of objects")
    rng = state["rng"]
    if type(rng) is not str or len(rng) != 16 or rng.strip("0123456789abcdef"):
        raise Unfit("the generator is 16 hex digits")

    cells, board_cards, rotations = board(state["board"])
    lists = _card_lists(state, board_cards)
    finished = [_finished_round(result) for result in results]
    every_card = [card for cards in lists for card in cards]
    universe = max([max(every_card, default=-1) + 1, *(round_.universe for round_ in finished)])
    if universe > WIDE:
        raise Unfit("a card id of WIDE or more")

    tight = form != PACKED_STATE_V1
    whole = form in WHOLE_STATES
    words = vocabulary(VOCABULARIES[form]) if whole else NO_WORDS
    digits = Digits(tight=tight)
    if whole:
        digits.count(seats)
        for name in players:
            if type(name) is not str:
                raise Unfit("a player's name is a string")
            if form == WHOLE_STATE:
                put_name(digits, name)
            elif form == WHOLE_STATE_V2:
                put_spelled(digits, name)
            else:
                put_word(digits, name, words)
    digits.count(universe)
    digits.put(int(rng, 16), 1 << 64)
    if tight:  # hands alike, then the piles one by one, then the fronts alike
        put_lengths(digits, [len(cards) for cards in lists[:seats]])
        for cards in lists[seats:seats + 3]:
            digits.count(len(cards))
        put_lengths(digits, [len(cards) for cards in lists[seats + 3:-1]])
    else:
        put_lengths(digits, [len(cards) for cards in lists[:-1]])
    digits.count(len(board_cards))
    # every card of the round in play once: lengths first, then the cards as ranks
    put_cards(digits, every_card[:sum(len(cards) for cards in lists)], universe)
    put_cells(digits, cells)
    put_many(digits, rotations, 2)
    put_roles(digits, state["roles"])
    put_roles(digits, state["spare_roles"])
    put_roles(digits, state["discarded_roles"])
    put_small(digits, ints(state["gold_pile"]))
    put_lists(digits, [ints(nuggets) for nuggets in state["gold"]])
    for key in ("offer", "gold_pieces", "theft_order", "stealers"):
        put_small(digits, ints(state[key]))
    if whole:
        digits.count(len(results))
    for round_ in finished:
        digits.extend(round_.digits(universe, seats, form))
    if whole:
        _put_fields(digits, state, seats, words)
        return b"", digits.to_bytes()

    skeleton = [state[key] for key in SKELETON_KEYS]
    skeleton.append([{key: (0 if key in RESULT_PACKED else value) for key, value in result.items()}
                     for result in results])
    try:
        text = compact(skeleton)
    except (TypeError, ValueError) as error:
        raise Unfit(str(error)) from error
    if json.loads(text) != skeleton:
        raise Unfit("the rest does not survive JSON")
    return text, digits.to_bytes()


class FinishedRound:
    """A round result with its board, and the digits it is written as. A finished round never changes, so the round
    is kept under its marshalled content (`_kept_round`), and its digits under that, the deck's size, the seats and
    the format (`_kept_digits`)."""

    def __init__(self, result: dict[str, Any], blob: bytes | None) -> None:
        if not set(RESULT_PACKED) <= set(result):
            raise Unfit("a result without roles or board")
        self.result = result
        self.blob = blob
        self.board = board(result["board"])
        self.universe = max(self.board[1], default=-1) + 1

    def digits(self, universe: int, seats: int, form: int) -> tuple[tuple[int, ...], tuple[int, ...]]:
        """The round's digits and their radices; kept when its content could be marshalled."""
        if self.blob is None:
            return _round_digits(self.result, self.board, universe, seats, form)
        return _kept_digits(self.blob, universe, seats, form)


def _finished_round(result: dict[str, Any]) -> FinishedRound:
    try:
        blob: bytes | None = marshal.dumps(result)
    except ValueError:  # a subclass of dict or list, say: written each time
        blob = None
    return _kept_round(blob) if blob is not None else FinishedRound(result, None)


@lru_cache(maxsize=KEPT_ROUNDS)
def _kept_round(blob: bytes) -> FinishedRound:
    return FinishedRound(marshal.loads(blob), blob)


@lru_cache(maxsize=KEPT_ROUNDS)
def _kept_digits(blob: bytes, universe: int, seats: int, form: int) -> tuple[tuple[int, ...], tuple[int, ...]]:
    round_ = _kept_round(blob)
    return _round_digits(round_.result, round_.board, universe, seats, form)


def _round_digits(
    result: dict[str, Any], result_board: tuple[list[tuple[int, int]], list[int], list[int]], universe: int,
    seats: int, form: int,
) -> tuple[tuple[int, ...], tuple[int, ...]]:
    result_cells, result_cards, result_rotations = result_board
    whole = form in WHOLE_STATES
    digits = Digits(tight=form != PACKED_STATE_V1)
    put_roles(digits, result["roles"])
    put_roles(digits, result["spare_roles"])
    digits.count(len(result_cards))
    put_cards(digits, result_cards, universe)
    put_cells(digits, result_cells)
    put_many(digits, result_rotations, 2)
    if whole:
        _put_result(digits, result, seats, vocabulary(VOCABULARIES[form]))
    return tuple(digits.digits), tuple(digits.radices)


SKELETON_KEYS = ("variant", "players", "options", "seed", "round", "phase", "turn", "hidden_goals", "peeks",
                 "last_actor", "last_placed", "inspections", "last_builder")


def unpack_state(data: bytes, form: int = PACKED_STATE) -> dict[str, Any]:
    """The engine state `pack_state` wrote in format `form`."""
    tight = form != PACKED_STATE_V1
    whole = form in WHOLE_STATES
    words = vocabulary(VOCABULARIES[form]) if whole else NO_WORDS
    known: dict[str, Any]
    rest: list[dict[str, Any]]
    if whole:
        reader = Reader(data, tight=True)
        seats = reader.count()
        if seats > WIDE:
            raise CorruptPayload("more seats than WIDE")
        spell = {WHOLE_STATE: get_name, WHOLE_STATE_V2: get_spelled}.get(form, lambda read: get_word(read, words))
        known = {"players": [spell(reader) for _ in range(seats)]}
    else:
        length, start = read_varint(data, 0)
        skeleton = json.loads(inflate(data[start:start + length], "state"))
        rest = skeleton.pop()
        known = dict(zip(SKELETON_KEYS, skeleton, strict=True))
        seats = len(known["players"])
        reader = Reader(data[start + length:], tight=tight)
    universe = reader.count()
    if universe > WIDE:
        raise CorruptPayload("a deck larger than WIDE")
    known["rng"] = format(reader.get(1 << 64), "016x")
    if tight:
        lengths = get_lengths(reader, seats)
        lengths += [reader.count() for _ in range(3)]
        lengths += get_lengths(reader, seats)
    else:
        lengths = get_lengths(reader, 2 * seats + 3)
    lengths.append(reader.count())
    if sum(lengths) > universe:
        raise CorruptPayload("more cards than the deck holds")
    left = list(range(universe))
    lists = [get_cards(reader, count, left) for count in lengths]
    known["hands"] = lists[:seats]
    known["draw_pile"], known["discard"], known["removed"] = lists[seats:seats + 3]
    known["front"] = lists[seats + 3:2 * seats + 3]
    board_cards = lists[-1]
    cells = get_cells(reader, len(board_cards))
    known["board"] = board_entries(cells, board_cards, reader.many(len(board_cards), 2))
    known["roles"] = get_roles(reader)
    known["spare_roles"] = get_roles(reader)
    known["discarded_roles"] = get_roles(reader)
    known["gold_pile"] = get_small(reader)
    known["gold"] = get_lists(reader, get_lengths(reader, seats))
    for key in ("offer", "gold_pieces", "theft_order", "stealers"):
        known[key] = get_small(reader)
    if whole:
        played = reader.count()
        if played > WIDE:
            raise CorruptPayload("more rounds than WIDE")
        rest = [{} for _ in range(played)]
    for result in rest:
        roles = get_roles(reader)
        spare_roles = get_roles(reader)
        count = reader.count()
        if count > universe:
            raise CorruptPayload("more cards than the deck holds")
        cards = get_cards(reader, count, list(range(universe)))
        result_cells = get_cells(reader, count)
        board = board_entries(result_cells, cards, reader.many(count, 2))
        if whole:
            result.update(_get_result(reader, seats, words))
        result.update(roles=roles, spare_roles=spare_roles, board=board)
    known["results"] = rest
    if whole:
        known.update(_get_fields(reader, seats, words))
    known["schema"] = STATE_SCHEMA
    if whole:
        reader.done()
    return {key: known[key] for key in STATE_KEYS}


def _put_fields(digits: Digits, state: dict[str, Any], seats: int, words: Vocabulary) -> None:
    """Format 5: the fields of the JSON part of formats 1 and 3 but the players, each by its own coder."""
    budget = [MOST_ITEMS]
    for key in ("variant", "options", "phase", "round", "turn"):
        put_value(digits, state[key], words, budget, 0)
    digits.put(_below(state["seed"], 1 << 64), 1 << 64)
    goals = state["hidden_goals"]
    if type(goals) is not list or any(type(goal) is not list or len(goal) != 3 for goal in goals):
        raise Unfit("hidden goals are [x, y, card]")
    digits.count(len(goals))
    put_lists(digits, [[zigzag(number) for number in ints(goal)] for goal in goals], counted=False)
    _put_seat_lists(digits, state["peeks"], seats, lambda cell: [zigzag(number) for number in ints(cell)], 2)
    _put_seat_lists(digits, state["inspections"], seats, lambda seen: _inspection(seen, seats), 2)
    for key in ("last_actor", "last_builder"):
        value = state[key]
        digits.put(0 if value is None else _below(value, seats) + 1, seats + 1)
    placed = state["last_placed"]
    digits.put(0 if placed is None else 1, 2)
    if placed is not None:
        if len(ints(placed)) != 2:
            raise Unfit("the last cell placed is [x, y]")
        digits.count(zigzag(placed[0]))
        digits.count(zigzag(placed[1]))


def _get_fields(reader: Reader, seats: int, words: Vocabulary) -> dict[str, Any]:
    budget = [MOST_ITEMS]
    known = {key: get_value(reader, words, budget, 0) for key in ("variant", "options", "phase", "round", "turn")}
    known["seed"] = reader.get(1 << 64)
    goals = reader.count()
    if goals > WIDE:
        raise CorruptPayload("more goals than WIDE")
    known["hidden_goals"] = [[unzigzag(number) for number in goal] for goal in get_lists(reader, [3] * goals)]
    known["peeks"] = _get_seat_lists(reader, seats, lambda cell: [unzigzag(number) for number in cell], 2)
    known["inspections"] = _get_seat_lists(reader, seats, lambda seen: [seen[0], ROLES[seen[1]]], 2)
    for key in ("last_actor", "last_builder"):
        value = reader.get(seats + 1)
        known[key] = None if value == 0 else value - 1
    known["last_placed"] = [unzigzag(reader.count()), unzigzag(reader.count())] if reader.get(2) else None
    return known


def _inspection(seen: Any, seats: int) -> list[int]:
    if type(seen) is not list or len(seen) != 2 or type(seen[1]) is not str or seen[1] not in ROLE_INDEX:
        raise Unfit("an inspection is [seat, role]")
    return [_below(seen[0], seats), ROLE_INDEX[seen[1]]]


def _put_seat_lists(digits: Digits, value: Any, seats: int, numbers: Callable[[Any], list[int]], width: int
                    ) -> None:
    """One list a seat of entries that are `width` small numbers each (`numbers` of an entry)."""
    if type(value) is not list or len(value) != seats or any(type(entries) is not list for entries in value):
        raise Unfit("one list a seat")
    put_lengths(digits, [len(entries) for entries in value])
    flat = []
    for entries in value:
        for entry in entries:
            entry_numbers = numbers(entry)
            if len(entry_numbers) != width:
                raise Unfit(f"an entry of other than {width} numbers")
            flat.extend(entry_numbers)
    put_lists(digits, [flat], counted=False)


def _get_seat_lists(reader: Reader, seats: int, entry: Callable[[list[int]], list[Any]], width: int
                    ) -> list[list[Any]]:
    lengths = get_lengths(reader, seats)
    if sum(lengths) > WIDE:
        raise CorruptPayload("more entries than WIDE")
    flat = get_lists(reader, [width * sum(lengths)])[0]
    out, start = [], 0
    for length in lengths:
        out.append([entry(flat[at:at + width]) for at in range(start, start + width * length, width)])
        start += width * length
    return out


PAYOUT_KEYS = ("seat", "amount", "base", "reason")


def _put_result(digits: Digits, result: dict[str, Any], seats: int, words: Vocabulary) -> None:
    """A round result's keys (a template of the vocabulary) and its values but the packed ones; its payouts, the
    list of {seat, amount, base, reason}, one number each."""
    keys = tuple(result)
    place = words.template_places.get(keys)
    if place is None:
        raise Unfit("a round result of keys the vocabulary does not know")
    digits.put(place, len(words.templates))
    budget = [MOST_ITEMS]
    usual = words.usual[place] if words.usual else (NO_USUAL,) * len(keys)
    for (key, value), usual_value in zip(result.items(), usual, strict=True):
        if key in RESULT_PACKED:
            continue
        if usual_value is not NO_USUAL:
            digits.put(1 if is_usual(value, usual_value) else 0, 2)
            if is_usual(value, usual_value):
                continue
        if key == "payouts" and type(value) is list:
            digits.put(1, 2)
            digits.count(len(value))
            for payout in value:
                if type(payout) is not dict or tuple(payout) != PAYOUT_KEYS:
                    raise Unfit("a payout of other keys")
                digits.put(_below(payout["seat"], seats), seats)
                if words.usual:  # vocabulary 4: the base, then whether the amount is the base
                    digits.count(_natural(payout["base"]))
                    digits.put(1 if _natural(payout["amount"]) == payout["base"] else 0, 2)
                    if payout["amount"] != payout["base"]:
                        digits.count(payout["amount"])
                else:
                    digits.count(_natural(payout["amount"]))
                    digits.count(_natural(payout["base"]))
                if type(payout["reason"]) is not str:
                    raise Unfit("a payout's reason is a string")
                put_word(digits, payout["reason"], words)
            continue
        if key == "payouts":
            digits.put(0, 2)
        put_value(digits, value, words, budget, 0)


def _get_result(reader: Reader, seats: int, words: Vocabulary) -> dict[str, Any]:
    """A result `_put_result` wrote, its packed keys holding 0 for now."""
    place = reader.get(len(words.templates))
    keys = words.templates[place]
    budget = [MOST_ITEMS]
    usual = words.usual[place] if words.usual else (NO_USUAL,) * len(keys)
    result: dict[str, Any] = {}
    for key, usual_value in zip(keys, usual, strict=True):
        if key in RESULT_PACKED:
            result[key] = 0
        elif usual_value is not NO_USUAL and reader.get(2):
            result[key] = fresh(usual_value)
        elif key == "payouts" and reader.get(2):
            count = reader.count()
            if count > seats * 4:
                raise CorruptPayload("more payouts than a round holds")
            result[key] = [_get_payout(reader, seats, words) for _ in range(count)]
        else:
            result[key] = get_value(reader, words, budget, 0)
    return result


def _get_payout(reader: Reader, seats: int, words: Vocabulary) -> dict[str, Any]:
    seat = reader.get(seats)
    if words.usual:
        base = reader.count()
        amount = base if reader.get(2) else reader.count()
    else:
        amount = reader.count()
        base = reader.count()
    return {"seat": seat, "amount": amount, "base": base, "reason": get_word(reader, words)}


def _below(value: Any, bound: int) -> int:
    if type(value) is not int or not 0 <= value < bound:
        raise Unfit(f"{value!r} is not below {bound}")
    return value


def _natural(value: Any) -> int:
    if type(value) is not int or value < 0:
        raise Unfit(f"{value!r} is not a natural number")
    return value
